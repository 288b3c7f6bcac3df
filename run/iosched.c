/* iosched.c: see iosched.h. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "os/outfile.h"
#include "lib/log.h"
#include "os/blkdev.h"
#include "parse/options.h"
#include "run/iosched.h"

#define MAX_CHANGED 16
static struct {
	char disk[64];
	char old[32];
} changed[MAX_CHANGED];
static unsigned nchanged;

/* the whole disk under path (a block device, a file, or a file's directory) */
static int disk_of(const char *path, char *disk, size_t len)
{
	struct stat st;
	char dir[PATH_MAX];
	if (stat(path, &st)) {
		snprintf(dir, sizeof(dir), "%s", path);
		if (stat(dirname(dir), &st))
			return -errno;
	}
	return sb_os_dev_name("", S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, true, disk, len);
}

/* "none [mq-deadline] kyber" -> avail (as is) and the current one */
static int read_sched(const char *disk, char *avail, size_t alen, char *cur, size_t clen)
{
	char p[128];
	snprintf(p, sizeof(p), "/sys/block/%s/queue/scheduler", disk);
	FILE *f = fopen(p, "r");
	if (!f)
		return -errno;
	char *ok = fgets(avail, (int)alen, f);
	fclose(f);
	if (!ok)
		return -EIO;
	avail[strcspn(avail, "\n")] = 0;
	const char *b = strchr(avail, '['), *e = b ? strchr(b, ']') : NULL;
	snprintf(cur, clen, "%.*s", b && e ? (int)(e - b - 1) : 0, b ? b + 1 : "");
	return 0;
}

static bool listed(const char *avail, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = avail; (p = strstr(p, name)); p += n) {
		bool start = p == avail || p[-1] == ' ' || p[-1] == '[';
		bool end = !p[n] || p[n] == ' ' || p[n] == ']';
		if (start && end)
			return true;
	}
	return false;
}

int sb_iosched_check(const struct sb_jobspec *s, const struct sb_jobfiles *jf)
{
	const struct sb_option *o = SB_OPT(ioscheduler);
	char where[SB_WHERE_MAX], disk[64], avail[256], cur[32];
	if (!s->ioscheduler || !jf || !jf->tmpl)
		return 0;
	for (unsigned k = 0; k < jf->nfiles; k++) {
		const char *path = jf->tmpl[k].path;
		int r = disk_of(path, disk, sizeof(disk));
		if (!r)
			r = read_sched(disk, avail, sizeof(avail), cur, sizeof(cur));
		if (r) {
			sb_err(sb_spec_where(s, o, where, sizeof(where)),
			       "%s=%s: %s is on no block device with an I/O scheduler (%s): drop %s",
			       o->name, s->ioscheduler, path, strerror(-r), o->name);
			return -EINVAL;
		}
		if (!listed(avail, s->ioscheduler)) {
			sb_err(sb_spec_where(s, o, where, sizeof(where)),
			       "%s=%s: %s (under %s) has no such scheduler: expected one of %s",
			       o->name, s->ioscheduler, disk, path, avail);
			return -EINVAL;
		}
	}
	return 0;
}

static int set_sched(const char *disk, const char *name)
{
	char p[128];
	snprintf(p, sizeof(p), "/sys/block/%s/queue/scheduler", disk);
	int fd = sb_outfile_kernel(p); /* only a sysfs file */
	if (fd < 0)
		return fd;
	size_t n = strlen(name);
	int r = write(fd, name, n) == (ssize_t)n ? 0 : -errno;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

int sb_iosched_apply(const struct sb_joblist *jl, const struct sb_layout *lay)
{
	for (size_t j = 0; j < jl->njobs && j < lay->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		const struct sb_jobfiles *jf = &lay->jobs[j];
		char disk[64], avail[256], cur[32], where[512];
		for (unsigned k = 0; s->ioscheduler && jf->tmpl && k < jf->nfiles; k++) {
			if (disk_of(jf->tmpl[k].path, disk, sizeof(disk)) ||
			    read_sched(disk, avail, sizeof(avail), cur, sizeof(cur)))
				continue; /* checked before the layout */
			if (!strcmp(cur, s->ioscheduler))
				continue;
			int r = set_sched(disk, s->ioscheduler);
			if (r) {
				sb_err(sb_spec_where(s, SB_OPT(ioscheduler), where, sizeof(where)),
				       "%s=%s: cannot switch %s's scheduler: %s%s",
				       SB_OPT(ioscheduler)->name, s->ioscheduler, disk, strerror(-r),
				       r == -EACCES || r == -EPERM ? " (it needs root)" : "");
				return r;
			}
			if (nchanged < MAX_CHANGED) {
				snprintf(changed[nchanged].disk, sizeof(changed[0].disk), "%s", disk);
				snprintf(changed[nchanged].old, sizeof(changed[0].old), "%s", cur);
				nchanged++;
			}
		}
	}
	return 0;
}

void sb_iosched_restore(void)
{
	while (nchanged) {
		nchanged--;
		(void)set_sched(changed[nchanged].disk, changed[nchanged].old);
	}
}
