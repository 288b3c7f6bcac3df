/* mlstats.c: kv_profile=mlperf's results under the official names
 * (kv_cache_benchmark/kv_cache/benchmark.py _calculate_stats, cache.py
 * get_stats and _evaluate_storage_performance, models.py QOS_PROFILES).
 * Percentiles come from storbench's histograms (bucket midpoints, within
 * 1/64 of the value, clamped to the largest sample), not numpy's linear
 * interpolation over the samples. */
#include <stdio.h>
#include <string.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/mlperf.h"
#include "ml/kvcache/opts.h"
#include "ml/run.h"

/* cache.py's latency profile thresholds, ms, and the hit rate */
#define NVME_WRITE_P95_MS 500.0
#define NVME_READ_P95_MS 200.0
#define CPU_P95_MS 150.0
#define HIT_RATE_MIN 0.3

static const double qos_target[SB_KV_NQOS] = { 50, 100, 1000 };

static double pctl(const struct sb_kvt_acc *a, double p)
{
	double v = (double)sb_hist_percentile(&a->h, p) / 1e6;
	double max = (double)a->max / 1e6;
	return v < max ? v : max;
}

static void pct(const struct sb_kvt_acc *a, struct sb_kv_pct *o)
{
	memset(o, 0, sizeof(*o));
	o->n = a->n;
	if (!a->n)
		return;
	o->mean = a->sum / (double)a->n / 1e6;
	o->p50 = pctl(a, 50);
	o->p95 = pctl(a, 95);
	o->p99 = pctl(a, 99);
	o->p999 = pctl(a, 99.9);
	o->p9999 = pctl(a, 99.99);
	o->max = (double)a->max / 1e6;
}

