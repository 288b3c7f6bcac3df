/* dio.c: the direct-I/O alignment of a path (see dio.h).  Nothing here
 * opens a file for I/O: statx reads metadata, and BLKSSZGET (inside
 * sb_os_logical_block_size) opens a block device read-only without reading. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "os/blkdev.h"
#include "os/dio.h"

void sb_os_dio_align(const char *path, struct sb_dio_align *a)
{
	memset(a, 0, sizeof(*a));
#ifdef STATX_DIOALIGN
	struct statx stx;
	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN) &&
	    (S_ISREG(stx.stx_mode) || S_ISBLK(stx.stx_mode))) {
		a->source = "statx";
		if (!stx.stx_dio_offset_align) {
			a->unsupported = true; /* e.g. ext4 with data=journal: buffered in disguise */
			a->offset = SB_DIO_ALIGN_MIN;
			return;
		}
		a->offset = stx.stx_dio_offset_align;
		a->mem = stx.stx_dio_mem_align;
		return;
	}
#endif
	unsigned lbs = sb_os_logical_block_size(path); /* 0: no disk under it */
	a->offset = a->mem = lbs > SB_DIO_ALIGN_MIN ? lbs : SB_DIO_ALIGN_MIN;
	a->source = lbs ? "logical block size" : "smallest any device has";
}
