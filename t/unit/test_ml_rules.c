/* test_ml_rules.c: MLPerf Storage rule checks (ml/rules.c): one test per
 * rule, each expected verdict taken from the official rule as written in
 * mlcommons/storage (commit caa90c9: mlpstorage/rules.py, mlpstorage/config.py,
 * configs/dlio/workload/<model>_<accelerator>.yaml, Submission_guidelines.md v2.0), with
 * expected/actual/fix. */
#include <errno.h>
#include <string.h>

#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "harness.h"

#define GIB 1073741824ull

/* unet3d on H100 as configs/dlio/workload/unet3d_h100.yaml runs it, one host
 * of 1 GiB, one accelerator: 3500 files needed (500 steps * batch 7 beats
 * 5 GiB / 146.6 MB = 36 files). */
static struct sb_ml_train_facts unet3d_ok(void)
{
	struct sb_ml_train_facts f = {
		.workload = "unet3d", .accel = "h100", .files = 3500, .samples_per_file = 1,
		.record_length = 146600628.0, .record_stdev = 68341808.0, .batch_size = 7,
		.accelerators = 1, .read_threads = 4, .epochs = 5, .file_shuffle = true,
		.sample_shuffle = true, .ckpt_after_epoch = 5, .computation_time_s = 0.323,
		.hosts = 1, .host_mem_bytes = GIB, .au_measured = true, .au_pct = 95.0,
	};
	return f;
}

/* resnet50_h100.yaml: no shuffle keys (DLIO's default: off) */
static struct sb_ml_train_facts resnet50_ok(void)
{
	struct sb_ml_train_facts f = {
		.workload = "resnet50", .accel = "h100", .files = 2557, .samples_per_file = 1251,
		.record_length = 114660.07, .batch_size = 400, .accelerators = 16,
		.read_threads = 8, .epochs = 5, .computation_time_s = 0.224, .hosts = 1,
		.host_mem_bytes = 64 * GIB, .au_measured = true, .au_pct = 92.0,
	};
	return f;
}

static enum sb_ml_verdict verdict(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep)
{
	CU_ASSERT_EQUAL(sb_ml_rules_train(f, rep), 0);
	return rep->verdict;
}

/* the rule name failed alone, as division want */
static void only_failure(const struct sb_ml_rule_report *rep, const char *name, enum sb_ml_verdict want)
{
	const struct sb_ml_rule *r = sb_ml_rule_get(rep, name);
	CU_ASSERT_EQUAL(rep->guidelines, want);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FALSE(r->pass);
	CU_ASSERT_EQUAL(r->fail_as, want);
	CU_ASSERT_EQUAL(rep->verdict, r->checker_as); /* the checker's, the headline */
	CU_ASSERT(r->cite[0] != '\0');
	CU_ASSERT(r->fix[0] != '\0');
	for (size_t i = 0; i < rep->n; i++)
		if (strcmp(rep->rules[i].name, name))
			CU_ASSERT(rep->rules[i].pass);
}

static void test_min_samples(void)
{
	CU_ASSERT_EQUAL(sb_ml_min_samples(2, 2, 1, GIB, 1048576.0), 5120);   /* memory */
	CU_ASSERT_EQUAL(sb_ml_min_samples(7, 8, 1, GIB, 1048576.0), 28000);  /* steps */
	CU_ASSERT_EQUAL(sb_ml_min_samples(1, 1, 2, GIB, 1048576.0), 10240);  /* 2 hosts */
	/* calculate_training_data_size: 500 * 16 * 400 // 1251 = 2557 (floor) */
	CU_ASSERT_EQUAL(sb_ml_min_files_by_steps(400, 16, 1251), 2557);
	/* 5 * 64 GiB // (1251 * 114660.07) = 2395 */
	CU_ASSERT_EQUAL(sb_ml_min_files_by_mem(1, 64 * GIB, 1251, 114660.07), 2395);
}

