/* mmap.c: the memory-mapped engine.  open_file maps the file's I/O region
 * (MAP_SHARED, writable when the file was opened read-write); queue() copies
 * between the mapping and the io buffer and completes at once; fsync and
 * fdatasync units msync(MS_SYNC) the region.  Reads stop at end of file (a
 * short read, never SIGBUS); a write-mapped file shorter than its region is
 * first extended to the region's end, as writes through pwrite would.
 *
 * A file truncated (or a device gone) under the mapping makes the copy
 * fault with SIGBUS.  A process-wide handler, installed once, turns a fault
 * inside the range the faulting thread is copying into a siglongjmp back to
 * that copy, which then completes the unit with -EIO (like a read or write
 * of vanished blocks through the other engines); any other SIGBUS gets the
 * action that was there before (default: terminate).  Per I/O this costs a
 * sigsetjmp without the signal mask (no syscall) and two thread-local
 * stores. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"

struct mmap_file {
	char *base;          /* mapping of [map_off, map_off + map_len) */
	uint64_t map_off;    /* page-aligned file offset of base */
	uint64_t map_len;
	uint64_t fsize;      /* file size at open (reads stop there) */
	bool writable;
};

/* The copy this thread is doing: [lo, hi) of a mapping, armed while the
 * memcpy runs.  Only this thread and its own SIGBUS handler touch it. */
struct mm_guard {
	sigjmp_buf jb;
	const char *volatile lo;
	const char *volatile hi;
	volatile sig_atomic_t armed;
};
static __thread struct mm_guard mm_guard;
static struct sigaction mm_prev_bus;
static pthread_once_t mm_bus_once = PTHREAD_ONCE_INIT;
static int mm_bus_err;

static void mm_on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct mm_guard *g = &mm_guard;
	const char *a = si ? (const char *)si->si_addr : NULL;
	if (g->armed && si && si->si_code > 0 && a >= g->lo && a < g->hi) {
		g->armed = 0;
		siglongjmp(g->jb, 1);
	}
	/* not ours: whatever was there before.  A fault returns and faults again
	 * under it; a SIGBUS sent by someone is raised again. */
	if ((mm_prev_bus.sa_flags & SA_SIGINFO) && mm_prev_bus.sa_sigaction) {
		mm_prev_bus.sa_sigaction(sig, si, uc);
		return;
	}
	if (mm_prev_bus.sa_handler != SIG_DFL && mm_prev_bus.sa_handler != SIG_IGN &&
	    mm_prev_bus.sa_handler) {
		mm_prev_bus.sa_handler(sig);
		return;
	}
	signal(SIGBUS, SIG_DFL);
	if (!si || si->si_code <= 0)
		raise(SIGBUS);
}

static void mm_install_bus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = mm_on_sigbus;
	/* NODEFER: siglongjmp leaves the handler without restoring the mask, and
	 * a later fault with SIGBUS blocked would kill the process */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &mm_prev_bus))
		mm_bus_err = -errno;
}

static int mm_init(struct sb_engine_td *td)
{
	pthread_once(&mm_bus_once, mm_install_bus);
	if (mm_bus_err)
		snprintf(td->errmsg, sizeof(td->errmsg), "cannot install the SIGBUS handler: %s",
			 strerror(-mm_bus_err));
	return mm_bus_err;
}

static void mm_cleanup(struct sb_engine_td *td)
{
	(void)td;
}

static int mm_file_size(struct sb_file *f, uint64_t *size)
{
	struct stat st;
	if (fstat(f->fd, &st))
		return -errno;
	*size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : f->size;
	return 0;
}

