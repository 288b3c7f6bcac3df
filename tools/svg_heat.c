/* tools/svg_heat.c: the heat map (a swept option against another) and the
 * heat strip (per-CPU utilization over time) of `storbench report`, as
 * inline SVG (see tools/svg.h). */
#include "tools/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- heat map and strip ---- */

/* white-yellow-red ramp for f in 0..1 */
static void ramp(double f, char *buf, size_t len)
{
	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	int r = 255, g = (int)(255 - 200 * f), bl = (int)(230 * (1 - f) * (1 - f));
	if (f > 0.5)
		r = (int)(255 - 90 * (f - 0.5));
	snprintf(buf, len, "#%02x%02x%02x", r, g, bl);
}

void sb_svg_heatmap(struct sb_out *o, const struct sb_heat *h)
{
	int cw = h->nx > 8 ? 70 : 96, ch = 30, ml = 110, mt = 20;
	int w = ml + cw * (int)h->nx + 20, hh = mt + ch * (int)h->ny + 40;
	double lo = 0, hi = 0;
	int any = 0;
	for (unsigned i = 0; i < h->nx * h->ny; i++)
		if (isfinite(h->v[i])) {
			lo = any && lo < h->v[i] ? lo : h->v[i];
			hi = any && hi > h->v[i] ? hi : h->v[i];
			any = 1;
		}
	sb_svg_open(o, w, hh, h->title);
	for (unsigned iy = 0; iy < h->ny; iy++) {
		sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", ml - 6,
			      mt + ch * (int)iy + ch / 2 + 4);
		sb_out_esc(o, h->ys[iy]);
		sb_out_puts(o, "</text>\n");
		for (unsigned ix = 0; ix < h->nx; ix++) {
			double v = h->v[iy * h->nx + ix];
			if (!isfinite(v))
				continue;
			char col[16], num[32];
			ramp(hi > lo ? (v - lo) / (hi - lo) : 1, col, sizeof(col));
			int best = (int)ix == h->bestx && (int)iy == h->besty;
			int x = ml + cw * (int)ix, y = mt + ch * (int)iy;
			sb_out_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s>"
				      "<title>", x, y, cw, ch, col, best ? " class=\"bc\"" : "");
			sb_out_esc(o, h->xlabel);
			sb_out_puts(o, "=");
			sb_out_esc(o, h->xs[ix]);
			sb_out_puts(o, ", ");
			sb_out_esc(o, h->ylabel);
			sb_out_puts(o, "=");
			sb_out_esc(o, h->ys[iy]);
			sb_out_printf(o, ": %s ", sb_svg_si(v, num, sizeof(num)));
			sb_out_esc(o, h->unit);
			sb_out_printf(o, "%s</title></rect><text x=\"%d\" y=\"%d\" text-anchor=\"middle\"%s>%s"
				      "</text>\n", best ? " (best)" : "", x + cw / 2, y + ch / 2 + 4,
				      best ? " font-weight=\"bold\"" : "", num);
		}
	}
	for (unsigned ix = 0; ix < h->nx; ix++) {
		sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
			      ml + cw * (int)ix + cw / 2, mt + ch * (int)h->ny + 14);
		sb_out_esc(o, h->xs[ix]);
		sb_out_puts(o, "</text>\n");
	}
	sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ml + cw * (int)h->nx / 2,
		      hh - 6);
	sb_out_esc(o, h->xlabel);
	sb_out_printf(o, " (cells: %s, ", h->unit);
	sb_out_esc(o, h->ylabel);
	sb_out_puts(o, " down the side)</text></svg></figure>\n");
}

#define NLEVEL 16

void sb_svg_strip(struct sb_out *o, const char *title, const char *rowname,
		  const char *const *rows, unsigned nrow, unsigned ncol, const float *v,
		  double t0, double t1)
{
	int rh = nrow > 64 ? 2 : nrow > 16 ? 4 : 12;
	int ml = 72, mt = 10, w = ml + 680 + 16, h = mt + rh * (int)nrow + 40;
	double cw = 680.0 / (ncol ? ncol : 1);
	sb_svg_open(o, w, h, title);
	/* one path per colour level: each run of equal level in a row is one
	 * rectangle, so a 64-CPU hour stays a few hundred KB */
	for (int lv = 0; lv < NLEVEL; lv++) {
		char col[16];
		ramp((lv + 0.5) / NLEVEL, col, sizeof(col));
		int open = 0;
		for (unsigned r = 0; r < nrow; r++) {
			for (unsigned c = 0; c < ncol;) {
				int l = (int)(v[r * ncol + c] / 100.0 * NLEVEL);
				l = l < 0 ? 0 : l >= NLEVEL ? NLEVEL - 1 : l;
				unsigned e = c + 1;
				while (e < ncol) {
					int l2 = (int)(v[r * ncol + e] / 100.0 * NLEVEL);
					l2 = l2 < 0 ? 0 : l2 >= NLEVEL ? NLEVEL - 1 : l2;
					if (l2 != l)
						break;
					e++;
				}
				if (l == lv) {
					if (!open)
						sb_out_printf(o, "<path fill=\"%s\" d=\"", col);
					open = 1;
					sb_out_printf(o, "M%.1f %dh%.1fv%dh-%.1fz", ml + c * cw,
						      mt + (int)r * rh, (e - c) * cw, rh, (e - c) * cw);
				}
				c = e;
			}
		}
		if (open)
			sb_out_printf(o, "\"><title>%d-%d %%</title></path>\n", lv * 100 / NLEVEL,
				      (lv + 1) * 100 / NLEVEL);
	}
	for (unsigned r = 0; r < nrow; r += nrow > 16 ? 8 : 1) {
		sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", ml - 4,
			      mt + (int)r * rh + (rh > 8 ? rh - 2 : 8));
		if (rows)
			sb_out_esc(o, rows[r]);
		else
			sb_out_printf(o, "%s %u", rowname, r);
		sb_out_puts(o, "</text>\n");
	}
	char a[32], b[32];
	sb_out_printf(o, "<text x=\"%d\" y=\"%d\">%s s</text><text x=\"%d\" y=\"%d\" "
		      "text-anchor=\"end\">%s s</text>", ml, h - 24, sb_svg_si(t0, a, sizeof(a)),
		      ml + 680, h - 24, sb_svg_si(t1, b, sizeof(b)));
	sb_out_printf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s); colour: "
		      "utilization 0 %% (white) to 100 %% (red)</text></svg></figure>\n",
		      ml + 340, h - 6);
}
