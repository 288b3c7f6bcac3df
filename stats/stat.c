/* stat.c: merging running statistics and the standard deviation fio reports.
 * The per-sample update (sb_stat_add) is inline in stat.h. */
#include <math.h>

#include "stats/stat.h"

/* Chan, Golub and LeVeque's pairwise combination of two Welford states. */
void sb_stat_merge(struct sb_stat *dst, const struct sb_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	double na = (double)dst->n, nb = (double)src->n;
	double n = na + nb;
	double delta = src->mean - dst->mean;

	dst->mean += delta * nb / n;
	dst->m2 += src->m2 + delta * delta * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double sb_stat_stddev(const struct sb_stat *s)
{
	if (s->n < 2 || s->m2 <= 0.0)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

void sb_stat_sum(struct sb_stat *dst, const struct sb_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
	dst->n += src->n;
}
