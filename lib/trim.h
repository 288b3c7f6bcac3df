/* trim.h: sync_file_range and discard of a byte range of an open file or block device: what
 * rw=trim/randtrim do (BLKDISCARD on a block device, fallocate(PUNCH_HOLE |
 * KEEP_SIZE) on a file: the range reads back as zeroes and its blocks are
 * freed).  Shared by the engines that trim synchronously. */
#ifndef SB_LIB_TRIM_H
#define SB_LIB_TRIM_H
#include <stdbool.h>
#include <stdint.h>

/* len bytes at off; returns len, or -errno */
int64_t sb_trim(int fd, bool bdev, uint64_t off, uint64_t len);
/* sync_file_range(fd, off, len, flags) (flags: SYNC_FILE_RANGE_*); returns
 * len, or -errno */
int64_t sb_sync_range(int fd, uint64_t off, uint64_t len, unsigned flags);
#endif