static void crit(struct sb_kv_mlres *m, const char *name, double target, double actual,
		 const char *unit, bool passed)
{
	struct sb_kv_crit *c = &m->crit[m->ncrit++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->target = target;
	c->actual = actual;
	c->passed = passed;
	m->passed += passed;
	m->pass = m->pass && passed;
}

/* _evaluate_storage_performance, the default latency profile: a criterion
 * only when its samples exist; NVMe on the device time */
static void assess(const struct sb_kvt_stats *st, struct sb_kv_mlres *m)
{
	m->pass = true;
	if (st->wr_dev.n)
		crit(m, "Storage Tier Write Device P95 < 500ms", NVME_WRITE_P95_MS, m->wr_dev.p95, "ms",
		     m->wr_dev.p95 < NVME_WRITE_P95_MS);
	if (st->rd_dev.n)
		crit(m, "Storage Tier Read Device P95 < 200ms", NVME_READ_P95_MS, m->rd_dev.p95, "ms",
		     m->rd_dev.p95 < NVME_READ_P95_MS);
	if (st->rd[SB_KVT_CPU].n || st->wr[SB_KVT_CPU].n) {
		struct sb_kvt_acc both = st->rd[SB_KVT_CPU];
		sb_hist_merge(&both.h, &st->wr[SB_KVT_CPU].h);
		both.max = both.max > st->wr[SB_KVT_CPU].max ? both.max : st->wr[SB_KVT_CPU].max;
		double p95 = pctl(&both, 95);
		crit(m, "CPU RAM P95 < 150ms", CPU_P95_MS, p95, "ms", p95 < CPU_P95_MS);
	}
	if (st->hits + st->misses)
		crit(m, "Cache Hit Rate > 30%", HIT_RATE_MIN, m->cache_hit_rate, "ratio",
		     m->cache_hit_rate > HIT_RATE_MIN);
}

static void cache_stats(const struct sb_kvt *c, struct sb_kv_mlres *m)
{
	const struct sb_kvt_stats *st = &c->st;
	m->cache_hits = st->hits;
	m->cache_misses = st->misses;
	m->cache_hit_rate = st->hits + st->misses ? (double)st->hits / (double)(st->hits + st->misses) : 0;
	for (int t = 0; t < SB_KVT_N; t++) {
		m->entries[t] = c->entries[t];
		m->used_bytes[t] = c->used[t];
		m->tier_limit[t] = c->has[t] ? c->limit[t] : 0;
		m->rd_bytes[t] = st->rd_bytes[t];
		m->wr_bytes[t] = st->wr_bytes[t];
		pct(&st->rd[t], &m->rd[t]);
		pct(&st->wr[t], &m->wr[t]);
	}
	pct(&st->rd_dev, &m->rd_dev);
	pct(&st->rd_host, &m->rd_host);
	pct(&st->wr_dev, &m->wr_dev);
	pct(&st->wr_host, &m->wr_host);
	m->offloads_cpu = st->offloads_cpu;
	m->offloads_storage = st->offloads_storage;
	m->evictions = st->evictions;
	m->prefill_writes = st->prefill_writes;
	m->decode_reads = st->decode_reads;
	m->multi_turn_hits = st->multi_turn_hits;
	m->user_cache_hits = st->user_hits;
	m->system_prompt_hits = st->system_hits;
	m->total_read_bytes = st->read_bytes;
	m->total_write_bytes = st->write_bytes;
	m->read_iops = st->read_ops;
	m->write_iops = st->write_ops;
	m->storage_tokens_processed = st->storage_tokens;
	assess(st, m);
}

void sb_kv_ml_results(const struct sb_kv_job *k, struct sb_kv_result *kv)
{
	kv->x = k->ml->x;
	const struct sb_kv_opts *o = k->opts;
	struct sb_kv_ml *ml = k->ml;
	struct sb_kv_mlres *m = &kv->ml;
	double d = kv->duration_s > 0 ? kv->duration_s : 1e-9;
	m->on = true;
	m->users = ml->nusers;
	m->tensor_parallel = o->kv_tensor_parallel;
	m->gpus = o->kv_gpus;
	m->reread_tokens = o->kv_decode_reread_tokens;
	m->prefill_only = o->kv_prefill_only;
	m->decode_only = o->kv_decode_only;
	m->total_requests = ml->completed;
	m->total_tokens = ml->tokens_generated;
	m->elapsed_time = kv->duration_s;
	m->avg_throughput_tokens_per_sec = (double)ml->tokens_generated / d;
	m->total_storage_io_time = ml->storage_io_s;
	m->storage_throughput_tokens_per_sec = ml->storage_io_s > 0 ? (double)ml->tokens_generated /
									   ml->storage_io_s : 0;
	m->requests_per_second = (double)ml->completed / d;
	pct(&ml->e2e, &m->e2e);
	pct(&ml->storage, &m->storage);
	pct(&ml->generation, &m->generation);
	for (int q = 0; q < SB_KV_NQOS; q++) {
		m->qos[q].n = ml->qos_n[q];
		m->qos[q].violations = ml->qos_viol[q];
		m->qos[q].target_p95_ms = qos_target[q];
		m->qos[q].compliance = ml->qos_n[q] ? 1.0 - (double)ml->qos_viol[q] / (double)ml->qos_n[q] : 1.0;
		pct(&ml->qos_lat[q], &m->qos[q].lat);
	}
	m->prefix_on = o->kv_sysprompt_prob > 0;
	m->prefix_hits = ml->x.prefix_hits;
	m->prefix_misses = ml->x.prefix_misses;
	m->prefix_bytes_saved = (double)ml->sys_tokens * (double)ml->c.bytes_per_token;
	m->mt_hits = ml->mt_hits;
	m->mt_misses = ml->mt_misses;
	m->mt_hit_rate = (double)ml->mt_hits / (double)(ml->mt_hits + ml->mt_misses ? ml->mt_hits + ml->mt_misses : 1);
	cache_stats(&ml->c, m);
	kv->requests = ml->completed;
	kv->tokens_output = ml->tokens_generated;
	kv->tokens_per_s = m->avg_throughput_tokens_per_sec;
	kv->requests_per_s = m->requests_per_second;
	kv->hit_ratio = m->cache_hit_rate;
	kv->disk_reads = m->rd[SB_KVT_NVME].n;
	kv->disk_writes = m->wr[SB_KVT_NVME].n;
	kv->disk_evictions = ml->c.st.evictions;
	kv->disk_capacity = ml->c.limit[SB_KVT_NVME];
}
