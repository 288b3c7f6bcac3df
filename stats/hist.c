/* hist.c: bucket geometry, merge and queries of the log-linear latency
 * histogram.  Adding a sample is inline in hist.h. */
#include "stats/hist.h"

/* Buckets 0..127 hold one value each.  Above, bucket i belongs to the power
 * of two whose values are shifted right by (i / SUB - 1) bits, and holds the
 * values whose top SUB_BITS+1 bits equal i % SUB + SUB. */
uint64_t sb_hist_bucket_low(unsigned i)
{
	return sb_loglin_low(i, SB_HIST_SUB_BITS);
}

uint64_t sb_hist_bucket_high(unsigned i)
{
	if (i < 2 * SB_HIST_SUB)
		return (uint64_t)i + 1;
	unsigned shift = i / SB_HIST_SUB - 1;
	uint64_t m = (uint64_t)(i - shift * SB_HIST_SUB);
	return (m + 1) << shift;
}

uint64_t sb_hist_bucket_value(unsigned i)
{
	uint64_t lo = sb_hist_bucket_low(i);
	uint64_t hi = sb_hist_bucket_high(i);
	return hi - lo == 1 ? lo : lo + (hi - lo) / 2;
}

void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src)
{
	if (!src->n)
		return;
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->n += src->n;
}

uint64_t sb_hist_percentile(const struct sb_hist *h, double pct)
{
	if (!h->n)
		return 0;
	if (pct > 100.0)
		pct = 100.0;
	double want_d = pct * (double)h->n / 100.0;
	uint64_t want = (uint64_t)want_d;
	if ((double)want < want_d)
		want++;
	if (want < 1)
		want = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want)
			return sb_hist_bucket_value(i);
	}
	return sb_hist_bucket_value(SB_HIST_NBUCKETS - 1);
}

/* A bucket counts as below the limit when its reported value is: exact when
 * the limit is a bucket boundary, and consistent with the percentiles. */
double sb_hist_pct_below(const struct sb_hist *h, uint64_t limit_ns)
{
	if (!h->n)
		return 0.0;
	uint64_t below = 0;
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		if (sb_hist_bucket_value(i) >= limit_ns)
			break;
		below += h->bucket[i];
	}
	return 100.0 * (double)below / (double)h->n;
}
