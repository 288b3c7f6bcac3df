/* kvstats.c: the results of a workload=kvcache job (ml/kvcache/result.h) from its
 * workers and the cache model's counts; its MLPerf rule checks are in
 * ml/kvcache/rules.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/mlperf.h"
#include "ml/run.h"
#include "parse/options.h"
#include "parse/catalog.h"
#include "ml/kvcache/result.h"
#include "ml/kvcache/opts.h"

uint64_t sb_kv_bytes_per_token(unsigned layers, unsigned kv_heads, unsigned head_dim,
			       unsigned elem_bytes)
{
	return 2ull * layers * kv_heads * head_dim * elem_bytes;
}

void sb_kv_count(struct sb_kv_totals *t, const struct sb_kv_req *r)
{
	t->requests++;
	t->reuse_requests += r->reused;
	t->prefix_hits += r->hit;
	t->looked_up += r->looked_up;
	t->mem_hits += r->mem_hits;
	t->disk_hits += r->disk_hits;
	t->misses += r->misses;
	t->blocks_new += r->blocks_new;
	t->disk_reads += r->nrd;
	t->disk_writes += r->nwr;
	t->evict_writes += r->evict_writes;
	t->disk_evictions += r->disk_evictions;
	t->tokens_prompt += r->prompt;
	t->tokens_output += r->output;
	t->tokens_cached += r->cached_tokens;
	t->tokens_computed += r->computed_tokens;
}

static void lat(struct sb_kv_job *k, unsigned n, size_t off, struct sb_kv_lat *out)
{
	struct sb_kv_acc *a = calloc(1, sizeof(*a));
	if (!a)
		return;
	for (unsigned w = 0; w < n; w++) {
		const struct sb_kv_acc *x = (const struct sb_kv_acc *)((const char *)&k->w[w] + off);
		if (!x->n)
			continue;
		sb_hist_merge(&a->h, &x->h);
		a->min = a->n && a->min < x->min ? a->min : x->min;
		a->max = a->max > x->max ? a->max : x->max;
		a->sum += x->sum;
		a->n += x->n;
	}
	out->n = a->n;
	if (a->n) {
		out->min_us = (double)a->min / 1e3;
		out->max_us = (double)a->max / 1e3;
		out->mean_us = a->sum / (double)a->n / 1e3;
		out->p50_us = (double)sb_hist_percentile(&a->h, 50) / 1e3;
		out->p90_us = (double)sb_hist_percentile(&a->h, 90) / 1e3;
		out->p99_us = (double)sb_hist_percentile(&a->h, 99) / 1e3;
		out->p999_us = (double)sb_hist_percentile(&a->h, 99.9) / 1e3;
		/* a bucket's midpoint may pass the largest sample: clamp */
		out->p50_us = out->p50_us < out->max_us ? out->p50_us : out->max_us;
		out->p90_us = out->p90_us < out->max_us ? out->p90_us : out->max_us;
		out->p99_us = out->p99_us < out->max_us ? out->p99_us : out->max_us;
		out->p999_us = out->p999_us < out->max_us ? out->p999_us : out->max_us;
	}
	free(a);
}

static void shape(const struct sb_wl_job *j, const struct sb_kv_job *k, struct sb_kv_result *kv)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_kv_opts *o = k->opts;
	snprintf(kv->model, sizeof(kv->model), "%s", s->ml_model ? s->ml_model : "");
	kv->layers = s->shape.layers;
	kv->kv_heads = s->shape.kv_heads;
	kv->head_dim = o->kv_head_dim;
	kv->elem_bytes = o->kv_elem_bytes;
	kv->block_tokens = o->kv_block_tokens;
	kv->bytes_per_token = k->bytes_per_token;
	kv->block_bytes = k->block_bytes;
	kv->memory_capacity = o->kv_memory_capacity;
	kv->disk_capacity = o->kv_disk_capacity;
	kv->memory_blocks = k->m.cfg.mem_blocks;
	kv->disk_blocks = k->m.cfg.disk_blocks;
	kv->prefix_reuse = o->prefix_reuse;
	kv->trace_fmt = k->m.cfg.trace ? (unsigned)k->m.cfg.trace->fmt : SB_KVT_AUTO;
	kv->arrival_rate = o->arrival_rate;
	kv->concurrency = j->nworkers;
	kv->kept = o->keep_kvcache;
	if (k->file_id.ino) /* a file exists (not with ioengine=null) */
		sb_ml_join(kv->path, sizeof(kv->path), NULL, k->path);
	struct stat st;
	if (k->file_id.ino && stat(k->path, &st) == 0)
		kv->file_bytes = (uint64_t)st.st_size;
}

void sb_kv_results(struct sb_wl_job *j)
{
	struct sb_kv_job *k = j->priv;
	struct sb_kv_result *kv = calloc(1, sizeof(*kv));
	const struct sb_kv_totals *t = &k->tot;
	if (!kv)
		return;
	sb_kv_res(j)->kv = kv;
	shape(j, k, kv);
	kv->requests = t->requests;
	kv->reuse_requests = t->reuse_requests;
	kv->prefix_hits = t->prefix_hits;
	kv->hit_ratio = t->requests ? (double)t->prefix_hits / (double)t->requests : 0;
	kv->blocks_looked_up = t->looked_up;
	kv->memory_hits = t->mem_hits;
	kv->disk_hits = t->disk_hits;
	kv->misses = t->misses;
	kv->memory_hit_ratio = t->looked_up ? (double)t->mem_hits / (double)t->looked_up : 0;
	kv->disk_hit_ratio = t->looked_up ? (double)t->disk_hits / (double)t->looked_up : 0;
	kv->blocks_new = t->blocks_new;
	kv->disk_reads = t->disk_reads;
	kv->disk_writes = t->disk_writes;
	kv->evict_writes = t->evict_writes;
	kv->disk_evictions = t->disk_evictions;
	for (unsigned w = 0; w < j->nworkers; w++) {
		kv->read_bytes += j->workers[w].st->io_bytes[SB_DDIR_READ];
		kv->write_bytes += j->workers[w].st->io_bytes[SB_DDIR_WRITE];
	}
	kv->duration_s = (double)(j->end_ns - j->start_ns) / 1e9;
	double d = kv->duration_s > 0 ? kv->duration_s : 1e-9;
	kv->read_mibps = (double)kv->read_bytes / d / 1048576.0;
	kv->write_mibps = (double)kv->write_bytes / d / 1048576.0;
	kv->tokens_prompt = t->tokens_prompt;
	kv->tokens_output = t->tokens_output;
	kv->tokens_cached = t->tokens_cached;
	kv->tokens_computed = t->tokens_computed;
	kv->tokens_per_s = (double)(t->tokens_prompt + t->tokens_output) / d;
	kv->requests_per_s = (double)t->requests / d;
	lat(k, j->nworkers, offsetof(struct sb_kv_worker, latency), &kv->latency);
	lat(k, j->nworkers, offsetof(struct sb_kv_worker, ttft), &kv->ttft);
	lat(k, j->nworkers, offsetof(struct sb_kv_worker, storage_ttft), &kv->storage_ttft);
	kv->x = *sb_kv_extra_stats(&k->m);
	if (k->ml)
		sb_kv_ml_results(k, kv);
	if (j->spec->rules == SB_RULES_MLPERF)
		sb_kv_rules(j, kv);
}
