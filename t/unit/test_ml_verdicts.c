/* test_ml_verdicts.c: the two MLPerf verdicts (ml/rules.c) on a table of
 * job option overrides.  Each row: the job text added to a train_model=
 * job, the DLIO parameter it sets (hydra's "++workload.<param>"), the
 * verdict mlcommons/storage v2.0's checker returns (the headline) and the
 * one storbench's guidelines reading returns.  The expected checker
 * verdicts are facts from mlcommons/storage commit caa90c9:
 *   rules.py:522-525  closed_allowed_params -> CLOSED
 *   rules.py:526      open_allowed_params   -> OPEN
 *   rules.py:546-552  any other override    -> INVALID ("Disallowed parameter override")
 *   rules.py:530-532  workflow.* skipped by check_allowed_params
 *   rules.py:583-594  reader.odirect on a model other than unet3d -> INVALID
 *   rules.py:611-614  CheckpointingRulesChecker checks nothing -> CLOSED
 *   rules.py:633-662  verify(): INVALID if any INVALID, else OPEN if any OPEN
 * DLIO parameter names: dlio_benchmark utils/config.py LoadConfig.
 * t/integration/test_mlperf_oracle.py reads this table and runs the
 * official rules.py on the same rows when it can import it. */
#include <string.h>

#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"
#include "harness.h"
#include "lib/log.h"
#include "parse/parse.h"

#define C SB_ML_CLOSED
#define O SB_ML_OPEN
#define I SB_ML_INVALID

struct vcase {
	const char *model;   /* train_model= */
	const char *job;     /* option lines */
	const char *param;   /* DLIO parameter ("" when none is overridden) */
	const char *value;   /* its value as hydra records it */
	enum sb_ml_verdict checker, guidelines;
};

