/* diskstats.c: read /proc/diskstats and turn two readings into disk_util. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "os/diskstats.h"

int sb_os_diskstats_read(const char *root, struct sb_diskstat *ds, size_t n)
{
	char path[PATH_MAX], line[512], name[64];
	unsigned maj, mnr;
	uint64_t f[11];
	snprintf(path, sizeof(path), "%s/proc/diskstats", root ? root : "");
	for (size_t i = 0; i < n; i++)
		ds[i].found = false;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		int k = sscanf(line,
			       "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			       " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			       &maj, &mnr, name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
			       &f[7], &f[8], &f[9], &f[10]);
		if (k != 14)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (strcmp(ds[i].name, name))
				continue;
			memcpy(ds[i].f, f, sizeof(f));
			ds[i].found = true;
		}
	}
	fclose(fp);
	return 0;
}

static uint64_t d(const struct sb_diskstat *a, const struct sb_diskstat *b, int i)
{
	return b->f[i] >= a->f[i] ? b->f[i] - a->f[i] : 0;
}

void sb_os_diskstats_delta(const struct sb_diskstat *before, const struct sb_diskstat *after,
			   uint64_t wall_ms, struct sb_disk_util *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", after->name);
	out->read_ios = d(before, after, 0);
	out->read_merges = d(before, after, 1);
	out->read_ticks = d(before, after, 3);
	out->write_ios = d(before, after, 4);
	out->write_merges = d(before, after, 5);
	out->write_ticks = d(before, after, 7);
	out->io_ticks = d(before, after, 9);
	out->in_queue = d(before, after, 10);
	if (wall_ms) {
		out->util = 100.0 * (double)out->io_ticks / (double)wall_ms;
		if (out->util > 100.0)
			out->util = 100.0;
	}
}
