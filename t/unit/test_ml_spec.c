/* test_ml_spec.c: the ML workload options as run/ and ml/ receive them: model= and
 * train_model= resolved into the spec (explicit options win, train_scale
 * applied), the errors a user sees, and iogen's span mode that moves exactly
 * one checkpoint file or one sample. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/iogen.h"
#include "harness.h"
#include "lib/log.h"
#include "ml/checkpoint/opts.h"
#include "ml/train/opts.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "run/workload.h"

static char logbuf[4096];

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	logbuf[0] = '\0';
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("ml.ini", text, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static void test_model_resolved(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nworkload=checkpoint\nmodel=llama3-70b\ndp=2\nsubset\n"
				    "ranks=4\n", &jl), 0);
	const struct sb_jobspec *s = &jl.jobs[0];
	CU_ASSERT_STRING_EQUAL(sb_workload_of(s)->name, "checkpoint");
	CU_ASSERT_EQUAL(s->shape.hidden, 8192);
	CU_ASSERT_EQUAL(s->shape.layers, 80);
	CU_ASSERT_EQUAL(s->shape.tp, 8);
	CU_ASSERT_EQUAL(s->shape.dp, 2);          /* explicit wins */
	CU_ASSERT_EQUAL(s->shape.zero_stage, 3);
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->ranks, 4);
	CU_ASSERT_EQUAL(o->num_checkpoints_write, 10);
	CU_ASSERT(s->checkpoint_fsync && s->drop_caches);
	sb_joblist_free(&jl);

	CU_ASSERT_EQUAL_FATAL(parse("[b]\nworkload=checkpoint\nhidden=64\nffn=128\nlayers=2\n"
				    "heads=4\nkv_heads=2\ncheckpoint_scale=0.5\n", &jl), 0);
	s = &jl.jobs[0];
	CU_ASSERT_EQUAL(s->shape.vocab, 128256);
	o = sb_ckpt_opts(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT(s->shape.tp == 1 && s->shape.pp == 1 && s->shape.dp == 1 && o->ranks == 1);
	CU_ASSERT_DOUBLE_EQUAL(o->checkpoint_scale, 0.5, 1e-12);
	sb_joblist_free(&jl);
}

static void test_train_resolved(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[t]\nworkload=train\ntrain_model=resnet50\ntrain_scale=0.5\n"
				    "dataset_files=16\nshuffle=1,0\n", &jl), 0);
	const struct sb_train_opts *s = sb_train_opts(&jl.jobs[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->dataset_files, 16);
	CU_ASSERT_EQUAL(s->samples_per_file, 1251);
	CU_ASSERT_EQUAL(s->batch_size, 400);
	CU_ASSERT_EQUAL(s->read_threads, 8);
	CU_ASSERT_EQUAL(s->epochs, 5);
	CU_ASSERT_DOUBLE_EQUAL(s->record_length, 114660.07 * 0.5, 1e-6);
	CU_ASSERT_EQUAL(s->computation_time_us, 112000);
	CU_ASSERT_DOUBLE_EQUAL(s->au_target_pct, 90.0, 1e-9);
	CU_ASSERT_EQUAL(s->shuffle, SB_SHUFFLE_FILE);
	CU_ASSERT_EQUAL(s->prefetch, 2);
	sb_joblist_free(&jl);

	CU_ASSERT_EQUAL_FATAL(parse("[t]\nworkload=train\ndataset_files=8\nrecord_length=1m\n", &jl), 0);
	CU_ASSERT_DOUBLE_EQUAL(sb_train_opts(&jl.jobs[0])->record_length, 1048576.0, 1e-9);
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[0])->batch_size, 1);
	sb_joblist_free(&jl);
}

static void test_errors(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL(parse("[a]\nworkload=checkpoint\nmodel=llama3-405\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:3: model=llama3-405: unknown model"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "did you mean 'llama3-405b'"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[a]\nworkload=checkpoint\nlayers=2\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "needs model="));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[a]\nworkload=checkpoint\nmodel=llama3-8b\nranks=3\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "set ranks=8"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[g]\nworkload=train\ndataset_files=3\nrecord_length=10\nbatch_size=2\n",
			      &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "1 step(s) per epoch"));
	sb_joblist_free(&jl);
	/* sizes past 64 bits, refused at the option's line */
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nhidden=16777216\nffn=67108864\nlayers=65536\n"
			      "heads=65536\nkv_heads=65536\nvocab=67108864\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:3: job 'c': model shape: hidden=16777216"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "more than 2^64 bytes"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\ntp=64\npp=64\ndp=64\n",
			      &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "= 262144, more than the 65536 rank threads"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[t]\nworkload=train\ndataset_files=1073741824\nsamples_per_file=1073741824\n"
			      "record_length=1g\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:5: job 't': dataset_files=1073741824"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "a dataset of more than 2^63 bytes"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[t]\nworkload=train\ndataset_files=8\nrecord_length=16\n"
			      "record_length_stdev=1e19\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "a file of more than 2^63 bytes"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[io]\nsize=1m\nepochs=2\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:3: epochs=2 applies to workload=train"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\ndataset_files=2\n", &jl),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "job 'c' has workload=checkpoint"));
	sb_joblist_free(&jl);
}

