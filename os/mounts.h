/* mounts.h: is a block device in use by something that writing to it would
 * destroy?  Reads <root>/proc/self/mounts, <root>/proc/swaps and
 * <root>/sys/class/block/<dev>/ so tests can point root at a fixture tree. */
#ifndef SB_OS_MOUNTS_H
#define SB_OS_MOUNTS_H
#include <stddef.h>

/* name is the kernel name ("sda", "nvme0n1p1").  Returns 1 when the device is
 * mounted, used as swap, has partitions, has a mounted partition or has
 * holders (device mapper, md), with the reason in why; 0 when it is free;
 * -errno when sysfs cannot tell (then treat it as in use).  root: "" for the
 * running system. */
int sb_os_bdev_in_use(const char *root, const char *name, char *why, size_t len);
#endif
