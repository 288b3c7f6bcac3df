/* tools/report_sweep.c: the sections of `storbench report` for sweeps (heat
 * map over two swept options, the effect of each option, the points best
 * first) and for engine (and other one-option) comparisons: bars with
 * ratios and the comparison table. */
#include "tools/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"

#define MAXV 64   /* values per swept option drawn */

static const char *const sdirs[] = { "read", "write" };

/* index of value s in the option's values, or -1.  A value "@NAME" (sweep
 * value = another swept option's value, e.g. iodepth_batch_complete_min =
 * @iodepth) matches the points whose s is their NAME's value (pv: the
 * point's "values"): the points hold the number ("16"), the option "@iodepth". */
static int value_index(const struct sb_jval *opt, const char *s, const struct sb_jval *pv)
{
	int i = 0, at = -1;
	const struct sb_jval *vals = sb_jv_get(opt, "values");
	for (const struct sb_jval *v = vals ? vals->child : NULL; v && s; v = v->next, i++) {
		if (v->type != SB_JSTR)
			continue;
		if (!strcmp(v->s, s))
			return i;
		if (v->s[0] == '@' && at < 0 && !strcmp(sb_jv_str(sb_jv_get(pv, v->s + 1), ""), s))
			at = i;
	}
	return at;
}

static const struct sb_jval *find_opt(const struct sb_jval *sw, const char *name)
{
	const struct sb_jval *ops = sb_jv_get(sw, "options");
	for (const struct sb_jval *o = ops ? ops->child : NULL; o; o = o->next)
		if (!strcmp(sb_jv_str(sb_jv_get(o, "name"), ""), name))
			return o;
	return NULL;
}

int sb_rep_check_heatmap(const struct sb_rep *rp)
{
	if (!rp->heat_x)
		return 0;
	int found = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *sw = sb_jv_get(rp->r[ri].root, "sweep");
		if (!sw)
			continue;
		if (find_opt(sw, rp->heat_x) && find_opt(sw, rp->heat_y) &&
		    strcmp(rp->heat_x, rp->heat_y)) {
			found = 1;
			continue;
		}
		char list[512] = "";
		size_t n = 0;
		const struct sb_jval *ops = sb_jv_get(sw, "options");
		for (const struct sb_jval *o = ops ? ops->child : NULL; o && n < sizeof(list) - 1; o = o->next)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
					      sb_jv_str(sb_jv_get(o, "name"), "?"));
		sb_err("report", "--heatmap=%s,%s: %s sweeps %s; give two different swept options "
		       "(storbench report --help)", rp->heat_x, rp->heat_y, rp->r[ri].path,
		       n ? list : "nothing");
		return -1;
	}
	if (!found) {
		sb_err("report", "--heatmap=%s,%s: no result is a sweep (storbench report --help)",
		       rp->heat_x, rp->heat_y);
		return -1;
	}
	return 0;
}

static double mib(const struct sb_jval *pt, const char *dir)
{
	const struct sb_jval *d = sb_jv_get(pt, dir);
	return d ? sb_jv_num(sb_jv_get(d, "bw_bytes"), NAN) / 1048576.0 : NAN;
}

