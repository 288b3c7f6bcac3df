/* tools/report_ts.c: the time series of `storbench report` (a job's
 * "timeseries", the host's "series"): which samples are drawn and how.
 * Every sample is a count or rate measured over [t_ms - dur_ms, t_ms]; a
 * chart draws only such figures: a partial last interval is left out, a
 * series long enough for a trend is a line through the interval ends, and a
 * short one (a 1 s job's one or two samples) is drawn as points, each with
 * its true span, so no line suggests a trend that was never measured. */
#include "tools/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_rep_ts_free(struct sb_rep_ts *s)
{
	free(s->x0);
	free(s->x1);
	free(s->y);
	memset(s, 0, sizeof(*s));
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The last sample of arr when it is a partial interval: the run ended 2-22
 * ms into it (dur_ms under half the median of the samples; of two samples
 * the longer one), else NULL.  Its rate is that of the run's last
 * milliseconds, while threads stop one by one and the queue drains: drawn
 * as a full interval it made every line end in a spike or a cliff that the
 * run never had.  The charts leave it out (the tables and totals keep its
 * I/O).  A lone sample cannot be judged: it is drawn with its span. */
static const struct sb_jval *partial_last(const struct sb_jval *arr, size_t n)
{
	if (n < 2)
		return NULL;
	double *d = malloc(n * sizeof(double)), last = 0;
	const struct sb_jval *e = arr->child, *le = NULL;
	if (!d)
		return NULL;
	for (size_t i = 0; e && i < n; e = e->next, i++) {
		d[i] = last = sb_jv_num(sb_jv_get(e, "dur_ms"), 0);
		le = e;
	}
	qsort(d, n, sizeof(double), cmp_dbl);
	double med = d[n / 2];
	free(d);
	return med > 0 && last < med / 2 ? le : NULL;
}

double sb_rep_ts_start(const struct sb_jval *arr)
{
	const struct sb_jval *e = arr && arr->type == SB_JARR ? arr->child : NULL;
	if (!e)
		return 0;
	double t = sb_jv_num(sb_jv_get(e, "t_ms"), 0) - sb_jv_num(sb_jv_get(e, "dur_ms"), 0);
	return t > 0 ? t : 0;
}

size_t sb_rep_series(const struct sb_jval *arr, const char *path, int per_s, double scale,
		     double t0_ms, struct sb_rep_ts *s)
{
	size_t n = sb_jv_len(arr);
	memset(s, 0, sizeof(*s));
	if (!n || !arr || arr->type != SB_JARR)
		return 0;
	const struct sb_jval *cut = partial_last(arr, n);
	s->x0 = malloc(n * sizeof(double));
	s->x1 = malloc(n * sizeof(double));
	s->y = malloc(n * sizeof(double));
	if (!s->x0 || !s->x1 || !s->y) {
		sb_rep_ts_free(s);
		return 0;
	}
	for (const struct sb_jval *e = arr->child; e && e != cut; e = e->next) {
		const struct sb_jval *v = sb_jv_path(e, path);
		if (!v || v->type != SB_JNUM)
			continue;
		double y = v->num * scale, d = sb_jv_num(sb_jv_get(e, "dur_ms"), 0);
		if (per_s) {
			if (d <= 0)
				continue;
			y = y * 1000.0 / d;
		}
		double t = sb_jv_num(sb_jv_get(e, "t_ms"), 0) - t0_ms;
		s->x1[s->n] = t / 1000.0;
		s->x0[s->n] = (d > 0 && d <= t ? t - d : d > 0 ? 0 : t) / 1000.0;
		s->y[s->n++] = y;
	}
	if (!s->n)
		sb_rep_ts_free(s);
	return s->n;
}

void sb_rep_ts_axes(const struct sb_rep_ts *s, struct sb_axis *x, struct sb_axis *y)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->n < SB_REP_TS_LINE)
			sb_axis_add(x, s->x0[i]);
		sb_axis_add(x, s->x1[i]);
		sb_axis_add(y, s->y[i]);
	}
}

void sb_rep_ts_draw(struct sb_chart *c, const struct sb_rep_ts *s, unsigned color, int dash,
		    const char *name)
{
	if (s->n < SB_REP_TS_LINE)
		sb_chart_spans(c, s->x0, s->x1, s->y, s->n, color, dash, name);
	else
		sb_chart_line(c, s->x1, s->y, s->n, color, dash, name);
}
