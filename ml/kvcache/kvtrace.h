/* kvtrace.h: the request traces workload=kvcache replays (kv_trace=FILE),
 * read the way MLCommons' KV-cache benchmark reads them
 * (kv_cache_benchmark/kv_cache/workload.py ShareGPTDatasetLoader,
 * benchmark.py _burst_trace_iterator / _generate_requests_from_trace):
 *
 * - burstgpt: CSV with a header row; columns "Timestamp" (s, optional: 0),
 *   "Request tokens", "Response tokens" (others ignored).  Arrivals are the
 *   timestamp steps divided by the speed-up; a step back waits nothing.
 * - sharegpt: a JSON array of conversations (or one per line, JSONL), each
 *   {"id": ..., "conversations": [{"from": "human", "value": TEXT},
 *   {"from": "gpt", "value": TEXT}, ...]}; each human/gpt pair is a turn,
 *   tokens = max(1, characters / 4) (the official fallback when tiktoken is
 *   absent), capped at 16384 prompt and 2048 output tokens.  No timestamps:
 *   request i arrives at i / rate (rate 0: all at 0, the caller runs a
 *   closed loop).
 *
 * Pure: text in, an array of requests out; errors are "line N: what". */
#ifndef SB_ML_KVTRACE_H
#define SB_ML_KVTRACE_H
#include <stddef.h>
#include <stdint.h>

enum sb_kv_trace_fmt { SB_KVT_AUTO, SB_KVT_SHAREGPT, SB_KVT_BURSTGPT };

#define SB_KVT_SHAREGPT_PROMPT_MAX 16384u /* workload.py: min(context_tokens, 16384) */
#define SB_KVT_SHAREGPT_OUTPUT_MAX 2048u  /* workload.py: min(generation_tokens, 2048) */

struct sb_kv_trace_req {
	double arrival_s;        /* since the start */
	uint32_t prompt, output; /* tokens */
	uint32_t conv;           /* conversation, 0.. in first-seen order (burstgpt: one each) */
	uint32_t turn;           /* 1..; burstgpt: 1 */
	uint32_t line;           /* where in the file it came from */
};

struct sb_kv_trace {
	enum sb_kv_trace_fmt fmt;
	struct sb_kv_trace_req *req;
	size_t n, cap;
	uint32_t nconv;
};

/* the format of a text: '[' or '{' first (after white space): sharegpt,
 * else burstgpt */
enum sb_kv_trace_fmt sb_kv_trace_detect(const char *text, size_t len);
const char *sb_kv_trace_fmt_name(enum sb_kv_trace_fmt f);
/* Parse text[0..len) (NUL-terminated at len) into t (emptied first).
 * speedup > 0 divides burstgpt's timestamp steps (0: every arrival 0);
 * rate > 0 spaces sharegpt's requests 1/rate s apart.  0, -EINVAL with
 * err "line N: what; fix", or -ENOMEM. */
int sb_kv_trace_parse(struct sb_kv_trace *t, enum sb_kv_trace_fmt fmt, const char *text,
		      size_t len, double speedup, double rate, char *err, size_t errlen);
/* Read a file and parse it; err gets "what" (the caller adds the path). */
int sb_kv_trace_load(struct sb_kv_trace *t, const char *path, enum sb_kv_trace_fmt fmt,
		     double speedup, double rate, char *err, size_t errlen);
void sb_kv_trace_free(struct sb_kv_trace *t);
/* Arrival arithmetic that saturates instead of wrapping: t0_ns + s seconds
 * (a trace's timestamp divided by its speed-up, i / arrival_rate, a
 * Poisson clock), UINT64_MAX ("never") when it does not fit in 64 bits of
 * nanoseconds (past about 584 years from the clock's origin) or s is
 * infinite; NaN or s <= 0: t0_ns. */
static inline uint64_t sb_kv_at_ns(uint64_t t0_ns, double s)
{
	if (!(s > 0))
		return t0_ns;
	double ns = s * 1e9 + 0.5;
	if (!(ns < 18446744073709549568.0)) /* the largest double below 2^64 */
		return UINT64_MAX;
	uint64_t d = (uint64_t)ns;
	return t0_ns > UINT64_MAX - d ? UINT64_MAX : t0_ns + d;
}
/* a + b, UINT64_MAX when it does not fit */
static inline uint64_t sb_kv_add_ns(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
/* The cursor the request streams use: the request at *pos, then *pos + 1;
 * NULL at the end. */
const struct sb_kv_trace_req *sb_kv_trace_next(const struct sb_kv_trace *t, size_t *pos);
#endif
