/* mounts.h: is a block device in use by something that writing to it would
 * destroy?  Decided by the device itself (major:minor), never by the name a
 * mount used: reads <root>/proc/self/mountinfo, <root>/proc/swaps and
 * <root>/sys/class/block/<dev>/ so tests can point root at a fixture tree;
 * sb_os_bdev_claim asks the kernel (an O_EXCL open) and sb_os_signature
 * looks for file-system, swap, RAID, LUKS and partition-table signatures
 * (libblkid). */
#ifndef SB_OS_MOUNTS_H
#define SB_OS_MOUNTS_H
#include <stddef.h>
#include <sys/types.h>

/* name is the kernel name ("sda", "nvme0n1p1").  Returns 1 when the device
 * (or one of its partitions) is mounted (by major:minor in mountinfo, through
 * whatever node or name), used as swap, has partitions or has holders
 * (device mapper, md), with the reason in why; 0 when it is free; -errno
 * when sysfs cannot tell (then treat it as in use).  root: "" for the
 * running system. */
int sb_os_bdev_in_use(const char *root, const char *name, char *why, size_t len);
/* Open the block device at path with O_EXCL: the kernel refuses (EBUSY)
 * while it is mounted in any mount namespace, used as swap, held by device
 * mapper or md, or opened O_EXCL by another program.  Returns the
 * descriptor (read-only; keep it open to stop anyone from mounting the
 * device meanwhile) or -errno with the reason in why. */
int sb_os_bdev_claim(const char *path, char *why, size_t len);
/* Look for a signature (file system, swap, LVM, LUKS, RAID member,
 * partition table) in what fd reads (a block device or a regular file).
 * Returns 1 with a description in what ("an ext4 file system (UUID ...)",
 * "a GPT partition table"), 0 when there is none, -errno when it cannot
 * be read. */
int sb_os_signature(int fd, char *what, size_t len);
#endif
