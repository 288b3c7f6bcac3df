/* mlfigures.c: kv_profile=mlperf's results in the job's "kvcache" object
 * (its "mlperf" object, keys as the official benchmark's summary names
 * them: benchmark.py _calculate_stats, cache.py get_stats; times in ms,
 * sizes in GB = 2^30 bytes, bandwidth in GB/s) and in normal output. */
#include <inttypes.h>

#include "ml/figures.h"
#include "ml/kvcache/result.h"
#include "ml/kvcache/mlfigures.h"

static const char *tier_name[SB_KV_NTIER] = { "gpu", "cpu", "storage" };
static const char *qos_name[SB_KV_NQOS] = { "interactive", "responsive", "batch" };
#define GIB 1073741824.0

static void json_pct(struct sb_jw *w, const char *key, const struct sb_kv_pct *p)
{
	sb_jw_obj_begin(w, key);
	sb_jw_u64(w, "n", p->n);
	sb_jw_dbl(w, "mean", p->mean);
	sb_jw_dbl(w, "p50", p->p50);
	sb_jw_dbl(w, "p95", p->p95);
	sb_jw_dbl(w, "p99", p->p99);
	sb_jw_dbl(w, "p999", p->p999);
	sb_jw_dbl(w, "p9999", p->p9999);
	sb_jw_dbl(w, "max", p->max);
	sb_jw_obj_end(w);
}

/* <tier>_<op>_p50_ms ... p9999_ms, when the tier has samples */
static void json_flat(struct sb_jw *w, const char *pre, const struct sb_kv_pct *p)
{
	char k[64];
	const char *sfx[] = { "p50", "p95", "p99", "p999", "p9999" };
	const double v[] = { p->p50, p->p95, p->p99, p->p999, p->p9999 };
	if (!p->n)
		return;
	for (int i = 0; i < 5; i++) {
		snprintf(k, sizeof(k), "%s_%s_ms", pre, sfx[i]);
		sb_jw_dbl(w, k, v[i]);
	}
}

static void json_health(struct sb_jw *w, const struct sb_kv_mlres *m)
{
	sb_jw_obj_begin(w, "storage_health");
	sb_jw_str(w, "overall_status", m->pass ? "PASS" : "FAIL");
	sb_jw_arr_begin(w, "criteria");
	for (unsigned i = 0; i < m->ncrit; i++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "name", m->crit[i].name);
		sb_jw_dbl(w, "target", m->crit[i].target);
		sb_jw_dbl(w, "actual", m->crit[i].actual);
		sb_jw_str(w, "unit", m->crit[i].unit);
		sb_jw_bool(w, "passed", m->crit[i].passed);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_u64(w, "passed_count", m->passed);
	sb_jw_u64(w, "total_count", m->ncrit);
	sb_jw_obj_end(w);
}

static void json_tiers(struct sb_jw *w, const struct sb_kv_mlres *m)
{
	char k[80], pre[32];
	double d = m->elapsed_time > 0 ? m->elapsed_time : 1e-9;
	for (int t = 0; t < SB_KV_NTIER; t++) {
		snprintf(k, sizeof(k), "%s_entries", tier_name[t]);
		sb_jw_u64(w, k, m->entries[t]);
		snprintf(k, sizeof(k), "%s_memory_used_gb", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->used_bytes[t] / GIB);
		snprintf(k, sizeof(k), "%s_capacity_gb", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->tier_limit[t] / GIB);
		snprintf(k, sizeof(k), "tier_%s_kv_bytes_written_gb", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->wr_bytes[t] / GIB);
		snprintf(k, sizeof(k), "tier_%s_kv_bytes_read_gb", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->rd_bytes[t] / GIB);
		snprintf(k, sizeof(k), "tier_%s_read_bandwidth_gbps", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->rd_bytes[t] / GIB / d);
		snprintf(k, sizeof(k), "tier_%s_write_bandwidth_gbps", tier_name[t]);
		sb_jw_dbl(w, k, (double)m->wr_bytes[t] / GIB / d);
		snprintf(pre, sizeof(pre), "%s_read", tier_name[t]);
		json_flat(w, pre, &m->rd[t]);
		snprintf(pre, sizeof(pre), "%s_write", tier_name[t]);
		json_flat(w, pre, &m->wr[t]);
	}
	json_flat(w, "storage_read_device", &m->rd_dev);
	json_flat(w, "storage_read_host", &m->rd_host);
	json_flat(w, "storage_write_device", &m->wr_dev);
	json_flat(w, "storage_write_host", &m->wr_host);
}

