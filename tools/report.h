/* tools/report.h: what the files of `storbench report` share: the loaded
 * results and the section writers.  tools/report.c reads the command line
 * and the results and writes the document; tools/report_job.c the per-job
 * and host sections; tools/report_sweep.c sweeps and engine comparisons;
 * tools/report_ml.c each workload's section (checkpoint, training;
 * tools/report_kv.c the KV cache); tools/report_ts.c the time series;
 * tools/report_value.c any JSON value as HTML; tools/svg.c draws. */
#ifndef SB_TOOLS_REPORT_H
#define SB_TOOLS_REPORT_H

#include "lib/jsonr.h"
#include "tools/svg.h"

struct sb_rep_result {
	const char *path;        /* as given on the command line */
	const char *label;       /* its base name: the legend's name */
	struct sb_json doc;
	const struct sb_jval *root;
};

struct sb_rep {
	struct sb_out *o;
	struct sb_rep_result *r;
	unsigned n;
	const char *heat_x, *heat_y;   /* --heatmap=X,Y, or NULL */
	unsigned nsec;                 /* sections written (for the contents) */
};

/* <section> with an <h2> title (escaped) and its closing tag */
void sb_rep_section(struct sb_rep *rp, const char *title);
void sb_rep_section_end(struct sb_rep *rp);
/* a legend name "LABEL" (one result) or "LABEL: WHAT"; into buf */
const char *sb_rep_name(const struct sb_rep *rp, unsigned ri, const char *what, char *buf,
			size_t len);
/* a JSON value of any shape as HTML tables, key by key */
void sb_rep_value(struct sb_out *o, const struct sb_jval *v, int depth);
/* v as sb_rep_value draws it, folded away behind the charts: a <details>
 * whose <summary> says what (escaped) */
void sb_rep_raw(struct sb_out *o, const char *what, const struct sb_jval *v);
/* a table row <tr><th>k</th><td>v</td></tr> with v formatted by fmt */
void sb_rep_kv(struct sb_out *o, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- time series (tools/report_ts.c) ---- */

/* a series of fewer samples than this is drawn as points with their spans */
#define SB_REP_TS_LINE 3

/* sample i measured over [x0[i], x1[i]] (s on the chart's axis) as y[i] */
struct sb_rep_ts {
	double *x0, *x1, *y;
	size_t n;
};

/* The ms at which the first sample of arr (a "timeseries" or host
 * "series") began: a job's own time 0. */
double sb_rep_ts_start(const struct sb_jval *arr);
/* The samples of arr that hold path's number, as (t_ms - t0_ms) / 1000
 * and its span; per_s: the number is a count over the sample's dur_ms,
 * drawn per second; scale multiplies.  A partial last interval is left
 * out.  Returns the count (0: nothing to draw, s empty). */
size_t sb_rep_series(const struct sb_jval *arr, const char *path, int per_s, double scale,
		     double t0_ms, struct sb_rep_ts *s);
void sb_rep_ts_free(struct sb_rep_ts *s);
/* widens x and y to hold s as sb_rep_ts_draw draws it */
void sb_rep_ts_axes(const struct sb_rep_ts *s, struct sb_axis *x, struct sb_axis *y);
/* s as a line (SB_REP_TS_LINE samples or more) or as points with spans */
void sb_rep_ts_draw(struct sb_chart *c, const struct sb_rep_ts *s, unsigned color, int dash,
		    const char *name);

/* --heatmap=X,Y names two options every sweep among the results sweeps:
 * 0, else -1 with the message printed */
int sb_rep_check_heatmap(const struct sb_rep *rp);

/* sections; each writes nothing when no result has what it shows */
void sb_rep_jobs(struct sb_rep *rp);
void sb_rep_host(struct sb_rep *rp);
void sb_rep_sweep(struct sb_rep *rp);
void sb_rep_compare(struct sb_rep *rp);
void sb_rep_ml(struct sb_rep *rp);
/* the body of the section of job ji's workload=kvcache (tools/report_kv.c) */
void sb_rep_kvcache(struct sb_rep *rp, unsigned ji);

#endif
