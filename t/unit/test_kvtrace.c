/* test_kvtrace.c: CUnit suite "kvtrace": the trace readers of
 * workload=kvcache (ml/kvcache/kvtrace.c) against what the official
 * benchmark (mlcommons/storage kv_cache_benchmark/kv_cache/) takes:
 * workload.py ShareGPTDatasetLoader._load_dataset (human/gpt pairs,
 * max(1, len(text) // 4) tokens without tiktoken, min(.., 16384) and
 * min(.., 2048), turn_number = i // 2 + 1, entries without
 * 'conversations' skipped); benchmark.py _burst_trace_iterator ('Request
 * tokens', 'Response tokens', 'Timestamp' default 0) and
 * _generate_requests_from_trace (sleep (ts - prev) / speedup when > 0);
 * and the model (kvmodel.c) replaying a trace in order. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/kvextra.h"
#include "ml/kvcache/kvmodel.h"
#include "ml/kvcache/kvtrace.h"

static int parse(struct sb_kv_trace *t, enum sb_kv_trace_fmt f, const char *text, double speedup,
		 double rate, char *err)
{
	return sb_kv_trace_parse(t, f, text, strlen(text), speedup, rate, err, 256);
}

static void test_detect(void)
{
	CU_ASSERT_EQUAL(sb_kv_trace_detect(" \n[{}]", 6), SB_KVT_SHAREGPT);
	CU_ASSERT_EQUAL(sb_kv_trace_detect("{\"a\":1}\n", 8), SB_KVT_SHAREGPT);
	CU_ASSERT_EQUAL(sb_kv_trace_detect("\xef\xbb\xbfTimestamp,x", 14), SB_KVT_BURSTGPT);
}

static void test_burstgpt(void)
{
	struct sb_kv_trace t = { 0 };
	char err[256] = "";
	const char *csv = "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\r\n"
			  "5,ChatGPT,472,18,490,Conversation log\r\n"
			  "7.5,\"GPT-4, big\",1024,0,1024,API log\r\n"
			  "\n"
			  "7,GPT-4, 33 ,+9,42,API log\n"  /* a step back: no wait */
			  "11,GPT-4,1,2,3,API log";
	CU_ASSERT_EQUAL_FATAL(parse(&t, SB_KVT_AUTO, csv, 2.0, 0, err), 0);
	CU_ASSERT_EQUAL(t.fmt, SB_KVT_BURSTGPT);
	CU_ASSERT_EQUAL_FATAL(t.n, 4);
	CU_ASSERT_EQUAL(t.req[0].prompt, 472);
	CU_ASSERT_EQUAL(t.req[0].output, 18);
	CU_ASSERT_EQUAL(t.req[1].prompt, 1024);
	CU_ASSERT_EQUAL(t.req[1].output, 0);
	CU_ASSERT_EQUAL(t.req[2].prompt, 33);
	CU_ASSERT_EQUAL(t.req[2].output, 9);
	CU_ASSERT_DOUBLE_EQUAL(t.req[0].arrival_s, 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t.req[1].arrival_s, 1.25, 1e-12); /* (7.5 - 5) / 2 */
	CU_ASSERT_DOUBLE_EQUAL(t.req[2].arrival_s, 1.25, 1e-12); /* 7 < 7.5: no wait */
	CU_ASSERT_DOUBLE_EQUAL(t.req[3].arrival_s, 3.25, 1e-12); /* (11 - 7) / 2 */
	CU_ASSERT_EQUAL(t.req[3].line, 6);
	CU_ASSERT_EQUAL(t.nconv, 4); /* each its own conversation */
	CU_ASSERT_EQUAL(t.req[3].conv, 3);
	CU_ASSERT_EQUAL(t.req[3].turn, 1);
	/* no Timestamp column: row.get('Timestamp', 0), all at 0 */
	CU_ASSERT_EQUAL_FATAL(parse(&t, SB_KVT_BURSTGPT, "Request tokens,Response tokens\n3,4\n5,6\n",
				    1.0, 0, err), 0);
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT_DOUBLE_EQUAL(t.req[1].arrival_s, 0, 1e-12);
	sb_kv_trace_free(&t);
}