static void test_train_closed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	for (size_t i = 0; i < rep.n; i++) {
		CU_ASSERT(rep.rules[i].pass);
		CU_ASSERT_STRING_EQUAL(rep.rules[i].fix, "");
	}
	CU_ASSERT_PTR_NOT_NULL(sb_ml_rule_get(&rep, "au"));
	CU_ASSERT_PTR_NOT_NULL(sb_ml_rule_get(&rep, "train_checkpoint"));
	CU_ASSERT_STRING_EQUAL(sb_ml_verdict_name(rep.verdict), "CLOSED");
}

/* rules.py check_num_files_train / calculate_training_data_size: resnet50,
 * 16 accelerators, num_files_train = 2557 (the checker's floor of
 * 3,200,000 / 1251 samples: 499 full steps) is CLOSED; 2556 is INVALID. */
static void test_resnet50_official_minimum(void)
{
	struct sb_ml_train_facts f = resnet50_ok();
	struct sb_ml_rule_report rep;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	const struct sb_ml_rule *r = sb_ml_rule_get(&rep, "steps_per_epoch");
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 2557 files");
	CU_ASSERT_STRING_EQUAL(r->actual, "2557 files (499 steps)");
	f.files = 2556;
	verdict(&f, &rep);
	only_failure(&rep, "steps_per_epoch", SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "steps_per_epoch")->fix, "dataset_files=2557"));
}

static void test_train_too_few_steps(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.files = 168;
	verdict(&f, &rep);
	only_failure(&rep, "steps_per_epoch", SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "steps_per_epoch");
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 3500 files");
	CU_ASSERT_STRING_EQUAL(r->actual, "168 files (24 steps)");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "dataset_files=3500"));
}

/* dataset >= 5x host memory (guidelines 6.6 item 2, section 7; rules.py:
 * dataset_size_bytes // file_size_bytes) */
static void test_train_dataset_vs_memory(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.host_mem_bytes = 128 * GIB; /* 640 GiB // 146.6 MB = 4687 files */
	verdict(&f, &rep);
	only_failure(&rep, "dataset_size", SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "dataset_size");
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 4687 files");
	CU_ASSERT_STRING_EQUAL(r->actual, "3500 files");
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "dataset_files=4687"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->fix, "640.00 GiB"));
	f.files = 4687;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
}

/* config.py MAX_READ_THREADS_TRAINING = 32 is never applied; read_threads is
 * in check_allowed_params' CLOSED list: read_threads=64 is CLOSED */
static void test_read_threads_64_closed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.read_threads = 64;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	CU_ASSERT_PTR_NULL(sb_ml_rule_get(&rep, "read_threads"));
}

/* unet3d_a100.yaml: computation_time 0.636 with accelerator=a100 is CLOSED;
 * the H100 time on an A100 run (or the reverse) is a disallowed override */
static void test_unet3d_a100(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.accel = "a100";
	f.computation_time_s = 0.636;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "computation_time")->expected, "0.636 s (a100)");
	f.computation_time_s = 0.323;
	verdict(&f, &rep);
	only_failure(&rep, "computation_time", SB_ML_INVALID);
	f = unet3d_ok();
	f.computation_time_s = 0.636;
	verdict(&f, &rep);
	only_failure(&rep, "computation_time", SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "computation_time")->fix, "accelerator="));
}

/* train.epochs is not an allowed override (rules.py check_allowed_params;
 * check_num_epochs is a stub): INVALID */
static void test_epochs_changed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.epochs = 3;
	f.ckpt_after_epoch = 3;
	verdict(&f, &rep);
	only_failure(&rep, "epochs", SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "epochs")->actual, "3");
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "epochs")->fix, "epochs=5"));
}

/* reader.file_shuffle / sample_shuffle are not allowed overrides: unet3d's
 * yaml shuffles both ("seed"), resnet50's neither */
static void test_shuffle_changed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.sample_shuffle = false;
	verdict(&f, &rep);
	only_failure(&rep, "shuffle", SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "shuffle")->expected, "file+sample");
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "shuffle")->actual, "file");
	f = resnet50_ok();
	f.file_shuffle = f.sample_shuffle = true;
	verdict(&f, &rep);
	only_failure(&rep, "shuffle", SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "shuffle")->fix, "shuffle=none"));
}