static void json_cache(struct sb_jw *w, const struct sb_kv_mlres *m)
{
	sb_jw_obj_begin(w, "cache_stats");
	sb_jw_dbl(w, "cache_hit_rate", m->cache_hit_rate);
	sb_jw_u64(w, "cache_hits", m->cache_hits);
	sb_jw_u64(w, "cache_misses", m->cache_misses);
	sb_jw_u64(w, "offloads_cpu", m->offloads_cpu);
	sb_jw_u64(w, "offloads_storage", m->offloads_storage);
	sb_jw_u64(w, "evictions", m->evictions);
	sb_jw_u64(w, "prefill_writes", m->prefill_writes);
	sb_jw_u64(w, "decode_reads", m->decode_reads);
	sb_jw_u64(w, "multi_turn_hits", m->multi_turn_hits);
	sb_jw_u64(w, "user_cache_hits", m->user_cache_hits);
	sb_jw_u64(w, "system_prompt_hits", m->system_prompt_hits);
	sb_jw_u64(w, "common_phrase_hits", 0); /* prefix_cache.py makes system prompts only */
	sb_jw_u64(w, "total_read_bytes", m->total_read_bytes);
	sb_jw_u64(w, "total_write_bytes", m->total_write_bytes);
	sb_jw_dbl(w, "total_read_gb", (double)m->total_read_bytes / GIB);
	sb_jw_dbl(w, "total_write_gb", (double)m->total_write_bytes / GIB);
	sb_jw_dbl(w, "read_write_ratio", (double)m->total_read_bytes /
		  (double)(m->total_write_bytes ? m->total_write_bytes : 1));
	sb_jw_u64(w, "read_iops", m->read_iops);
	sb_jw_u64(w, "write_iops", m->write_iops);
	sb_jw_dbl(w, "storage_tokens_processed", m->storage_tokens_processed);
	json_tiers(w, m);
	json_health(w, m);
	sb_jw_obj_end(w);
}