static void bad(enum sb_kv_trace_fmt f, const char *text, const char *want)
{
	struct sb_kv_trace t = { 0 };
	char err[256] = "";
	CU_ASSERT_EQUAL(parse(&t, f, text, 1.0, 0, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	if (!strstr(err, want))
		fprintf(stderr, "\n  got '%s', want '%s'\n", err, want);
	sb_kv_trace_free(&t);
}

static void test_bad(void)
{
	const char *h = "Timestamp,Model,Request tokens,Response tokens\n";
	char buf[256];
	bad(SB_KVT_BURSTGPT, "Timestamp,Model,Response tokens\n1,a,2\n", "line 1: the BurstGPT header has no 'Request tokens'");
	snprintf(buf, sizeof(buf), "%s1,a,2,3\n2,a,x2,3\n", h);
	bad(SB_KVT_BURSTGPT, buf, "line 3: 'x2' is not a whole number of tokens (column 'Request tokens'); fix or remove");
	snprintf(buf, sizeof(buf), "%s1,a,2,3.5\n", h);
	bad(SB_KVT_BURSTGPT, buf, "line 2: '3.5' is not a whole number of tokens (column 'Response tokens')");
	snprintf(buf, sizeof(buf), "%s\n\n1,a,2\n", h);
	bad(SB_KVT_BURSTGPT, buf, "line 4: 3 fields where the header has at least 4");
	snprintf(buf, sizeof(buf), "%snow,a,2,3\n", h);
	bad(SB_KVT_BURSTGPT, buf, "line 2: Timestamp 'now' is not a number of seconds");
	bad(SB_KVT_BURSTGPT, h, "no requests in it");
	bad(SB_KVT_BURSTGPT, "", "line 1: empty");
	bad(SB_KVT_SHAREGPT, "[{\"conversations\": [}]", "line 1, column");
	bad(SB_KVT_SHAREGPT, "{\"conversations\": []}\n{\"conversations\": [\n", "line 2: not a JSON conversation object");
	bad(SB_KVT_SHAREGPT, "{\"conversations\": []}\n\n[1]\n", "line 3: a JSON value that is not an object");
	bad(SB_KVT_SHAREGPT, "{\"conversations\":[{\"from\":\"human\",\"value\":3},{\"from\":\"gpt\",\"value\":\"x\"}]}",
	    "line 1: turn 1's \"value\" is not a string");
	bad(SB_KVT_SHAREGPT, "[{\"id\": \"a\"}]", "no requests in it (sharegpt");
}

static void test_sharegpt(void)
{
	struct sb_kv_trace t = { 0 };
	char err[256] = "";
	char big[70000 + 1];
	memset(big, 'x', 70000);
	big[70000] = 0;
	static char text[160000];
	snprintf(text, sizeof(text),
		 "[{\"id\": \"no-turns\"},\n"
		 " {\"id\": \"c1\", \"conversations\": [\n"
		 "   {\"from\": \"human\", \"value\": \"abcdefghi\"}, {\"from\": \"gpt\", \"value\": \"ab\"},\n"
		 "   {\"from\": \"system\", \"value\": \"skipped pair\"}, {\"from\": \"gpt\", \"value\": \"x\"},\n"
		 "   {\"from\": \"human\", \"value\": \"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\"},"
		 "   {\"from\": \"gpt\", \"value\": \"%s\"}]},\n"
		 " {\"id\": \"c2\", \"conversations\": [{\"from\": \"human\", \"value\": \"%s\"},"
		 "   {\"from\": \"gpt\"}, {\"from\": \"human\", \"value\": \"dangling\"}]}]\n", big, big);
	CU_ASSERT_EQUAL_FATAL(parse(&t, SB_KVT_AUTO, text, 1.0, 4.0, err), 0);
	CU_ASSERT_EQUAL(t.fmt, SB_KVT_SHAREGPT);
	CU_ASSERT_EQUAL_FATAL(t.n, 3);
	CU_ASSERT_EQUAL(t.nconv, 2);
	CU_ASSERT_EQUAL(t.req[0].prompt, 2);   /* 9 chars // 4 */
	CU_ASSERT_EQUAL(t.req[0].output, 1);   /* max(1, 2 // 4) */
	CU_ASSERT_EQUAL(t.req[0].turn, 1);
	CU_ASSERT_EQUAL(t.req[1].prompt, 2);   /* 8 characters (16 UTF-8 bytes) // 4 */
	CU_ASSERT_EQUAL(t.req[1].output, SB_KVT_SHAREGPT_OUTPUT_MAX); /* 17500 capped */
	CU_ASSERT_EQUAL(t.req[1].turn, 3);     /* i // 2 + 1 with i = 4 */
	CU_ASSERT_EQUAL(t.req[1].conv, 0);
	CU_ASSERT_EQUAL(t.req[2].prompt, SB_KVT_SHAREGPT_PROMPT_MAX);
	CU_ASSERT_EQUAL(t.req[2].output, 1);   /* no value: '' */
	CU_ASSERT_EQUAL(t.req[2].conv, 1);
	CU_ASSERT_DOUBLE_EQUAL(t.req[2].arrival_s, 0.5, 1e-12); /* 2 / 4 per s */
	/* JSONL: one object per line, the lines kept */
	CU_ASSERT_EQUAL_FATAL(parse(&t, SB_KVT_AUTO, "\n{\"conversations\":[{\"from\":\"human\",\"value\":"
				    "\"abcd\"},{\"from\":\"gpt\",\"value\":\"abcdefgh\"}]}\n", 1, 0, err), 0);
	CU_ASSERT_EQUAL_FATAL(t.n, 1);
	CU_ASSERT_EQUAL(t.req[0].line, 2);
	CU_ASSERT_EQUAL(t.req[0].output, 2);
	sb_kv_trace_free(&t);
}

/* the model replays the trace: its numbers in order, later turns continue
 * their conversation, the stream ends with the trace */
static void test_model_replay(void)
{
	struct sb_kv_trace *t = calloc(1, sizeof(*t));
	char err[256];
	const char *csv = "Timestamp,Request tokens,Response tokens\n0,64,16\n1,32,32\n3,100,1\n";
	CU_ASSERT_EQUAL_FATAL(parse(t, SB_KVT_BURSTGPT, csv, 1.0, 0, err), 0);
	struct sb_kv_cfg c = { .block_tokens = 16, .mem_blocks = 100, .disk_blocks = 100,
			       .reuse = 1.0, .prompt_mean = 5, .output_mean = 5, .prompt_max = 9,
			       .output_max = 9, .seed = 1, .trace = t, .trace_timed = true };
	struct sb_kv_model m;
	struct sb_kv_req r;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &c), 0);
	CU_ASSERT(sb_kv_open_loop(&m));
	unsigned want[3][2] = { { 64, 16 }, { 32, 32 }, { 100, 1 } };
	double at[3] = { 0, 1, 3 };
	for (unsigned i = 0; i < 3; i++) {
		CU_ASSERT_FALSE(sb_kv_trace_done(&m));
		CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
		CU_ASSERT_EQUAL(r.prompt, want[i][0]);
		CU_ASSERT_EQUAL(r.output, want[i][1]);
		CU_ASSERT_DOUBLE_EQUAL(r.arrival_s, at[i], 1e-12);
		CU_ASSERT_FALSE(r.reused); /* burstgpt: every request new, reuse= not drawn */
	}
	CU_ASSERT(sb_kv_trace_done(&m));
	CU_ASSERT_EQUAL(sb_kv_next(&m, &r), -ENODATA);
	CU_ASSERT_EQUAL(m.nconv, 3);
	sb_kv_model_free(&m); /* frees t */

	/* sharegpt: turn 2 continues conversation 0 and finds its blocks */
	t = calloc(1, sizeof(*t));
	char j[400];
	snprintf(j, sizeof(j), "{\"conversations\":[{\"from\":\"human\",\"value\":\"%0128d\"},"
		 "{\"from\":\"gpt\",\"value\":\"%064d\"},{\"from\":\"human\",\"value\":\"abcd\"},"
		 "{\"from\":\"gpt\",\"value\":\"abcd\"}]}", 0, 0);
	CU_ASSERT_EQUAL_FATAL(parse(t, SB_KVT_SHAREGPT, j, 1.0, 0, err), 0);
	c.trace = t;
	c.trace_timed = false;
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &c), 0);
	CU_ASSERT_FALSE(sb_kv_open_loop(&m));
	CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
	CU_ASSERT_EQUAL(r.prompt + r.output, 48); /* 32 + 16: 3 blocks of 16 */
	CU_ASSERT_EQUAL(r.blocks_new, 3);
	CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
	CU_ASSERT(r.reused && r.hit);
	CU_ASSERT_EQUAL(r.turn, 2);
	CU_ASSERT_EQUAL(r.cached_tokens, 48);
	CU_ASSERT_EQUAL(m.nconv, 1);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
}