/* rules.py check_odirect_supported_model: reader.odirect on a model other
 * than unet3d is INVALID; on unet3d it is a CLOSED parameter */
static void test_odirect(void)
{
	struct sb_ml_train_facts f = resnet50_ok();
	struct sb_ml_rule_report rep;
	f.odirect = true;
	verdict(&f, &rep);
	only_failure(&rep, "odirect", SB_ML_INVALID);
	f = unet3d_ok();
	f.odirect = true;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
}

/* rules.py check_workflow_parameters: unet3d training with
 * workflow.checkpoint False is INVALID ("Unet3D training requires executing a
 * checkpoint"); the yaml checkpoints after epoch 5 */
static void test_unet3d_checkpoint(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.ckpt_after_epoch = 0;
	verdict(&f, &rep);
	only_failure(&rep, "train_checkpoint", SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "train_checkpoint")->fix,
				      "checkpoint_after_epoch=5"));
	f.ckpt_after_epoch = 6; /* after the last epoch: never written */
	verdict(&f, &rep);
	only_failure(&rep, "train_checkpoint", SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "train_checkpoint")->actual, "off (after epoch 6 of 5)");
	f.ckpt_every_steps = 100;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	/* the other workloads have no checkpoint rule */
	f = resnet50_ok();
	verdict(&f, &rep);
	CU_ASSERT_PTR_NULL(sb_ml_rule_get(&rep, "train_checkpoint"));
}

/* check_allowed_params' OPEN list: dataset.num_samples_per_file (guidelines
 * 10.2): OPEN */
static void test_samples_per_file_open(void)
{
	struct sb_ml_train_facts f = resnet50_ok();
	struct sb_ml_rule_report rep;
	f.samples_per_file = 1000;
	f.files = 3200;
	verdict(&f, &rep);
	only_failure(&rep, "samples_per_file", SB_ML_OPEN);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "samples_per_file")->expected, "1251");
}

/* batch size, record length and its spread: disallowed overrides */
static void test_workload_fixed(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.batch_size = 14;
	f.files = 7000;
	verdict(&f, &rep);
	only_failure(&rep, "batch_size", SB_ML_INVALID);
	f = unet3d_ok();
	f.record_length /= 2;
	verdict(&f, &rep);
	only_failure(&rep, "record_length", SB_ML_INVALID);
	f = unet3d_ok();
	f.record_stdev = 0;
	verdict(&f, &rep);
	only_failure(&rep, "record_length_stdev", SB_ML_INVALID);
}

/* guidelines section 4 and Table 1: AU below the minimum does not pass */
static void test_au(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	f.au_pct = 85.0; /* below unet3d's 90% */
	verdict(&f, &rep);
	only_failure(&rep, "au", SB_ML_INVALID);
	r = sb_ml_rule_get(&rep, "au");
	CU_ASSERT_STRING_EQUAL(r->expected, ">= 90.0%");
	CU_ASSERT_STRING_EQUAL(r->actual, "85.00%");
	f.au_pct = 90.0; /* "equal to or greater than" */
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
}

/* a custom workload is OPEN at best, and has no AU rule without a target */
static void test_custom_workload(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_rule_report rep;
	f.workload = NULL;
	f.au_pct = 10;
	verdict(&f, &rep);
	only_failure(&rep, "workload", SB_ML_OPEN);
	CU_ASSERT_PTR_NULL(sb_ml_rule_get(&rep, "au"));
	f.workload = "bert";
	CU_ASSERT_EQUAL(sb_ml_rules_train(&f, &rep), -EINVAL);
}

static struct sb_ml_ckpt_facts ckpt_ok(void)
{
	struct sb_ml_ckpt_facts f = {
		.model = "llama3-8b", .ranks = 8, .world = 8, .tp = 1, .pp = 1,
		.want_writes = 10, .want_reads = 10, .writes = 10, .reads = 10, .fsync = true,
		.caches_dropped = true, .scale = 1.0,
	};
	return f;
}

