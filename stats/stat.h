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
