/* result.h: the results of one workload=kvcache job (ml/kvcache/kvstats.c
 * fills it, ml/kvcache/figures.c writes it), hung off its struct sb_kv_job_result as ->kv.  Times in
 * microseconds, bandwidth in MiB/s (2^20 bytes per second). */
#ifndef SB_ML_KV_RESULT_H
#define SB_ML_KV_RESULT_H
#include <stdbool.h>
#include <stdint.h>

#include "ml/kvcache/kvextra.h"
#include "ml/result.h"

struct sb_job_result;
struct sb_wl_job;

/* a latency distribution, us */
struct sb_kv_lat {
	uint64_t n;
	double min_us, max_us, mean_us;
	double p50_us, p90_us, p99_us, p999_us;
};

enum { SB_KV_QOS_INTERACTIVE, SB_KV_QOS_RESPONSIVE, SB_KV_QOS_BATCH, SB_KV_NQOS };
enum { SB_KV_TIER_GPU, SB_KV_TIER_CPU, SB_KV_TIER_STORAGE, SB_KV_NTIER };

/* a distribution as the official summary gives it, ms */
struct sb_kv_pct {
	uint64_t n;
	double mean, p50, p95, p99, p999, p9999, max;
};

/* one criterion of the official storage assessment (cache.py,
 * _evaluate_storage_performance) */
struct sb_kv_crit {
	char name[64];
	double target, actual;
	char unit[8];
	bool passed;
};

/* kv_profile=mlperf's results under the official names (benchmark.py
 * _calculate_stats, cache.py get_stats); HOWTO section 9 */
struct sb_kv_mlres {
	bool on;
	unsigned users, tensor_parallel, gpus, reread_tokens;
	bool prefill_only, decode_only;
	uint64_t tier_limit[SB_KV_NTIER];       /* bytes */
	uint64_t total_requests, total_tokens;  /* tokens generated */
	double elapsed_time, avg_throughput_tokens_per_sec, total_storage_io_time;
	double storage_throughput_tokens_per_sec, requests_per_second;
	struct sb_kv_pct e2e, storage, generation;
	double cache_hit_rate;
	uint64_t cache_hits, cache_misses, entries[SB_KV_NTIER], used_bytes[SB_KV_NTIER];
	uint64_t offloads_cpu, offloads_storage, evictions, prefill_writes, decode_reads;
	uint64_t rd_bytes[SB_KV_NTIER], wr_bytes[SB_KV_NTIER];
	uint64_t multi_turn_hits, user_cache_hits, total_read_bytes, total_write_bytes;
	uint64_t system_prompt_hits;            /* reads as cache_type 'system' (common_phrase_hits: 0) */
	/* prefix_cache_stats (prefix_cache.py PrefixCacheManager.stats); !prefix_on: {} */
	bool prefix_on;
	uint64_t prefix_hits, prefix_misses;
	double prefix_bytes_saved;              /* system prompt tokens x whole-model bytes per token */
	uint64_t read_iops, write_iops;
	double storage_tokens_processed;
	struct sb_kv_pct rd[SB_KV_NTIER], wr[SB_KV_NTIER], rd_dev, rd_host, wr_dev, wr_host;
	struct {
		uint64_t n, violations;
		double compliance, target_p95_ms;       /* sla: met when compliance >= 0.95 */
		struct sb_kv_pct lat;
	} qos[SB_KV_NQOS];
	uint64_t mt_hits, mt_misses;
	double mt_hit_rate;
	struct sb_kv_crit crit[4];
	unsigned ncrit, passed;
	bool pass;
};

struct sb_kv_result {
	char model[32];              /* model= ("" for an explicit shape) */
	unsigned layers, kv_heads, head_dim, elem_bytes, block_tokens;
	uint64_t bytes_per_token;    /* 2 x layers x kv_heads x head_dim x elem_bytes */
	uint64_t block_bytes;        /* bytes_per_token x block_tokens */
	uint64_t memory_capacity, disk_capacity;     /* bytes asked */
	uint64_t memory_blocks, disk_blocks;         /* blocks they hold */
	double prefix_reuse, arrival_rate;           /* asked */
	unsigned trace_fmt;          /* enum sb_kv_trace_fmt of kv_trace= (SB_KVT_AUTO: no trace) */
	unsigned concurrency;
	/* the request stream (the cache model decides in request order, so
	 * these counts depend on the seed alone, not on timing) */
	uint64_t requests, reuse_requests, prefix_hits;
	double hit_ratio;            /* prefix_hits / requests */
	uint64_t blocks_looked_up;   /* blocks of the continued conversations */
	uint64_t memory_hits, disk_hits, misses;     /* blocks */
	double memory_hit_ratio, disk_hit_ratio;     /* of blocks_looked_up */
	uint64_t blocks_new;         /* new full blocks stored */
	uint64_t disk_reads, disk_writes;            /* blocks read from / written to the disk tier */
	uint64_t evict_writes;       /* of the writes: memory blocks evicted to disk */
	uint64_t disk_evictions;     /* blocks dropped from the disk tier */
	uint64_t read_bytes, write_bytes;            /* disk tier I/O done */
	double read_mibps, write_mibps;              /* over duration_s */
	uint64_t tokens_prompt, tokens_output, tokens_cached, tokens_computed;
	double tokens_per_s, requests_per_s, duration_s;
	struct sb_kv_lat latency, ttft, storage_ttft;
	char path[256];              /* the disk tier's file ("" without one) */
	uint64_t file_bytes;         /* its size at the end */
	bool kept;                   /* keep_kvcache=1 */
	struct sb_kv_mlres ml;       /* kv_profile=mlperf (ml.on) */
	struct sb_kv_extra x;        /* system prompts and RAG, both profiles */
};

/* a kvcache job's result: the shared part, then its own (made after the
 * run by ml/kvcache/kvstats.c; NULL: it could not be) */
struct sb_kv_job_result {
	struct sb_ml_result ml;
	struct sb_kv_result *kv;
};
extern const struct sb_ml_figures sb_kv_figures; /* ml/kvcache/figures.c */
/* The kvcache result of a job's result, or NULL when it is not a kvcache
 * job's (or has none). */
const struct sb_kv_result *sb_kv_result_of(const struct sb_job_result *jr);
/* The result of a running kvcache job (its j->res; NULL before its
 * prepare made it). */
struct sb_kv_job_result *sb_kv_res(const struct sb_wl_job *j);
#endif
