/* jobenv.c: a job thread's credentials (uid=, gid=) and its locked memory
 * (lockmem=); see jobenv.h.  Runs once per thread, before the I/O loop. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "run/jobenv.h"
#include "run/thread.h"
#include "parse/options.h"

static int lock_mem(const struct sb_jobspec *s, void **mem, size_t *len)
{
	void *p = mmap(NULL, (size_t)s->lockmem, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (mlock(p, (size_t)s->lockmem) != 0) {
		int e = errno;
		munmap(p, (size_t)s->lockmem);
		return -e;
	}
	*mem = p;
	*len = (size_t)s->lockmem;
	return 0;
}

/* Linux credentials are per thread in the kernel: the raw calls change only
 * this one */
static int become(const struct sb_jobspec *s, const char **what)
{
	if (s->gid_on && syscall(SYS_setresgid, s->gid, s->gid, s->gid) != 0) {
		*what = SB_OPT(gid)->name;
		return -errno;
	}
	if (s->uid_on && syscall(SYS_setresuid, s->uid, s->uid, s->uid) != 0) {
		*what = SB_OPT(uid)->name;
		return -errno;
	}
	return 0;
}

/* the files were opened before the thread started: the job's ids must be
 * allowed to open them as the job uses them */
static int check_files(struct sb_thread *t, const char **what)
{
	const struct sb_jobspec *s = t->spec;
	int mode = R_OK | ((s->rw & (SB_RW_WRITE | SB_RW_TRIM)) ? W_OK : 0);
	for (unsigned i = 0; t->files && i < t->etd.nfiles; i++) {
		if (faccessat(AT_FDCWD, t->files[i].path, mode, AT_EACCESS) != 0) {
			int e = errno;
			*what = s->uid_on ? SB_OPT(uid)->name : SB_OPT(gid)->name;
			sb_tstats_set_error(t->st, e, *what, t->files[i].path); /* names the file */
			return -e;
		}
	}
	return 0;
}

int sb_jobenv_enter(struct sb_thread *t, void **mem, size_t *len, const char **what)
{
	const struct sb_jobspec *s = t->spec;
	int r = 0;
	*mem = NULL;
	*len = 0;
	if (s->lockmem && (r = lock_mem(s, mem, len)) != 0) {
		*what = SB_OPT(lockmem)->name;
		return r;
	}
	if ((r = sb_cgroup_join(t->job)) != 0) { /* before uid= drops the right to */
		*what = SB_OPT(cgroup)->name;
		return r;
	}
	if (!s->uid_on && !s->gid_on)
		return 0;
	r = become(s, what);
	return r ? r : check_files(t, what);
}

void sb_jobenv_release(void *mem, size_t len)
{
	if (mem)
		munmap(mem, len); /* munlocks it too */
}
