/* hist.c: bucket geometry, merge and queries of the log-linear latency
 * histogram.  Adding a sample is inline in hist.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* the rank (1-based) of the pct percentile among n values: ceil(pct% of
 * n), at least 1 (pct capped at 100) */
static uint64_t pct_rank(uint64_t n, double pct)
{
	if (pct > 100.0)
		pct = 100.0;
	double want_d = pct * (double)n / 100.0;
	uint64_t want = (uint64_t)want_d;
	if ((double)want < want_d)
		want++;
	return want < 1 ? 1 : want;
}

uint64_t sb_hist_percentile(const struct sb_hist *h, double pct)
{
	if (!h->n)
		return 0;
	uint64_t want = pct_rank(h->n, pct);
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

/* ---- sparse (kept) histograms */

void sb_shist_free(struct sb_shist *h)
{
	free(h->bins);
	h->bins = NULL;
	h->nbins = 0;
	h->n = 0;
}

/* dst = a + b, both sorted lists of used buckets; returns the length */
static uint32_t merge_bins(struct sb_hist_bin *dst, const struct sb_hist_bin *a, uint32_t na,
			   const struct sb_hist_bin *b, uint32_t nb)
{
	uint32_t i = 0, j = 0, n = 0;
	while (i < na && j < nb) {
		if (a[i].i < b[j].i)
			dst[n++] = a[i++];
		else if (b[j].i < a[i].i)
			dst[n++] = b[j++];
		else {
			dst[n] = a[i++];
			dst[n++].count += b[j++].count;
		}
	}
	while (i < na)
		dst[n++] = a[i++];
	while (j < nb)
		dst[n++] = b[j++];
	return n;
}

static int merge_list(struct sb_shist *dst, const struct sb_hist_bin *b, uint32_t nb, uint64_t n)
{
	if (!nb)
		return 0;
	struct sb_hist_bin *out = malloc(((size_t)dst->nbins + nb) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	uint32_t len = merge_bins(out, dst->bins, dst->nbins, b, nb);
	if (len < dst->nbins + nb) { /* shared buckets: give back the rest */
		struct sb_hist_bin *fit = realloc(out, (size_t)len * sizeof(*out));
		out = fit ? fit : out;
	}
	free(dst->bins);
	dst->bins = out;
	dst->nbins = len;
	dst->n += n;
	return 0;
}

int sb_shist_merge(struct sb_shist *dst, const struct sb_shist *src)
{
	return merge_list(dst, src->bins, src->nbins, src->n);
}

int sb_shist_copy(struct sb_shist *dst, const struct sb_shist *src)
{
	*dst = (struct sb_shist){ 0 };
	return sb_shist_merge(dst, src);
}

/* the used buckets of src in [lo, hi] into b[] (room for hi - lo + 1);
 * their number, their counts' sum in *sum */
static uint32_t used_bins(const struct sb_hist *src, unsigned lo, unsigned hi,
			  struct sb_hist_bin *b, uint64_t *sum)
{
	uint32_t nb = 0;
	uint64_t s = 0;
	for (unsigned i = lo; i <= hi; i++) {
		if (src->bucket[i]) {
			b[nb++] = (struct sb_hist_bin){ i, src->bucket[i] };
			s += src->bucket[i];
		}
	}
	*sum = s;
	return nb;
}

int sb_shist_add_dense_range(struct sb_shist *dst, const struct sb_hist *src, uint64_t min,
			     uint64_t max)
{
	if (!src->n)
		return 0;
	unsigned lo = 0, hi = SB_HIST_NBUCKETS - 1;
	if (min <= max) {
		lo = sb_hist_index(min);
		hi = sb_hist_index(max);
	}
	struct sb_hist_bin *b = malloc((size_t)(hi - lo + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	uint64_t sum;
	uint32_t nb = used_bins(src, lo, hi, b, &sum);
	if (sum != src->n) { /* counts outside [min, max]: the whole histogram */
		struct sb_hist_bin *all = realloc(b, (size_t)SB_HIST_NBUCKETS * sizeof(*b));
		if (!all) {
			free(b);
			return -ENOMEM;
		}
		b = all;
		nb = used_bins(src, 0, SB_HIST_NBUCKETS - 1, b, &sum);
	}
	int r = 0;
	if (!dst->nbins) { /* the common case: a thread into an empty job */
		struct sb_hist_bin *fit = realloc(b, (size_t)nb * sizeof(*b));
		free(dst->bins);
		dst->bins = fit ? fit : b;
		dst->nbins = nb;
		dst->n += src->n;
		return 0;
	}
	r = merge_list(dst, b, nb, src->n);
	free(b);
	return r;
}

int sb_shist_add_dense(struct sb_shist *dst, const struct sb_hist *src)
{
	return sb_shist_add_dense_range(dst, src, 1, 0);
}

void sb_shist_to_dense(struct sb_hist *dst, const struct sb_shist *src)
{
	for (uint32_t k = 0; k < src->nbins; k++)
		dst->bucket[src->bins[k].i] += src->bins[k].count;
	dst->n += src->n;
}

uint64_t sb_shist_percentile(const struct sb_shist *h, double pct)
{
	if (!h->n)
		return 0;
	uint64_t want = pct_rank(h->n, pct);
	uint64_t seen = 0;
	for (uint32_t k = 0; k < h->nbins; k++) {
		seen += h->bins[k].count;
		if (seen >= want)
			return sb_hist_bucket_value(h->bins[k].i);
	}
	return sb_hist_bucket_value(SB_HIST_NBUCKETS - 1);
}

double sb_shist_pct_below(const struct sb_shist *h, uint64_t limit_ns)
{
	if (!h->n)
		return 0.0;
	uint64_t below = 0;
	for (uint32_t k = 0; k < h->nbins; k++) {
		if (sb_hist_bucket_value(h->bins[k].i) >= limit_ns)
			break;
		below += h->bins[k].count;
	}
	return 100.0 * (double)below / (double)h->n;
}

/* the first used bucket with index >= i (nbins: none) */
static uint32_t find_bin(const struct sb_shist *h, unsigned i)
{
	uint32_t lo = 0, hi = h->nbins;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (h->bins[mid].i < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t sb_shist_count(const struct sb_shist *h, unsigned i)
{
	uint32_t k = find_bin(h, i);
	return k < h->nbins && h->bins[k].i == i ? h->bins[k].count : 0;
}

int sb_shist_add(struct sb_shist *h, uint64_t v)
{
	unsigned i = sb_hist_index(v);
	uint32_t k = find_bin(h, i);
	if (k == h->nbins || h->bins[k].i != i) {
		struct sb_hist_bin *b = realloc(h->bins, ((size_t)h->nbins + 1) * sizeof(*b));
		if (!b)
			return -ENOMEM;
		memmove(&b[k + 1], &b[k], (size_t)(h->nbins - k) * sizeof(*b));
		b[k] = (struct sb_hist_bin){ i, 0 };
		h->bins = b;
		h->nbins++;
	}
	h->bins[k].count++;
	h->n++;
	return 0;
}
