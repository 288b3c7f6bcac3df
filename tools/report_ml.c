/* tools/report_ml.c: the ML sections of `storbench report`: checkpoint
 * (write/read throughput per checkpoint as bars, durations, per-rank times
 * where the result has them; tiered checkpoints' blocking and flush times),
 * training (AU and throughput per epoch, the rules verdict as a table with
 * the fixes); the KV cache's body is tools/report_kv.c.  Which section a
 * job gets is the table "workloads" below: a row per workload. */
#include "tools/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCK 256   /* checkpoints drawn per direction */

static const struct sb_jval *ml_obj(const struct sb_rep *rp, unsigned ri, unsigned ji, const char *k)
{
	return sb_jv_get(sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji), k);
}

static size_t max_jobs(const struct sb_rep *rp)
{
	size_t nj = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		size_t n = sb_jv_len(sb_jv_get(rp->r[ri].root, "jobs"));
		nj = n > nj ? n : nj;
	}
	return nj;
}

static void title3(struct sb_rep *rp, const char *what, unsigned ri)
{
	sb_out_puts(rp->o, "<h3>");
	sb_out_esc(rp->o, what);
	if (rp->n > 1) {
		sb_out_puts(rp->o, ": ");
		sb_out_esc(rp->o, rp->r[ri].label);
	}
	sb_out_puts(rp->o, "</h3>\n");
}

/* scalars of obj as a key/value table (arrays and objects left out) */
static void scalars(struct sb_out *o, const struct sb_jval *obj)
{
	sb_out_puts(o, "<table class=\"kv\">\n");
	for (const struct sb_jval *c = obj ? obj->child : NULL; c; c = c->next) {
		if (c->type == SB_JARR || (c->type == SB_JOBJ && c->n > 4))
			continue;
		sb_out_puts(o, "<tr><th>");
		sb_out_esc(o, c->key);
		sb_out_puts(o, "</th><td>");
		sb_rep_value(o, c, 1);
		sb_out_puts(o, "</td></tr>\n");
	}
	sb_out_puts(o, "</table>\n");
}

/* durations per rank, when the checkpoints carry "per_rank" ([{rank,
 * start_s, end_s, duration_s, bytes}] per checkpoint): bars per checkpoint
 * (cats: nw writes then nr reads), one per rank, at most MAXRANK ranks */
#define MAXRANK 64
static void rank_bars(struct sb_rep *rp, unsigned ri, const struct sb_jval *ck, size_t nw, size_t nr,
		      const char **cats)
{
	static const char *const dirs[] = { "write", "read" };
	size_t nc = nw + nr, nrk = 0;
	for (size_t c = 0; c < nc; c++) {
		size_t n = sb_jv_len(sb_jv_get(sb_jv_at(sb_jv_get(ck, dirs[c >= nw]), c < nw ? c : c - nw),
					       "per_rank"));
		nrk = n > nrk ? n : nrk;
	}
	if (!nrk)
		return;
	size_t shown = nrk > MAXRANK ? MAXRANK : nrk;
	char (*rl)[32] = malloc(shown * sizeof(*rl));
	const char **sers = malloc(shown * sizeof(*sers));
	double *v = malloc(shown * nc * sizeof(double));
	if (rl && sers && v) {
		for (size_t r = 0; r < shown; r++) {
			snprintf(rl[r], sizeof(rl[0]), "rank %zu", r);
			sers[r] = rl[r];
			for (size_t c = 0; c < nc; c++)
				v[r * nc + c] = NAN;
		}
		for (size_t c = 0; c < nc; c++) {
			const struct sb_jval *e = sb_jv_at(sb_jv_get(ck, dirs[c >= nw]), c < nw ? c : c - nw);
			const struct sb_jval *pr = sb_jv_get(e, "per_rank");
			for (const struct sb_jval *x = pr ? pr->child : NULL; x; x = x->next) {
				long long r = sb_jv_int(sb_jv_get(x, "rank"), -1);
				if (r >= 0 && (size_t)r < shown)
					v[(size_t)r * nc + c] = sb_jv_num(sb_jv_get(x, "duration_s"), NAN);
			}
		}
		char title[300];
		snprintf(title, sizeof(title), "Checkpoint duration per rank (%s%s; its first open to its last "
			 "close)", rp->r[ri].label, nrk > shown ? ", the first 64 ranks" : "");
		struct sb_bars b = { title, "duration (s)", (unsigned)nc, (unsigned)shown, cats,
				     shown > 1 ? sers : NULL, v, NULL, -1, NULL };
		sb_svg_bars(rp->o, &b);
	}
	free(rl);
	free(sers);
	free(v);
}

