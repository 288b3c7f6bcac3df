/* dio.c: the direct-I/O alignment check engines run at open_file.  The kernel
 * states a file's O_DIRECT alignment through statx(STATX_DIOALIGN) (Linux 6.1+;
 * BLKSSZGET for older block devices).  A misaligned request does not always
 * fail: ext4 on Linux 6.x quietly serves it from the page cache, so a
 * direct=1 benchmark would measure memory.  Checking the job's block sizes,
 * offsets and buffers up front turns that into a clear error before the run. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "engines/engine.h"

static const char *const ddir_name[SB_DDIR_N] = { "read", "write", "trim" };

/* The file offset and memory alignment O_DIRECT needs on fd; 0 when unknown. */
static void dio_align(const struct sb_file *f, unsigned *off_align, unsigned *mem_align)
{
	*off_align = *mem_align = 0;
#ifdef STATX_DIOALIGN
	struct statx stx;
	if (statx(f->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		*off_align = stx.stx_dio_offset_align;
		*mem_align = stx.stx_dio_mem_align;
		return;
	}
#endif
	int ss = 0;
	if (f->is_bdev && ioctl(f->fd, BLKSSZGET, &ss) == 0 && ss > 0)
		*off_align = *mem_align = (unsigned)ss;
}

/* The first block size of direction d that is not a multiple of a, or 0. */
static uint64_t dio_bad_bs(const struct sb_engine_job *j, int d, unsigned a)
{
	for (unsigned i = 0; i < j->nbs[d]; i++)
		if (j->bs[d][i] % a)
			return j->bs[d][i];
	return 0;
}

int sb_engine_check_direct(struct sb_engine_td *td, const struct sb_file *f)
{
	const struct sb_engine_job *j = td->job;
	unsigned a, ma;
	if (!j || !j->direct || f->fd < 0)
		return 0;
	dio_align(f, &a, &ma);
	if (!a)
		return 0;  /* not stated: the kernel will say at the first I/O */
	for (int d = 0; d < SB_DDIR_N; d++) {
		uint64_t bad;
		if (!(bad = dio_bad_bs(j, d, a)))
			continue;
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "direct=1: %s block size %llu is not a multiple of %u, the direct-I/O alignment of %s "
			 "(the kernel would refuse it or quietly use the page cache): use a multiple of %u",
			 ddir_name[d], (unsigned long long)bad, a, f->path, a);
		return -EINVAL;
	}
	if (f->region_start % a) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "direct=1: offset=%llu is not a multiple of %u, the direct-I/O alignment of %s",
			 (unsigned long long)f->region_start, a, f->path);
		return -EINVAL;
	}
	if (ma && ((uintptr_t)td->buf_base % ma || td->buf_per_io % ma)) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "direct=1: I/O buffers are not aligned to %u bytes as %s requires", ma, f->path);
		return -EINVAL;
	}
	return 0;
}
