/* tseries.c: bounded per-job time series and the interval arithmetic that
 * turns two accumulator snapshots into one sample (see tseries.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/tseries.h"

int sb_tseries_init(struct sb_tseries *ts, unsigned cap)
{
	memset(ts, 0, sizeof(*ts));
	ts->cap = cap ? (cap < 2 ? 2 : cap & ~1u) : SB_TS_CAP;
	ts->stride = 1;
	ts->s = calloc(ts->cap, sizeof(*ts->s));
	return ts->s ? 0 : -ENOMEM;
}

void sb_tseries_free(struct sb_tseries *ts)
{
	free(ts->s);
	memset(ts, 0, sizeof(*ts));
}

uint64_t sb_ts_p50_merge(uint64_t pa, uint64_t na, uint64_t pb, uint64_t nb)
{
	if (!nb)
		return na ? pa : (pa > pb ? pa : pb);
	if (!na)
		return pb;
	return (uint64_t)(((double)pa * (double)na + (double)pb * (double)nb) / ((double)na + (double)nb) + 0.5);
}

void sb_ts_dir_merge(struct sb_ts_dir *x, const struct sb_ts_dir *y)
{
	x->clat_p50_ns = sb_ts_p50_merge(x->clat_p50_ns, x->ios, y->clat_p50_ns, y->ios);
	x->bytes += y->bytes;
	x->ios += y->ios;
	x->clat_sum_ns += y->clat_sum_ns;
	x->clat_max_ns = y->clat_max_ns > x->clat_max_ns ? y->clat_max_ns : x->clat_max_ns;
	x->clat_p99_ns = y->clat_p99_ns > x->clat_p99_ns ? y->clat_p99_ns : x->clat_p99_ns;
}

void sb_ts_merge(struct sb_ts_sample *a, const struct sb_ts_sample *b)
{
	for (int d = 0; d < SB_DDIR_N; d++)
		sb_ts_dir_merge(&a->d[d], &b->d[d]);
	a->t_ms = b->t_ms;
	a->dur_ns += b->dur_ns;
}

void sb_tseries_add(struct sb_tseries *ts, const struct sb_ts_sample *s)
{
	if (!ts->s)
		return;
	if (ts->npend)
		sb_ts_merge(&ts->pend, s);
	else
		ts->pend = *s;
	if (++ts->npend < ts->stride)
		return;
	if (ts->n == ts->cap) {
		for (unsigned i = 0; i < ts->cap / 2; i++) {
			ts->s[i] = ts->s[2 * i];
			sb_ts_merge(&ts->s[i], &ts->s[2 * i + 1]);
		}
		ts->n = ts->cap / 2;
		ts->stride *= 2;
		if (ts->npend < ts->stride)
			return;   /* pend now waits for more intervals */
	}
	ts->s[ts->n++] = ts->pend;
	ts->npend = 0;
}

void sb_tseries_extend(struct sb_tseries *ts, const struct sb_ts_sample *s)
{
	if (ts->npend)
		sb_ts_merge(&ts->pend, s);
	else if (ts->n)
		sb_ts_merge(&ts->s[ts->n - 1], s);
	else
		sb_tseries_add(ts, s);
}

struct sb_ts_sample *sb_tseries_take(struct sb_tseries *ts, unsigned *n)
{
	struct sb_ts_sample *out = ts->s;
	*n = 0;
	if (!out)
		return NULL;
	if (ts->npend && ts->n < ts->cap)
		out[ts->n++] = ts->pend;
	else if (ts->npend)   /* full: the last sample absorbs the partial one */
		sb_ts_merge(&out[ts->n - 1], &ts->pend);
	*n = ts->n;
	ts->s = NULL;
	ts->n = ts->npend = 0;
	if (!*n) {
		free(out);
		return NULL;
	}
	return out;
}

void sb_ts_accumulate(struct sb_ts_sample *s, uint64_t (*h)[SB_ILAT_NB],
		      const struct sb_ilat_snap *cur, const struct sb_ilat_snap *prev)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_ilat_snap_dir *c = &cur->d[d], *p = &prev->d[d];
		struct sb_ts_dir *x = &s->d[d];
		x->bytes += c->bytes - p->bytes;
		x->ios += c->ios - p->ios;
		x->clat_sum_ns += c->clat_sum - p->clat_sum;
		if (c->clat_max > x->clat_max_ns)
			x->clat_max_ns = c->clat_max;
		for (unsigned i = 0; i < SB_ILAT_NB; i++)
			h[d][i] += c->hist[i] - p->hist[i];
	}
}

void sb_ts_finish(struct sb_ts_sample *s, uint64_t (*h)[SB_ILAT_NB])
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_ts_dir *x = &s->d[d];
		x->clat_p99_ns = sb_ilat_percentile(h[d], 99.0);
		x->clat_p50_ns = sb_ilat_percentile(h[d], 50.0);
		/* the bucket midpoint may exceed the exact max: the percentiles cannot */
		if (x->clat_max_ns && x->clat_p99_ns > x->clat_max_ns)
			x->clat_p99_ns = x->clat_max_ns;
		if (x->clat_max_ns && x->clat_p50_ns > x->clat_max_ns)
			x->clat_p50_ns = x->clat_max_ns;
	}
}

uint64_t sb_ts_bw_bytes(const struct sb_ts_sample *s, int d)
{
	if (!s->dur_ns)
		return 0;
	return (uint64_t)((double)s->d[d].bytes * 1e9 / (double)s->dur_ns + 0.5);
}

double sb_ts_iops(const struct sb_ts_sample *s, int d)
{
	return s->dur_ns ? (double)s->d[d].ios * 1e9 / (double)s->dur_ns : 0.0;
}

uint64_t sb_ts_clat_mean_ns(const struct sb_ts_sample *s, int d)
{
	return s->d[d].ios ? (s->d[d].clat_sum_ns + s->d[d].ios / 2) / s->d[d].ios : 0;
}