/* tiered checkpoints (the checkpoint's "tiered" object): the time the
 * application was blocked and the flush time, per checkpoint */
static void tiered(struct sb_rep *rp, unsigned ri, const struct sb_jval *t)
{
	const struct sb_jval *l = sb_jv_get(t, "checkpoints");
	size_t n = sb_jv_len(l);
	n = n > MAXCK ? MAXCK : n;
	title3(rp, "Tiered checkpoint", ri);
	char (*cl)[24] = n ? malloc(n * sizeof(*cl)) : NULL;
	const char **cats = n ? malloc(n * sizeof(*cats)) : NULL;
	double *v = n ? malloc(2 * n * sizeof(double)) : NULL;
	if (cl && cats && v) {
		static const char *const sers[] = { "application blocked", "flush" };
		for (size_t k = 0; k < n; k++) {
			const struct sb_jval *e = sb_jv_at(l, k);
			snprintf(cl[k], sizeof(cl[0]), "checkpoint %zu", k + 1);
			cats[k] = cl[k];
			v[k] = sb_jv_num(sb_jv_get(e, "blocking_s"), NAN);
			v[n + k] = sb_jv_num(sb_jv_get(e, "flush_s"), NAN);
		}
		struct sb_bars b = { "Tiered checkpoint: time the application was blocked, and the flush",
				     "time (s)", (unsigned)n, 2, cats, sers, v, NULL, -1, NULL };
		sb_svg_bars(rp->o, &b);
	}
	free(cl);
	free(cats);
	free(v);
	scalars(rp->o, t);
	sb_rep_value(rp->o, l, 1);
}

/* v[ri * nc + c] (cats: nw writes, then reads) as two bar charts, the
 * writes' and the reads', each on its own scale: reads served from the
 * page cache (100 GB/s) beside writes to the device (0.3 GB/s) left the
 * write bars a pixel high on one shared axis */
static void ck_panels(struct sb_rep *rp, const char *what, const char *ylabel,
		      const double *v, size_t nc, size_t nw, const char **cats, const char **sers)
{
	for (int rd = 0; rd < 2; rd++) {
		size_t c0 = rd ? nw : 0, k = rd ? nc - nw : nw;
		double *pv = k ? malloc(rp->n * k * sizeof(double)) : NULL;
		if (!pv)
			continue;
		for (unsigned ri = 0; ri < rp->n; ri++)
			for (size_t c = 0; c < k; c++)
				pv[ri * k + c] = v[ri * nc + c0 + c];
		char title[200];
		snprintf(title, sizeof(title), "Checkpoint %s: %s (%s)", what, rd ? "read" : "write",
			 ylabel[0] == 't' ? "per checkpoint, slowest rank's time" :
			 "first start to last end over the ranks");
		struct sb_bars b = { title, ylabel, (unsigned)k, rp->n, cats + c0,
				     rp->n > 1 ? sers : NULL, pv, NULL, -1, NULL };
		sb_svg_bars(rp->o, &b);
		free(pv);
	}
}