static void heatmap(struct sb_rep *rp, unsigned ri, const struct sb_jval *sw, const char *dir)
{
	const struct sb_jval *ops = sb_jv_get(sw, "options");
	const struct sb_jval *ox = NULL, *oy = NULL;
	if (rp->heat_x) {
		ox = find_opt(sw, rp->heat_x);
		oy = find_opt(sw, rp->heat_y);
	} else {   /* the two options with the most values, first ones on a tie */
		for (const struct sb_jval *o = ops ? ops->child : NULL; o; o = o->next) {
			size_t n = sb_jv_len(sb_jv_get(o, "values"));
			if (!ox || n > sb_jv_len(sb_jv_get(ox, "values"))) {
				oy = ox;
				ox = o;
			} else if (!oy || n > sb_jv_len(sb_jv_get(oy, "values"))) {
				oy = o;
			}
		}
	}
	if (!ox || !oy)
		return;
	size_t nx = sb_jv_len(sb_jv_get(ox, "values")), ny = sb_jv_len(sb_jv_get(oy, "values"));
	if (!nx || !ny || nx > MAXV || ny > MAXV)
		return;
	const char *xs[MAXV], *ys[MAXV];
	double v[MAXV * MAXV];
	for (size_t i = 0; i < nx; i++)
		xs[i] = sb_jv_str(sb_jv_at(sb_jv_get(ox, "values"), i), "?");
	for (size_t i = 0; i < ny; i++)
		ys[i] = sb_jv_str(sb_jv_at(sb_jv_get(oy, "values"), i), "?");
	for (size_t i = 0; i < nx * ny; i++)
		v[i] = NAN;
	const char *xn = sb_jv_str(sb_jv_get(ox, "name"), "?"), *yn = sb_jv_str(sb_jv_get(oy, "name"), "?");
	int bx = -1, by = -1;
	const struct sb_jval *pts = sb_jv_get(sw, "points");
	for (const struct sb_jval *p = pts ? pts->child : NULL; p; p = p->next) {
		const struct sb_jval *vals = sb_jv_get(p, "values");
		int ix = value_index(ox, sb_jv_str(sb_jv_get(vals, xn), NULL), vals);
		int iy = value_index(oy, sb_jv_str(sb_jv_get(vals, yn), NULL), vals);
		double b = mib(p, dir);
		if (ix < 0 || iy < 0 || !isfinite(b))
			continue;
		double *cell = &v[iy * (int)nx + ix];
		if (!isfinite(*cell) || b > *cell)
			*cell = b;   /* the best over the other options */
		if (bx < 0 || *cell > v[by * (int)nx + bx]) {
			bx = ix;
			by = iy;
		}
	}
	if (bx < 0)
		return;
	char title[400];
	snprintf(title, sizeof(title), "%s bandwidth over %s and %s (%s%sbest over the other options)",
		 dir, xn, yn, rp->n > 1 ? rp->r[ri].label : "", rp->n > 1 ? ", " : "");
	struct sb_heat h = { title, xn, yn, "MiB/s", (unsigned)nx, (unsigned)ny, xs, ys, v, bx, by };
	sb_svg_heatmap(rp->o, &h);
}

/* whether a point of list pts holds value ci of option name (opt, its
 * sweep.options entry) */
static const struct sb_jval *with_value(const struct sb_jval *pts, const struct sb_jval *opt,
					const char *name, int ci)
{
	for (const struct sb_jval *p = pts ? pts->child : NULL; p; p = p->next) {
		const struct sb_jval *vals = sb_jv_get(p, "values");
		const char *pv = sb_jv_str(sb_jv_get(vals, name), NULL);
		if (pv && value_index(opt, pv, vals) == ci)
			return p;
	}
	return NULL;
}

/* Why value ci of option name has no bar: every point with it was skipped
 * (its GPU library missing): "skipped: no libcuda.so.1" into buf; NULL when
 * a point with it ran (it moved no data in this direction: a "write" value
 * in a read chart) or none exists */
static const char *skip_reason(const struct sb_rep *rp, const char *name, int ci, char *buf,
			       size_t len)
{
	const struct sb_jval *sk = NULL;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *sw = sb_jv_get(rp->r[ri].root, "sweep"), *opt = find_opt(sw, name);
		if (with_value(sb_jv_get(sw, "points"), opt, name, ci))
			return NULL;
		if (!sk)
			sk = with_value(sb_jv_get(sw, "skipped"), opt, name, ci);
	}
	if (!sk)
		return NULL;
	const char *r = sb_jv_str(sb_jv_get(sk, "reason"), ""), *lib = strstr(r, "lib");
	size_t n = lib ? strcspn(lib, " ,;:()'\"") : 0;
	char tok[40];
	snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) ? n : 0), lib ? lib : "");
	if (strstr(tok, ".so"))
		snprintf(buf, len, "skipped: no %s", tok);
	else
		snprintf(buf, len, "skipped (not run)");
	return buf;
}

/* The categories of an effect chart without any bar: a skipped value stays,
 * labelled why (skip_reason), any other is left out, so no chart has a
 * silent empty group.  Compacts cats and v (nser series of nv values) in
 * place, moves *best along; returns the categories left. */
static size_t drop_empty(const struct sb_rep *rp, const char *name, const char **cats, double *v,
			 unsigned nser, size_t nv, const char **why, char (*whyb)[64], int *best)
{
	size_t k = 0;
	int nbest = -1;
	for (size_t i = 0; i < nv; i++) {
		int has = 0;
		for (unsigned s = 0; s < nser; s++)
			has |= isfinite(v[s * nv + i]);
		const char *w = has ? NULL : skip_reason(rp, name, (int)i, whyb[k], sizeof(whyb[0]));
		if (!has && !w)
			continue;
		if ((int)i == *best)
			nbest = (int)k;
		cats[k] = cats[i];
		why[k] = w;
		for (unsigned s = 0; s < nser; s++)
			v[s * nv + k] = v[s * nv + i];
		k++;
	}
	/* the series were nv apart; now k apart */
	for (unsigned s = 1; s < nser; s++)
		memmove(v + s * k, v + s * nv, k * sizeof(double));
	*best = nbest;
	return k;
}