/* ORACLE-TABLE-BEGIN */
static const struct vcase cases[] = {
	{ "unet3d", "dataset_format=tfrecord", "dataset.format", "tfrecord", O, O },   /* rules.py:526 */
	{ "unet3d", "dataset_format=npy", "dataset.format", "npy", O, O },             /* rules.py:526 */
	{ "unet3d", "dataset_format=raw", "dataset.format", "raw", O, O },             /* rules.py:526 */
	{ "unet3d", "dataset_format=npz", "", "", C, C },                              /* the yaml's */
	{ "unet3d", "samples_per_file=2", "dataset.num_samples_per_file", "2", O, O }, /* rules.py:526 */
	{ "unet3d", "dataset_files=5000", "dataset.num_files_train", "5000", C, C },   /* rules.py:522 */
	{ "unet3d", "subfolders=4", "dataset.num_subfolders_train", "4", C, C },       /* rules.py:522 */
	{ "unet3d", "data_dir=/tmp/d", "dataset.data_folder", "/tmp/d", C, C },        /* rules.py:522 */
	{ "unet3d", "read_threads=8", "reader.read_threads", "8", C, C },              /* rules.py:523 */
	{ "unet3d", "read_threads=64", "reader.read_threads", "64", C, C },            /* rules.py:523 */
	{ "unet3d", "prefetch=4", "reader.prefetch_size", "4", C, C },                 /* rules.py:524 */
	{ "unet3d", "prefetch=0", "reader.prefetch_size", "0", C, C },                 /* rules.py:524 */
	{ "unet3d", "direct=1", "reader.odirect", "True", C, C },                      /* rules.py:524, 585 */
	{ "unet3d", "batch_size=8", "reader.batch_size", "8", I, I },                  /* rules.py:548 */
	{ "unet3d", "batch_size=1", "reader.batch_size", "1", I, I },                  /* rules.py:548 */
	{ "unet3d", "epochs=3", "train.epochs", "3", I, I },                           /* rules.py:548 */
	{ "unet3d", "epochs=10", "train.epochs", "10", I, I },                         /* rules.py:548 */
	{ "unet3d", "computation_time=0.5", "train.computation_time", "0.5", I, I },   /* rules.py:548 */
	{ "unet3d", "computation_time_stdev=0.01", "train.computation_time_stdev", "0.01", I, I },
	{ "unet3d", "computation_time_type=uniform\ncomputation_time_min=0.1\ncomputation_time_max=0.5",
	  "train.computation_time.type", "uniform", I, I },                            /* rules.py:548 */
	{ "unet3d", "computation_time_min=0.1", "train.computation_time.min", "0.1", I, I },
	{ "unet3d", "computation_time_shape=2", "train.computation_time.shape", "2", I, I },
	{ "unet3d", "computation_time_scale=0.1", "train.computation_time.scale", "0.1", I, I },
	{ "unet3d", "record_length=1000000", "dataset.record_length_bytes", "1000000", I, I },
	{ "unet3d", "record_length_stdev=0", "dataset.record_length_bytes_stdev", "0", I, I },
	{ "unet3d", "train_scale=0.5", "dataset.record_length_bytes", "73300314", I, I },
	{ "unet3d", "shuffle=none", "reader.file_shuffle", "off", I, I },              /* rules.py:548 */
	{ "unet3d", "shuffle=file", "reader.sample_shuffle", "off", I, I },            /* rules.py:548 */
	{ "unet3d", "seed=7", "train.seed", "7", I, I },                               /* rules.py:548 */
	{ "unet3d", "seed=123", "", "", C, C },                                        /* DLIO's 123 */
	{ "unet3d", "checkpoint_after_epoch=3", "checkpoint.checkpoint_after_epoch", "3", I, I },
	{ "unet3d", "checkpoint_after_epoch=0", "checkpoint.checkpoint_after_epoch", "0", I, I },
	{ "unet3d", "epochs_between_checkpoints=1", "checkpoint.epochs_between_checkpoints", "1", I, I },
	{ "unet3d", "epochs_between_checkpoints=2", "", "", C, C },                    /* the yaml's */
	{ "unet3d", "steps_between_checkpoints=100", "checkpoint.steps_between_checkpoints", "100", I, I },
	{ "unet3d", "model_size=1000", "model.model_size", "1000", I, I },             /* rules.py:548 */
	{ "unet3d", "do_eval=1\nnum_files_eval=8", "dataset.num_files_eval", "8", I, I },
	{ "unet3d", "batch_size_eval=4", "reader.batch_size_eval", "4", I, I },        /* rules.py:548 */
	{ "unet3d", "eval_time=0.1", "evaluation.eval_time", "0.1", I, I },            /* rules.py:548 */
	{ "unet3d", "eval_time_stdev=0.01", "evaluation.eval_time_stdev", "0.01", I, I },
	{ "unet3d", "eval_after_epoch=2", "evaluation.eval_after_epoch", "2", I, I },
	{ "unet3d", "epochs_between_evals=2", "evaluation.epochs_between_evals", "2", I, I },
	{ "unet3d", "au_target=50", "metric.au", "0.5", I, I },                        /* rules.py:548 */
	{ "unet3d", "au_target=90", "", "", C, C },                                    /* the yaml's 0.90 */
	{ "unet3d", "accelerator=a100", "", "", C, C },                                /* unet3d_a100.yaml */
	{ "unet3d", "accelerators=8", "", "", C, C },                                  /* num processes */
	{ "unet3d", "read_threads=8\ndataset_format=tfrecord", "dataset.format", "tfrecord", O, O },
	{ "unet3d", "dataset_format=tfrecord\nseed=5", "train.seed", "5", I, I },      /* INVALID wins */
	{ "resnet50", "direct=1", "reader.odirect", "True", I, I },                    /* rules.py:583-594 */
	{ "resnet50", "dataset_format=npz", "dataset.format", "npz", O, O },           /* rules.py:526 */
	{ "resnet50", "samples_per_file=1", "dataset.num_samples_per_file", "1", O, O },
	{ "resnet50", "read_threads=16", "reader.read_threads", "16", C, C },          /* rules.py:523 */
	{ "resnet50", "batch_size=100", "reader.batch_size", "100", I, I },            /* rules.py:548 */
	{ "resnet50", "computation_time=0.1", "train.computation_time", "0.1", I, I },
	{ "resnet50", "seed=1", "train.seed", "1", I, I },                             /* rules.py:548 */
	{ "resnet50", "shuffle=both", "reader.file_shuffle", "seed", I, I },           /* rules.py:548 */
	{ "resnet50", "", "", "", C, C },                                              /* as the yaml */
	{ "cosmoflow", "dataset_format=npz", "dataset.format", "npz", O, O },          /* rules.py:526 */
	{ "cosmoflow", "epochs=1", "train.epochs", "1", I, I },                        /* rules.py:548 */
	{ "cosmoflow", "prefetch=1", "reader.prefetch_size", "1", C, C },              /* rules.py:524 */
	{ "cosmoflow", "record_length=100", "dataset.record_length_bytes", "100", I, I },
	{ "cosmoflow", "model_size=5", "model.model_size", "5", I, I },                /* rules.py:548 */
	{ "cosmoflow", "subfolders=2", "dataset.num_subfolders_train", "2", C, C },    /* rules.py:522 */
	{ "cosmoflow", "data_dir=/mnt/x", "dataset.data_folder", "/mnt/x", C, C },     /* rules.py:522 */
	{ "cosmoflow", "direct=1", "reader.odirect", "True", I, I },                   /* rules.py:583-594 */
};
/* ORACLE-TABLE-END */

