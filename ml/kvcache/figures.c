/* figures.c: how a workload=kvcache job's result is written (see
 * ml/figures.h).  JSON: the job's "kvcache" object, keys as in HOWTO section 9
 * (latencies in us, bandwidth in MiB/s); normal: a block of a few lines. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/assert.h"
#include "ml/figures.h"
#include "run/wljob.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/result.h"
#include "ml/kvcache/mlfigures.h"

static void json_lat(struct sb_jw *w, const char *key, const struct sb_kv_lat *l)
{
	sb_jw_obj_begin(w, key);
	sb_jw_u64(w, "N", l->n);
	sb_jw_dbl(w, "min", l->min_us);
	sb_jw_dbl(w, "max", l->max_us);
	sb_jw_dbl(w, "mean", l->mean_us);
	sb_jw_obj_begin(w, "percentile");
	sb_jw_dbl(w, "50.000000", l->p50_us);
	sb_jw_dbl(w, "90.000000", l->p90_us);
	sb_jw_dbl(w, "99.000000", l->p99_us);
	sb_jw_dbl(w, "99.900000", l->p999_us);
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

static void json_kv(struct sb_jw *w, const struct sb_kv_result *kv)
{
	sb_jw_obj_begin(w, "kvcache");
	sb_jw_str(w, "model_name", kv->model);
	sb_jw_u64(w, "shape_layers", kv->layers);
	sb_jw_u64(w, "shape_kv_heads", kv->kv_heads);
	sb_jw_u64(w, "shape_head_dim", kv->head_dim);
	sb_jw_u64(w, "element_bytes", kv->elem_bytes);
	sb_jw_u64(w, "block_tokens", kv->block_tokens);
	sb_jw_u64(w, "bytes_per_token", kv->bytes_per_token);
	sb_jw_u64(w, "block_bytes", kv->block_bytes);
	sb_jw_u64(w, "memory_capacity_bytes", kv->memory_capacity);
	sb_jw_u64(w, "disk_capacity_bytes", kv->disk_capacity);
	sb_jw_u64(w, "memory_capacity_blocks", kv->memory_blocks);
	sb_jw_u64(w, "disk_capacity_blocks", kv->disk_blocks);
	sb_jw_dbl(w, "prefix_reuse_asked", kv->prefix_reuse);
	sb_jw_dbl(w, "arrival_rate_per_s", kv->arrival_rate);
	sb_jw_u64(w, "workers", kv->concurrency);
	sb_jw_u64(w, "requests", kv->requests);
	sb_jw_u64(w, "reuse_requests", kv->reuse_requests);
	sb_jw_u64(w, "prefix_hits", kv->prefix_hits);
	sb_jw_dbl(w, "hit_ratio", kv->hit_ratio);
	sb_jw_u64(w, "blocks_looked_up", kv->blocks_looked_up);
	sb_jw_u64(w, "memory_hits", kv->memory_hits);
	sb_jw_u64(w, "disk_hits", kv->disk_hits);
	sb_jw_u64(w, "misses", kv->misses);
	sb_jw_dbl(w, "memory_hit_ratio", kv->memory_hit_ratio);
	sb_jw_dbl(w, "disk_hit_ratio", kv->disk_hit_ratio);
	sb_jw_u64(w, "blocks_new", kv->blocks_new);
	sb_jw_u64(w, "disk_reads", kv->disk_reads);
	sb_jw_u64(w, "disk_writes", kv->disk_writes);
	sb_jw_u64(w, "evict_writes", kv->evict_writes);
	sb_jw_u64(w, "disk_evictions", kv->disk_evictions);
	sb_jw_u64(w, "read_bytes", kv->read_bytes);
	sb_jw_u64(w, "write_bytes", kv->write_bytes);
	sb_jw_dbl(w, "read_mibps", kv->read_mibps);
	sb_jw_dbl(w, "write_mibps", kv->write_mibps);
	sb_jw_u64(w, "tokens_prompt", kv->tokens_prompt);
	sb_jw_u64(w, "tokens_output", kv->tokens_output);
	sb_jw_u64(w, "tokens_cached", kv->tokens_cached);
	sb_jw_u64(w, "tokens_computed", kv->tokens_computed);
	sb_jw_dbl(w, "tokens_per_s", kv->tokens_per_s);
	sb_jw_dbl(w, "requests_per_s", kv->requests_per_s);
	sb_jw_dbl9(w, "duration_s", kv->duration_s);
	json_lat(w, "latency_us", &kv->latency);
	json_lat(w, "ttft_us", &kv->ttft);
	json_lat(w, "storage_ttft_us", &kv->storage_ttft);
	sb_jw_str(w, "path", kv->path);
	sb_jw_u64(w, "file_bytes", kv->file_bytes);
	sb_jw_bool(w, "kept", kv->kept);
	sb_jw_str(w, "profile", kv->ml.on ? "mlperf" : "blocks");
	if (kv->ml.on)
		sb_ml_kv_mlperf_json(w, &kv->ml);
	sb_jw_obj_begin(w, "system_prompt");
	sb_jw_u64(w, "hits", kv->x.prefix_hits);
	sb_jw_u64(w, "misses", kv->x.prefix_misses);
	sb_jw_u64(w, "tokens_saved", kv->x.prefix_tokens_saved);
	sb_jw_obj_end(w);
	sb_jw_obj_begin(w, "rag");
	sb_jw_u64(w, "documents", kv->x.rag_docs);
	sb_jw_u64(w, "chunks", kv->x.rag_chunks);
	sb_jw_u64(w, "retrievals", kv->x.rag_retrievals);
	sb_jw_u64(w, "chunks_read", kv->x.rag_chunks_read);
	sb_jw_u64(w, "memory_hits", kv->x.rag_mem_hits);
	sb_jw_u64(w, "disk_hits", kv->x.rag_disk_hits);
	sb_jw_u64(w, "misses", kv->x.rag_misses);
	sb_jw_obj_end(w);
	sb_jw_obj_end(w);
}

static void normal_extra(FILE *f, const struct sb_kv_extra *x)
{
	if (x->prefix_hits + x->prefix_misses)
		fprintf(f, "    system prompts: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64
			   " tokens saved\n", x->prefix_hits, x->prefix_misses, x->prefix_tokens_saved);
	if (x->rag_docs)
		fprintf(f, "    rag: %" PRIu64 " documents, %" PRIu64 " chunks; %" PRIu64 " retrievals read %"
			   PRIu64 " chunks (memory %" PRIu64 ", disk %" PRIu64 ", lost %" PRIu64 ")\n",
			x->rag_docs, x->rag_chunks, x->rag_retrievals, x->rag_chunks_read, x->rag_mem_hits,
			x->rag_disk_hits, x->rag_misses);
}

static void normal_lat(FILE *f, const char *name, const struct sb_kv_lat *l)
{
	fprintf(f, "    %-13s (us): mean %.1f, p50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f\n",
		name, l->mean_us, l->p50_us, l->p90_us, l->p99_us, l->p999_us, l->max_us);
}

static void normal_kv(FILE *f, const struct sb_kv_result *kv)
{
	double mib = 1048576.0;
	char blocks[64];
	snprintf(blocks, sizeof(blocks), "blocks of %u tokens (%.2f MiB)", kv->block_tokens,
		 (double)kv->block_bytes / mib);
	fprintf(f, "  kvcache      : %s%s%u layers x %u kv_heads x %u dim x %u B = %" PRIu64
		   " B/token, %s\n", kv->model,
		kv->model[0] ? ": " : "", kv->layers, kv->kv_heads, kv->head_dim, kv->elem_bytes,
		kv->bytes_per_token, kv->ml.on ? "kv_profile=mlperf: a .npy file per entry" : blocks);
	if (kv->ml.on) { /* kv_profile=mlperf: its own figures, no blocks */
		sb_ml_kv_mlperf_normal(f, &kv->ml);
		normal_extra(f, &kv->x);
		return;
	}
	fprintf(f, "    tiers: memory %" PRIu64 " blocks, disk %" PRIu64 " blocks%s%s\n",
		kv->memory_blocks, kv->disk_blocks, kv->path[0] ? " in " : "", kv->path);
	/* where the reuse comes from: prefix_reuse=, or a trace's own turns
	 * (prefix_reuse= is not used with a trace) */
	char asked[80];
	if (kv->trace_fmt == SB_KVT_SHAREGPT)
		snprintf(asked, sizeof(asked), "the trace's later turns");
	else if (kv->trace_fmt == SB_KVT_BURSTGPT)
		snprintf(asked, sizeof(asked), "none: a BurstGPT row is its own conversation");
	else
		snprintf(asked, sizeof(asked), "asked %.2f%%", kv->prefix_reuse * 100);
	fprintf(f, "    requests: %" PRIu64 " in %.3f s (%.1f/s, %.1f tokens/s), %u workers; prefix "
		   "hits %.2f%% (%s)\n", kv->requests, kv->duration_s, kv->requests_per_s,
		kv->tokens_per_s, kv->concurrency, kv->hit_ratio * 100, asked);
	fprintf(f, "    blocks: %" PRIu64 " looked up: memory %.2f%%, disk %.2f%%, lost %" PRIu64
		   "; %" PRIu64 " new, %" PRIu64 " evicted to disk, %" PRIu64 " dropped from disk\n",
		kv->blocks_looked_up, kv->memory_hit_ratio * 100, kv->disk_hit_ratio * 100, kv->misses,
		kv->blocks_new, kv->evict_writes, kv->disk_evictions);
	fprintf(f, "    disk I/O: read %" PRIu64 " blocks (%.2f MiB/s), wrote %" PRIu64 " blocks (%.2f "
		   "MiB/s)\n", kv->disk_reads, kv->read_mibps, kv->disk_writes, kv->write_mibps);
	normal_lat(f, "latency", &kv->latency);
	normal_lat(f, "ttft", &kv->ttft);
	normal_lat(f, "storage ttft", &kv->storage_ttft);
	normal_extra(f, &kv->x);
}