/* prefix_cache.py: detect_system_prompt hits with system_prompt_hit_probability,
 * token_count = len(prompt.split()) of one of three prompts (5, 9, 6 words),
 * remaining_tokens = max(0, context_tokens - token_count) */
static void test_sysprompt(void)
{
	struct sb_kv_cfg c = { .block_tokens = 16, .mem_blocks = 1000, .prompt_mean = 100,
			       .prompt_max = 1000, .prompt_min = 1, .output_mean = 10, .output_min = 1,
			       .output_max = 100, .seed = 3, .sysprompt_prob = 0.2 };
	struct sb_kv_model m;
	struct sb_kv_req r;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &c), 0);
	unsigned seen[10] = { 0 };
	for (unsigned i = 0; i < 5000; i++) {
		CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
		CU_ASSERT(r.prefix_tokens == 0 || r.prefix_tokens == 5 || r.prefix_tokens == 6 ||
			  r.prefix_tokens == 9);
		CU_ASSERT_EQUAL(r.prompt + r.prefix_tokens, 100);
		seen[r.prefix_tokens]++;
	}
	const struct sb_kv_extra *x = sb_kv_extra_stats(&m);
	CU_ASSERT_EQUAL(x->prefix_hits + x->prefix_misses, 5000);
	CU_ASSERT(x->prefix_hits > 900 && x->prefix_hits < 1100); /* 0.2 of 5000 */
	CU_ASSERT_EQUAL(x->prefix_tokens_saved, 5 * seen[5] + 6 * seen[6] + 9 * seen[9]);
	CU_ASSERT(seen[5] > 250 && seen[6] > 250 && seen[9] > 250);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
}

