/* blkzoned.c: the kernel's zone interface (see blkzoned.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/blkzoned.h>

#include "os/blkzoned.h"

static int read_sys(const char *root, const char *name, const char *leaf, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/sys/block/%s/queue/%s", root, name, leaf);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -errno;
	char *r = fgets(buf, (int)len, fp);
	fclose(fp);
	if (!r)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

enum sb_zmodel sb_os_zoned_model(const char *root, const char *name)
{
	char v[64];
	if (read_sys(root, name, "zoned", v, sizeof(v)))
		return SB_ZMODEL_NONE;
	if (!strcmp(v, "host-managed"))
		return SB_ZMODEL_HOST_MANAGED;
	if (!strcmp(v, "host-aware"))
		return SB_ZMODEL_HOST_AWARE;
	return SB_ZMODEL_NONE;
}

unsigned sb_os_max_open_zones(const char *root, const char *name)
{
	char v[64];
	if (read_sys(root, name, "max_open_zones", v, sizeof(v)))
		return 0;
	return (unsigned)strtoul(v, NULL, 10);
}

int sb_os_zone_report_parse(const void *buf, size_t len, struct sb_zinfo *out, size_t max)
{
	struct blk_zone_report hdr;
	if (len < sizeof(hdr))
		return -EINVAL;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.nr_zones > (len - sizeof(hdr)) / sizeof(struct blk_zone))
		return -EINVAL;
	size_t n = hdr.nr_zones < max ? hdr.nr_zones : max;
	bool has_cap = hdr.flags & BLK_ZONE_REP_CAPACITY;
	for (size_t i = 0; i < n; i++) {
		struct blk_zone z;
		memcpy(&z, (const char *)buf + sizeof(hdr) + i * sizeof(z), sizeof(z));
		out[i].start = z.start << 9;
		out[i].len = z.len << 9;
		out[i].wp = z.wp << 9;
		out[i].cap = (has_cap ? z.capacity : z.len) << 9;
		out[i].seq = z.type != BLK_ZONE_TYPE_CONVENTIONAL;
		out[i].cond = z.cond;
		if (!out[i].seq) /* conventional zones have no write pointer: full */
			out[i].wp = out[i].start + out[i].len;
	}
	return (int)n;
}

int sb_os_report_zones(int fd, uint64_t offset, struct sb_zinfo *out, size_t max)
{
	enum { BATCH = 4096 };
	size_t len = sizeof(struct blk_zone_report) + BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = malloc(len);
	if (!rep)
		return -ENOMEM;
	size_t got = 0;
	while (got < max) {
		memset(rep, 0, len);
		rep->sector = offset >> 9;
		rep->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep) != 0) {
			int e = -errno;
			free(rep);
			return e;
		}
		int n = sb_os_zone_report_parse(rep, len, out + got, max - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		offset = out[got - 1].start + out[got - 1].len;
	}
	free(rep);
	return got ? (int)got : -EIO; /* an empty report: a device problem (as fio) */
}

int sb_os_reset_zones(int fd, uint64_t offset, uint64_t len)
{
	struct blk_zone_range r = { .sector = offset >> 9, .nr_sectors = len >> 9 };
	return ioctl(fd, BLKRESETZONE, &r) == 0 ? 0 : -errno;
}