/* accelerator= picks the DLIO <model>_<accelerator>.yaml computation_time;
 * train_model= gives DLIO's shuffle and (unet3d) in-training checkpoint */
static void test_accelerator_and_rule_defaults(void)
{
	static const struct { const char *model, *accel; uint64_t us; unsigned shuffle, after, every; } v[] = {
		{ "unet3d", "", 323000, SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, 5, 2 },
		{ "unet3d", "accelerator=a100\n", 636000, SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, 5, 2 },
		{ "resnet50", "accelerator=h100\n", 224000, 0, 0, 1 },
		{ "resnet50", "accelerator=a100\n", 435000, 0, 0, 1 },
		{ "cosmoflow", "accelerator=a100\n", 5510, SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE, 0, 1 },
	};
	struct sb_joblist jl;
	char text[256];
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(text, sizeof(text), "[t]\nworkload=train\ntrain_model=%s\n%s", v[i].model, v[i].accel);
		CU_ASSERT_EQUAL_FATAL(parse(text, &jl), 0);
		const struct sb_train_opts *s = sb_train_opts(&jl.jobs[0]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(s->computation_time_us, v[i].us);
		CU_ASSERT_EQUAL(s->shuffle, v[i].shuffle);
		CU_ASSERT_EQUAL(s->checkpoint_after_epoch, v[i].after);
		CU_ASSERT_EQUAL(s->epochs_between_checkpoints, v[i].every);
		CU_ASSERT_EQUAL(s->steps_between_checkpoints, 0);
		sb_joblist_free(&jl);
	}
	/* explicit options win */
	CU_ASSERT_EQUAL_FATAL(parse("[t]\nworkload=train\ntrain_model=unet3d\naccelerator=a100\n"
				    "computation_time=0.5\nshuffle=none\ncheckpoint_after_epoch=0\n", &jl), 0);
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[0])->computation_time_us, 500000);
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[0])->shuffle, 0);
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[0])->checkpoint_after_epoch, 0);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[t]\nworkload=train\ntrain_model=unet3d\naccelerator=b200\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "b200"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "a100"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[t]\nworkload=train\ntrain_model=unet3d\nepochs_between_checkpoints=0\n",
			      &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "epochs_between_checkpoints"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\naccelerator=a100\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:4: accelerator=a100 applies to workload=train"));
	sb_joblist_free(&jl);
}

/* MLPerf's write-only and read-only checkpoint runs (guidelines 2.2.2) */
static void test_ckpt_write_or_read_only(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_write=0\n", &jl), 0);
	CU_ASSERT_EQUAL(jl.njobs ? sb_ckpt_opts(&jl.jobs[0])->num_checkpoints_read : 0, 10);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_read=0\n", &jl), 0);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[c]\nworkload=checkpoint\nmodel=llama3-8b\nnum_checkpoints_read=0\n"
			      "num_checkpoints_write=0\n", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "ml.ini:5: num_checkpoints_write=0 and num_checkpoints_read=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "set either (10 in MLPerf)"));
	sb_joblist_free(&jl);
}

/* span mode: exactly [offset, offset+len), bs per I/O, a short last one */
static void test_iogen_span(void)
{
	struct sb_jobspec s;
	struct sb_file f = { .fd = -1 };
	struct sb_iogen g;
	struct sb_io_u io;
	memset(&g, 0, sizeof(g));
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	sb_iogen_init_span(&g, &s, &f, SB_DDIR_WRITE, 100, 10000, 4096);
	uint64_t next = 100, total = 0;
	unsigned n = 0;
	while (sb_iogen_next(&g, &io)) {
		CU_ASSERT_EQUAL(io.ddir, SB_DDIR_WRITE);
		CU_ASSERT_PTR_EQUAL(io.file, &f);
		CU_ASSERT_EQUAL(io.offset, next);
		next += io.len;
		total += io.len;
		n++;
	}
	CU_ASSERT_EQUAL(total, 10000);
	CU_ASSERT_EQUAL(n, 3);                 /* 4096 + 4096 + 1808 */
	CU_ASSERT_EQUAL(io.len, 1808);
	sb_iogen_init_span(&g, &s, &f, SB_DDIR_READ, 0, 0, 4096);
	CU_ASSERT_EQUAL(sb_iogen_next(&g, &io), 0);
	sb_iogen_free(&g);
	sb_spec_release(&s);
}

static CU_TestInfo tests[] = {
	{ "accelerator= and DLIO's rule defaults", test_accelerator_and_rule_defaults },
	{ "checkpoint write-only or read-only", test_ckpt_write_or_read_only },
	{ "checkpoint options resolved", test_model_resolved },
	{ "train options resolved", test_train_resolved },
	{ "clear errors", test_errors },
	{ "iogen span mode", test_iogen_span },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_spec, tests)
