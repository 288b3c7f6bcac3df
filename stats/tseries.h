/* tseries.h: a job's time series - one sample per stats_interval with, per
 * direction, bytes, I/Os, and completion latency mean, max, p50 and p99 -
 * kept in bounded memory.
 *
 * Bound: at most `cap` stored samples (SB_TS_CAP by default: 4096, i.e. 68
 * minutes at 1 s before any merging).  When the store is full, neighbours
 * are merged pairwise and every later stored sample covers twice as many
 * intervals as before (stride 1, 2, 4, ...), so memory stays fixed and the
 * whole run stays covered at halved resolution.  Merging adds bytes, I/Os and
 * latency sums, keeps the larger max, and keeps the larger p99 (an upper
 * bound of the merged interval's p99: percentiles cannot be merged exactly
 * without the histograms, which the series does not store) and the I/O-
 * weighted mean of the p50s (the merged interval's median lies between the
 * two medians, and so does this mean). */
#ifndef SB_TSERIES_H
#define SB_TSERIES_H
#include <stdint.h>

#include "parse/jobspec.h"
#include "stats/ilat.h"

#define SB_TS_CAP 4096

struct sb_ts_dir {
	uint64_t bytes, ios;
	uint64_t clat_sum_ns;
	uint64_t clat_max_ns;
	uint64_t clat_p99_ns;
	uint64_t clat_p50_ns;
};

/* The interval (t_ms - dur_ms, t_ms], ms since the start of the run. */
struct sb_ts_sample {
	uint64_t t_ms;
	uint64_t dur_ns;
	struct sb_ts_dir d[SB_DDIR_N];
};

struct sb_tseries {
	struct sb_ts_sample *s;   /* stored samples */
	unsigned n, cap;
	unsigned stride;          /* intervals per stored sample */
	struct sb_ts_sample pend; /* intervals not yet stored (fewer than stride) */
	unsigned npend;
};

/* cap 0 = SB_TS_CAP; otherwise rounded down to even, at least 2.
 * 0 or -ENOMEM. */
int sb_tseries_init(struct sb_tseries *ts, unsigned cap);
void sb_tseries_free(struct sb_tseries *ts);
/* Append one interval. */
void sb_tseries_add(struct sb_tseries *ts, const struct sb_ts_sample *s);
/* Fold a short interval into the latest one (a run's last sliver, so that
 * no two samples share a millisecond); adds it when the series is empty. */
void sb_tseries_extend(struct sb_tseries *ts, const struct sb_ts_sample *s);
/* The series as an array (stored samples plus the pending partial one);
 * the caller owns it (free()); *n = 0 and NULL when empty.  ts is emptied. */
struct sb_ts_sample *sb_tseries_take(struct sb_tseries *ts, unsigned *n);
/* a += b, b covering the interval right after a */
void sb_ts_merge(struct sb_ts_sample *a, const struct sb_ts_sample *b);

/* Adds one thread's interval (cur - prev snapshots) into s->d and into the
 * histogram accumulator h[SB_DDIR_N][SB_ILAT_NB]; call sb_ts_finish after
 * the last thread of the job. */
void sb_ts_accumulate(struct sb_ts_sample *s, uint64_t (*h)[SB_ILAT_NB],
		      const struct sb_ilat_snap *cur, const struct sb_ilat_snap *prev);
/* Sets the p50 and p99 of each direction from h. */
void sb_ts_finish(struct sb_ts_sample *s, uint64_t (*h)[SB_ILAT_NB]);

/* The p50 of two merged intervals (or ranks) with p50s pa, pb over na, nb
 * I/Os: their I/O-weighted mean.  Call before adding the I/O counts. */
uint64_t sb_ts_p50_merge(uint64_t pa, uint64_t na, uint64_t pb, uint64_t nb);
/* Adds direction y's figures into x (p50 weighted, p99 and max the larger:
 * an upper bound), for intervals, directions or ranks merged. */
void sb_ts_dir_merge(struct sb_ts_dir *x, const struct sb_ts_dir *y);

/* Derived figures for writers. */
uint64_t sb_ts_bw_bytes(const struct sb_ts_sample *s, int d);   /* bytes/s */
double sb_ts_iops(const struct sb_ts_sample *s, int d);
uint64_t sb_ts_clat_mean_ns(const struct sb_ts_sample *s, int d);
#endif
