/* derive.h: the numbers every writer derives the same way from sb_results:
 * bandwidth and IOPS from bytes, I/Os and runtime, fio's latency and depth
 * distributions, the percentile list.  Private to output/. */
#ifndef SB_OUT_DERIVE_H
#define SB_OUT_DERIVE_H
#include <stdbool.h>
#include <stdint.h>

#include "stats/results.h"

#define SB_LAT_NS_N 10  /* 2 4 10 20 50 100 250 500 750 1000 (ns) */
#define SB_LAT_US_N 10  /* the same edges in us */
#define SB_LAT_MS_N 12  /* the same edges in ms, then 2000 and >=2000 */

extern const char *const sb_lat_edge_names[SB_LAT_MS_N];  /* "2" .. "2000", ">=2000" */
extern const char *const sb_depth_level_names[SB_DEPTH_BUCKETS];
extern const char *const sb_depth_batch_names[SB_DEPTH_BUCKETS];
extern const char *const sb_ddir_names[SB_DDIR_N];        /* "read" "write" "trim" */

/* Percent of all I/Os (every direction) by total latency; bucket k holds the
 * I/Os between edge k-1 and edge k (fio's latency_ns/us/ms). */
struct sb_latdist {
	double ns[SB_LAT_NS_N];
	double us[SB_LAT_US_N];
	double ms[SB_LAT_MS_N];
};

void sb_out_latdist(const struct sb_tstats *st, struct sb_latdist *out);
/* counts -> percent of their sum */
void sb_out_depthdist(const uint64_t counts[SB_DEPTH_BUCKETS], double pct[SB_DEPTH_BUCKETS]);

/* bytes/s over the direction's runtime (fio's bw_bytes); 0 without runtime */
uint64_t sb_out_bw_bytes(const struct sb_job_result *j, int d);
double sb_out_iops(const struct sb_job_result *j, int d);
/* the job's group, NULL if the results have none for its groupid */
const struct sb_group_result *sb_out_group(const struct sb_results *r, unsigned groupid);
/* bw sample mean as a percent of the group's aggregate bandwidth (bw_agg) */
double sb_out_bw_agg_pct(const struct sb_job_result *j, const struct sb_group_result *g, int d);
/* the job's percentile list (fio's default when the spec has none) */
unsigned sb_out_pctl(const struct sb_job_result *j, const double **list);
/* 1024 or 1000; bits (unit_base=8) or bytes */
unsigned sb_out_kb_base(const struct sb_job_result *j, const struct sb_group_result *g);
int sb_out_bits(const struct sb_job_result *j, const struct sb_group_result *g);

/* fio's rule for per-priority latency (stat.c get_nr_prios_with_samples):
 * shown for a read or write direction with two or more priorities that
 * have samples (none when a merge met more than SB_PRIO_MAX) */
bool sb_out_prios_shown(const struct sb_tstats *st, int d);

/* unified_rw_reporting (output/mixed.c): enum sb_unified of a job, of a
 * group (its first job's) */
unsigned sb_out_unified_job(const struct sb_job_result *j);
unsigned sb_out_unified_group(const struct sb_results *r, unsigned groupid);
/* The "mixed" direction of job j of r: res is r with one job, *job (its
 * read direction the merged one, stats/mixed.h), and one group, its mixed
 * figures in dir[SB_DDIR_READ]; write it as direction SB_DDIR_READ of
 * res.jobs[0] under the name "mixed".  0 or -ENOMEM; close it after use. */
struct sb_out_mixed {
	struct sb_job_result *job;
	struct sb_group_result group;
	struct sb_results res;
};
int sb_out_mixed_open(struct sb_out_mixed *mx, const struct sb_results *r,
		      const struct sb_job_result *j);
void sb_out_mixed_close(struct sb_out_mixed *mx);
#endif
