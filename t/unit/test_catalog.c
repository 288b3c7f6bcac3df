/* test_catalog.c: CUnit suite "catalog": the ML presets are one data table
 * (parse/catalog.c) that the parser resolves into the spec once and ml/
 * reads unchanged: every row found by its name, the name lists match the
 * rows, ml/'s lookups return the catalog's numbers, and a job's spec points
 * at its preset's row only when it runs the preset's shape. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/checkpoint/opts.h"
#include "ml/model.h"
#include "ml/train/opts.h"
#include "ml/train/train.h"
#include "parse/catalog.h"
#include "parse/parse.h"

static char logbuf[4096];

static void test_rows_and_names(void)
{
	unsigned n = 0;
	for (; sb_model_presets[n].name; n++) {
		const struct sb_model_preset *p = &sb_model_presets[n];
		struct sb_ml_shape s;
		char err[384];
		CU_ASSERT_PTR_EQUAL(sb_model_preset_find(p->name), p);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sb_model_preset_names[n]);
		CU_ASSERT_STRING_EQUAL(sb_model_preset_names[n], p->name);
		CU_ASSERT_EQUAL_FATAL(sb_ml_model_find(p->name, &s), 0);
		CU_ASSERT(s.hidden == p->hidden && s.ffn == p->ffn && s.layers == p->layers &&
			  s.heads == p->heads && s.kv_heads == p->kv_heads && s.vocab == p->vocab &&
			  s.tp == p->tp && s.pp == p->pp && s.dp == p->dp &&
			  s.zero_stage == p->zero_stage && s.closed_ranks == p->closed_ranks);
		CU_ASSERT_STRING_EQUAL(s.name, p->name);
		CU_ASSERT_EQUAL(sb_ml_shape_check(&s, err, sizeof(err)), 0);
	}
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_PTR_NULL(sb_model_preset_names[n]);
	CU_ASSERT_PTR_EQUAL(sb_ml_model_names(), sb_model_preset_names);
	CU_ASSERT_PTR_NULL(sb_model_preset_find("llama3-7b"));
	CU_ASSERT_PTR_NULL(sb_model_preset_find(NULL));
	for (n = 0; sb_train_presets[n].name; n++) {
		const struct sb_train_preset *p = &sb_train_presets[n];
		struct sb_ml_workload w;
		CU_ASSERT_PTR_EQUAL(sb_train_preset_find(p->name), p);
		CU_ASSERT_STRING_EQUAL(sb_train_preset_names[n], p->name);
		CU_ASSERT_EQUAL_FATAL(sb_ml_workload_find(p->name, &w), 0);
		CU_ASSERT(w.ds.files == p->files && w.ds.samples_per_file == p->samples_per_file &&
			  w.ds.record_length == p->record_length && w.ds.record_stdev == p->record_stdev &&
			  w.batch_size == p->batch_size && w.read_threads == p->read_threads &&
			  w.epochs == p->epochs && w.compute_h100_s == p->compute_h100_s &&
			  w.au_required_pct == p->au_required_pct);
		CU_ASSERT_STRING_EQUAL(w.ds.format, p->format);
		CU_ASSERT_EQUAL(w.ds.seed, SB_ML_DATAGEN_SEED);
	}
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_PTR_NULL(sb_train_preset_names[n]);
	CU_ASSERT_PTR_NULL(sb_train_preset_find("bert"));
}

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("cat.ini", text, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

/* the parser resolves the preset once; ml/ reads the row from the spec */
static void test_resolved_once(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nworkload=checkpoint\nmodel=llama3-8b\n"
				    "[b]\nworkload=checkpoint\nmodel=llama3-8b\nhidden=4096\n"
				    "[c]\nworkload=checkpoint\nmodel=llama3-8b\nlayers=2\n"
				    "[d]\nworkload=checkpoint\nhidden=64\nffn=128\nlayers=2\nheads=4\nkv_heads=2\n"
				    "[e]\nworkload=train\ntrain_model=resnet50\n"
				    "[f]\nworkload=train\ndataset_files=8\nrecord_length=4096\n", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 6);
	CU_ASSERT_PTR_EQUAL(jl.jobs[0].ml_preset, sb_model_preset_find("llama3-8b"));
	CU_ASSERT_PTR_EQUAL(jl.jobs[1].ml_preset, sb_model_preset_find("llama3-8b")); /* same value */
	/* shape changed: still model='s row (mlpstorage's --model with a
	 * --param), the change judged by the rules */
	CU_ASSERT_PTR_EQUAL(jl.jobs[2].ml_preset, sb_model_preset_find("llama3-8b"));
	CU_ASSERT(!sb_ckpt_shape_changed(&jl.jobs[0]));
	CU_ASSERT(!sb_ckpt_shape_changed(&jl.jobs[1]));
	CU_ASSERT(sb_ckpt_shape_changed(&jl.jobs[2]));
	CU_ASSERT_PTR_NULL(jl.jobs[3].ml_preset);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_train_opts(&jl.jobs[4]));
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_train_opts(&jl.jobs[5]));
	CU_ASSERT_PTR_EQUAL(sb_train_opts(&jl.jobs[4])->train_preset, sb_train_preset_find("resnet50"));
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[4])->dataset_files, 1024);
	CU_ASSERT_PTR_NULL(sb_train_opts(&jl.jobs[5])->train_preset);
	CU_ASSERT_EQUAL(sb_train_opts(&jl.jobs[5])->batch_size, 1);
	CU_ASSERT_PTR_NULL(sb_train_opts(&jl.jobs[0])); /* a checkpoint job has no train options */
	sb_joblist_free(&jl);
}

static CU_TestInfo tests[] = {
	{ "rows and names", test_rows_and_names },
	{ "resolved once into the spec", test_resolved_once },
	CU_TEST_INFO_NULL,
};
SB_SUITE(catalog, tests)