/* rag.py: ingest_document splits into ceil(tokens / chunk) chunks, all
 * stored; retrieve_chunks takes min(top_k, chunks) without replacement,
 * chunk i weighing 1 / (i + 1); benchmark.py process_requests reads every
 * retrieved chunk with probability rag request_probability */
static void test_rag(void)
{
	struct sb_kv_cfg c = { .block_tokens = 16, .mem_blocks = 0, .disk_blocks = 1u << 20,
			       .prompt_mean = 16, .prompt_min = 1, .prompt_max = 16, .output_mean = 1,
			       .output_min = 1, .output_max = 1, .seed = 5, .rag_docs = 4,
			       .rag_doc_min = 1000, .rag_doc_max = 1000, .rag_chunk_tokens = 100,
			       .rag_top_k = 3, .rag_prob = 0.5 };
	struct sb_kv_model m;
	struct sb_kv_req r;
	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &c), 0);
	CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
	/* the first request stores 4 x 10 chunks of 7 blocks (100 / 16 rounded up) */
	CU_ASSERT_EQUAL(sb_kv_extra_stats(&m)->rag_chunks, 40);
	CU_ASSERT_EQUAL(r.nwr, 40 * 7 + 1);
	CU_ASSERT_EQUAL(r.rag_chunks, 0);
	unsigned first[10] = { 0 }, reads = 0, n = 4000;
	for (unsigned i = 1; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
		CU_ASSERT(r.rag_chunks == 0 || r.rag_chunks == 3);
		CU_ASSERT_EQUAL(r.nrd, r.rag_chunks * 7); /* no memory tier: every block read */
		reads += r.rag_chunks != 0;
	}
	const struct sb_kv_extra *x = sb_kv_extra_stats(&m);
	CU_ASSERT_EQUAL(x->rag_retrievals, reads);
	CU_ASSERT(reads > 1850 && reads < 2150);
	CU_ASSERT_EQUAL(x->rag_chunks_read, 3 * reads);
	CU_ASSERT_EQUAL(x->rag_disk_hits, 21 * reads);
	CU_ASSERT_EQUAL(x->rag_misses + x->rag_mem_hits, 0);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
	/* the zipfian pick: chunk 0 (weight 1) taken most, chunk 9 (1/10) least */
	struct sb_kv_cfg z = c;
	z.rag_top_k = 1;
	z.rag_prob = 1;
	z.rag_docs = 1;
	CU_ASSERT_EQUAL_FATAL(sb_kv_model_init(&m, &z), 0);
	CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
	for (unsigned i = 1; i < 20000; i++) {
		CU_ASSERT_EQUAL_FATAL(sb_kv_next(&m, &r), 0);
		CU_ASSERT_EQUAL_FATAL(r.nrd, 7);
		for (unsigned k = 0; k < 10; k++)
			first[k] += m.chunk[k].blk[0] == (uint32_t)-1 ? 0 :
				    r.rd[0] == (uint64_t)m.b[m.chunk[k].blk[0]].slot;
	}
	/* 1 / (k + 1) over H(10) = 2.929: chunk 0 0.341, chunk 9 0.034 */
	CU_ASSERT(first[0] > 6500 && first[0] < 7150);
	CU_ASSERT(first[9] > 550 && first[9] < 820);
	for (unsigned k = 1; k < 10; k++)
		CU_ASSERT(first[k] < first[k - 1] + 300);
	sb_kv_req_free(&r);
	sb_kv_model_free(&m);
}