static enum sb_ml_verdict ckpt_verdict(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep)
{
	CU_ASSERT_EQUAL(sb_ml_rules_ckpt(f, rep), 0);
	return rep->verdict;
}

static void test_ckpt_closed(void)
{
	struct sb_ml_ckpt_facts f = ckpt_ok();
	struct sb_ml_rule_report rep;
	CU_ASSERT_EQUAL(ckpt_verdict(&f, &rep), SB_ML_CLOSED);
	for (size_t i = 0; i < rep.n; i++)
		CU_ASSERT(rep.rules[i].pass);
}

/* guidelines 2.2.2 subset mode and config.py LLM_ALLOWED_VALUES /
 * LLM_SUBSET_PROCS ("CLOSED in [8 || 512]"): llama3-405b, subset, 8
 * processes of tp*pp*dp = 512 is CLOSED; other counts are OPEN (2.2.5) */
static void test_ckpt_405b_subset(void)
{
	struct sb_ml_ckpt_facts f = {
		.model = "llama3-405b", .ranks = 8, .world = 512, .tp = 8, .pp = 32, .subset = true,
		.want_writes = 10, .want_reads = 10, .writes = 10, .reads = 10, .fsync = true,
		.caches_dropped = true, .scale = 1.0,
	};
	struct sb_ml_rule_report rep;
	const struct sb_ml_rule *r;
	CU_ASSERT_EQUAL(ckpt_verdict(&f, &rep), SB_ML_CLOSED);
	r = sb_ml_rule_get(&rep, "ranks");
	CU_ASSERT_STRING_EQUAL(r->expected, "512, or 8 with subset");
	CU_ASSERT_STRING_EQUAL(r->actual, "8 (subset of 512)");
	f.ranks = 16;
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "ranks", SB_ML_OPEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "ranks")->fix, "ranks=8"));
	f.ranks = 8;
	f.world = 256; /* dp=1: not the table's data parallelism */
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "ranks", SB_ML_OPEN);
	f = ckpt_ok();
	f.ranks = f.world = 16; /* dp scaled up: a multiple of tp*pp, OPEN (2.2.5) */
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "ranks", SB_ML_OPEN);
}

/* guidelines 2.2.2: write with --num-checkpoints-read=0, clear the cache,
 * read with --num-checkpoints-write=0 (Table 3: 10 each) */
static void test_ckpt_write_only_read_only(void)
{
	struct sb_ml_ckpt_facts f = ckpt_ok();
	struct sb_ml_rule_report rep;
	f.want_reads = f.reads = 0;
	f.caches_dropped = false; /* no reads: nothing to drop for */
	CU_ASSERT_EQUAL(ckpt_verdict(&f, &rep), SB_ML_CLOSED);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_read")->expected, "0 (write-only run)");
	f = ckpt_ok();
	f.want_writes = f.writes = 0;
	f.fsync = false; /* nothing written */
	CU_ASSERT_EQUAL(ckpt_verdict(&f, &rep), SB_ML_CLOSED);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_written")->expected, "0 (read-only run)");
	f.caches_dropped = false; /* a read-only run still reads after a drop */
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "caches_dropped", SB_ML_INVALID);
}

/* guidelines 2.2.5 Table 3: num-checkpoints-write/read "10", changeable in
 * CLOSED: NO, in OPEN: NO -> any other count is INVALID (20 writes too) */
static void test_ckpt_counts(void)
{
	struct sb_ml_ckpt_facts f = ckpt_ok();
	struct sb_ml_rule_report rep;
	f.want_writes = f.writes = 20;
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "checkpoints_written", SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_written")->expected, "10");
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_written")->actual, "20");
	f = ckpt_ok();
	f.reads = 3; /* interrupted */
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "checkpoints_read", SB_ML_INVALID);
	CU_ASSERT_STRING_EQUAL(sb_ml_rule_get(&rep, "checkpoints_read")->actual, "3");
}

/* fsync enforced (2.2.2); cache cleared between write and read (2.2.2);
 * the real checkpoint sizes; a custom shape is OPEN */
