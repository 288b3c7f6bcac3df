/* tstats.h: the statistics of one I/O thread.  Single writer: the I/O thread.
 * The live counters are relaxed atomics so the stats thread can sample them
 * while the run goes on; everything else is read only after the thread has
 * been joined. */
#ifndef SB_TSTATS_H
#define SB_TSTATS_H
#include <stdatomic.h>
#include <stdint.h>

#include "parse/jobspec.h"
#include "stats/hist.h"
#include "stats/stat.h"

/* fio's depth buckets: iodepth_level 1,2,4,8,16,32,>=64;
 * submit/complete 0,4,8,16,32,64,>=64 (I/Os per submit or reap call) */
#define SB_DEPTH_BUCKETS 7

struct sb_tstats {
	/* live: written with relaxed stores by the I/O thread */
	_Atomic uint64_t live_bytes[SB_DDIR_N];
	_Atomic uint64_t live_ios[SB_DDIR_N];

	/* per direction, counted after ramp_time */
	uint64_t io_bytes[SB_DDIR_N];
	uint64_t total_ios[SB_DDIR_N];
	uint64_t short_ios[SB_DDIR_N];
	uint64_t drop_ios[SB_DDIR_N];
	struct sb_stat slat[SB_DDIR_N], clat[SB_DDIR_N], lat[SB_DDIR_N];
	struct sb_hist slat_h[SB_DDIR_N], clat_h[SB_DDIR_N], lat_h[SB_DDIR_N];
	struct sb_stat sync_lat;       /* fsync/fdatasync latency, ns */
	uint64_t iodepth_level[SB_DEPTH_BUCKETS];
	uint64_t iodepth_submit[SB_DEPTH_BUCKETS];
	uint64_t iodepth_complete[SB_DEPTH_BUCKETS];

	/* bandwidth (KiB/s) and IOPS samples, taken by the stats thread every
	 * 500 ms (fio's bw_avg/iops_avg default); only it writes these */
	struct sb_stat bw_samples[SB_DDIR_N];
	struct sb_stat iops_samples[SB_DDIR_N];

	/* set by the I/O thread before it exits */
	uint64_t runtime_ns[SB_DDIR_N]; /* time spent doing each direction's workload */
	uint64_t job_runtime_ns;
	uint64_t usr_us, sys_us;        /* getrusage(RUSAGE_THREAD) */
	uint64_t ctx, majf, minf;
	int error;                      /* first errno seen, 0 = none */
	char errmsg[256];               /* job, file, offset and errno of that error */
};

void sb_tstats_init(struct sb_tstats *t);
/* dst += src: counters add, stats and histograms merge. */
void sb_tstats_merge(struct sb_tstats *dst, const struct sb_tstats *src);
/* index into the depth buckets */
unsigned sb_depth_level_bucket(unsigned depth);   /* 1,2,4,8,16,32,>=64 */
unsigned sb_depth_batch_bucket(unsigned n);       /* 0,4,8,16,32,64,>=64 */
#endif
