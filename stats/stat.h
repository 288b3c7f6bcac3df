/* stat.h: running min/max/mean/stddev by Welford, mergeable (Chan et al.).
 * sb_stat_add is on the per-I/O path: no division by anything but n, no
 * allocation. */
#ifndef SB_STAT_H
#define SB_STAT_H
#include <stdint.h>

struct sb_stat {
	uint64_t n;
	uint64_t min;   /* UINT64_MAX when n == 0 */
	uint64_t max;
	double mean;
	double m2;      /* sum of squared deviations from the mean */
};

#define SB_STAT_INIT { 0, UINT64_MAX, 0, 0.0, 0.0 }

static inline void sb_stat_init(struct sb_stat *s)
{
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->mean = 0.0;
	s->m2 = 0.0;
}

static inline void sb_stat_add(struct sb_stat *s, uint64_t v)
{
	double x = (double)v;
	double delta = x - s->mean;
	s->n++;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (x - s->mean);
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

/* Samples on their way into an sb_stat without a division each: the exact
 * integer sum and sum of squares of up to SB_STAT_BATCH samples, folded
 * into the sb_stat (Chan's combination, as sb_stat_merge) when the batch is
 * full and by sb_stat_batch_flush.  min and max go straight to the sb_stat;
 * its n, mean and m2 lag by the samples in the batch until the flush.  Per
 * sample: two compares, an add, a 64 x 64 -> 128-bit multiply-add.  A
 * sample of 2^48 or more (78 hours in ns) takes sb_stat_add instead, so
 * the sums cannot overflow.  Zero-initialise a batch ({0}). */
#define SB_STAT_BATCH 1024u
struct sb_stat_batch {
	uint64_t n, sum;
	unsigned __int128 sq;
};

void sb_stat_batch_flush(struct sb_stat *dst, struct sb_stat_batch *b);

static inline void sb_stat_batch_add(struct sb_stat_batch *b, struct sb_stat *dst, uint64_t v)
{
	if (__builtin_expect(v >> 48, 0)) {
		sb_stat_add(dst, v);
		return;
	}
	if (v < dst->min)
		dst->min = v;
	if (v > dst->max)
		dst->max = v;
	b->sum += v;
	b->sq += (unsigned __int128)v * v;
	if (__builtin_expect(++b->n == SB_STAT_BATCH, 0))
		sb_stat_batch_flush(dst, b);
}

/* dst += src */
void sb_stat_merge(struct sb_stat *dst, const struct sb_stat *src);
/* dst += src as fio sums bandwidth and IOPS samples of parallel streams
 * (threads of a group, directions of "mixed"): min, max, mean, m2 and n add. */
void sb_stat_sum(struct sb_stat *dst, const struct sb_stat *src);
/* Sample standard deviation (n - 1), as fio reports; 0 for n < 2. */
double sb_stat_stddev(const struct sb_stat *s);
/* min for output: 0 when empty */
static inline uint64_t sb_stat_min(const struct sb_stat *s)
{
	return s->n ? s->min : 0;
}
#endif
