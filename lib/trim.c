/* trim.c: see trim.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "lib/trim.h"

int64_t sb_sync_range(int fd, uint64_t off, uint64_t len, unsigned flags)
{
	return sync_file_range(fd, (off_t)off, (off_t)len, flags) ? -errno : (int64_t)len;
}

int64_t sb_trim(int fd, bool bdev, uint64_t off, uint64_t len)
{
	int r;
	if (bdev) {
		uint64_t range[2] = { off, len };
		r = ioctl(fd, BLKDISCARD, range);
	} else {
		r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
	}
	return r ? -errno : (int64_t)len;
}