/* effect of one option: per value, the best and the mean bandwidth of the
 * points with that value, each result a pair of bar series */
static void effect(struct sb_rep *rp, const char *name, const char *dir)
{
	const struct sb_jval *opt0 = NULL;
	for (unsigned ri = 0; ri < rp->n && !opt0; ri++)
		opt0 = find_opt(sb_jv_get(rp->r[ri].root, "sweep"), name);
	size_t nv = sb_jv_len(sb_jv_get(opt0, "values"));
	if (!nv || nv > MAXV)
		return;
	unsigned nser = 2 * rp->n;
	const char *cats[MAXV];
	double *v = malloc(nser * nv * sizeof(double));
	char (*sn)[160] = malloc(nser * sizeof(*sn));
	const char **sers = malloc(nser * sizeof(*sers));
	if (!v || !sn || !sers)
		goto out;
	for (size_t i = 0; i < nv; i++)
		cats[i] = sb_jv_str(sb_jv_at(sb_jv_get(opt0, "values"), i), "?");
	int any = 0, best = -1;
	double bestv = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *sw = sb_jv_get(rp->r[ri].root, "sweep");
		double *bv = v + 2 * ri * nv, *mv = bv + nv, cnt[MAXV] = { 0 };
		char nm[140];
		snprintf(sn[2 * ri], sizeof(sn[0]), "%s", sb_rep_name(rp, ri, "best", nm, sizeof(nm)));
		snprintf(sn[2 * ri + 1], sizeof(sn[0]), "%s", sb_rep_name(rp, ri, "mean", nm, sizeof(nm)));
		sers[2 * ri] = sn[2 * ri];
		sers[2 * ri + 1] = sn[2 * ri + 1];
		for (size_t i = 0; i < nv; i++)
			bv[i] = mv[i] = NAN;
		const struct sb_jval *pts = sb_jv_get(sw, "points");
		for (const struct sb_jval *p = pts ? pts->child : NULL; p; p = p->next) {
			const char *val = sb_jv_str(sb_jv_path(p, "values") ? sb_jv_get(sb_jv_get(p, "values"), name) : NULL, NULL);
			int i = val ? value_index(opt0, val, sb_jv_get(p, "values")) : -1;
			double b = mib(p, dir);
			if (i < 0 || !isfinite(b))
				continue;
			any = 1;
			bv[i] = isfinite(bv[i]) && bv[i] > b ? bv[i] : b;
			mv[i] = (isfinite(mv[i]) ? mv[i] * cnt[i] + b : b) / (cnt[i] + 1);
			cnt[i]++;
			if (best < 0 || bv[i] > bestv) {
				best = i;
				bestv = bv[i];
			}
		}
	}
	if (any) {
		char title[300], whyb[MAXV][64];
		const char *why[MAXV];
		nv = drop_empty(rp, name, cats, v, nser, nv, why, whyb, &best);
		snprintf(title, sizeof(title), "Effect of %s on %s bandwidth (best and mean over the other "
			 "options; best value shaded)", name, dir);
		struct sb_bars b = { title, "bandwidth (MiB/s)", (unsigned)nv, nser, cats, sers, v, NULL,
				     best, why };
		sb_svg_bars(rp->o, &b);
	}
out:
	free(v);
	free(sn);
	free(sers);
}

static int cmp_score(const void *a, const void *b)
{
	double x = sb_jv_num(sb_jv_get(*(const struct sb_jval *const *)a, "score"), 0);
	double y = sb_jv_num(sb_jv_get(*(const struct sb_jval *const *)b, "score"), 0);
	return x < y ? 1 : x > y ? -1 : 0;
}

