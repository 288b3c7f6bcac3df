/* dio.h: the direct-I/O alignment of a file or block device, asked of the
 * kernel without any I/O (see lib/dio.h for what the value means). */
#ifndef SB_OS_DIO_H
#define SB_OS_DIO_H
#include "lib/dio.h"

/* The alignment O_DIRECT needs on path, first found of:
 *   statx(STATX_DIOALIGN) of path (Linux 6.1+ for files on ext4, xfs, f2fs,
 *     6.11+ for block devices); a file the kernel says cannot do direct I/O
 *     gets unsupported = true;
 *   a block device's logical block size (BLKSSZGET);
 *   for a file, the logical block size of the disk it is on, or of the disk
 *     of its directory when it does not exist yet (nothing is created);
 *   SB_DIO_ALIGN_MIN.
 * a->source says which ("statx", "logical block size", "smallest any device
 * has"). */
void sb_os_dio_align(const char *path, struct sb_dio_align *a);
#endif
