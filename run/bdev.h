/* bdev.h: the block-device safety checks of sb_files_plan (run/files.h).
 * Writes to a block device that is mounted (through any node: decided by
 * major:minor), swap, partitioned, held by a stacked device or by anyone
 * (O_EXCL), or that holds a file-system, swap or partition-table signature
 * destroy data: they are refused unless allow_mounted_write=1. */
#ifndef SB_BDEV_H
#define SB_BDEV_H
#include <stddef.h>

#include "run/files.h"

/* lay->files[i], a block device: its region fits and, when written, it is
 * safe to write (lookups under lay->sysroot).  On success a written device
 * is claimed O_EXCL (lay->files[i].claim_fd) until sb_bdev_unclaim.  Refusals
 * are reported with sb_err (the job's file:line, the device, why, the fix);
 * -EINVAL or -EBUSY. */
int sb_bdev_check(struct sb_layout *lay, size_t i);
/* Drop a claim sb_bdev_check took (the descriptor is closed with its last
 * holder). */
void sb_bdev_unclaim(int fd);
#endif
