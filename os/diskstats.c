/* diskstats.c: read the raw counters of chosen disks from /proc/diskstats. */
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