static void points_table(struct sb_rep *rp, unsigned ri, const struct sb_jval *sw)
{
	struct sb_out *o = rp->o;
	const struct sb_jval *pts = sb_jv_get(sw, "points"), *ops = sb_jv_get(sw, "options");
	size_t n = sb_jv_len(pts);
	const struct sb_jval **pv = malloc((n ? n : 1) * sizeof(*pv));
	if (!pv)
		return;
	size_t k = 0;
	for (const struct sb_jval *p = pts ? pts->child : NULL; p; p = p->next)
		pv[k++] = p;
	qsort(pv, k, sizeof(*pv), cmp_score);
	if (!strcmp(sb_jv_str(sb_jv_get(sw, "metric"), ""), "clat_p99"))
		for (size_t i = 0; i < k / 2; i++) {   /* lower latency is better */
			const struct sb_jval *t = pv[i];
			pv[i] = pv[k - 1 - i];
			pv[k - 1 - i] = t;
		}
	sb_out_puts(o, "<h3>Points, best first");
	if (rp->n > 1) {
		sb_out_puts(o, ": ");
		sb_out_esc(o, rp->r[ri].label);
	}
	sb_out_puts(o, "</h3>\n<table class=\"t\"><tr><th>point</th>");
	for (const struct sb_jval *op = ops ? ops->child : NULL; op; op = op->next) {
		sb_out_puts(o, "<th>");
		sb_out_esc(o, sb_jv_str(sb_jv_get(op, "name"), "?"));
		sb_out_puts(o, "</th>");
	}
	sb_out_puts(o, "<th>direction</th><th>bandwidth (MiB/s)</th><th>IOPS</th>"
		    "<th>clat p50 (us)</th><th>clat p99 (us)</th></tr>\n");
	for (size_t i = 0; i < k && i < 500; i++)
		for (unsigned d = 0; d < 2; d++) {
			const struct sb_jval *dj = sb_jv_get(pv[i], sdirs[d]);
			if (!dj)
				continue;
			sb_out_printf(o, "<tr%s><td>%lld</td>", i == 0 ? " class=\"best\"" : "",
				      (long long)sb_jv_int(sb_jv_get(pv[i], "point"), 0));
			for (const struct sb_jval *op = ops ? ops->child : NULL; op; op = op->next) {
				sb_out_puts(o, "<td>");
				sb_out_esc(o, sb_jv_str(sb_jv_get(sb_jv_get(pv[i], "values"),
								  sb_jv_str(sb_jv_get(op, "name"), "")), ""));
				sb_out_puts(o, "</td>");
			}
			sb_out_printf(o, "<td>%s</td><td>%.1f</td><td>%.0f</td><td>%.1f</td><td>%.1f</td></tr>\n",
				      sdirs[d], mib(pv[i], sdirs[d]), sb_jv_num(sb_jv_get(dj, "iops"), 0),
				      sb_jv_num(sb_jv_get(dj, "clat_ns_p50"), 0) / 1000,
				      sb_jv_num(sb_jv_get(dj, "clat_ns_p99"), 0) / 1000);
		}
	sb_out_puts(o, "</table>\n");
	free(pv);
}

void sb_rep_sweep(struct sb_rep *rp)
{
	const struct sb_jval *first = NULL;
	for (unsigned ri = 0; ri < rp->n && !first; ri++)
		first = sb_jv_get(rp->r[ri].root, "sweep");
	if (!first)
		return;
	sb_rep_section(rp, "Sweep");
	for (unsigned d = 0; d < 2; d++) {
		int has = 0;
		for (unsigned ri = 0; ri < rp->n; ri++) {
			const struct sb_jval *sw = sb_jv_get(rp->r[ri].root, "sweep");
			const struct sb_jval *pts = sb_jv_get(sw, "points");
			for (const struct sb_jval *p = pts ? pts->child : NULL; p && !has; p = p->next)
				has = sb_jv_get(p, sdirs[d]) != NULL;
			if (has && sb_jv_len(sb_jv_get(sw, "options")) >= 2)
				heatmap(rp, ri, sw, sdirs[d]);
		}
		const struct sb_jval *ops = sb_jv_get(first, "options");
		for (const struct sb_jval *op = ops ? ops->child : NULL; has && op; op = op->next)
			effect(rp, sb_jv_str(sb_jv_get(op, "name"), "?"), sdirs[d]);
	}
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *sw = sb_jv_get(rp->r[ri].root, "sweep");
		if (sw)
			points_table(rp, ri, sw);
	}
	sb_rep_section_end(rp);
}

/* ---- engine (and other one-option) comparisons ---- */