static void test_ckpt_other(void)
{
	struct sb_ml_ckpt_facts f = ckpt_ok();
	struct sb_ml_rule_report rep;
	f.caches_dropped = false;
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "caches_dropped", SB_ML_INVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "caches_dropped")->fix, "drop_caches"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "caches_dropped")->fix, "tmpfs"));
	f = ckpt_ok();
	f.fsync = false;
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "fsync", SB_ML_INVALID);
	f = ckpt_ok();
	f.scale = 0.001;
	f.subset = true; /* OPEN and INVALID together: INVALID wins */
	f.ranks = 4;
	CU_ASSERT_EQUAL(ckpt_verdict(&f, &rep), SB_ML_CLOSED); /* rules.py:611 checks nothing */
	CU_ASSERT_EQUAL(rep.guidelines, SB_ML_INVALID);
	f = ckpt_ok();
	f.model = NULL; /* explicit shape */
	ckpt_verdict(&f, &rep);
	only_failure(&rep, "model", SB_ML_OPEN);
}

/* storbench's own behaviour where DLIO differs is an OPEN
 * experiment (guidelines 10.1: the codebase cannot change in CLOSED; 10.2:
 * changes to DLIO are allowed in OPEN, disclosed); no DLIO parameter
 * records it, so the official checker still says CLOSED */
static void test_own_behaviour_open(void)
{
	struct sb_ml_train_facts f = unet3d_ok();
	struct sb_ml_ckpt_facts c = ckpt_ok();
	struct sb_ml_rule_report rep;
	f.reshuffle = true;
	CU_ASSERT_EQUAL(verdict(&f, &rep), SB_ML_CLOSED);
	only_failure(&rep, "read_order", SB_ML_OPEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "read_order")->cite, "guidelines 10.1, 10.2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "read_order")->fix, "read_order=dlio"));
	c.content_unique = true;
	CU_ASSERT_EQUAL(ckpt_verdict(&c, &rep), SB_ML_CLOSED);
	only_failure(&rep, "checkpoint_content", SB_ML_OPEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "checkpoint_content")->cite, "guidelines 10.1, 10.2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb_ml_rule_get(&rep, "checkpoint_content")->fix, "checkpoint_content=dlio"));
	c = ckpt_ok(); /* DLIO's: the rule is there and passes */
	CU_ASSERT_EQUAL(ckpt_verdict(&c, &rep), SB_ML_CLOSED);
	CU_ASSERT_EQUAL(rep.guidelines, SB_ML_CLOSED);
	CU_ASSERT_PTR_NOT_NULL(sb_ml_rule_get(&rep, "checkpoint_content"));
}

static CU_TestInfo tests[] = {
	{ "read_order=reshuffle, checkpoint_content=unique OPEN", test_own_behaviour_open },
	{ "min samples", test_min_samples },
	{ "train CLOSED", test_train_closed },
	{ "resnet50 official minimum files", test_resnet50_official_minimum },
	{ "train too few steps", test_train_too_few_steps },
	{ "train dataset vs memory", test_train_dataset_vs_memory },
	{ "read_threads=64 CLOSED", test_read_threads_64_closed },
	{ "unet3d A100", test_unet3d_a100 },
	{ "epochs changed", test_epochs_changed },
	{ "shuffle changed", test_shuffle_changed },
	{ "odirect", test_odirect },
	{ "unet3d checkpoint", test_unet3d_checkpoint },
	{ "samples_per_file OPEN", test_samples_per_file_open },
	{ "workload parameters fixed", test_workload_fixed },
	{ "AU threshold", test_au },
	{ "custom workload", test_custom_workload },
	{ "checkpoint CLOSED", test_ckpt_closed },
	{ "checkpoint 405b subset", test_ckpt_405b_subset },
	{ "checkpoint write-only, read-only", test_ckpt_write_only_read_only },
	{ "checkpoint counts", test_ckpt_counts },
	{ "checkpoint fsync, caches, scale, shape", test_ckpt_other },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_rules, tests)
