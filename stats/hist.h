/* hist.h: log-linear latency histogram (HDR style), in nanoseconds.
 *
 * Values below 2^(SB_HIST_SUB_BITS+1) = 128 ns have a bucket each (exact).
 * Above, every power of two [2^k, 2^(k+1)) is cut into 64 equal buckets, so a
 * bucket is at most 1/64 of its lower bound wide; reporting its midpoint gives
 * a relative error of at most 1/128 = 0.78%.  Buckets reach 2^SB_HIST_MAX_BITS
 * ns (about 4.9 hours); larger values are counted in the last bucket (min, max
 * and mean stay exact, they are kept beside the histogram).
 *
 * sb_hist_add is on the per-I/O path: a clz, a shift and an increment. */
#ifndef SB_HIST_H
#define SB_HIST_H
#include <stdint.h>

#define SB_HIST_SUB_BITS 6
#define SB_HIST_SUB (1u << SB_HIST_SUB_BITS)                 /* 64 */
#define SB_HIST_MAX_BITS 44                                  /* 2^44 ns = 4.9 h */
/* 128 exact buckets (= 2 * SUB) for 0..127, then SUB buckets for each power of
 * two 2^7 .. 2^(MAX_BITS-1): (MAX_BITS - SUB_BITS + 1) * SUB in all. */
#define SB_HIST_NBUCKETS ((SB_HIST_MAX_BITS - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB)

struct sb_hist {
	uint64_t n;
	uint64_t bucket[SB_HIST_NBUCKETS];
};

/* The log-linear geometry, for any number of sub-bucket bits (this
 * histogram: 6; the stats thread's interval histogram, stats/ilat.h: 4).
 * Called with constants, it folds to the same few instructions. */
static inline unsigned sb_loglin_index(uint64_t v, unsigned sub_bits, unsigned max_bits)
{
	unsigned sub = 1u << sub_bits;
	if (v < 2 * sub)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= max_bits)
		return (max_bits - sub_bits + 1) * sub - 1;
	unsigned shift = msb - sub_bits;
	return shift * sub + (unsigned)(v >> shift);
}

/* lowest value of bucket i */
static inline uint64_t sb_loglin_low(unsigned i, unsigned sub_bits)
{
	unsigned sub = 1u << sub_bits;
	if (i < 2 * sub)
		return i;
	unsigned shift = i / sub - 1;
	return (uint64_t)(i - shift * sub) << shift;
}

static inline unsigned sb_hist_index(uint64_t v)
{
	return sb_loglin_index(v, SB_HIST_SUB_BITS, SB_HIST_MAX_BITS);
}

static inline void sb_hist_add(struct sb_hist *h, uint64_t v)
{
	h->bucket[sb_hist_index(v)]++;
	h->n++;
}

/* Bounds of bucket i: values v with low <= v < high land in it. */
uint64_t sb_hist_bucket_low(unsigned i);
uint64_t sb_hist_bucket_high(unsigned i);
/* The value reported for bucket i (its midpoint; exact below 128 ns). */
uint64_t sb_hist_bucket_value(unsigned i);
void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src);
/* The value at percentile pct (0 < pct <= 100): the reported value of the
 * bucket holding the ceil(pct/100 * n)-th smallest sample; 0 when empty. */
uint64_t sb_hist_percentile(const struct sb_hist *h, double pct);
/* Share of samples (percent) with value < limit_ns, for fio's latency_*
 * buckets.  Exact at bucket boundaries. */
double sb_hist_pct_below(const struct sb_hist *h, uint64_t limit_ns);

/* ---- The kept (sparse) histogram of the results model.
 *
 * A running thread counts into a dense struct sb_hist (20 KB, no allocation
 * on the I/O path); what the results keep per job, group and sweep point is
 * only the buckets that were used: bins[] sorted by bucket index, each with a
 * non-zero count (16 bytes a used bucket, nothing for an empty histogram).
 * Merging walks both lists; the queries walk the used buckets, so they give
 * exactly what the dense queries above give on the same counts.
 * An sb_shist owns bins: zero it to start ({0}), release it with
 * sb_shist_free.  The functions that allocate return 0 or -ENOMEM (dst is
 * then unchanged). */
struct sb_hist_bin {
	uint32_t i;                  /* bucket index, < SB_HIST_NBUCKETS */
	uint64_t count;              /* > 0 */
};
struct sb_shist {
	uint64_t n;                  /* sum of the counts */
	uint32_t nbins;
	struct sb_hist_bin *bins;    /* nbins, ascending i; NULL when empty */
};

void sb_shist_free(struct sb_shist *h);
int sb_shist_merge(struct sb_shist *dst, const struct sb_shist *src);   /* dst += src */
int sb_shist_add_dense(struct sb_shist *dst, const struct sb_hist *src); /* dst += src */
/* dst += src, scanning only the buckets of [min, max] ns (the samples'
 * range, from their sb_stat) when they hold all of src's counts, else all
 * of them; min > max: all of them */
int sb_shist_add_dense_range(struct sb_shist *dst, const struct sb_hist *src, uint64_t min,
			     uint64_t max);
int sb_shist_copy(struct sb_shist *dst, const struct sb_shist *src);    /* dst = src (dst empty) */
/* one sample (an insertion: not for the I/O path; tests, small tallies) */
int sb_shist_add(struct sb_shist *h, uint64_t v);
/* dense += sparse: for a transient dense view (a rank's message) */
void sb_shist_to_dense(struct sb_hist *dst, const struct sb_shist *src);
/* As sb_hist_percentile and sb_hist_pct_below, on the used buckets. */
uint64_t sb_shist_percentile(const struct sb_shist *h, double pct);
double sb_shist_pct_below(const struct sb_shist *h, uint64_t limit_ns);
/* the count of bucket i (0 when unused): a binary search */
uint64_t sb_shist_count(const struct sb_shist *h, unsigned i);
#endif
