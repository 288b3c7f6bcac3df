/* bdev.c: the block-device safety checks of a run's file plan (see
 * bdev.h): a device written must not be mounted, swap, partitioned, held or
 * carry a signature, unless allow_mounted_write=1; the O_EXCL claim held
 * while the run writes it. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/bdev.h"
#include "lib/log.h"
#include "os/blkdev.h"
#include "os/mounts.h"

static void refuse_bdev(const struct sb_layout_file *lf, const char *why)
{
	const struct sb_jobspec *s = lf->writer ? lf->writer : lf->spec;
	char where[SB_WHERE_MAX];
	if (s && s->file && s->line)
		snprintf(where, sizeof(where), "%s:%u", s->file, s->line);
	else
		snprintf(where, sizeof(where), "%s", s && s->file ? s->file : lf->path);
	sb_err(where, "job %s: refusing to write to %s: %s; writing would destroy its data "
	       "(set allow_mounted_write=1 to write anyway)", s ? s->name : "?", lf->path, why);
}

/* Writes to a block device that is mounted (through any node: decided by
 * major:minor), swap, partitioned, held by a stacked device or by anyone
 * (O_EXCL), or that holds a file-system, swap or partition-table
 * signature destroy data: refuse unless allow_mounted_write=1.  The O_EXCL
 * descriptor stays open until sb_files_cleanup, so nothing can mount the
 * device while the run writes it (the I/O threads open it without
 * O_EXCL, which an exclusive holder allows). */
/* The O_EXCL claims this process holds, shared by every layout that writes
 * the same device (a sweep or a check may plan while another layout is
 * alive: a second O_EXCL open, even our own, would get EBUSY). */
static struct claim {
	dev_t rdev;
	int fd;
	unsigned refs;
} claims[64];

static int claim(const struct sb_layout_file *lf, char *why, size_t len)
{
	struct claim *freec = NULL;
	for (size_t k = 0; k < sizeof(claims) / sizeof(claims[0]); k++) {
		if (claims[k].refs && claims[k].rdev == lf->rdev) {
			claims[k].refs++;
			return claims[k].fd;
		}
		if (!claims[k].refs && !freec)
			freec = &claims[k];
	}
	if (!freec) {
		snprintf(why, len, "too many block devices written at once (at most 64)");
		return -EMFILE;
	}
	int fd = sb_os_bdev_claim(lf->path, why, len);
	if (fd >= 0)
		*freec = (struct claim){ .rdev = lf->rdev, .fd = fd, .refs = 1 };
	return fd;
}

void sb_bdev_unclaim(int fd)
{
	for (size_t k = 0; k < sizeof(claims) / sizeof(claims[0]); k++) {
		if (claims[k].refs && claims[k].fd == fd) {
			if (--claims[k].refs == 0)
				close(fd);
			return;
		}
	}
}

int sb_bdev_check(struct sb_layout *lay, size_t i)
{
	struct sb_layout_file *lf = &lay->files[i];
	char name[64], why[512], what[400];
	if (lf->need > lf->have && lf->have) {
		sb_err(lf->path, "the I/O region ends at byte %" PRIu64 ", past the end of the "
		       "device (%" PRIu64 " bytes): lower size= or offset=", lf->need, lf->have);
		return -EINVAL;
	}
	if (!lf->written || lf->allow_mounted)
		return 0;
	int r = sb_os_dev_name(lay->sysroot, lf->rdev, false, name, sizeof(name));
	if (r == 0)
		r = sb_os_bdev_in_use(lay->sysroot, name, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "cannot find it in /sys/dev/block");
	if (r != 0) {
		refuse_bdev(lf, why);
		return -EBUSY;
	}
	for (size_t k = 0; k < i; k++) /* the same device under another node: checked already */
		if (lay->files[k].is_bdev && lay->files[k].rdev == lf->rdev && lay->files[k].claim_fd >= 0)
			return 0;
	lf->claim_fd = claim(lf, why, sizeof(why));
	if (lf->claim_fd < 0) {
		lf->claim_fd = -1;
		refuse_bdev(lf, why);
		return -EBUSY;
	}
	r = sb_os_signature(lf->claim_fd, what, sizeof(what));
	if (r == 0)
		return 0;
	if (r > 0)
		snprintf(why, sizeof(why), "it holds %s", what);
	else
		snprintf(why, sizeof(why), "cannot read it to look for file systems and partition "
			 "tables: %s", strerror(-r));
	refuse_bdev(lf, why);
	return -EBUSY;
}
