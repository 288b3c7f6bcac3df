/* opts.h: workload=kvcache's own options struct (parse/workloads.h): the
 * fields only kvcache reads, set by its option rows (ml/kvcache/opts.c,
 * offsets into this struct) and by its check (kv_head_dim from model=,
 * kv_profile from rules=, kv_templates).  It lives in the spec's wl_opts
 * area; the shared model shape (model=, layers=, kv_heads=) stays in
 * struct sb_jobspec. */
#ifndef SB_ML_KVCACHE_OPTS_H
#define SB_ML_KVCACHE_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/workloads.h"

struct sb_option;

struct sb_kv_opts {
	/* the KV shape beside model=, layers=, kv_heads= */
	unsigned kv_head_dim;       /* dimensions per key/value head */
	unsigned kv_elem_bytes;     /* bytes per KV element (2: fp16) */
	unsigned kv_block_tokens;   /* tokens per stored KV block */
	/* the request stream */
	double arrival_rate;        /* requests/s, Poisson arrivals; 0: closed loop */
	unsigned kv_concurrency;    /* requests in flight (worker threads) */
	uint64_t kv_requests;       /* requests to run; 0: until runtime= */
	unsigned prompt_tokens, prompt_tokens_stdev, prompt_tokens_min, prompt_tokens_max;
	unsigned output_tokens, output_tokens_stdev, output_tokens_min, output_tokens_max;
	double prefix_reuse;        /* probability a request continues an earlier conversation */
	/* the tiers and the service times */
	uint64_t kv_memory_capacity; /* bytes of KV blocks the memory tier holds (0: none) */
	uint64_t kv_disk_capacity;  /* bytes of KV blocks the disk tier holds (0: none) */
	uint64_t prefill_time_per_token_us, decode_time_per_token_us;
	bool keep_kvcache;          /* keep the disk tier's file at the end */
	/* kv_profile=mlperf (ml/kvcache/mlperf.c) */
	unsigned kv_profile;        /* 0: blocks, 1: mlperf (rules=mlperf: the default) */
	uint64_t kv_gpu_mem;        /* bytes of the GPU tier per GPU (0: none) */
	unsigned kv_gpus, kv_tensor_parallel;
	unsigned kv_decode_reread_tokens; /* decode re-reads the entry every N output tokens */
	unsigned kv_users;          /* simulated users (0: concurrency=) */
	uint64_t kv_think_time_us;  /* a user's pause between requests */
	unsigned kv_max_turns;      /* a conversation ends after this many turns */
	bool kv_prefill_only, kv_decode_only;
	unsigned kv_templates;      /* set by the check: 1 prompt, 2 output, 4 think time drawn per user
				     * from the official user templates (not given) */
	/* trace replay (ml/kvcache/kvtrace.h), shared prefixes and RAG */
	char *kv_trace;             /* request trace file; NULL: requests drawn from the seed */
	unsigned kv_trace_format;   /* enum sb_kv_trace_fmt */
	double kv_trace_speedup;    /* burstgpt: timestamp steps divided by this; 0: closed loop */
	char *kv_request_log;       /* one line per request planned; NULL: none */
	double kv_sysprompt_prob;   /* shared system-prompt prefix per request, 0-1 (0: off) */
	unsigned kv_rag_docs;       /* RAG documents stored at the start (0: no RAG) */
	unsigned kv_rag_chunk_tokens, kv_rag_top_k; /* tokens per chunk, chunks per retrieval */
	double kv_rag_prob;         /* probability a request reads RAG chunks */
};

/* The kvcache options of s, NULL when s is not a workload=kvcache job (or
 * the workloads were not handed down: sb_workloads_hand_down). */
struct sb_jobspec;
extern const struct sb_option sb_kv_rows[]; /* its rows (opts.c) */
static inline const struct sb_kv_opts *sb_kv_opts(const struct sb_jobspec *s)
{
	return (const struct sb_kv_opts *)sb_spec_wl_opts_own(s, sb_kv_rows);
}
/* The same, writable: for the check, which resolves defaults into it. */
static inline struct sb_kv_opts *sb_kv_opts_mut(struct sb_jobspec *s)
{
	return (struct sb_kv_opts *)sb_spec_wl_opts_own_mut(s, sb_kv_rows);
}

/* The parser's row (as sb_option_find gives it, for sb_job_isset and
 * messages) of the kvcache option at offset off of struct sb_kv_opts;
 * NULL when none (or the rows were not handed down). */
const struct sb_option *sb_kv_opt(size_t off);
#define SB_KV_OPT(f) sb_kv_opt(offsetof(struct sb_kv_opts, f))
#endif
