/* trim.h: discard a byte range of an open file or block device: what
 * rw=trim/randtrim do (BLKDISCARD on a block device, fallocate(PUNCH_HOLE |
 * KEEP_SIZE) on a file: the range reads back as zeroes and its blocks are
 * freed).  Shared by the engines that trim synchronously. */
#ifndef SB_LIB_TRIM_H
#define SB_LIB_TRIM_H
#include <stdbool.h>
#include <stdint.h>

/* len bytes at off; returns len, or -errno */
int64_t sb_trim(int fd, bool bdev, uint64_t off, uint64_t len);
#endif
