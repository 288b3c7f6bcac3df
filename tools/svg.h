/* tools/svg.h: the drawing kit of `storbench report` (tools/report*.c): a
 * growable text buffer with HTML escaping, and inline-SVG charts - line
 * charts on linear, log10 or percentile-tail axes, grouped bar charts, heat
 * maps and heat strips.  Everything is written into one sb_out; nothing here
 * knows about results.  Tooltips are SVG <title> elements (no script). */
#ifndef SB_TOOLS_SVG_H
#define SB_TOOLS_SVG_H

#include <stddef.h>

/* ---- the output buffer ---- */

struct sb_out {
	char *p;
	size_t len, cap;
	int oom;         /* an allocation failed: the text is incomplete */
};

void sb_out_printf(struct sb_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_out_puts(struct sb_out *o, const char *s);
/* s with & < > " ' written as entities (text and attribute values alike) */
void sb_out_esc(struct sb_out *o, const char *s);
void sb_out_free(struct sb_out *o);

/* opens a <figure> with its caption (title, escaped) and a w x h <svg> */
void sb_svg_open(struct sb_out *o, int w, int h, const char *title);
/* the colour of series i (a palette that cycles) */
const char *sb_svg_color(unsigned i);
/* "1.5k", "12.3M", ... (SI, 3 significant digits) into buf */
const char *sb_svg_si(double v, char *buf, size_t len);

/* ---- line charts ---- */

enum sb_axis_kind {
	SB_AXIS_LIN,   /* always from 0 (or below) */
	SB_AXIS_LOG,   /* log10; values <= 0 are left out */
	SB_AXIS_PCT,   /* percentiles 0..100 placed at -log10(1 - p/100): 90, 99, 99.9 evenly */
};

struct sb_axis {
	enum sb_axis_kind kind;
	const char *label;   /* with its unit, e.g. "time (s)" */
	double lo, hi;       /* range; set by sb_axis_add or by hand */
	int set;             /* lo/hi hold at least one value */
};

/* widens the axis to hold v (ignored when the axis cannot show it) */
void sb_axis_add(struct sb_axis *a, double v);

#define SB_CHART_MAXLEG 24

struct sb_chart {
	struct sb_out *o;
	struct sb_axis x, y;
	double tx0, tx1, ty0, ty1;   /* transformed ranges */
	unsigned nleg;
	char leg[SB_CHART_MAXLEG][128];   /* legend names, copied */
	unsigned legc[SB_CHART_MAXLEG];
	int legdash[SB_CHART_MAXLEG];
};

/* opens the chart (<figure>, <svg>, frame, grid, ticks, axis labels); the
 * axes must have their ranges (an empty axis gets 0..1) */
void sb_chart_begin(struct sb_chart *c, struct sb_out *o, const char *title,
		    const struct sb_axis *x, const struct sb_axis *y);
/* one series: points (x[i], y[i]) in order; more points than pixels are
 * reduced to each pixel column's first, min, max and last.  name goes to the
 * legend (NULL: none); dash 1 draws it dashed. */
void sb_chart_line(struct sb_chart *c, const double *x, const double *y, size_t n,
		   unsigned color, int dash, const char *name);
/* one series as points with their true spans: sample i is a horizontal
 * segment from x0[i] to x1[i] at y[i] with a dot in its middle (a <title>
 * "NAME, X0-X1 s: Y"), and nothing joins the samples: for series too short
 * for a line (a 1 s job's one or two samples), where a line between two
 * interval ends would draw a trend that was never measured.  The segments
 * carry data-t0, data-t1 and data-v (axis units). */
void sb_chart_spans(struct sb_chart *c, const double *x0, const double *x1, const double *y,
		    size_t n, unsigned color, int dash, const char *name);
/* the legend and the closing tags */
void sb_chart_end(struct sb_chart *c);

/* ---- bar charts: ncat categories, nser series per category ---- */

struct sb_bars {
	const char *title;
	const char *ylabel;            /* with its unit */
	unsigned ncat, nser;
	const char *const *cats;       /* category labels [ncat] */
	const char *const *sers;       /* series names [nser] (legend; NULL when nser == 1) */
	const double *v;               /* v[s * ncat + c]; NaN: no bar */
	const char *const *notes;      /* text above bar [s * ncat + c] ("x1.96"), or NULL */
	int best;                      /* category to highlight, -1: none */
	const char *const *empty;      /* per category: why it has no bar ("skipped: no
					* libcuda.so.1"), drawn in its slot; NULL: none */
};

void sb_svg_bars(struct sb_out *o, const struct sb_bars *b);

/* ---- heat map: nx x ny cells, v[iy * nx + ix], NaN: no cell ---- */

struct sb_heat {
	const char *title, *xlabel, *ylabel, *unit;
	unsigned nx, ny;
	const char *const *xs, *const *ys;
	const double *v;
	int bestx, besty;              /* cell outlined as the best, -1: none */
};

void sb_svg_heatmap(struct sb_out *o, const struct sb_heat *h);

/* ---- heat strip: nrow rows (e.g. CPUs) over ncol time columns of values
 * 0..100 (%), v[row * ncol + col]; t0..t1 is the time the columns span, in
 * s.  Rows are labelled rows[r], or "ROWNAME r" when rows is NULL ---- */
void sb_svg_strip(struct sb_out *o, const char *title, const char *rowname,
		  const char *const *rows, unsigned nrow, unsigned ncol, const float *v,
		  double t0, double t1);

#endif
