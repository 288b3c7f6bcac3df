/* test_kvopts.c: CUnit suite "kvopts": workload=kvcache's options live in
 * its own struct (ml/kvcache/opts.h, struct sb_kv_opts in the spec's
 * wl_opts area).  Every one of its rows points into that struct and is
 * found again by its offset (SB_KV_OPT); a job's values of every type
 * land in the struct, the check's resolved values too (head_dim from
 * model=, kv_profile from rules=mlperf, kv_templates); its text is copied
 * and freed with the spec; a job of another workload has no kvcache
 * struct, and every kvcache option given to one is refused at its
 * file:line with the message the integration tests read. */
#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvtrace.h"
#include "ml/kvcache/opts.h"
#include "ml/registry.h"
#include "parse/jobparse.h"
#include "parse/jobspec.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/specvals.h"
#include "parse/workloads.h"

static char logbuf[8192];

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	logbuf[0] = '\0';
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("kv.ini", text, jl);
	if (!rc)
		rc = sb_joblist_finish(jl);
	sb_log_capture(NULL, 0);
	return rc;
}

/* every row: inside struct sb_kv_opts, the parser's copy kvcache's, one
 * base for all of them inside wl_opts, and SB_KV_OPT's answer */
static void test_rows(void)
{
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_parse_workload *kw = sb_parse_workload_find(sb_workload_id(&sb_workload_kvcache));
	CU_ASSERT_PTR_NOT_NULL_FATAL(kw);
	CU_ASSERT_EQUAL(kw->opts_size, sizeof(struct sb_kv_opts));
	CU_ASSERT_EQUAL(kw->nrows, sb_kv_rows_n);
	size_t area = offsetof(struct sb_jobspec, wl_opts), base = 0;
	for (unsigned i = 0; i < sb_kv_rows_n; i++) {
		const struct sb_option *r = &sb_kv_rows[i], *p = sb_option_find(r->name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT(r->off < sizeof(struct sb_kv_opts));
		CU_ASSERT_PTR_EQUAL(sb_parse_workload_of_row(p), kw);
		CU_ASSERT_PTR_EQUAL(sb_kv_opt(r->off), p);
		CU_ASSERT(p->off >= area + r->off && p->off < area + SB_SPEC_WLOPTS_MAX);
		if (!i)
			base = p->off - r->off;
		CU_ASSERT_EQUAL(p->off - r->off, base);
	}
	CU_ASSERT_PTR_NULL(sb_kv_opt(sizeof(struct sb_kv_opts))); /* no row there */
	CU_ASSERT_PTR_EQUAL(SB_KV_OPT(kv_users), sb_option_find("kv_users"));
	CU_ASSERT_PTR_EQUAL(SB_KV_OPT(kv_think_time_us), sb_option_find("kv_think_time"));
}

/* values of every type, and what the check resolves */
static void test_values(void)
{
	struct sb_joblist jl;
	char text[2048], trace[512], log[512];
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	snprintf(trace, sizeof(trace), "%s/kvopts.csv", sb_test_tmpdir());
	snprintf(log, sizeof(log), "%s/kvopts.log", sb_test_tmpdir());
	FILE *f = fopen(trace, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
	      "0.1,GPT-4,23,31,54,API log\n", f);
	fclose(f);
	snprintf(text, sizeof(text),
		 "[a]\nioengine=null\nworkload=kvcache\nlayers=4\nkv_heads=2\nhead_dim=16\n"
		 "kv_bytes_per_element=1\nkv_block_tokens=64\narrival_rate=2.5\nconcurrency=3\n"
		 "kv_requests=77\nprompt_tokens=100\nprompt_tokens_stdev=5\nprompt_tokens_min=10\n"
		 "prompt_tokens_max=200\noutput_tokens=50\noutput_tokens_stdev=6\noutput_tokens_min=11\n"
		 "output_tokens_max=300\nprefix_reuse=0.25\nkv_memory_capacity=2m\n"
		 "kv_disk_capacity=8m\nprefill_time_per_token=3us\ndecode_time_per_token=4ms\n"
		 "keep_kvcache=1\nkv_trace=%s\nkv_trace_format=burstgpt\nkv_trace_speedup=2\n"
		 "kv_request_log=%s\nkv_system_prompt_probability=0.3\nkv_rag_docs=2\n"
		 "kv_rag_probability=0.4\nkv_rag_chunk_tokens=128\nkv_rag_top_k=3\n"
		 "[b]\nioengine=null\nworkload=kvcache\nmodel=llama3-8b\nkv_profile=mlperf\n"
		 "kv_gpu_mem=1m\nkv_gpus=2\nkv_tensor_parallel=2\nkv_decode_reread_tokens=16\n"
		 "kv_users=5\nkv_think_time=7\nkv_prefill_only=1\nprompt_tokens=90\n"
		 "[c]\nioengine=null\nworkload=kvcache\nmodel=llama3-8b\nrules=mlperf\nkv_decode_only=1\n"
		 "[d]\nioengine=null\nsize=1m\n", trace, log);
	CU_ASSERT_EQUAL_FATAL(parse(text, &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 4u);
	const struct sb_kv_opts *a = sb_kv_opts(&jl.jobs[0]), *b = sb_kv_opts(&jl.jobs[1]),
				*c = sb_kv_opts(&jl.jobs[2]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NULL(sb_kv_opts(&jl.jobs[3])); /* an io job has none */
	CU_ASSERT_EQUAL(a->kv_head_dim, 16u);
	CU_ASSERT_EQUAL(a->kv_elem_bytes, 1u);
	CU_ASSERT_EQUAL(a->kv_block_tokens, 64u);
	CU_ASSERT_DOUBLE_EQUAL(a->arrival_rate, 2.5, 1e-12);
	CU_ASSERT_EQUAL(a->kv_concurrency, 3u);
	CU_ASSERT_EQUAL(a->kv_requests, 77u);
	CU_ASSERT_EQUAL(a->prompt_tokens, 100u);
	CU_ASSERT_EQUAL(a->prompt_tokens_stdev, 5u);
	CU_ASSERT_EQUAL(a->prompt_tokens_min, 10u);
	CU_ASSERT_EQUAL(a->prompt_tokens_max, 200u);
	CU_ASSERT_EQUAL(a->output_tokens, 50u);
	CU_ASSERT_EQUAL(a->output_tokens_stdev, 6u);
	CU_ASSERT_EQUAL(a->output_tokens_min, 11u);
	CU_ASSERT_EQUAL(a->output_tokens_max, 300u);
	CU_ASSERT_DOUBLE_EQUAL(a->prefix_reuse, 0.25, 1e-12);
	CU_ASSERT_EQUAL(a->kv_memory_capacity, 2u << 20);
	CU_ASSERT_EQUAL(a->kv_disk_capacity, 8u << 20);
	CU_ASSERT_EQUAL(a->prefill_time_per_token_us, 3u);
	CU_ASSERT_EQUAL(a->decode_time_per_token_us, 4000u);
	CU_ASSERT_TRUE(a->keep_kvcache);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->kv_trace);
	CU_ASSERT_STRING_EQUAL(a->kv_trace, trace);
	CU_ASSERT_EQUAL(a->kv_trace_format, (unsigned)SB_KVT_BURSTGPT);
	CU_ASSERT_DOUBLE_EQUAL(a->kv_trace_speedup, 2, 1e-12);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->kv_request_log);
	CU_ASSERT_STRING_EQUAL(a->kv_request_log, log);
	CU_ASSERT_DOUBLE_EQUAL(a->kv_sysprompt_prob, 0.3, 1e-12);
	CU_ASSERT_EQUAL(a->kv_rag_docs, 2u);
	CU_ASSERT_DOUBLE_EQUAL(a->kv_rag_prob, 0.4, 1e-12);
	CU_ASSERT_EQUAL(a->kv_rag_chunk_tokens, 128u);
	CU_ASSERT_EQUAL(a->kv_rag_top_k, 3u);
	CU_ASSERT_EQUAL(a->kv_profile, (unsigned)SB_KV_PROFILE_BLOCKS);
	CU_ASSERT_EQUAL(jl.jobs[0].shape.layers, 4u); /* the shared shape stays in the spec */
	CU_ASSERT_EQUAL(jl.jobs[0].shape.kv_heads, 2u);

	CU_ASSERT_EQUAL(b->kv_head_dim, 128u); /* model='s, resolved by the check */
	CU_ASSERT_EQUAL(b->kv_elem_bytes, 2u); /* defaults from the rows */
	CU_ASSERT_EQUAL(b->kv_block_tokens, 256u);
	CU_ASSERT_EQUAL(b->kv_requests, 1000u);
	CU_ASSERT_PTR_NULL(b->kv_trace);
	CU_ASSERT_EQUAL(b->kv_profile, (unsigned)SB_KV_PROFILE_MLPERF);
	CU_ASSERT_EQUAL(b->kv_gpu_mem, 1u << 20);
	CU_ASSERT_EQUAL(b->kv_gpus, 2u);
	CU_ASSERT_EQUAL(b->kv_tensor_parallel, 2u);
	CU_ASSERT_EQUAL(b->kv_decode_reread_tokens, 16u);
	CU_ASSERT_EQUAL(b->kv_users, 5u);
	CU_ASSERT_EQUAL(b->kv_think_time_us, 7000u);
	CU_ASSERT_TRUE(b->kv_prefill_only);
	CU_ASSERT_FALSE(b->kv_decode_only);
	CU_ASSERT_EQUAL(b->kv_templates, 2u); /* output drawn per user; prompt, think time given */

	CU_ASSERT_EQUAL(c->kv_profile, (unsigned)SB_KV_PROFILE_MLPERF); /* rules=mlperf's default */
	CU_ASSERT_EQUAL(c->kv_templates, 7u);
	CU_ASSERT_TRUE(c->kv_decode_only);

	/* its text: the copy's own, freed with it, the original kept */
	struct sb_jobspec *copy = malloc(sizeof(*copy));
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	CU_ASSERT_EQUAL_FATAL(sb_spec_copy(copy, &jl.jobs[0]), 0);
	const struct sb_kv_opts *ac = sb_kv_opts(copy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ac);
	CU_ASSERT_PTR_NOT_EQUAL(ac->kv_trace, a->kv_trace);
	CU_ASSERT_PTR_NOT_EQUAL(ac->kv_request_log, a->kv_request_log);
	CU_ASSERT_STRING_EQUAL(ac->kv_trace, trace);
	CU_ASSERT_STRING_EQUAL(ac->kv_request_log, log);
	CU_ASSERT_EQUAL(ac->kv_rag_top_k, 3u);
	sb_spec_release(copy);
	free(copy);
	CU_ASSERT_STRING_EQUAL(a->kv_trace, trace);
	sb_joblist_free(&jl);
}

/* every kvcache option set for a job of another workload: refused where it
 * was set, naming kvcache and the fix */
static void test_misplaced(void)
{
	struct sb_joblist jl;
	char text[512], want[256];
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const char *other[] = { "size=1m\n", "workload=checkpoint\nmodel=llama3-8b\n" };
	const char *wname[] = { "io", "checkpoint" };
	for (unsigned w = 0; w < 2; w++) {
		for (unsigned i = 0; i < sb_kv_rows_n; i++) {
			const struct sb_option *r = &sb_kv_rows[i];
			const char *v = r->def && r->def[0] ? r->def : "1";
			snprintf(text, sizeof(text), "[a]\nioengine=null\n%s=%s\n%s", r->name, v, other[w]);
			CU_ASSERT_NOT_EQUAL(parse(text, &jl), 0);
			snprintf(want, sizeof(want), "kv.ini:3: %s=%s applies to workload=kvcache, but job 'a' "
				 "has workload=%s: add workload=kvcache to the job or remove %s=", r->name, v,
				 wname[w], r->name);
			if (!strstr(logbuf, want))
				fprintf(stderr, "kvopts: %s: got %s\n", r->name, logbuf);
			CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
			sb_joblist_free(&jl);
		}
	}
}

static CU_TestInfo tests[] = {
	{ "every row in struct sb_kv_opts", test_rows },
	{ "values and resolved defaults in the struct", test_values },
	{ "refused on other workloads' jobs", test_misplaced },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvopts, tests)
