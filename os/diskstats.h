/* diskstats.h: raw /proc/diskstats counters of chosen disks (stats/diskutil.h
 * turns two readings into fio's disk_util). */
#ifndef SB_OS_DISKSTATS_H
#define SB_OS_DISKSTATS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counters of one disk: the first 11 fields after the name (reads, read
 * merges, sectors read, read ms, writes, write merges, sectors written,
 * write ms, in flight, io ms, weighted io ms). */
struct sb_diskstat {
	char name[64];
	bool found;
	uint64_t f[11];
};

/* Fill ds[i].f for every ds[i].name from <root>/proc/diskstats ("" = real).
 * Disks not listed get found = false. */
int sb_os_diskstats_read(const char *root, struct sb_diskstat *ds, size_t n);
#endif
