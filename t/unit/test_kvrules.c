/* test_kvrules.c: CUnit suite "kvrules": the verdict of a workload=kvcache
 * run (ml/kvcache/rules.c) against mlpstorage's run checker
 * mlpstorage/rules/run_checkers/kvcache.py (KVCacheRunRulesChecker,
 * mlcommons/storage 23f2f93): one case per condition, the checker's
 * verdict (OPEN at best: check_preview_status :188-199) and storbench's
 * guidelines verdict, the failing rule by the checker's parameter name. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "harness.h"
#include "ml/kvcache/rules.h"

/* a run every condition passes: 10 users, 60 s, 1 GB tiers, fast, latency */
static struct sb_kv_facts good(void)
{
	return (struct sb_kv_facts){ .model = "llama3.1-8b", .num_users = 10, .duration = 60,
				     .gpu_mem_gb = 1, .cpu_mem_gb = 1, .generation_mode = "fast",
				     .performance_profile = "latency", .shape_is_model = true,
				     .io_known = true, .io_bytes = 1 };
}

#define O SB_ML_OPEN
#define I SB_ML_INVALID

static const struct kcase {
	const char *what, *rule;  /* rule: the one failing (NULL: only benchmark_status) */
	int field;                /* which fact the case changes */
	double num;
	const char *str;
	enum sb_ml_verdict checker, guidelines;
} cases[] = {
	{ "all met: preview OPEN (kvcache.py:188-199)", NULL, 0, 0, NULL, O, O },
	{ "model missing (kvcache.py:58-63)", "model", 1, 0, "", I, I },
	{ "model not in KVCACHE_MODELS (kvcache.py:65-72)", "model", 1, 0, "deepseek-v3", I, I },
	{ "storbench's llama3-8b is not in KVCACHE_MODELS", "model", 1, 0, "llama3-8b", I, I },
	{ "tiny-1b is (config.py KVCACHE_MODELS)", NULL, 1, 0, "tiny-1b", O, O },
	{ "llama3.1-70b-instruct is", NULL, 1, 0, "llama3.1-70b-instruct", O, O },
	{ "num_users 0 < MIN_NUM_USERS 1 (kvcache.py:79-86)", "num_users", 2, 0, NULL, I, I },
	{ "num_users 9 < 10 (kvcache.py:88-95)", "num_users", 2, 9, NULL, O, O },
	{ "num_users 10 passes", NULL, 2, 10, NULL, O, O },
	{ "duration 29.9 s < 30 (kvcache.py:103-110)", "duration", 3, 29.9, NULL, I, I },
	{ "duration 30 s: OPEN (kvcache.py:112-119)", "duration", 3, 30, NULL, O, O },
	{ "duration 59.9 s < 60: OPEN", "duration", 3, 59.9, NULL, O, O },
	{ "gpu_mem_gb 0.5 < 1 (kvcache.py:128-135)", "gpu_mem_gb", 4, 0.5, NULL, I, I },
	{ "cpu_mem_gb 0.5 < 1 (kvcache.py:137-144)", "cpu_mem_gb", 5, 0.5, NULL, I, I },
	{ "generation_mode none: OPEN (kvcache.py:161-169)", "generation_mode", 6, 0, "none", O, O },
	{ "generation_mode realistic passes", NULL, 6, 0, "realistic", O, O },
	{ "generation_mode custom: INVALID (kvcache.py:152-159)", "generation_mode", 6, 0, "custom", I, I },
	{ "performance_profile throughput passes", NULL, 7, 0, "throughput", O, O },
	{ "performance_profile other (kvcache.py:177-184)", "performance_profile", 7, 0, "other", I, I },
	/* storbench's guidelines: the checker does not look */
	{ "shape changed: guidelines OPEN only", "model_shape", 8, 0, NULL, O, O },
	{ "no storage I/O: guidelines INVALID only", "storage_io", 9, 0, NULL, O, I },
};

static void apply(struct sb_kv_facts *f, const struct kcase *k)
{
	switch (k->field) {
	case 1: f->model = k->str; break;
	case 2: f->num_users = (unsigned)k->num; break;
	case 3: f->duration = k->num; break;
	case 4: f->gpu_mem_gb = k->num; break;
	case 5: f->cpu_mem_gb = k->num; break;
	case 6: f->generation_mode = k->str; break;
	case 7: f->performance_profile = k->str; break;
	case 8: f->shape_is_model = false; break;
	case 9: f->nodiskio = true; break;
	default: break;
	}
}

static void test_table(void)
{
	static struct sb_ml_rule_report rep;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kcase *k = &cases[i];
		struct sb_kv_facts f = good();
		apply(&f, k);
		CU_ASSERT_EQUAL_FATAL(sb_kv_rules_judge(&f, &rep), 0);
		if (rep.verdict != k->checker || rep.guidelines != k->guidelines)
			fprintf(stderr, "kvrules case '%s': checker %d guidelines %d\n", k->what,
				rep.verdict, rep.guidelines);
		CU_ASSERT_EQUAL(rep.verdict, k->checker);
		CU_ASSERT_EQUAL(rep.guidelines, k->guidelines);
		CU_ASSERT_NOT_EQUAL(rep.verdict, SB_ML_CLOSED); /* never CLOSED */
		const struct sb_ml_rule *st = sb_ml_rule_get(&rep, "benchmark_status");
		CU_ASSERT_PTR_NOT_NULL_FATAL(st);
		CU_ASSERT_FALSE(st->pass);
		size_t failed = 0;
		for (size_t r = 0; r < rep.n; r++)
			failed += !rep.rules[r].pass;
		CU_ASSERT_EQUAL(failed, k->rule ? 2u : 1u);
		if (k->rule) {
			const struct sb_ml_rule *r = sb_ml_rule_get(&rep, k->rule);
			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			CU_ASSERT_FALSE(r->pass);
			CU_ASSERT(r->fix[0] != 0);
			bool ours = !strcmp(k->rule, "model_shape") || !strcmp(k->rule, "storage_io");
			CU_ASSERT_PTR_NOT_NULL(strstr(r->cite, ours ? "storbench" : "kvcache.py"));
		}
	}
}

/* the GPU issue hides the CPU one in the checker (one Issue per check) */
static void test_gpu_first(void)
{
	static struct sb_ml_rule_report rep;
	struct sb_kv_facts f = good();
	f.gpu_mem_gb = 0;
	f.cpu_mem_gb = 0;
	sb_kv_rules_judge(&f, &rep);
	CU_ASSERT_EQUAL(sb_ml_rule_get(&rep, "gpu_mem_gb")->checker_as, SB_ML_INVALID);
	CU_ASSERT_EQUAL(sb_ml_rule_get(&rep, "cpu_mem_gb")->checker_as, SB_ML_CLOSED);
	CU_ASSERT_EQUAL(sb_ml_rule_get(&rep, "cpu_mem_gb")->fail_as, SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_kv_generation_mode(0), "none");
	CU_ASSERT_STRING_EQUAL(sb_kv_generation_mode(2000), "fast");
	CU_ASSERT_STRING_EQUAL(sb_kv_generation_mode(30000), "realistic");
	CU_ASSERT_STRING_EQUAL(sb_kv_generation_mode(1000), "custom");
}

static CU_TestInfo tests[] = {
	{ "one case per checker condition (kvcache.py)", test_table },
	{ "gpu_mem_gb before cpu_mem_gb; generation modes", test_gpu_first },
	CU_TEST_INFO_NULL,
};
SB_SUITE(kvrules, tests)