/* ---- the result as its workload makes it (ml/result.h) */

static void json(struct sb_jw *w, const struct sb_ml_result *m)
{
	const struct sb_kv_result *kv = ((const struct sb_kv_job_result *)m)->kv;
	if (kv)
		json_kv(w, kv);
}

static void normal(FILE *f, const struct sb_ml_result *m)
{
	const struct sb_kv_result *kv = ((const struct sb_kv_job_result *)m)->kv;
	if (kv)
		normal_kv(f, kv);
}

static void release(struct sb_ml_result *m)
{
	free(((struct sb_kv_job_result *)m)->kv);
}

const struct sb_ml_figures sb_kv_figures = {
	.size = sizeof(struct sb_kv_job_result),
	.json = json,
	.normal = normal,
	.release = release,
};

const struct sb_kv_result *sb_kv_result_of(const struct sb_job_result *jr)
{
	struct sb_ml_result *m = sb_ml_result_mine(jr ? jr->wl : NULL, &sb_kv_figures);
	return m ? ((struct sb_kv_job_result *)m)->kv : NULL;
}

struct sb_kv_job_result *sb_kv_res(const struct sb_wl_job *j)
{
	struct sb_ml_result *m = sb_ml_result_mine(j->res, &sb_kv_figures);
	SB_ASSERT(m || !j->res); /* a running job's result is its workload's own */
	return (struct sb_kv_job_result *)m;
}
