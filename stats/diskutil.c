/* diskutil.c: fio's disk_util of the results model from two raw
 * /proc/diskstats readings (os/diskstats.c reads them). */
#include <stdio.h>
#include <string.h>

#include "stats/diskutil.h"

static uint64_t d(const struct sb_diskstat *a, const struct sb_diskstat *b, int i)
{
	return b->f[i] >= a->f[i] ? b->f[i] - a->f[i] : 0;
}

void sb_disk_util_delta(const struct sb_diskstat *before, const struct sb_diskstat *after,
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