/* the pure draws the profiles share (kvextra.c) */
static void test_extra_rules(void)
{
	unsigned lo, hi;
	sb_kv_rag_doc_range(32, &lo, &hi); /* small model: 4000-12000 */
	CU_ASSERT(lo == 4000 && hi == 12000);
	sb_kv_rag_doc_range(80, &lo, &hi); /* num_layers >= 64: 1024-4096 */
	CU_ASSERT(lo == 1024 && hi == 4096);
	CU_ASSERT_EQUAL(sb_kv_rag_chunk_tokens(512, 131072), 512);  /* 64 MiB chunks: under 256 MiB */
	CU_ASSERT_EQUAL(sb_kv_rag_chunk_tokens(4096, 131072), 2048); /* 256 MiB / 128 KiB */
	CU_ASSERT_EQUAL(sb_kv_rag_chunk_tokens(512, UINT64_C(1) << 30), 1); /* max(1, ..) */
	CU_ASSERT_EQUAL(sb_kv_sysprompt(0.2, 0.19, 1, 100), 9);
	CU_ASSERT_EQUAL(sb_kv_sysprompt(0.2, 0.2, 1, 100), 0);
	CU_ASSERT_EQUAL(sb_kv_sysprompt(0.2, 0.0, 3, 100), 5);
	CU_ASSERT_EQUAL(sb_kv_sysprompt(0.2, 0.0, 2, 4), 4); /* max(0, 4 - 6): all 4 taken */
	CU_ASSERT_EQUAL(sb_kv_sysprompt(0, 0.0, 2, 100), 0);
}

/* arrival arithmetic saturates: t0 + s seconds never
 * wraps past 2^64 ns, whatever t0, and NaN or s <= 0 is t0 */
static void test_arrival_saturates(void)
{
	const uint64_t t0s[] = { 0, 1, 123456789012345ull, UINT64_MAX / 2, UINT64_MAX - 5, UINT64_MAX };
	const double ss[] = { 0.5, 1.0, 1e9, 18446744073.0, 18446744073.709551615, 1e11, 1e20,
			      1e300, INFINITY };
	for (unsigned i = 0; i < sizeof(t0s) / sizeof(t0s[0]); i++) {
		uint64_t t0 = t0s[i];
		CU_ASSERT_EQUAL(sb_kv_at_ns(t0, 0.0), t0);
		CU_ASSERT_EQUAL(sb_kv_at_ns(t0, -5.0), t0);
		CU_ASSERT_EQUAL(sb_kv_at_ns(t0, NAN), t0);
		uint64_t prev = t0;
		for (unsigned j = 0; j < sizeof(ss) / sizeof(ss[0]); j++) {
			uint64_t at = sb_kv_at_ns(t0, ss[j]);
			CU_ASSERT(at >= t0);   /* never before the start: no wrap */
			CU_ASSERT(at >= prev); /* later seconds, later (or equal) instants */
			long double exact = (long double)t0 + (long double)ss[j] * 1e9L;
			if (exact >= 18446744073709551615.0L)
				CU_ASSERT_EQUAL(at, UINT64_MAX);
			prev = at;
		}
	}
	CU_ASSERT_EQUAL(sb_kv_at_ns(1000, 2.5), 1000 + 2500000000ull);
	CU_ASSERT_EQUAL(sb_kv_at_ns(0, 1e11), UINT64_MAX);
	CU_ASSERT_EQUAL(sb_kv_add_ns(UINT64_MAX - 1, 2), UINT64_MAX);
	CU_ASSERT_EQUAL(sb_kv_add_ns(UINT64_MAX, UINT64_MAX), UINT64_MAX);
	CU_ASSERT_EQUAL(sb_kv_add_ns(3, 4), 7);
}

static CU_TestInfo tests[] = {
	{ "arrival arithmetic saturates", test_arrival_saturates },
	{ "format detection", test_detect },
	{ "burstgpt: columns, arrivals / speedup, quoted fields", test_burstgpt },
	{ "sharegpt: pairs, len // 4, caps, turns, JSONL", test_sharegpt },
	{ "malformed input: line and fix named", test_bad },
	{ "the model replays a trace in order", test_model_replay },
	{ "shared system prompts: hits, tokens taken off", test_sysprompt },
	{ "RAG: chunks stored, top-k zipfian reads", test_rag },
	{ "prefix and RAG rules (kvextra.c)", test_extra_rules },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvtrace, tests)
