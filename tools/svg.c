/* tools/svg.c: the drawing kit of `storbench report` (see tools/svg.h):
 * text buffer, axes with ticks, decimated lines, points with spans and bars
 * as inline SVG; the heat maps and strips are tools/svg_heat.c. */
#include "tools/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ---- */

static int out_grow(struct sb_out *o, size_t need)
{
	if (o->oom)
		return -1;
	if (o->len + need + 1 <= o->cap)
		return 0;
	size_t cap = o->cap ? o->cap : 65536;
	while (cap < o->len + need + 1)
		cap *= 2;
	char *p = realloc(o->p, cap);
	if (!p) {
		o->oom = 1;
		return -1;
	}
	o->p = p;
	o->cap = cap;
	return 0;
}

void sb_out_printf(struct sb_out *o, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || out_grow(o, (size_t)n))
		return;
	if ((size_t)n < sizeof(tmp)) {
		memcpy(o->p + o->len, tmp, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(o->p + o->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}

void sb_out_puts(struct sb_out *o, const char *s)
{
	size_t n = strlen(s);
	if (out_grow(o, n))
		return;
	memcpy(o->p + o->len, s, n + 1);
	o->len += n;
}

void sb_out_esc(struct sb_out *o, const char *s)
{
	for (; s && *s; s++) {
		const char *e = NULL;
		switch (*s) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		default: break;
		}
		if (e) {
			sb_out_puts(o, e);
		} else if (!out_grow(o, 1)) {
			o->p[o->len++] = *s;
			o->p[o->len] = 0;
		}
	}
}

void sb_out_free(struct sb_out *o)
{
	free(o->p);
	memset(o, 0, sizeof(*o));
}

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *sb_svg_color(unsigned i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

const char *sb_svg_si(double v, char *buf, size_t len)
{
	static const char sfx[] = " kMGTPE";
	double a = fabs(v);
	int k = 0;
	if (a < 0.995 && a > 0) { /* 0.25, 0.005, 0.0015: never "0.00" for a tick of 0.001 */
		snprintf(buf, len, "%.3g", v);
		return buf;
	}
	while (a >= 999.5 && k < 6) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	if (a >= 99.95 || a == floor(a))
		snprintf(buf, len, "%.0f%.*s", v, k ? 1 : 0, sfx + k);
	else if (a >= 9.995)
		snprintf(buf, len, "%.1f%.*s", v, k ? 1 : 0, sfx + k);
	else
		snprintf(buf, len, "%.2f%.*s", v, k ? 1 : 0, sfx + k);
	return buf;
}

/* ---- axes ---- */

#define CW 760          /* chart width and height, px */
#define CH 300
#define ML 72           /* plot box margins */
#define MR 16
#define MT 28
#define MB 44
#define PW (CW - ML - MR)
#define PH (CH - MT - MB)
#define TXW 6.5         /* px per character of an 11px tick label (at most) */

static double tf(enum sb_axis_kind k, double v)
{
	if (k == SB_AXIS_LOG)
		return log10(v);
	if (k == SB_AXIS_PCT)
		return v >= 99.9999 ? 6 : -log10(1 - v / 100);
	return v;
}

void sb_axis_add(struct sb_axis *a, double v)
{
	if (!isfinite(v) || (a->kind == SB_AXIS_LOG && v <= 0) ||
	    (a->kind == SB_AXIS_PCT && (v < 0 || v > 100)))
		return;
	if (!a->set || v < a->lo)
		a->lo = v;
	if (!a->set || v > a->hi)
		a->hi = v;
	a->set = 1;
}

static void axis_range(const struct sb_axis *a, double *t0, double *t1)
{
	double lo = a->lo, hi = a->hi;
	if (!a->set) {
		lo = a->kind == SB_AXIS_LOG ? 1 : 0;
		hi = a->kind == SB_AXIS_LOG ? 10 : a->kind == SB_AXIS_PCT ? 99 : 1;
	}
	if (a->kind == SB_AXIS_LOG) {
		*t0 = floor(log10(lo));
		*t1 = ceil(log10(hi));
		if (*t1 <= *t0)
			*t1 = *t0 + 1;
	} else if (a->kind == SB_AXIS_PCT) {
		*t0 = 0;
		*t1 = ceil(tf(SB_AXIS_PCT, hi));
		if (*t1 < 1)
			*t1 = 1;
	} else {
		if (lo > 0)
			lo = 0;   /* rates, sizes, times and shares start at zero */
		if (hi <= lo)
			hi = lo + (lo ? fabs(lo) : 1);
		*t0 = lo;
		*t1 = hi + (hi - lo) * 0.05;
	}
}

static double px(const struct sb_chart *c, double v)
{
	return ML + (tf(c->x.kind, v) - c->tx0) / (c->tx1 - c->tx0) * PW;
}

static double py(const struct sb_chart *c, double v)
{
	return MT + PH - (tf(c->y.kind, v) - c->ty0) / (c->ty1 - c->ty0) * PH;
}

static double nice_step(double span)
{
	double raw = span / 6, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}

/* a tick's label: sb_svg_si without trailing zeros, so the labels of one
 * axis read "1, 1.5, 2" and "1k, 1.5k, 2k", never "1, 1.50, 2" */
static void tick_label(double v, char *lab, size_t len)
{
	sb_svg_si(v, lab, len);
	char *dot = strchr(lab, '.');
	if (!dot || strchr(lab, 'e'))
		return;
	char *end = dot + 1;
	while (*end >= '0' && *end <= '9')
		end++;
	char *z = end;
	while (z > dot + 1 && z[-1] == '0')
		z--;
	if (z == dot + 1)
		z = dot;   /* "2.00" -> "2" */
	memmove(z, end, strlen(end) + 1);
}

/* calls tick(pos in axis units, label) for each tick of axis a */
static void ticks(struct sb_chart *c, const struct sb_axis *a, double t0, double t1, int vertical)
{
	struct sb_out *o = c->o;
	char lab[32];
	double vals[64];
	unsigned n = 0;
	if (a->kind == SB_AXIS_LOG) {
		for (double e = t0; e <= t1 + 1e-9 && n < 64; e++)
			vals[n++] = pow(10, e);
	} else if (a->kind == SB_AXIS_PCT) {
		for (double e = t0; e <= t1 + 1e-9 && n < 64; e++)
			vals[n++] = 100 * (1 - pow(10, -e));
	} else {
		double st = nice_step(t1 - t0);
		for (double v = ceil(t0 / st) * st; v <= t1 + st * 1e-9 && n < 64; v += st)
			vals[n++] = fabs(v) < st * 1e-9 ? 0 : v;
	}
	for (unsigned i = 0; i < n; i++) {
		if (a->kind == SB_AXIS_PCT)
			snprintf(lab, sizeof(lab), "%.*f", i <= 2 ? 0 : (int)i - 2, vals[i]);
		else
			tick_label(vals[i], lab, sizeof(lab));
		if (vertical) {
			double y = py(c, vals[i]);
			sb_out_printf(o, "<line class=\"g\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
				      "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				      ML, ML + PW, y, y, ML - 4, y + 4, lab);
		} else {
			double x = px(c, vals[i]), half = strlen(lab) * TXW / 2;
			/* a label that would cross the picture's right edge ("99.9999" at
			 * the end of a percentile axis) ends at the edge instead */
			int right = x + half > CW - 2;
			sb_out_printf(o, "<line class=\"g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
				      "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n",
				      x, x, MT, MT + PH, right ? CW - 2 : x, MT + PH + 14,
				      right ? "end" : "middle", lab);
		}
	}
}

void sb_svg_open(struct sb_out *o, int w, int h, const char *title)
{
	sb_out_puts(o, "<figure><figcaption>");
	sb_out_esc(o, title);
	sb_out_printf(o, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		      "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", w, h, w, h);
}

void sb_chart_begin(struct sb_chart *c, struct sb_out *o, const char *title,
		    const struct sb_axis *x, const struct sb_axis *y)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->x = *x;
	c->y = *y;
	axis_range(x, &c->tx0, &c->tx1);
	axis_range(y, &c->ty0, &c->ty1);
	sb_svg_open(o, CW, CH, title);
	ticks(c, x, c->tx0, c->tx1, 0);
	ticks(c, y, c->ty0, c->ty1, 1);
	sb_out_printf(o, "<rect class=\"f\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		      ML, MT, PW, PH);
	sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2, CH - 6);
	sb_out_esc(o, x->label);
	sb_out_printf(o, "</text><text transform=\"rotate(-90)\" x=\"%d\" y=\"14\" "
		      "text-anchor=\"middle\">", -(MT + PH / 2));
	sb_out_esc(o, y->label);
	sb_out_puts(o, "</text>\n");
}

static void pt(struct sb_chart *c, double x, double y, int *first)
{
	sb_out_printf(c->o, "%s%.1f,%.1f", *first ? "" : " ", px(c, x), py(c, y));
	*first = 0;
}

static int drawable(const struct sb_chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) &&
	       !(c->x.kind == SB_AXIS_LOG && x <= 0) && !(c->y.kind == SB_AXIS_LOG && y <= 0);
}

void sb_chart_line(struct sb_chart *c, const double *x, const double *y, size_t n,
		   unsigned color, int dash, const char *name)
{
	struct sb_out *o = c->o;
	sb_out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
		      sb_svg_color(color), dash ? " stroke-dasharray=\"5,3\"" : "");
	int first = 1;
	size_t i = 0;
	while (i < n) {
		if (!drawable(c, x[i], y[i])) {
			i++;
			continue;
		}
		/* the points falling in this pixel column: first, min, max, last */
		int col = (int)px(c, x[i]);
		size_t j = i, imin = i, imax = i, last = i;
		for (; j < n && (!drawable(c, x[j], y[j]) || (int)px(c, x[j]) == col); j++) {
			if (!drawable(c, x[j], y[j]))
				continue;
			if (y[j] < y[imin])
				imin = j;
			if (y[j] > y[imax])
				imax = j;
			last = j;
		}
		pt(c, x[i], y[i], &first);
		size_t a = imin < imax ? imin : imax, b = imin < imax ? imax : imin;
		if (a != i)
			pt(c, x[a], y[a], &first);
		if (b != a && b != i)
			pt(c, x[b], y[b], &first);
		if (last != b && last != i)
			pt(c, x[last], y[last], &first);
		i = j;
	}
	sb_out_puts(o, "\">");
	if (name) {
		sb_out_puts(o, "<title>");
		sb_out_esc(o, name);
		sb_out_puts(o, "</title>");
	}
	sb_out_puts(o, "</polyline>\n");
	if (name && c->nleg < SB_CHART_MAXLEG) {
		snprintf(c->leg[c->nleg], sizeof(c->leg[0]), "%s", name);
		c->legc[c->nleg] = color;
		c->legdash[c->nleg++] = dash;
	}
}