static void json_qos(struct sb_jw *w, const struct sb_kv_mlres *m)
{
	sb_jw_obj_begin(w, "qos_metrics");
	for (int q = 0; q < SB_KV_NQOS; q++) {
		sb_jw_obj_begin(w, qos_name[q]);
		sb_jw_u64(w, "total_requests", m->qos[q].n);
		sb_jw_u64(w, "violations", m->qos[q].violations);
		sb_jw_dbl(w, "sla_compliance", m->qos[q].compliance);
		sb_jw_dbl(w, "target_latency_p95_ms", m->qos[q].target_p95_ms);
		json_pct(w, "latency_ms", &m->qos[q].lat);
		sb_jw_obj_begin(w, "sla"); /* monitoring.py get_qos_metrics */
		sb_jw_dbl(w, "target_p95_ms", m->qos[q].target_p95_ms);
		sb_jw_dbl(w, "actual_p95_ms", m->qos[q].lat.p95);
		sb_jw_dbl(w, "compliance", m->qos[q].compliance);
		sb_jw_bool(w, "met", m->qos[q].compliance >= 0.95);
		sb_jw_obj_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_obj_end(w);
}

void sb_ml_kv_mlperf_json(struct sb_jw *w, const struct sb_kv_mlres *m)
{
	sb_jw_obj_begin(w, "mlperf");
	sb_jw_u64(w, "users", m->users);
	sb_jw_u64(w, "tensor_parallel", m->tensor_parallel);
	sb_jw_u64(w, "num_gpus", m->gpus);
	sb_jw_u64(w, "decode_reread_tokens", m->reread_tokens);
	sb_jw_bool(w, "prefill_only", m->prefill_only);
	sb_jw_bool(w, "decode_only", m->decode_only);
	sb_jw_u64(w, "total_requests", m->total_requests);
	sb_jw_u64(w, "total_tokens", m->total_tokens);
	sb_jw_dbl9(w, "elapsed_time", m->elapsed_time);
	sb_jw_dbl(w, "avg_throughput_tokens_per_sec", m->avg_throughput_tokens_per_sec);
	sb_jw_dbl9(w, "total_storage_io_time", m->total_storage_io_time);
	sb_jw_dbl(w, "storage_throughput_tokens_per_sec", m->storage_throughput_tokens_per_sec);
	sb_jw_dbl(w, "requests_per_second", m->requests_per_second);
	json_pct(w, "end_to_end_latency_ms", &m->e2e);
	json_pct(w, "storage_io_latency_ms", &m->storage);
	json_pct(w, "generation_latency_ms", &m->generation);
	json_cache(w, m);
	json_qos(w, m);
	sb_jw_obj_begin(w, "prefix_cache_stats"); /* {} with system prompts off */
	if (m->prefix_on) {
		sb_jw_u64(w, "prefix_hits", m->prefix_hits);
		sb_jw_u64(w, "prefix_misses", m->prefix_misses);
		sb_jw_u64(w, "system_prompt_reuse", m->prefix_hits);
		sb_jw_u64(w, "common_phrase_reuse", 0);
		sb_jw_dbl(w, "bytes_saved", m->prefix_bytes_saved);
	}
	sb_jw_obj_end(w);
	sb_jw_obj_begin(w, "multi_turn_stats");
	sb_jw_u64(w, "cache_hits", m->mt_hits);
	sb_jw_u64(w, "cache_misses", m->mt_misses);
	sb_jw_dbl(w, "hit_rate", m->mt_hit_rate);
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

static void normal_pct(FILE *f, const char *name, const struct sb_kv_pct *p)
{
	fprintf(f, "    %-22s (ms): mean %.2f, p50 %.2f, p95 %.2f, p99 %.2f, p99.9 %.2f, p99.99 %.2f\n",
		name, p->mean, p->p50, p->p95, p->p99, p->p999, p->p9999);
}

static void normal_tiers(FILE *f, const struct sb_kv_mlres *m)
{
	double d = m->elapsed_time > 0 ? m->elapsed_time : 1e-9;
	for (int t = 0; t < SB_KV_NTIER; t++) {
		if (!m->rd[t].n && !m->wr[t].n && !m->tier_limit[t])
			continue;
		fprintf(f, "    tier %-7s: %" PRIu64 " entries; read %.3f GB (%.3f GB/s) p95 %.2f ms, "
			   "wrote %.3f GB (%.3f GB/s) p95 %.2f ms\n", tier_name[t], m->entries[t],
			(double)m->rd_bytes[t] / GIB, (double)m->rd_bytes[t] / GIB / d, m->rd[t].p95,
			(double)m->wr_bytes[t] / GIB, (double)m->wr_bytes[t] / GIB / d, m->wr[t].p95);
	}
	fprintf(f, "    storage device/host p95 (ms): read %.2f/%.2f, write %.2f/%.2f\n", m->rd_dev.p95,
		m->rd_host.p95, m->wr_dev.p95, m->wr_host.p95);
}

void sb_ml_kv_mlperf_normal(FILE *f, const struct sb_kv_mlres *m)
{
	fprintf(f, "    mlperf profile: %u users, %" PRIu64 " requests, %.1f tokens/s, %.1f storage "
		   "tokens/s, %.2f requests/s\n", m->users, m->total_requests,
		m->avg_throughput_tokens_per_sec, m->storage_throughput_tokens_per_sec,
		m->requests_per_second);
	normal_pct(f, "end-to-end latency", &m->e2e);
	normal_pct(f, "storage I/O latency", &m->storage);
	normal_pct(f, "generation latency", &m->generation);
	fprintf(f, "    cache hit rate %.2f%% (%" PRIu64 " hits, %" PRIu64 " misses); multi-turn %.2f%%\n",
		m->cache_hit_rate * 100, m->cache_hits, m->cache_misses, m->mt_hit_rate * 100);
	normal_tiers(f, m);
	for (int q = 0; q < SB_KV_NQOS; q++)
		if (m->qos[q].n)
			fprintf(f, "    QoS %-11s: %" PRIu64 " requests, p95 %.2f ms, SLA (p95 < %.0f ms) "
				   "compliance %.2f%%\n", qos_name[q], m->qos[q].n, m->qos[q].lat.p95,
				m->qos[q].target_p95_ms, m->qos[q].compliance * 100);
	fprintf(f, "    STORAGE PERFORMANCE ASSESSMENT: %s (%u/%u criteria)\n", m->pass ? "PASS" : "FAIL",
		m->passed, m->ncrit);
	for (unsigned i = 0; i < m->ncrit; i++)
		fprintf(f, "      [%s] %s: %.4g %s (target %.4g)\n", m->crit[i].passed ? "OK" : "X",
			m->crit[i].name, m->crit[i].actual, m->crit[i].unit, m->crit[i].target);
}
