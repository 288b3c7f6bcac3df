/* blkzoned.h: a zoned block device through the kernel's zone interface
 * (linux/blkzoned.h): its zoned model (sysfs queue/zoned), its zones
 * (BLKREPORTZONE), its open-zone limit (queue/max_open_zones) and the reset of
 * a zone's write pointer (BLKRESETZONE: a write, which destroys the zone's
 * data; callers apply run/bdev.c's write guards first).  Byte units here;
 * the kernel's are 512-byte sectors. */
#ifndef SB_OS_BLKZONED_H
#define SB_OS_BLKZONED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sb_zmodel { SB_ZMODEL_NONE = 0, SB_ZMODEL_HOST_AWARE, SB_ZMODEL_HOST_MANAGED };
/* a zone's condition, the kernel's BLK_ZONE_COND_* values */
enum sb_zcond { SB_ZCOND_NOT_WP = 0, SB_ZCOND_EMPTY = 1, SB_ZCOND_IMP_OPEN = 2,
		SB_ZCOND_EXP_OPEN = 3, SB_ZCOND_CLOSED = 4, SB_ZCOND_READONLY = 0xd,
		SB_ZCOND_FULL = 0xe, SB_ZCOND_OFFLINE = 0xf };

struct sb_zinfo {
	uint64_t start, len, wp, cap;   /* bytes */
	bool seq;                       /* a sequential-write zone (has a write pointer) */
	unsigned cond;                  /* enum sb_zcond */
};

/* the model of block device path from <root>/sys/block/NAME/queue/zoned
 * ("none", "host-aware", "host-managed"); SB_ZMODEL_NONE when absent */
enum sb_zmodel sb_os_zoned_model(const char *root, const char *name);
/* queue/max_open_zones of NAME (0: no limit or unknown) */
unsigned sb_os_max_open_zones(const char *root, const char *name);
/* Parse one report as BLKREPORTZONE leaves it (struct blk_zone_report and
 * nr_zones struct blk_zone after it, in buf of len bytes) into out (at most
 * max); returns the zones parsed or -EINVAL for a report that does not fit
 * buf.  flags of the report say whether capacity is valid (else it is len). */
int sb_os_zone_report_parse(const void *buf, size_t len, struct sb_zinfo *out, size_t max);
/* Every zone of the device open on fd from byte offset on, up to max zones:
 * the count, or -errno (-ENOTTY: not a zoned device) */
int sb_os_report_zones(int fd, uint64_t offset, struct sb_zinfo *out, size_t max);
/* Reset the write pointers of the zones in [offset, offset + len): a write */
int sb_os_reset_zones(int fd, uint64_t offset, uint64_t len);
#endif