void sb_chart_spans(struct sb_chart *c, const double *x0, const double *x1, const double *y,
		    size_t n, unsigned color, int dash, const char *name)
{
	struct sb_out *o = c->o;
	sb_out_puts(o, "<g class=\"spans\"");
	if (name) {
		sb_out_puts(o, " data-name=\"");
		sb_out_esc(o, name);
		sb_out_puts(o, "\"");
	}
	sb_out_puts(o, ">\n");
	for (size_t i = 0; i < n; i++) {
		if (!drawable(c, x0[i], y[i]) || !drawable(c, x1[i], y[i]))
			continue;
		double a = px(c, x0[i]), b = px(c, x1[i]), v = py(c, y[i]);
		char num[32];
		sb_out_printf(o, "<line class=\"span\" data-t0=\"%.3f\" data-t1=\"%.3f\" "
			      "data-v=\"%.6g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			      "stroke=\"%s\" stroke-width=\"2\"%s/>", x0[i], x1[i], y[i], a, b, v, v,
			      sb_svg_color(color), dash ? " stroke-dasharray=\"5,3\"" : "");
		sb_out_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
			      (a + b) / 2, v, sb_svg_color(color));
		if (name) {
			sb_out_esc(o, name);
			sb_out_puts(o, ", ");
		}
		sb_out_printf(o, "%.3f-%.3f s: %s</title></circle>\n", x0[i], x1[i],
			      sb_svg_si(y[i], num, sizeof(num)));
	}
	sb_out_puts(o, "</g>\n");
	if (name && c->nleg < SB_CHART_MAXLEG) {
		snprintf(c->leg[c->nleg], sizeof(c->leg[0]), "%s", name);
		c->legc[c->nleg] = color;
		c->legdash[c->nleg++] = dash;
	}
}