static void checkpoint(struct sb_rep *rp, unsigned ji)
{
	static const char *const dirs[] = { "write", "read" };
	/* categories: "write 1", ..., "read 1", ... over the longest lists */
	size_t nw = 0, nr = 0;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *ck = ml_obj(rp, ri, ji, "checkpoint");
		size_t a = sb_jv_len(sb_jv_get(ck, "write")), b = sb_jv_len(sb_jv_get(ck, "read"));
		nw = a > nw ? a : nw;
		nr = b > nr ? b : nr;
	}
	nw = nw > MAXCK ? MAXCK : nw;
	nr = nr > MAXCK ? MAXCK : nr;
	size_t nc = nw + nr;
	if (!nc)
		return;
	char (*cl)[24] = malloc(nc * sizeof(*cl));
	const char **cats = malloc(nc * sizeof(*cats));
	const char **sers = malloc(rp->n * sizeof(*sers));
	double *gb = malloc(rp->n * nc * sizeof(double)), *dur = malloc(rp->n * nc * sizeof(double));
	if (!cl || !cats || !sers || !gb || !dur)
		goto out;
	for (size_t c = 0; c < nc; c++) {
		snprintf(cl[c], sizeof(cl[0]), "%s %zu", c < nw ? "write" : "read", (c < nw ? c : c - nw) + 1);
		cats[c] = cl[c];
	}
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *ck = ml_obj(rp, ri, ji, "checkpoint");
		sers[ri] = rp->r[ri].label;
		for (size_t c = 0; c < nc; c++) {
			const struct sb_jval *e = sb_jv_at(sb_jv_get(ck, dirs[c >= nw]), c < nw ? c : c - nw);
			gb[ri * nc + c] = e ? sb_jv_num(sb_jv_get(e, "gbps"), NAN) : NAN;
			dur[ri * nc + c] = e ? sb_jv_num(sb_jv_get(e, "duration_s"), NAN) : NAN;
		}
	}
	ck_panels(rp, "throughput", "throughput (GB/s, 10^9 bytes)", gb, nc, nw, cats, sers);
	ck_panels(rp, "duration", "duration (s)", dur, nc, nw, cats, sers);
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *ck = ml_obj(rp, ri, ji, "checkpoint");
		if (!ck)
			continue;
		title3(rp, "Checkpoints", ri);
		struct sb_out *o = rp->o;
		sb_out_puts(o, "<table class=\"t\"><tr><th>direction</th><th>checkpoint</th>"
			    "<th>duration (s)</th><th>GB/s</th><th>GiB/s</th></tr>\n");
		for (unsigned k = 0; k < 2; k++) {
			const struct sb_jval *l = sb_jv_get(ck, dirs[k]);
			for (const struct sb_jval *e = l ? l->child : NULL; e; e = e->next)
				sb_out_printf(o, "<tr><td>%s</td><td>%lld</td><td>%.3f</td><td>%.3f</td>"
					      "<td>%.3f</td></tr>\n", dirs[k],
					      (long long)sb_jv_int(sb_jv_get(e, "index"), 0) + 1,
					      sb_jv_num(sb_jv_get(e, "duration_s"), 0),
					      sb_jv_num(sb_jv_get(e, "gbps"), 0), sb_jv_num(sb_jv_get(e, "gibps"), 0));
		}
		sb_out_puts(o, "</table>\n");
		rank_bars(rp, ri, ck, nw, nr, cats);
		scalars(o, ck);
		if (sb_jv_get(ck, "tiered"))
			tiered(rp, ri, sb_jv_get(ck, "tiered"));
	}
out:
	free(cl);
	free(cats);
	free(sers);
	free(gb);
	free(dur);
}

static void epoch_chart(struct sb_rep *rp, unsigned ji, const char *key, const char *title,
			const char *ylabel)
{
	struct sb_axis x = { SB_AXIS_LIN, "epoch", 0, 0, 0 }, y = { SB_AXIS_LIN, ylabel, 0, 0, 0 };
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *ep = sb_jv_get(ml_obj(rp, ri, ji, "train"), "epochs");
		for (const struct sb_jval *e = ep ? ep->child : NULL; e; e = e->next) {
			sb_axis_add(&x, sb_jv_num(sb_jv_get(e, "epoch"), NAN));
			sb_axis_add(&y, sb_jv_num(sb_jv_get(e, key), NAN));
		}
	}
	if (!y.set)
		return;
	if (!strcmp(key, "au_pct"))
		sb_axis_add(&y, 100);
	sb_axis_add(&x, 0);
	struct sb_chart c;
	sb_chart_begin(&c, rp->o, title, &x, &y);
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *tr = ml_obj(rp, ri, ji, "train");
		const struct sb_jval *ep = sb_jv_get(tr, "epochs");
		size_t n = sb_jv_len(ep), k = 0;
		double *px = malloc((n + 1) * sizeof(double)), *py = malloc((n + 1) * sizeof(double));
		if (!px || !py || !n) {
			free(px);
			free(py);
			continue;
		}
		for (const struct sb_jval *e = ep->child; e; e = e->next) {
			px[k] = sb_jv_num(sb_jv_get(e, "epoch"), NAN);
			py[k++] = sb_jv_num(sb_jv_get(e, key), NAN);
		}
		char name[256];
		sb_chart_line(&c, px, py, k, ri, 0, sb_rep_name(rp, ri, NULL, name, sizeof(name)));
		if (!strcmp(key, "au_pct") && sb_jv_get(tr, "au_target_pct")) {
			double tx[2] = { px[0], px[k - 1] }, ty[2];
			ty[0] = ty[1] = sb_jv_num(sb_jv_get(tr, "au_target_pct"), NAN);
			sb_chart_line(&c, tx, ty, 2, ri, 1, sb_rep_name(rp, ri, "AU target", name, sizeof(name)));
		}
		free(px);
		free(py);
	}
	sb_chart_end(&c);
}

