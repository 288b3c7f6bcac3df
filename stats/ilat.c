/* ilat.c: the stats-thread side of the per-interval accumulators (see
 * ilat.h): snapshots, bucket values and percentiles. */
#include <string.h>

#include "stats/ilat.h"

void sb_ilat_init(struct sb_ilat *il)
{
	memset(il, 0, sizeof(*il));
	atomic_init(&il->epoch, 0);
}

void sb_ilat_totals(struct sb_ilat *il, int d, uint64_t *ios, uint64_t *bytes)
{
	*ios = atomic_load_explicit(&il->d[d].ios, memory_order_relaxed);
	*bytes = atomic_load_explicit(&il->d[d].bytes, memory_order_relaxed);
}

void sb_ilat_snapshot(struct sb_ilat *il, struct sb_ilat_snap *out, bool end_interval)
{
	uint64_t e = atomic_load_explicit(&il->epoch, memory_order_relaxed);
	if (end_interval) {
		atomic_store_explicit(&il->epoch, e + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_seq_cst);
	}
	e &= 0xffff;
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_ilat_dir *x = &il->d[d];
		struct sb_ilat_snap_dir *o = &out->d[d];
		uint64_t w = atomic_load_explicit(&x->max[e & 1], memory_order_relaxed);
		o->clat_max = end_interval && (w >> 48) == e ? (w & SB_ILAT_VAL_MASK) : 0;
		o->ios = atomic_load_explicit(&x->ios, memory_order_relaxed);
		o->bytes = atomic_load_explicit(&x->bytes, memory_order_relaxed);
		o->clat_sum = atomic_load_explicit(&x->clat_sum, memory_order_relaxed);
		o->slat_sum = atomic_load_explicit(&x->slat_sum, memory_order_relaxed);
		o->lat_sum = atomic_load_explicit(&x->lat_sum, memory_order_relaxed);
		for (unsigned i = 0; i < SB_ILAT_NB; i++)
			o->hist[i] = atomic_load_explicit(&x->hist[i], memory_order_relaxed);
	}
}

uint64_t sb_ilat_bucket_value(unsigned i)
{
	if (i < 2 * SB_ILAT_SUB)
		return i;
	unsigned shift = i / SB_ILAT_SUB - 1;
	return sb_loglin_low(i, SB_ILAT_SUB_BITS) + ((1ull << shift) >> 1);
}

uint64_t sb_ilat_percentile(const uint64_t *h, double pct)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < SB_ILAT_NB; i++)
		n += h[i];
	if (!n)
		return 0;
	double want = pct / 100.0 * (double)n;
	uint64_t rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (!rank)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < SB_ILAT_NB; i++) {
		seen += h[i];
		if (seen >= rank)
			return sb_ilat_bucket_value(i);
	}
	return sb_ilat_bucket_value(SB_ILAT_NB - 1);
}