static char logbuf[4096];

static void run_case(const struct vcase *v)
{
	char text[512];
	struct sb_joblist jl;
	struct sb_ml_train_facts f;
	struct sb_ml_override ov[SB_ML_OVERRIDES_MAX];
	struct sb_ml_rule_report rep;

	snprintf(text, sizeof(text), "[t]\nworkload=train\nrules=mlperf\ntrain_model=%s\n%s\n", v->model,
		 v->job);
	memset(&jl, 0, sizeof(jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("v.ini", text, &jl);
	sb_log_capture(NULL, 0);
	if (rc) {
		fprintf(stderr, "case %s/%s: parse failed: %s\n", v->model, v->job, logbuf);
		CU_FAIL("parse");
		return;
	}
	sb_ml_train_facts_of(&jl.jobs[0], 1ull << 30, &f);
	f.ov = ov;
	f.nov = sb_ml_train_overrides(&jl.jobs[0], ov, SB_ML_OVERRIDES_MAX);
	f.files = 1u << 24; /* a dataset big enough: only the overrides judged */
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	if (rep.verdict != v->checker || rep.guidelines != v->guidelines)
		fprintf(stderr, "case %s/%s: checker %s (want %s), guidelines %s (want %s)\n", v->model,
			v->job, sb_ml_verdict_name(rep.verdict), sb_ml_verdict_name(v->checker),
			sb_ml_verdict_name(rep.guidelines), sb_ml_verdict_name(v->guidelines));
	CU_ASSERT_EQUAL(rep.verdict, v->checker);
	CU_ASSERT_EQUAL(rep.guidelines, v->guidelines);
	/* an override the table names is in the message with its official name */
	if (v->param[0] && v->checker != SB_ML_CLOSED) {
		bool named = false;
		for (size_t i = 0; i < rep.n; i++)
			if (!rep.rules[i].pass && (strstr(rep.rules[i].fix, v->param) ||
						   strstr(rep.rules[i].actual, v->param) ||
						   strstr(rep.rules[i].cite, v->param)))
				named = true;
		CU_ASSERT(named);
	}
	sb_joblist_free(&jl);
}

static void test_override_table(void)
{
	CU_ASSERT(sizeof(cases) / sizeof(cases[0]) >= 60);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

/* the class tables themselves, on parameters no storbench option sets */
static void test_override_class(void)
{
	static const struct { const char *p; enum sb_ml_verdict c, g; } t[] = {
		{ "framework", O, O },                      /* rules.py:526 */
		{ "reader.data_loader", O, O },             /* rules.py:526 */
		{ "reader.computation_threads", C, C },     /* rules.py:523 */
		{ "reader.transfer_size", C, C },           /* rules.py:523 */
		{ "checkpoint.checkpoint_folder", C, C },   /* rules.py:524 */
		{ "storage.storage_type", C, C },           /* rules.py:525 */
		{ "storage.storage_root", C, C },           /* rules.py:525 */
		{ "workflow.evaluation", C, I },            /* rules.py:530: skipped; guidelines 10.1 */
		{ "workflow.checkpoint", C, I },            /* rules.py:530 (557-581 judges unet3d) */
		{ "dataset.record_length_bytes_resize", I, I }, /* rules.py:548 */
		{ "model.name", I, I },                     /* rules.py:548 */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL(sb_ml_override_class(t[i].p), t[i].c);
		CU_ASSERT_EQUAL(sb_ml_override_class_guidelines(t[i].p), t[i].g);
	}
	/* do_eval alone: workflow.evaluation, which the checker skips */
	struct sb_ml_override ov = { .option = "do_eval", .param = "workflow.evaluation", .value = "True" };
	struct sb_ml_train_facts f = {
		.workload = "unet3d", .accel = "h100", .files = 1u << 24, .samples_per_file = 1,
		.record_length = 146600628.0, .record_stdev = 68341808.0, .batch_size = 7,
		.accelerators = 1, .read_threads = 4, .epochs = 5, .file_shuffle = true,
		.sample_shuffle = true, .ckpt_after_epoch = 5, .computation_time_s = 0.323,
		.hosts = 1, .host_mem_bytes = 1ull << 30, .ov = &ov, .nov = 1,
	};
	struct sb_ml_rule_report rep;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
	CU_ASSERT_EQUAL(rep.guidelines, SB_ML_INVALID);
	/* AU below the workload's minimum: the checker has no AU check */
	f.nov = 0;
	f.au_measured = true;
	f.au_pct = 50;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
	CU_ASSERT_EQUAL(rep.guidelines, SB_ML_INVALID);
	/* no storage I/O: never CLOSED, in either verdict */
	f.au_pct = 95;
	f.io_known = true;
	f.nodiskio = true;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	CU_ASSERT_EQUAL(rep.guidelines, SB_ML_INVALID);
	f.nodiskio = false;
	f.io_bytes = 0;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_INVALID);
	f.io_bytes = 1;
	CU_ASSERT_EQUAL_FATAL(sb_ml_rules_train(&f, &rep), 0);
	CU_ASSERT_EQUAL(rep.verdict, SB_ML_CLOSED);
}

/* checkpointing: rules.py:611-614 checks nothing, the guidelines do */
static void test_ckpt_verdicts(void)
{
	static const struct sb_ml_ckpt_facts ok = {
		.model = "llama3-8b", .ranks = 8, .world = 8, .tp = 1, .pp = 1,
		.want_writes = 10, .want_reads = 10, .writes = 10, .reads = 10, .fsync = true,
		.caches_dropped = true, .scale = 1.0, .io_known = true, .io_bytes = 1,
	};
	struct sb_ml_ckpt_facts f;
	struct sb_ml_rule_report rep;
#define CK(mod, c, g)                                                  \
	do {                                                           \
		f = ok;                                                \
		mod;                                                   \
		CU_ASSERT_EQUAL_FATAL(sb_ml_rules_ckpt(&f, &rep), 0);  \
		CU_ASSERT_EQUAL(rep.verdict, c);                       \
		CU_ASSERT_EQUAL(rep.guidelines, g);                    \
	} while (0)
	CK((void)0, C, C);
	CK(f.caches_dropped = false, C, I);           /* guidelines 2.2.2 */
	CK(f.fsync = false, C, I);                    /* guidelines 2.2.2 */
	CK(f.ranks = 4, C, O);                        /* guidelines 2.2.5 */
	CK((f.subset = true, f.ranks = 8), C, C);     /* config.py:69-74 subset with 8 */
	CK(f.writes = 5, C, I);                       /* guidelines 2.2.5 Table 3 */
	CK(f.scale = 0.01, C, I);
	CK(f.model = NULL, O, O);                     /* config.py LLM_MODELS */
	CK(f.nodiskio = true, I, I);                  /* no CLOSED without I/O */
	CK(f.io_bytes = 0, I, I);
	/* a full-scale checkpoint with ioengine=null and drop_caches=0 is not CLOSED */
	CK((f.nodiskio = true, f.io_bytes = 0, f.caches_dropped = false), I, I);
#undef CK
}

static CU_TestInfo tests[] = {
	{ "override table", test_override_table },
	{ "override classes", test_override_class },
	{ "checkpoint verdicts", test_ckpt_verdicts },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_verdicts, tests)
