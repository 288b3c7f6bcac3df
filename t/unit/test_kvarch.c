/* test_kvarch.c: CUnit suite "kvarch": workload=kvcache's model= table
 * (ml/kvcache/models.c) against the official KV-cache benchmark's
 * kv_cache_benchmark/kv_cache/models.py (mlcommons/storage 64f05b3):
 * the rows of _DEFAULT_MODEL_CONFIGS (models.py:70-81), the head dimension
 * of kv_dim_per_head (models.py:48-53: the row's override, else
 * hidden_dim // num_heads) and kv_cache_size_per_token (models.py:56-67:
 * MLA layers x (kv_lora_rank + qk_rope_head_dim) x 2 bytes, else layers x
 * kv_heads x head_dim x 2 x 2 bytes), with the figures worked out by hand
 * from those rows; the llama3 checkpoint shapes stay. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/models.h"
#include "ml/kvcache/opts.h"
#include "ml/registry.h"
#include "parse/jobspec.h"

static const struct {
	const char *name;
	unsigned layers, kv_heads, head_dim;
	uint64_t bytes;   /* per token, float16 */
	bool checker;     /* mlpstorage/config.py KVCACHE_MODELS */
} want[] = {
	{ "tiny-1b", 12, 4, 128, 12ull * 4 * 128 * 2 * 2, true },              /* models.py:71: 24576 */
	{ "mistral-7b", 32, 8, 128, 32ull * 8 * 128 * 2 * 2, true },           /* :72: 131072 */
	{ "llama2-7b", 32, 32, 128, 32ull * 32 * 128 * 2 * 2, true },          /* :73: 524288 (MHA) */
	{ "llama3.1-8b", 32, 8, 128, 32ull * 8 * 128 * 2 * 2, true },          /* :74: 131072 */
	{ "llama3.1-70b-instruct", 80, 8, 128, 80ull * 8 * 128 * 2 * 2, true },/* :75: 8192/64; 327680 */
	{ "deepseek-v3", 61, 128, 56, 61ull * (512 + 64) * 2, false },         /* :76-77 MLA: 70272 */
	{ "qwen3-32b", 64, 8, 128, 64ull * 8 * 128 * 2 * 2, false },           /* :78 override 128 (not 80): 262144 */
	{ "gpt-oss-120b", 36, 8, 64, 36ull * 8 * 64 * 2 * 2, false },          /* :79 override 64 (not 45): 73728 */
	{ "gpt-oss-20b", 24, 8, 64, 24ull * 8 * 64 * 2 * 2, false },           /* :80: 49152 */
	{ "llama3-8b", 32, 8, 128, 131072, false },                            /* parse/catalog.c */
	{ "llama3-70b", 80, 8, 128, 327680, false },
	{ "llama3-405b", 126, 8, 128, 516096, false },
};

static void test_official_rows(void)
{
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sb_kv_arch m;
		CU_ASSERT_EQUAL_FATAL(sb_kv_arch_find(want[i].name, &m), 0);
		CU_ASSERT_EQUAL(m.layers, want[i].layers);
		CU_ASSERT_EQUAL(m.kv_heads, want[i].kv_heads);
		CU_ASSERT_EQUAL(m.head_dim, want[i].head_dim);
		CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 0), want[i].bytes);
		CU_ASSERT_EQUAL(m.checker, want[i].checker);
	}
	/* the figures by hand, so a wrong formula above cannot pass */
	struct sb_kv_arch m;
	CU_ASSERT_EQUAL(sb_kv_arch_find("deepseek-v3", &m), 0);
	CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 0), 70272);
	CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 1), 35136); /* fp8 */
	CU_ASSERT_EQUAL(sb_kv_arch_find("tiny-1b", &m), 0);
	CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 0), 24576);
	CU_ASSERT_EQUAL(sb_kv_arch_find("qwen3-32b", &m), 0);
	CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 0), 262144);
	CU_ASSERT_EQUAL(sb_kv_arch_find("gpt-oss-20b", &m), 0);
	CU_ASSERT_EQUAL(sb_kv_arch_bytes_per_token(&m, 0), 49152);
	CU_ASSERT_EQUAL(sb_kv_arch_find("llama3.1-7b", &m), -ENOENT);
	CU_ASSERT_EQUAL(sb_kv_arch_find(NULL, &m), -ENOENT);
}

static void test_names(void)
{
	size_t n = 0;
	char buf[512];
	for (; sb_kv_arch_names[n]; n++) {
		struct sb_kv_arch m;
		CU_ASSERT_EQUAL(sb_kv_arch_find(sb_kv_arch_names[n], &m), 0);
	}
	CU_ASSERT_EQUAL(n, 13);
	sb_kv_arch_list(buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "deepseek-v3, qwen3-32b, gpt-oss-120b, gpt-oss-20b"));
}

/* a spec's bytes per token: MLA by model= name, else 2 x L x H x D x bytes */
static void test_spec(void)
{
	struct sb_jobspec s;
	memset(&s, 0, sizeof(s));
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0); /* kvcache's options struct */
	s.workload = sb_workload_id(&sb_workload_kvcache);
	struct sb_kv_opts *o = sb_kv_opts_mut(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	s.ml_model = (char *)"deepseek-v3";
	s.shape.layers = 61;
	s.shape.kv_heads = 128;
	o->kv_head_dim = 56;
	o->kv_elem_bytes = 2;
	CU_ASSERT_EQUAL(sb_kv_spec_bytes_per_token(&s), 70272);
	s.ml_model = (char *)"llama2-7b"; /* same numbers, MHA formula */
	CU_ASSERT_EQUAL(sb_kv_spec_bytes_per_token(&s), 2ull * 61 * 128 * 56 * 2);
	s.ml_model = NULL;
	s.shape.layers = 32;
	s.shape.kv_heads = 8;
	o->kv_head_dim = 128;
	CU_ASSERT_EQUAL(sb_kv_spec_bytes_per_token(&s), 131072);
}

static CU_TestInfo tests[] = {
	{ "official rows and bytes per token (models.py:56-81)", test_official_rows },
	{ "model names", test_names },
	{ "a job's bytes per token (MLA by name)", test_spec },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvarch, tests)
