/* tools/report_kv.c: the KV-cache section of `storbench report`, built from
 * the figures of the profile the job ran (its kvcache object's "profile"):
 * kv_profile=blocks charts the hit ratios of the prefix, memory and disk
 * tiers; kv_profile=mlperf the official benchmark's metrics - end-to-end,
 * storage I/O and generation latency, the QoS compliance per class, the
 * storage assessment (PASS/FAIL with its criteria) - and its cache hit
 * rates.  A ratio whose count is 0 has no bar, and the figures of the
 * other profile are not shown; the raw figures fold away behind the charts. */
#include "tools/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a hit ratio: its category, the ratio (0..1) and what it is a share of
 * (the sum of up to two counts; 0: the ratio was not measured) */
struct ratio {
	const char *cat, *ratio, *of[2];
};

static const struct ratio blocks_ratios[] = {
	{ "prefix (requests)", "hit_ratio", { "reuse_requests", NULL } },
	{ "memory tier (blocks)", "memory_hit_ratio", { "blocks_looked_up", NULL } },
	{ "disk tier (blocks)", "disk_hit_ratio", { "blocks_looked_up", NULL } },
};

static const struct ratio mlperf_ratios[] = {
	{ "cache (lookups)", "mlperf/cache_stats/cache_hit_rate",
	  { "mlperf/cache_stats/cache_hits", "mlperf/cache_stats/cache_misses" } },
	{ "multi-turn (lookups)", "mlperf/multi_turn_stats/hit_rate",
	  { "mlperf/multi_turn_stats/cache_hits", "mlperf/multi_turn_stats/cache_misses" } },
};

/* the figures of the kvcache object kv_profile=mlperf has; the rest
 * (block slots, prefix tiers, the blocks profile's latencies) are the
 * other profile's */
static const char *const mlperf_keys[] = {
	"model_name", "profile", "shape_layers", "shape_kv_heads", "shape_head_dim",
	"element_bytes", "bytes_per_token", "memory_capacity_bytes", "disk_capacity_bytes",
	"workers", "requests", "disk_reads", "disk_writes", "disk_evictions", "read_bytes",
	"write_bytes", "read_mibps", "write_mibps", "tokens_output", "tokens_per_s",
	"requests_per_s", "duration_s", NULL,
};

static int is_mlperf(const struct sb_jval *kv)
{
	return !strcmp(sb_jv_str(sb_jv_get(kv, "profile"), ""), "mlperf") || sb_jv_get(kv, "mlperf");
}

static void ratios(struct sb_rep *rp, const struct sb_jval *kv)
{
	int ml = is_mlperf(kv);
	const struct ratio *r = ml ? mlperf_ratios : blocks_ratios;
	unsigned n = ml ? 2 : 3, k = 0;
	const char *cats[3];
	double v[3];
	for (unsigned i = 0; i < n; i++) {
		double of = 0;
		for (unsigned j = 0; j < 2 && r[i].of[j]; j++)
			of += sb_jv_num(sb_jv_path(kv, r[i].of[j]), 0);
		double x = sb_jv_num(sb_jv_path(kv, r[i].ratio), NAN);
		if (!(of > 0) || !isfinite(x))
			continue;   /* nothing looked up: no ratio, no empty bar */
		cats[k] = r[i].cat;
		v[k++] = 100 * x;
	}
	if (!k)
		return;
	struct sb_bars b = { "KV-cache hit ratios", "hits (%)", k, 1, cats, NULL, v, NULL, -1, NULL };
	sb_svg_bars(rp->o, &b);
}

/* end-to-end, storage I/O and generation latency (ms): mean and
 * percentiles as bars, and as a table */
