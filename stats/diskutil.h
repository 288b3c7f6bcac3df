/* diskutil.h: the results' disk_util (stats/results.h) from two raw
 * /proc/diskstats readings of os/diskstats.h. */
#ifndef SB_STATS_DISKUTIL_H
#define SB_STATS_DISKUTIL_H
#include <stdint.h>

#include "os/diskstats.h"
#include "stats/results.h"

/* fio's disk_util from two readings wall_ms apart: counter deltas (0 where
 * a counter went backwards), util = io ms / wall ms * 100, capped at 100. */
void sb_disk_util_delta(const struct sb_diskstat *before, const struct sb_diskstat *after,
			uint64_t wall_ms, struct sb_disk_util *out);
#endif