static void legend(struct sb_out *o, unsigned n, const char *const *names, const char (*cnames)[128],
		   const unsigned *colors, const int *dash)
{
	if (!n)
		return;
	sb_out_puts(o, "<div class=\"leg\">");
	for (unsigned i = 0; i < n; i++) {
		sb_out_printf(o, "<span><i style=\"border-color:%s\"%s></i>", sb_svg_color(colors[i]),
			      dash && dash[i] ? " class=\"d\"" : "");
		sb_out_esc(o, names ? names[i] : cnames[i]);
		sb_out_puts(o, "</span> ");
	}
	sb_out_puts(o, "</div>");
}

void sb_chart_end(struct sb_chart *c)
{
	sb_out_puts(c->o, "</svg>\n");
	legend(c->o, c->nleg, NULL, c->leg, c->legc, c->legdash);
	sb_out_puts(c->o, "</figure>\n");
}

/* ---- bars ---- */

void sb_svg_bars(struct sb_out *o, const struct sb_bars *b)
{
	double hi = 0;
	for (unsigned i = 0; i < b->ncat * b->nser; i++)
		if (isfinite(b->v[i]) && b->v[i] > hi)
			hi = b->v[i];
	struct sb_chart c = { .o = o };
	c.y.kind = SB_AXIS_LIN;
	c.y.set = 1;
	c.y.lo = 0;
	c.y.hi = hi > 0 ? hi * 1.08 : 1;   /* room for the notes */
	axis_range(&c.y, &c.ty0, &c.ty1);
	sb_svg_open(o, CW, CH, b->title);
	ticks(&c, &c.y, c.ty0, c.ty1, 1);
	sb_out_printf(o, "<rect class=\"f\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		      ML, MT, PW, PH);
	sb_out_printf(o, "<text transform=\"rotate(-90)\" x=\"%d\" y=\"14\" text-anchor=\"middle\">",
		      -(MT + PH / 2));
	sb_out_esc(o, b->ylabel);
	sb_out_puts(o, "</text>\n");
	double cw = (double)PW / (b->ncat ? b->ncat : 1), bw = cw * 0.8 / (b->nser ? b->nser : 1);
	for (unsigned ci = 0; ci < b->ncat; ci++) {
		double x0 = ML + ci * cw + cw * 0.1;
		if ((int)ci == b->best)
			sb_out_printf(o, "<rect class=\"best\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
				      "height=\"%d\"/>\n", x0 - cw * 0.05, MT, cw * 0.9, PH);
		for (unsigned s = 0; s < b->nser; s++) {
			double v = b->v[s * b->ncat + ci];
			if (!isfinite(v))
				continue;
			double y = py(&c, v < 0 ? 0 : v);
			char num[32];
			sb_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				      "fill=\"%s\"><title>", x0 + s * bw, y, bw * 0.95, MT + PH - y,
				      sb_svg_color(s));
			if (b->nser > 1 && b->sers) {
				sb_out_esc(o, b->sers[s]);
				sb_out_puts(o, ", ");
			}
			sb_out_esc(o, b->cats[ci]);
			sb_out_printf(o, ": %s", sb_svg_si(v, num, sizeof(num)));
			sb_out_puts(o, "</title></rect>\n");
			const char *note = b->notes ? b->notes[s * b->ncat + ci] : NULL;
			if (note && *note) {
				sb_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					      "class=\"n\">", x0 + s * bw + bw / 2, y - 3);
				sb_out_esc(o, note);
				sb_out_puts(o, "</text>\n");
			}
		}
		const char *why = b->empty ? b->empty[ci] : NULL;
		if (why && *why) {   /* a category without a bar says why */
			sb_out_printf(o, "<text class=\"empty\" x=\"%.1f\" y=\"%d\" "
				      "text-anchor=\"middle\">", x0 + cw * 0.4, MT + PH - 8);
			sb_out_esc(o, why);
			sb_out_puts(o, "</text>\n");
		}
		sb_out_printf(o, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x0 + cw * 0.4,
			      MT + PH + 14 + (b->ncat > 8 ? (int)(ci % 2) * 13 : 0));
		sb_out_esc(o, b->cats[ci]);
		sb_out_puts(o, "</text>\n");
	}
	sb_out_puts(o, "</svg>\n");
	if (b->nser > 1 && b->sers) {
		unsigned cols[SB_CHART_MAXLEG], n = 0;
		const char *names[SB_CHART_MAXLEG];
		for (unsigned s = 0; s < b->nser && n < SB_CHART_MAXLEG; s++) {
			int has = 0;
			for (unsigned ci = 0; ci < b->ncat; ci++)
				has |= isfinite(b->v[s * b->ncat + ci]);
			if (has) {   /* series without a bar stay out of the legend */
				cols[n] = s;
				names[n++] = b->sers[s];
			}
		}
		legend(o, n, names, NULL, cols, NULL);
	}
	sb_out_puts(o, "</figure>\n");
}