static void latencies(struct sb_rep *rp, const struct sb_jval *m)
{
	static const char *const what[] = { "end-to-end", "storage I/O", "generation" };
	static const char *const key[] = { "end_to_end_latency_ms", "storage_io_latency_ms",
					   "generation_latency_ms" };
	static const char *const stat[] = { "mean", "p50", "p95", "p99", "max" };
	double v[5 * 3];
	const char *cats[3];
	unsigned k = 0;
	struct sb_out *o = rp->o;
	sb_out_puts(o, "<table class=\"t\"><tr><th>latency (ms)</th><th>requests</th><th>mean</th>"
		    "<th>p50</th><th>p95</th><th>p99</th><th>max</th></tr>\n");
	for (unsigned i = 0; i < 3; i++) {
		const struct sb_jval *l = sb_jv_get(m, key[i]);
		if (!l || sb_jv_num(sb_jv_get(l, "n"), 0) <= 0)
			continue;   /* not measured: no row, no bar */
		cats[k] = what[i];
		sb_out_printf(o, "<tr><td>%s</td><td>%.0f</td>", what[i], sb_jv_num(sb_jv_get(l, "n"), 0));
		for (unsigned s = 0; s < 5; s++) {
			v[s * 3 + k] = sb_jv_num(sb_jv_get(l, stat[s]), NAN);
			sb_out_printf(o, "<td>%.2f</td>", v[s * 3 + k]);
		}
		sb_out_puts(o, "</tr>\n");
		k++;
	}
	sb_out_puts(o, "</table>\n");
	if (!k)
		return;
	for (unsigned s = 1; s < 5; s++)   /* the series were 3 apart; now k */
		memmove(v + s * k, v + s * 3, k * sizeof(double));
	struct sb_bars b = { "Request latency: end-to-end, storage I/O and generation (ms)",
			     "latency (ms)", k, 5, cats, stat, v, NULL, -1, NULL };
	sb_svg_bars(o, &b);
}

/* QoS per class: compliance with its p95 target, as bars and a table */
static void qos(struct sb_rep *rp, const struct sb_jval *m)
{
	const struct sb_jval *q = sb_jv_get(m, "qos_metrics");
	const char *cats[16];
	double v[16];
	char notes[16][48];
	const char *np[16];
	unsigned k = 0;
	struct sb_out *o = rp->o;
	for (const struct sb_jval *c = q ? q->child : NULL; c && k < 16; c = c->next) {
		if (sb_jv_num(sb_jv_get(c, "total_requests"), 0) <= 0)
			continue;   /* a class without requests has no compliance */
		if (!k)
			sb_out_puts(o, "<table class=\"t\"><tr><th>QoS class</th><th>requests</th>"
				    "<th>violations</th><th>p95 (ms)</th><th>target p95 (ms)</th>"
				    "<th>SLA compliance (%)</th></tr>\n");
		double p95 = sb_jv_num(sb_jv_path(c, "latency_ms/p95"), NAN);
		double tgt = sb_jv_num(sb_jv_get(c, "target_latency_p95_ms"), NAN);
		cats[k] = c->key;
		v[k] = 100 * sb_jv_num(sb_jv_get(c, "sla_compliance"), NAN);
		snprintf(notes[k], sizeof(notes[k]), "p95 %.0f / %.0f ms", p95, tgt);
		np[k] = notes[k];
		sb_out_printf(o, "<tr%s><td>", p95 > tgt ? " class=\"fail\"" : "");
		sb_out_esc(o, c->key);
		sb_out_printf(o, "</td><td>%.0f</td><td>%.0f</td><td>%.2f</td><td>%.0f</td><td>%.1f</td>"
			      "</tr>\n", sb_jv_num(sb_jv_get(c, "total_requests"), 0),
			      sb_jv_num(sb_jv_get(c, "violations"), 0), p95, tgt, v[k]);
		k++;
	}
	if (!k)
		return;
	sb_out_puts(o, "</table>\n");
	struct sb_bars b = { "QoS: share of requests within the class's latency target (label: p95 / "
			     "target)", "SLA compliance (%)", k, 1, cats, NULL, v, np, -1, NULL };
	sb_svg_bars(o, &b);
}