static void compare_set(struct sb_rep *rp, size_t k)
{
	const struct sb_jval *set0 = NULL;
	for (unsigned ri = 0; ri < rp->n && !set0; ri++)
		set0 = sb_jv_at(sb_jv_get(rp->r[ri].root, "comparisons"), k);
	const struct sb_jval *rows0 = sb_jv_get(set0, "rows");
	size_t nc = sb_jv_len(rows0);
	if (!nc || nc > MAXV)
		return;
	int iops = !strcmp(sb_jv_str(sb_jv_get(set0, "metric"), ""), "iops");
	const char *opt = sb_jv_str(sb_jv_get(set0, "option"), "?");
	const char *cats[MAXV];
	double *v = malloc(rp->n * nc * sizeof(double));
	char (*notes)[24] = malloc(rp->n * nc * sizeof(*notes));
	const char **np = malloc(rp->n * nc * sizeof(*np));
	const char **sers = malloc(rp->n * sizeof(*sers));
	if (!v || !notes || !np || !sers)
		goto out;
	for (size_t c = 0; c < nc; c++)
		cats[c] = sb_jv_str(sb_jv_get(sb_jv_at(rows0, c), "value"), "?");
	struct sb_out *o = rp->o;
	sb_out_puts(o, "<h3>");
	sb_out_esc(o, opt);
	sb_out_printf(o, ": %s, ratio to the first row</h3>\n<table class=\"t\"><tr>%s<th>job</th><th>",
		      iops ? "IOPS" : "bandwidth", rp->n > 1 ? "<th>result</th>" : "");
	sb_out_esc(o, opt);
	sb_out_puts(o, "</th><th>IOPS</th><th>bandwidth (MiB/s)</th><th>clat p50 (us)</th>"
		    "<th>clat p99 (us)</th><th>clat p99.9 (us)</th><th>CPU per I/O (us)</th>"
		    "<th>ratio</th></tr>\n");
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *rows = sb_jv_get(sb_jv_at(sb_jv_get(rp->r[ri].root, "comparisons"), k), "rows");
		sers[ri] = rp->r[ri].label;
		for (size_t c = 0; c < nc; c++) {
			const struct sb_jval *row = NULL;
			for (const struct sb_jval *r = rows ? rows->child : NULL; r; r = r->next)
				if (!strcmp(sb_jv_str(sb_jv_get(r, "value"), ""), cats[c]))
					row = r;
			v[ri * nc + c] = NAN;
			np[ri * nc + c] = NULL;
			if (!row)
				continue;
			v[ri * nc + c] = iops ? sb_jv_num(sb_jv_get(row, "iops"), NAN)
				       : sb_jv_num(sb_jv_get(row, "bw_bytes"), NAN) / 1048576.0;
			snprintf(notes[ri * nc + c], sizeof(notes[0]), "x%.2f",
				 sb_jv_num(sb_jv_get(row, "ratio"), NAN));
			np[ri * nc + c] = notes[ri * nc + c];
			sb_out_puts(o, "<tr>");
			if (rp->n > 1) {
				sb_out_puts(o, "<td>");
				sb_out_esc(o, rp->r[ri].label);
				sb_out_puts(o, "</td>");
			}
			sb_out_puts(o, "<td>");
			sb_out_esc(o, sb_jv_str(sb_jv_get(row, "jobname"), "?"));
			sb_out_puts(o, "</td><td>");
			sb_out_esc(o, cats[c]);
			sb_out_printf(o, "</td><td>%.0f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>"
				      "<td>%.3f</td><td>%.2f</td></tr>\n", sb_jv_num(sb_jv_get(row, "iops"), 0),
				      sb_jv_num(sb_jv_get(row, "bw_bytes"), 0) / 1048576.0,
				      sb_jv_num(sb_jv_get(row, "clat_p50_ns"), 0) / 1000,
				      sb_jv_num(sb_jv_get(row, "clat_p99_ns"), 0) / 1000,
				      sb_jv_num(sb_jv_get(row, "clat_p99_9_ns"), 0) / 1000,
				      sb_jv_num(sb_jv_get(row, "cpu_us_per_io"), 0),
				      sb_jv_num(sb_jv_get(row, "ratio"), 0));
		}
	}
	sb_out_puts(o, "</table>\n");
	char title[300];
	snprintf(title, sizeof(title), "%s by %s (label: ratio to the first)",
		 iops ? "IOPS" : "Bandwidth", opt);
	struct sb_bars b = { title, iops ? "IOPS (I/Os per s)" : "bandwidth (MiB/s)", (unsigned)nc,
			     rp->n, cats, rp->n > 1 ? sers : NULL, v, np, -1, NULL };
	sb_svg_bars(o, &b);
out:
	free(v);
	free(notes);
	free(np);
	free(sers);
}

void sb_rep_compare(struct sb_rep *rp)
{
	size_t nset = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		size_t n = sb_jv_len(sb_jv_get(rp->r[ri].root, "comparisons"));
		nset = n > nset ? n : nset;
	}
	if (!nset)
		return;
	sb_rep_section(rp, "Comparisons");
	for (size_t k = 0; k < nset; k++)
		compare_set(rp, k);
	sb_rep_section_end(rp);
}
