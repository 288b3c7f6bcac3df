/* mixed.h: fio's unified_rw_reporting "mixed" direction, derived at report
 * time from the per-direction figures (the I/O path counts per direction
 * only).  As fio 3.33 merges them: I/O counts and bytes add, the runtime is
 * the longest direction's, latency statistics and histograms merge (so
 * percentiles are over every I/O), bandwidth and IOPS samples add as
 * parallel streams do (sb_stat_sum: min, max, mean and count add). */
#ifndef SB_MIXED_H
#define SB_MIXED_H
#include "stats/results.h"

/* *m = st with every direction merged into SB_DDIR_READ; the other
 * directions are left empty.  Everything that is not per direction (CPU,
 * depths, sync) is copied as it is.  m and st must not overlap.  m owns
 * its histograms (sb_tstats_release); 0 or -ENOMEM (m then owns nothing). */
int sb_tstats_mix(struct sb_tstats *m, const struct sb_tstats *st);

/* A copy of j whose read direction is the mixed one (sb_tstats_mix, and
 * runtime_ms likewise); its owned pointers (ml, ts, verify, ss) are NULL.
 * Allocated: release with sb_job_mixed_free.  NULL when out of memory. */
struct sb_job_result *sb_job_mixed(const struct sb_job_result *j);
void sb_job_mixed_free(struct sb_job_result *m);

/* The mixed direction of group groupid of r into gm->dir[SB_DDIR_READ] (the
 * rest of *gm as the group's, its other directions empty), as fio 3.33
 * reports it under unified (enum sb_unified):
 *  - SB_UNIFIED_MIXED: over the group's jobs, each job merged first (bytes
 *    summed, its longest direction's runtime);
 *  - SB_UNIFIED_BOTH: over the group's directions: bytes summed, min/max
 *    bandwidth and runtime over the directions that ran.
 * The aggregate bandwidth is the bytes over the longest runtime.  Returns
 * -ENOENT when r has no such group. */
int sb_group_mixed(const struct sb_results *r, unsigned groupid, unsigned unified,
		   struct sb_group_result *gm);

/* *m = s with its directions merged into d[SB_DDIR_READ] (the others
 * empty): bytes, I/Os and latency sums add, the max is the largest, the
 * p99 the largest (an upper bound, as sb_ts_merge), the p50 I/O-weighted. */
void sb_ts_mix(struct sb_ts_sample *m, const struct sb_ts_sample *s);
#endif
