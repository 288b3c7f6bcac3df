/* ilat.h: per-interval I/O accumulators of one I/O thread, read by the stats
 * thread while the run goes on, without locks.
 *
 * Design.  The I/O thread is the only writer.  Per direction it keeps
 * CUMULATIVE counters (I/Os, bytes, clat/slat/lat sums) and a cumulative
 * coarse clat histogram, each updated with a relaxed load + relaxed store of
 * its own words (no read-modify-write instruction, no fence).  The stats
 * thread keeps the previous snapshot and takes differences, so nothing it
 * reads is ever reset under the writer and nothing is lost between intervals.
 *
 * A maximum cannot be differenced, so the interval maximum is epoch-tagged:
 * the stats thread advances `epoch` at every interval boundary; the writer
 * keeps max[epoch & 1] as (epoch << 48 | value) and restarts it when the tag
 * is stale.  After advancing from e to e+1 the stats thread reads max[e & 1]:
 * a tag other than e means no I/O completed in interval e.  An I/O that loads
 * the epoch just before the flip and stores its max just after the read is
 * missed by that interval's max (its counts are not lost); the window is a
 * few nanoseconds wide.
 *
 * The histogram has 16 sub-buckets per power of two (values reported at the
 * bucket midpoint: <= 3.1% relative error), exact below 32 ns, up to 2^40 ns
 * (18 minutes); longer values count in the last bucket.
 *
 * Cost on the per-I/O path (sb_ilat_add): one clz, about ten relaxed loads
 * and stores to the thread's own cache lines. */
#ifndef SB_ILAT_H
#define SB_ILAT_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "parse/jobspec.h"
#include "stats/hist.h"

#define SB_ILAT_SUB_BITS 4
#define SB_ILAT_SUB (1u << SB_ILAT_SUB_BITS)
#define SB_ILAT_MAX_BITS 40
#define SB_ILAT_NB ((SB_ILAT_MAX_BITS - SB_ILAT_SUB_BITS + 1) * SB_ILAT_SUB)
#define SB_ILAT_VAL_MASK ((1ull << 48) - 1)

struct sb_ilat_dir {
	_Atomic uint64_t ios, bytes;
	_Atomic uint64_t clat_sum, slat_sum, lat_sum;   /* ns */
	_Atomic uint64_t max[2];                       /* epoch-tagged clat max */
	_Atomic uint64_t hist[SB_ILAT_NB];             /* cumulative clat counts */
};

struct sb_ilat {
	_Atomic uint64_t epoch;
	struct sb_ilat_dir d[SB_DDIR_N];
};

/* What the stats thread reads at a boundary. */
struct sb_ilat_snap_dir {
	uint64_t ios, bytes, clat_sum, slat_sum, lat_sum;
	uint64_t clat_max;   /* of the interval that just ended (0: none) */
	uint64_t hist[SB_ILAT_NB];
};
struct sb_ilat_snap {
	struct sb_ilat_snap_dir d[SB_DDIR_N];
};

static inline unsigned sb_ilat_index(uint64_t v)
{
	return sb_loglin_index(v, SB_ILAT_SUB_BITS, SB_ILAT_MAX_BITS);
}

#define SB_ILAT_BUMP(a, v)                                                              \
	atomic_store_explicit(&(a), atomic_load_explicit(&(a), memory_order_relaxed) + (v), \
			      memory_order_relaxed)

/* The I/O thread: one completed I/O of direction d (d < SB_DDIR_N). */
static inline void sb_ilat_add(struct sb_ilat *il, int d, uint64_t bytes, uint64_t clat,
			       uint64_t slat, uint64_t lat)
{
	struct sb_ilat_dir *x = &il->d[d];
	SB_ILAT_BUMP(x->ios, 1);
	SB_ILAT_BUMP(x->bytes, bytes);
	SB_ILAT_BUMP(x->clat_sum, clat);
	SB_ILAT_BUMP(x->slat_sum, slat);
	SB_ILAT_BUMP(x->lat_sum, lat);
	SB_ILAT_BUMP(x->hist[sb_ilat_index(clat)], 1);
	uint64_t e = atomic_load_explicit(&il->epoch, memory_order_relaxed) & 0xffff;
	_Atomic uint64_t *m = &x->max[e & 1];
	uint64_t w = atomic_load_explicit(m, memory_order_relaxed);
	uint64_t v = clat < SB_ILAT_VAL_MASK ? clat : SB_ILAT_VAL_MASK;
	if ((w >> 48) != e || v > (w & SB_ILAT_VAL_MASK))
		atomic_store_explicit(m, e << 48 | v, memory_order_relaxed);
}

void sb_ilat_init(struct sb_ilat *il);
/* The stats thread: read the cumulative counters into out.  With
 * end_interval, also end the current interval (advance the epoch) and read
 * its max into out->d[].clat_max; without, clat_max is 0 and the epoch
 * stays (log windows read this way beside the time series). */
void sb_ilat_snapshot(struct sb_ilat *il, struct sb_ilat_snap *out, bool end_interval);
/* Cumulative I/Os and bytes of direction d (cheap: for the progress line). */
void sb_ilat_totals(struct sb_ilat *il, int d, uint64_t *ios, uint64_t *bytes);
/* Reported value (ns) of histogram bucket i: its midpoint. */
uint64_t sb_ilat_bucket_value(unsigned i);
/* Percentile pct (0 < pct <= 100) of the counts in h[SB_ILAT_NB]; 0 when
 * empty. */
uint64_t sb_ilat_percentile(const uint64_t *h, double pct);
#endif
