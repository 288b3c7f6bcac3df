/* blkdev.h: what run/ needs to know about block devices on Linux: the disk
 * under a file, logical block size, device size.  Paths under /sys are taken
 * relative to a root directory ("" = the real system) so tests can use a
 * fixture tree. */
#ifndef SB_OS_BLKDEV_H
#define SB_OS_BLKDEV_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Kernel name ("vda", "nvme0n1p2") of block device dev, from
 * <root>/sys/dev/block/MAJ:MIN.  With whole_disk, a partition is mapped to
 * its disk ("vda1" -> "vda").  -ENOENT when dev is not a block device (tmpfs,
 * overlay, ...). */
int sb_os_dev_name(const char *root, dev_t dev, bool whole_disk, char *name, size_t len);
/* Logical block size of the storage under path: BLKSSZGET for a block
 * device, the queue/logical_block_size of the device holding a file (or of
 * its directory when the file does not exist yet), 0 when unknown (tmpfs,
 * overlay: no disk).  The direct-I/O alignment is os/dio.h's. */
unsigned sb_os_logical_block_size(const char *path);
/* Size in bytes of the block device open on fd (BLKGETSIZE64). */
int sb_os_bdev_size(int fd, uint64_t *bytes);
#endif
