/* opts.c: workload=kvcache's option rows (the KV shape, the request
 * stream, the tiers, the service times), handed to the parser through the
 * workload table (ml/registry.c). */
#include <stddef.h>

#include "parse/opt_rows.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/opts.h"

/* the rows' offsets are into workload=kvcache's own struct (ml/kvcache/opts.h) */
#define KOFF(f) offsetof(struct sb_kv_opts, f)

static const struct sb_opt_enum kv_trace_fmts[] = {
	{ .name = "auto", .val = SB_KVT_AUTO, .help = "JSON (first character [ or {): sharegpt; else burstgpt" },
	{ .name = "sharegpt", .val = SB_KVT_SHAREGPT, .help = "ShareGPT conversations (JSON array or JSONL)" },
	{ .name = "burstgpt", .val = SB_KVT_BURSTGPT, .help = "BurstGPT CSV (Timestamp, Request tokens, Response tokens)" },
	{ .name = NULL },
};

static const struct sb_opt_enum kv_profile_vals[] = {
	{ .name = "blocks", .val = SB_KV_PROFILE_BLOCKS, .help = "fixed-size blocks in slots of one file" },
	{ .name = "mlperf", .val = SB_KV_PROFILE_MLPERF, .help = "one .npy file per entry, as the official benchmark" },
	{ .name = NULL },
};

