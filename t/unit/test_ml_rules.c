/* test_ml_rules.c: MLPerf Storage rule checks (ml/rules.c): verdicts
 * for passing and failing train and checkpoint runs, expected/actual/fix. */
#include <errno.h>
#include <string.h>

#include "ml/rules.h"
#include "harness.h"

#define GIB 1073741824ull

/* unet3d on H100, one host of 1 GiB, one accelerator: 3500 samples needed
 * (500 steps * batch 7 beats 5 GiB / 146.6 MB = 37 files). */
static struct sb_ml_train_facts unet3d_ok(void)
{
	struct sb_ml_train_facts f = {
		.workload = "unet3d", .accel = "h100", .files = 3500, .samples_per_file = 1,
		.record_length = 146600628.0, .batch_size = 7, .accelerators = 1,
		.read_threads = 4, .computation_time_s = 0.323, .hosts = 1,
		.host_mem_bytes = GIB, .au_measured = true, .au_pct = 95.0,
	};
	return f;
}

static void test_min_samples(void)
{
	CU_ASSERT_EQUAL(sb_ml_min_samples(2, 2, 1, GIB, 1048576.0), 5120);   /* memory */
	CU_ASSERT_EQUAL(sb_ml_min_samples(7, 8, 1, GIB, 1048576.0), 28000);  /* steps */
	CU_ASSERT_EQUAL(sb_ml_min_samples(1, 1, 2, GIB, 1048576.0), 10240);  /* 2 hosts */
}

static void test_train_closed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
	for (size_t i = 0; i < rep.n; i++) {
		CU_ASSERT(rep.rules[i].pass);
		CU_ASSERT_STRING_EQUAL(rep.rules[i].fix, "");
	}
	CU_ASSERT_PTR_NOT_NULL(sb_ml_rule_get(&rep, "au"));
	CU_ASSERT_STRING_EQUAL(sb_ml_verdict_name(rep.verdict), "CLOSED");
}

static void test_train_too_few_steps(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.files = 168;
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "steps_per_epoch");
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FALSE(r->pass);
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 500");
	CU_ASSERT_STRING_EQUAL(r->actual, "24");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "dataset_files=3500"));
	CU_ASSERT(sb_ml_rule_get(&rep, "dataset_size")->pass); /* 24.6 GB > 5 GiB */
}

static void test_train_dataset_vs_memory(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.host_mem_bytes = 128 * GIB; /* 640 GiB needed: 4688 files */
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "dataset_size");
	CU_ASSERT_FALSE(r->pass);
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 640.00 GiB");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "dataset_files=4688"));
}

static void test_train_open_and_au(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.read_threads = 64;
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_OPEN);
	CU_ASSERT_FALSE(sb_ml_rule_get(&rep, "read_threads")->pass);
	f.au_pct = 85.0; /* below unet3d's 90% */
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "au");
	CU_ASSERT_FALSE(r->pass);
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 90.0%");
	CU_ASSERT_STRING_EQUAL(r->actual, "85.00%");
	f = unet3d_ok();
	f.computation_time_s = 0.636; /* the A100 time on an H100 run */
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	CU_ASSERT_FALSE(sb_ml_rule_get(&rep, "computation_time")->pass);
	f.accel = "a100";
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
	/* a custom workload is OPEN at best, and has no AU rule without a target */
	f = unet3d_ok();
	f.workload = NULL;
	f.au_pct = 10;
	sb_ml_rules_train(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_OPEN);
	CU_ASSERT_PTR_NULL(sb_ml_rule_get(&rep, "au"));
	f.workload = "bert";
	CU_ASSERT_EQUAL(sb_ml_rules_train(&f, &rep), -EINVAL);
}

static struct sb_ml_ckpt_facts ckpt_ok(void)
{
	struct sb_ml_ckpt_facts f = {
		.model = "llama3-8b", .ranks = 8, .world = 8, .tp = 1, .pp = 1,
		.writes = 10, .reads = 10, .fsync = true, .caches_dropped = true, .scale = 1.0,
	};
	return f;
}

static void test_ckpt_verdicts(void)
{
	struct sb_ml_ckpt_facts f = ckpt_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_ckpt(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
	f.subset = true;
	f.ranks = 4;
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_OPEN);
	r = sb_ml_rule_get(&rep, "ranks");
	CU_ASSERT_STRING_EQUAL(r->actual, "4 (subset of 8)");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "ranks=8"));
	f = ckpt_ok();
	f.caches_dropped = false;
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "caches_dropped")->fix, "drop_caches"));
	f = ckpt_ok();
	f.fsync = false;
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	f = ckpt_ok();
	f.reads = 3;
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_read")->actual, "3");
	f = ckpt_ok();
	f.scale = 1000;
	f.subset = true; /* OPEN and INVALID together: INVALID wins */
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	f = ckpt_ok();
	f.model = NULL; /* explicit shape */
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_OPEN);
	f = ckpt_ok();
	f.ranks = f.world = 16; /* dp scaled up: OPEN */
	sb_ml_rules_ckpt(&f, &rep);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_OPEN);
}

static CU_TestInfo tests[] = {
	{ "min samples", test_min_samples },
	{ "train CLOSED", test_train_closed },
	{ "train too few steps", test_train_too_few_steps },
	{ "train dataset vs memory", test_train_dataset_vs_memory },
	{ "train OPEN and AU", test_train_open_and_au },
	{ "checkpoint verdicts", test_ckpt_verdicts },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_rules, tests)