/* the official storage assessment: PASS/FAIL and each criterion */
static void assessment(struct sb_rep *rp, const struct sb_jval *m)
{
	const struct sb_jval *h = sb_jv_path(m, "cache_stats/storage_health");
	if (!h)
		return;
	struct sb_out *o = rp->o;
	const char *st = sb_jv_str(sb_jv_get(h, "overall_status"), "?");
	sb_out_printf(o, "<p>Storage performance assessment: <span class=\"%s\">", strcmp(st, "PASS") ?
		      "failv" : "pass");
	sb_out_esc(o, st);
	sb_out_printf(o, "</span> (%.0f of %.0f criteria)</p>\n",
		      sb_jv_num(sb_jv_get(h, "passed_count"), 0), sb_jv_num(sb_jv_get(h, "total_count"), 0));
	sb_out_puts(o, "<table class=\"t\"><tr><th>criterion</th><th>actual</th><th>target</th>"
		    "<th>unit</th><th>pass</th></tr>\n");
	const struct sb_jval *cr = sb_jv_get(h, "criteria");
	for (const struct sb_jval *c = cr ? cr->child : NULL; c; c = c->next) {
		int pass = sb_jv_get(c, "passed") && sb_jv_get(c, "passed")->b;
		sb_out_printf(o, "<tr%s><td>", pass ? "" : " class=\"fail\"");
		sb_out_esc(o, sb_jv_str(sb_jv_get(c, "name"), "?"));
		sb_out_printf(o, "</td><td>%.4g</td><td>%.4g</td><td>", sb_jv_num(sb_jv_get(c, "actual"), 0),
			      sb_jv_num(sb_jv_get(c, "target"), 0));
		sb_out_esc(o, sb_jv_str(sb_jv_get(c, "unit"), ""));
		sb_out_printf(o, "</td><td>%s</td></tr>\n", pass ? "yes" : "no");
	}
	sb_out_puts(o, "</table>\n");
}

static int listed(const char *const *keys, const char *k)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, k))
			return 1;
	return 0;
}

/* the profile's own figures of kv, folded away: mlperf's shared figures
 * and its "mlperf" object, or every figure but "mlperf" (blocks) */
static void raw(struct sb_rep *rp, const struct sb_jval *kv)
{
	int ml = is_mlperf(kv);
	struct sb_out *o = rp->o;
	sb_out_printf(o, "<details><summary>All figures of kv_profile=%s, key by key</summary>\n"
		      "<table class=\"kv\">\n", ml ? "mlperf" : "blocks");
	for (const struct sb_jval *c = kv->child; c; c = c->next) {
		if (ml ? !listed(mlperf_keys, c->key) && strcmp(c->key, "mlperf")
		       : !strcmp(c->key, "mlperf"))
			continue;
		sb_out_puts(o, "<tr><th>");
		sb_out_esc(o, c->key);
		sb_out_puts(o, "</th><td>");
		sb_rep_value(o, c, 2);
		sb_out_puts(o, "</td></tr>\n");
	}
	sb_out_puts(o, "</table></details>\n");
}

void sb_rep_kvcache(struct sb_rep *rp, unsigned ji)
{
	for (unsigned ri = 0; ri < rp->n; ri++) {
		const struct sb_jval *kv = sb_jv_get(sb_jv_at(sb_jv_get(rp->r[ri].root, "jobs"), ji),
						     "kvcache");
		if (!kv)
			continue;
		struct sb_out *o = rp->o;
		sb_out_puts(o, "<h3>KV cache");
		if (rp->n > 1) {
			sb_out_puts(o, ": ");
			sb_out_esc(o, rp->r[ri].label);
		}
		sb_out_printf(o, " (kv_profile=%s)</h3>\n", is_mlperf(kv) ? "mlperf" : "blocks");
		const struct sb_jval *m = sb_jv_get(kv, "mlperf");
		if (is_mlperf(kv)) {
			assessment(rp, m);
			latencies(rp, m);
			qos(rp, m);
		}
		ratios(rp, kv);
		raw(rp, kv);
	}
}