const struct sb_option sb_kv_rows[] = {
	{ .name = "head_dim", .type = SB_OT_UINT, .off = KOFF(kv_head_dim), .max = 1 << 16,
	  .flags = SB_OF_ML, .category = C_KV,
	  .help = "model shape: dimensions per key/value head (model= gives it)" },
	{ .name = "kv_bytes_per_element", .type = SB_OT_UINT, .off = KOFF(kv_elem_bytes), .def = "2",
	  .min = 1, .max = 16, .unit = "bytes", .flags = SB_OF_ML, .category = C_KV,
	  .help = "bytes per K or V element (2: fp16/bf16, 1: fp8)" },
	{ .name = "kv_block_tokens", .type = SB_OT_UINT, .off = KOFF(kv_block_tokens), .def = "256",
	  .min = 1, .max = 1 << 20, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "tokens per stored KV block (the unit read, written and evicted)" },
	{ .name = "arrival_rate", .type = SB_OT_FLOAT, .off = KOFF(arrival_rate), .def = "0",
	  .max = 1e9, .unit = "requests/s", .flags = SB_OF_ML, .category = C_KV,
	  .help = "Poisson arrivals at this rate, served by concurrency threads (0: closed loop)" },
	{ .name = "concurrency", .type = SB_OT_UINT, .off = KOFF(kv_concurrency), .def = "1",
	  .min = 1, .max = 4096, .unit = "requests", .flags = SB_OF_ML, .category = C_KV,
	  .help = "requests in flight: closed loop, each starts when one ends" },
	{ .name = "kv_requests", .type = SB_OT_U64, .off = KOFF(kv_requests), .def = "1000",
	  .max = 1000000000, .unit = "requests", .flags = SB_OF_ML, .category = C_KV,
	  .help = "requests to run (0: until runtime=)" },
	{ .name = "prompt_tokens", .type = SB_OT_UINT, .off = KOFF(prompt_tokens), .def = "1024",
	  .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "mean new prompt tokens per request" },
	{ .name = "prompt_tokens_stdev", .type = SB_OT_UINT, .off = KOFF(prompt_tokens_stdev),
	  .def = "0", .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "standard deviation of the prompt length (normal; 0: all equal)" },
	{ .name = "prompt_tokens_min", .type = SB_OT_UINT, .off = KOFF(prompt_tokens_min), .def = "1",
	  .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "shortest prompt (draws are clamped)" },
	{ .name = "prompt_tokens_max", .type = SB_OT_UINT, .off = KOFF(prompt_tokens_max),
	  .def = "1048576", .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML,
	  .category = C_KV, .help = "longest prompt (draws are clamped)" },
	{ .name = "output_tokens", .type = SB_OT_UINT, .off = KOFF(output_tokens), .def = "256",
	  .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "mean generated tokens per request" },
	{ .name = "output_tokens_stdev", .type = SB_OT_UINT, .off = KOFF(output_tokens_stdev),
	  .def = "0", .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "standard deviation of the output length (normal; 0: all equal)" },
	{ .name = "output_tokens_min", .type = SB_OT_UINT, .off = KOFF(output_tokens_min), .def = "1",
	  .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "shortest output (draws are clamped)" },
	{ .name = "output_tokens_max", .type = SB_OT_UINT, .off = KOFF(output_tokens_max),
	  .def = "1048576", .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML,
	  .category = C_KV, .help = "longest output (draws are clamped)" },
	{ .name = "prefix_reuse", .type = SB_OT_FLOAT, .off = KOFF(prefix_reuse), .def = "0.5",
	  .max = 1, .flags = SB_OF_ML, .category = C_KV,
	  .help = "probability (0-1) that a request continues an earlier conversation" },
	{ .name = "kv_memory_capacity", .type = SB_OT_SIZE, .off = KOFF(kv_memory_capacity),
	  .def = "1g", .unit = "bytes", .flags = SB_OF_ML, .category = C_KV,
	  .help = "KV bytes the memory tier holds, LRU (0: no memory tier)" },
	{ .name = "kv_disk_capacity", .type = SB_OT_SIZE, .off = KOFF(kv_disk_capacity),
	  .def = "4g", .unit = "bytes", .flags = SB_OF_ML, .category = C_KV,
	  .help = "KV bytes the disk tier (a file under directory=) holds, LRU (0: no disk tier)" },
	{ .name = "prefill_time_per_token", .type = SB_OT_TIME, .off = KOFF(prefill_time_per_token_us),
	  .def = "0", .unit_us = 1, .unit = "us", .flags = SB_OF_ML, .category = C_KV,
	  .help = "emulated prefill per prompt token not found in the cache" },
	{ .name = "decode_time_per_token", .type = SB_OT_TIME, .off = KOFF(decode_time_per_token_us),
	  .def = "0", .unit_us = 1, .unit = "us", .flags = SB_OF_ML, .category = C_KV,
	  .help = "emulated decode per generated token" },
	{ .name = "keep_kvcache", .type = SB_OT_BOOL, .off = KOFF(keep_kvcache), .def = "0",
	  .flags = SB_OF_ML, .category = C_KV,
	  .help = "keep the disk tier's file at the end (default: remove what storbench wrote)" },
	/* trace replay (ml/kvcache/kvtrace.h) */
	{ .name = "kv_trace", .type = SB_OT_STR, .off = KOFF(kv_trace), .flags = SB_OF_ML,
	  .category = C_KV,
	  .help = "replay this request trace (ShareGPT JSON or BurstGPT CSV) instead of drawing requests" },
	{ .name = "kv_trace_format", .type = SB_OT_ENUM, .off = KOFF(kv_trace_format), .def = "auto",
	  .enums = kv_trace_fmts, .flags = SB_OF_ML, .category = C_KV,
	  .help = "format of kv_trace=: auto (JSON: sharegpt, else burstgpt), sharegpt or burstgpt" },
	{ .name = "kv_trace_speedup", .type = SB_OT_FLOAT, .off = KOFF(kv_trace_speedup), .def = "1",
	  .max = 1e9, .flags = SB_OF_ML, .category = C_KV,
	  .help = "burstgpt: replay timestamps this many times faster (0: ignore them, closed loop)" },
	{ .name = "kv_request_log", .type = SB_OT_STR, .off = KOFF(kv_request_log),
	  .flags = SB_OF_ML | SB_OF_IDENTITY, .category = C_KV,
	  .help = "write one line per request (arrival, tokens, conversation, turn) to this file" },
	/* shared prefixes and RAG (the official prefix_cache.py, rag.py) */
	{ .name = "kv_system_prompt_probability", .type = SB_OT_FLOAT, .off = KOFF(kv_sysprompt_prob),
	  .def = "0", .max = 1, .flags = SB_OF_ML, .category = C_KV,
	  .help = "probability (0-1) a request starts with a shared system prompt (0: off; kv_profile=mlperf: 0.2 unless given, the official default)" },
	{ .name = "kv_rag_docs", .type = SB_OT_UINT, .off = KOFF(kv_rag_docs), .def = "0",
	  .max = 1000000, .unit = "documents", .flags = SB_OF_ML, .category = C_KV,
	  .help = "RAG documents stored as KV chunks with the first request (official: 10; 0: no RAG)" },
	{ .name = "kv_rag_probability", .type = SB_OT_FLOAT, .off = KOFF(kv_rag_prob), .def = "0.1",
	  .max = 1, .flags = SB_OF_ML, .category = C_KV,
	  .help = "probability (0-1) a request reads the chunks of one RAG document" },
	{ .name = "kv_rag_chunk_tokens", .type = SB_OT_UINT, .off = KOFF(kv_rag_chunk_tokens),
	  .def = "512", .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML,
	  .category = C_KV, .help = "tokens per RAG chunk (at most 256 MiB of KV)" },
	{ .name = "kv_rag_top_k", .type = SB_OT_UINT, .off = KOFF(kv_rag_top_k), .def = "5", .min = 1,
	  .max = 64, .unit = "chunks", .flags = SB_OF_ML, .category = C_KV,
	  .help = "RAG chunks read per retrieval (zipfian: earlier chunks likelier)" },
	/* kv_profile=mlperf (ml/kvcache/mlperf.c) */
	{ .name = "kv_profile", .type = SB_OT_ENUM, .off = KOFF(kv_profile), .def = "blocks",
	  .enums = kv_profile_vals, .flags = SB_OF_ML, .category = C_KV,
	  .help = "storage behaviour: blocks (block slots of one file) or mlperf (the official "
		  "benchmark's .npy file per entry); rules=mlperf makes mlperf the default" },
	{ .name = "kv_gpu_mem", .type = SB_OT_SIZE, .off = KOFF(kv_gpu_mem), .def = "0",
	  .unit = "bytes", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: GPU tier per GPU, before the CPU tier (0: none; held in host memory)" },
	{ .name = "kv_gpus", .type = SB_OT_UINT, .off = KOFF(kv_gpus), .def = "1", .min = 1, .max = 4096,
	  .unit = "GPUs", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: GPUs; the GPU tier is kv_gpu_mem x kv_gpus" },
	{ .name = "kv_tensor_parallel", .type = SB_OT_UINT, .off = KOFF(kv_tensor_parallel), .def = "1",
	  .min = 1, .max = 1024, .unit = "ranks", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: tensor-parallel ranks; an entry holds 1/N of the KV bytes" },
	{ .name = "kv_decode_reread_tokens", .type = SB_OT_UINT, .off = KOFF(kv_decode_reread_tokens),
	  .def = "32", .min = 1, .max = 1 << 24, .unit = "tokens", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: decode re-reads the request's entry every N output tokens" },
	{ .name = "kv_users", .type = SB_OT_UINT, .off = KOFF(kv_users), .def = "0", .max = 1000000,
	  .unit = "users", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: simulated users (QoS classes 15/35/50%); min(N, 500) workers (0: concurrency=)" },
	{ .name = "kv_think_time", .type = SB_OT_TIME, .off = KOFF(kv_think_time_us), .def = "0",
	  .unit_us = 1000, .unit = "ms", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: a user's timer between the requests it issues, x U(0.8, 1.2), whether or not earlier ones were served (0: back to back, one at a time)" },
	{ .name = "kv_max_turns_per_conv", .type = SB_OT_UINT, .off = KOFF(kv_max_turns), .def = "50",
	  .min = 1, .max = 1000000, .unit = "turns", .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: a user starts a new conversation after this many turns (the official config.yaml conversation.max_turns_per_conv, default 50)" },
	{ .name = "kv_prefill_only", .type = SB_OT_BOOL, .off = KOFF(kv_prefill_only), .def = "0",
	  .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: a disaggregated prefill node: no decode reads" },
	{ .name = "kv_decode_only", .type = SB_OT_BOOL, .off = KOFF(kv_decode_only), .def = "0",
	  .flags = SB_OF_ML, .category = C_KV,
	  .help = "kv_profile=mlperf: a decode node: reads entries written before the run, no prefill writes" },
};
const unsigned sb_kv_rows_n = sizeof(sb_kv_rows) / sizeof(sb_kv_rows[0]);

const struct sb_option *sb_kv_opt(size_t off)
{
	return sb_parse_wl_row(sb_kv_rows, off);
}