static int mm_open_file(struct sb_engine_td *td, struct sb_file *f)
{
	int fl = fcntl(f->fd, F_GETFL);
	if (fl < 0)
		return -errno;
	if ((fl & O_ACCMODE) == O_WRONLY) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "ioengine=mmap cannot map %s: it is opened write-only", f->path);
		return -EACCES;
	}
	struct mmap_file *mf = calloc(1, sizeof(*mf));
	if (!mf)
		return -ENOMEM;
	mf->writable = (fl & O_ACCMODE) == O_RDWR;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t end = f->region_start + f->region_len;
	int r = mm_file_size(f, &mf->fsize);
	if (!r && mf->writable && !f->is_bdev && mf->fsize < end) {
		/* the runner normally lays the file out first; extend if it did not */
		if (ftruncate(f->fd, (off_t)end))
			r = -errno;
		else
			mf->fsize = end;
	}
	mf->map_off = f->region_start & ~((uint64_t)pg - 1);
	mf->map_len = end - mf->map_off;
	if (!r && mf->map_len) {
		int prot = PROT_READ | (mf->writable ? PROT_WRITE : 0);
		void *p = mmap(NULL, mf->map_len, prot, MAP_SHARED, f->fd, (off_t)mf->map_off);
		if (p == MAP_FAILED) {
			r = -errno;
			snprintf(td->errmsg, sizeof(td->errmsg), "mmap of %s (%llu bytes) failed: %s",
				 f->path, (unsigned long long)mf->map_len, strerror(-r));
		} else {
			mf->base = p;
			madvise(p, mf->map_len,
				td->job && td->job->random ? MADV_RANDOM : MADV_SEQUENTIAL);
		}
	}
	if (r) {
		free(mf);
		return r;
	}
	f->engine_data = mf;
	return 0;
}

static int mm_close_file(struct sb_engine_td *td, struct sb_file *f)
{
	struct mmap_file *mf = f->engine_data;
	int r = 0;
	(void)td;
	if (!mf)
		return 0;
	if (mf->base && munmap(mf->base, mf->map_len))
		r = -errno;
	free(mf);
	f->engine_data = NULL;
	return r;
}

/* memcpy n bytes, the mapped side starting at map; n, or -EIO when the
 * mapping faulted (SIGBUS: the file lost those pages, truncated under us) */
static int64_t mm_guarded_copy(void *dst, const void *src, uint64_t n, const char *map)
{
	struct mm_guard *g = &mm_guard;
	g->lo = map;
	g->hi = map + n;
	if (sigsetjmp(g->jb, 0))
		return -EIO;
	g->armed = 1;
	memcpy(dst, src, n);
	g->armed = 0;
	return (int64_t)n;
}

static int64_t mm_copy(struct mmap_file *mf, struct sb_io_u *io)
{
	if (!mf->base || io->offset < mf->map_off || io->len > mf->map_len ||
	    io->offset - mf->map_off > mf->map_len - io->len)
		return -EINVAL;  /* outside the mapped region */
	char *p = mf->base + (io->offset - mf->map_off);
	uint64_t n = io->len;
	bool wr = io->ddir == SB_DDIR_WRITE;
	if (wr && !mf->writable)
		return -EBADF;
	if (!wr) {
		if (io->offset >= mf->fsize)
			return 0;
		n = mf->fsize - io->offset < io->len ? mf->fsize - io->offset : io->len;
	}
	return wr ? mm_guarded_copy(p, io->buf, n, p) : mm_guarded_copy(io->buf, p, n, p);
}

static enum sb_q_status mm_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct mmap_file *mf = io->file->engine_data;
	(void)td;
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE:
		io->result = mf ? mm_copy(mf, io) : -EBADF;
		break;
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		if (!mf)
			io->result = -EBADF;
		else if (mf->base && msync(mf->base, mf->map_len, MS_SYNC))
			io->result = -errno;
		else
			io->result = 0;
		break;
	default:
		io->result = -EOPNOTSUPP;  /* trim */
		break;
	}
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_mmap = {
	.name = "mmap",
	.description = "memory-mapped file I/O: memcpy to/from a MAP_SHARED mapping, msync for fsync",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_PAGECACHE,
	.init = mm_init,
	.cleanup = mm_cleanup,
	.open_file = mm_open_file,
	.close_file = mm_close_file,
	.queue = mm_queue,
};