static void rules(struct sb_rep *rp, unsigned ri, const struct sb_jval *r)
{
	struct sb_out *o = rp->o;
	title3(rp, "Rules", ri);
	sb_out_puts(o, "<p>Benchmark ");
	sb_out_esc(o, sb_jv_str(sb_jv_get(r, "benchmark"), "?"));
	sb_out_puts(o, ", verdict: <b>");
	sb_out_esc(o, sb_jv_str(sb_jv_get(r, "verdict"), "?"));
	sb_out_puts(o, "</b></p>\n<table class=\"t\"><tr><th>check</th><th>expected</th><th>actual</th>"
		    "<th>pass</th><th>fails as</th><th>fix</th></tr>\n");
	const struct sb_jval *ch = sb_jv_get(r, "checks");
	for (const struct sb_jval *c = ch ? ch->child : NULL; c; c = c->next) {
		int pass = sb_jv_get(c, "pass") && sb_jv_get(c, "pass")->b;
		static const char *const k[] = { "name", "expected", "actual" };
		sb_out_printf(o, "<tr%s>", pass ? "" : " class=\"fail\"");
		for (unsigned i = 0; i < 3; i++) {
			sb_out_puts(o, "<td>");
			sb_out_esc(o, sb_jv_str(sb_jv_get(c, k[i]), ""));
			sb_out_puts(o, "</td>");
		}
		sb_out_printf(o, "<td>%s</td><td>", pass ? "yes" : "no");
		sb_out_esc(o, sb_jv_str(sb_jv_get(c, "fails_as"), ""));
		sb_out_puts(o, "</td><td>");
		sb_out_esc(o, sb_jv_str(sb_jv_get(c, "fix"), ""));
		sb_out_puts(o, "</td></tr>\n");
	}
	sb_out_puts(o, "</table>\n");
}

/* the rules tables of the results whose job ji has key (its workload's
 * object): a checkpoint job's rules under "Checkpoint", a training job's
 * under "Training" */
static void rules_of(struct sb_rep *rp, unsigned ji, const char *key)
{
	for (unsigned ri = 0; ri < rp->n; ri++)
		if (ml_obj(rp, ri, ji, key) && ml_obj(rp, ri, ji, "rules"))
			rules(rp, ri, ml_obj(rp, ri, ji, "rules"));
}

static void ck_body(struct sb_rep *rp, unsigned ji)
{
	checkpoint(rp, ji);
}

static void train_body(struct sb_rep *rp, unsigned ji)
{
	epoch_chart(rp, ji, "au_pct", "Accelerator utilization per epoch", "AU (%)");
	epoch_chart(rp, ji, "mb_per_s", "Training throughput per epoch", "throughput (MiB/s)");
	epoch_chart(rp, ji, "samples_per_s", "Samples per second per epoch", "samples/s");
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *t = ml_obj(rp, ri, ji, "train");
		if (!t)
			continue;
		title3(rp, "Training", ri);
		scalars(rp->o, t);
		sb_rep_raw(rp->o, "Per-epoch figures", sb_jv_get(t, "epochs"));
	}
}

/* Each workload's section, built from its own result (the job's member
 * "key", as its figures write it) by its own body; the rules verdict of
 * any of them (its "rules") follows.  A workload added to storbench adds
 * a row here. */
static const struct ml_workload {
	const char *key, *title;
	void (*body)(struct sb_rep *rp, unsigned ji);
} workloads[] = {
	{ "checkpoint", "Checkpoint", ck_body },
	{ "train", "Training", train_body },
	{ "kvcache", "KV cache", sb_rep_kvcache },
};

/* The section of job ji's workload w, titled with the names of the jobs
 * that have it, each once ("a / b"): in a combined report job ji of one
 * result may be a checkpoint and of another a training job, each in its
 * own section under its own name. */
static void ml_section(struct sb_rep *rp, unsigned ji, const struct ml_workload *w)
{
	const char *key = w->key;
	char title[300];
	size_t n = (size_t)snprintf(title, sizeof(title), "%s: ", w->title);
	size_t head = n;
	for (unsigned ri = 0; ri < rp->n; ri++) {
		if (!ml_obj(rp, ri, ji, key))
			continue;
		const char *name = sb_jv_str(ml_obj(rp, ri, ji, "jobname"), "?");
		int seen = 0;
		for (unsigned rj = 0; rj < ri; rj++)
			seen |= ml_obj(rp, rj, ji, key) &&
				!strcmp(sb_jv_str(ml_obj(rp, rj, ji, "jobname"), "?"), name);
		if (!seen && n < sizeof(title))
			n += (size_t)snprintf(title + n, sizeof(title) - n, "%s%s", n > head ? " / " : "",
					      name);
	}
	if (n == head)
		return;
	sb_rep_section(rp, title);
	w->body(rp, ji);
	rules_of(rp, ji, key);
	sb_rep_section_end(rp);
}

void sb_rep_ml(struct sb_rep *rp)
{
	size_t nj = max_jobs(rp);
	for (size_t w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++)
		for (unsigned ji = 0; ji < nj; ji++)
			ml_section(rp, ji, &workloads[w]);
}
