/* test_trainopts.c: CUnit suite "trainopts": workload=train's options live
 * in its own struct (ml/train/opts.h, struct sb_train_opts in the spec's
 * wl_opts area).  Every one of its rows points into that struct and is
 * found again by its offset (SB_TRAIN_OPT); a job's values of every type
 * land in the struct, and so do the check's resolved ones (train_model='s
 * defaults, train_scale applied); its text is copied and freed with the
 * spec; a job of another workload has no train struct, and every train
 * option given to one is refused at its file:line with the message the
 * integration tests read.  Its hooks answer from the struct: the check
 * refuses dataset_verify=1 with ioengine=null besides its other errors,
 * gpu_mem names train_destination=gpu, folders gives data_dir. */
#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/registry.h"
#include "ml/train/formats.h"
#include "ml/train/opts.h"
#include "ml/train/trainst.h"
#include "parse/catalog.h"
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
	int rc = sb_parse_text("train.ini", text, jl);
	if (!rc)
		rc = sb_joblist_finish(jl);
	sb_log_capture(NULL, 0);
	return rc;
}

/* every row: inside struct sb_train_opts, the parser's copy train's, one
 * base for all of them inside wl_opts, and SB_TRAIN_OPT's answer */
static void test_rows(void)
{
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_parse_workload *tw = sb_parse_workload_find(sb_workload_id(&sb_workload_train));
	CU_ASSERT_PTR_NOT_NULL_FATAL(tw);
	CU_ASSERT_EQUAL(tw->opts_size, sizeof(struct sb_train_opts));
	CU_ASSERT_EQUAL(tw->nrows, sb_train_rows_n);
	size_t area = offsetof(struct sb_jobspec, wl_opts), base = 0;
	for (unsigned i = 0; i < sb_train_rows_n; i++) {
		const struct sb_option *r = &sb_train_rows[i], *p = sb_option_find(r->name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT(r->off < sizeof(struct sb_train_opts));
		CU_ASSERT_PTR_EQUAL(sb_parse_workload_of_row(p), tw);
		CU_ASSERT_PTR_EQUAL(sb_train_opt(r->off), p);
		CU_ASSERT(p->off >= area + r->off && p->off < area + SB_SPEC_WLOPTS_MAX);
		if (!i)
			base = p->off - r->off;
		CU_ASSERT_EQUAL(p->off - r->off, base);
	}
	CU_ASSERT_PTR_NULL(sb_train_opt(sizeof(struct sb_train_opts))); /* no row there */
	CU_ASSERT_PTR_NULL(sb_train_opt(offsetof(struct sb_train_opts, train_preset))); /* resolved only */
	CU_ASSERT_PTR_EQUAL(SB_TRAIN_OPT(ml_seed), sb_option_find("seed"));
	CU_ASSERT_PTR_EQUAL(SB_TRAIN_OPT(au_target_pct), sb_option_find("au_target"));
	CU_ASSERT_PTR_EQUAL(SB_TRAIN_OPT(computation_time_us), sb_option_find("computation_time"));
}

/* every field set, of every type; train_scale applied by the check */
static void check_all_set(const struct sb_train_opts *a)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->train_model);
	CU_ASSERT_STRING_EQUAL(a->train_model, "unet3d");
	CU_ASSERT_PTR_EQUAL(a->train_preset, sb_train_preset_find("unet3d"));
	CU_ASSERT_EQUAL(a->dataset_files, 12u);
	CU_ASSERT_EQUAL(a->samples_per_file, 3u);
	CU_ASSERT_EQUAL(a->subfolders, 2u);
	CU_ASSERT_DOUBLE_EQUAL(a->record_length, 500, 1e-9);        /* 1000 x 0.5 */
	CU_ASSERT_DOUBLE_EQUAL(a->record_length_stdev, 5, 1e-9);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->data_dir);
	CU_ASSERT_STRING_EQUAL(a->data_dir, "/tmp/a data dir");
	CU_ASSERT_EQUAL(a->dataset_format, (unsigned)SB_DSFMT_NPY);
	CU_ASSERT_FALSE(a->dataset_verify);
	CU_ASSERT_EQUAL(a->epochs, 3u);
	CU_ASSERT_EQUAL(a->batch_size, 2u);
	CU_ASSERT_EQUAL(a->read_threads, 4u);
	CU_ASSERT_EQUAL(a->prefetch, 5u);
	CU_ASSERT_EQUAL(a->accelerators, 2u);
	CU_ASSERT_EQUAL(a->shuffle, (unsigned)SB_SHUFFLE_FILE);
	CU_ASSERT_EQUAL(a->ml_seed, 7u);
	CU_ASSERT_EQUAL(a->read_order, (unsigned)SB_ORDER_RESHUFFLE);
	CU_ASSERT_EQUAL(a->train_destination, (unsigned)SB_ML_MEM_HOST);
	CU_ASSERT_EQUAL(a->accelerator, (unsigned)SB_ACCEL_A100);
	CU_ASSERT_EQUAL(a->computation_time_us, 1000000u);         /* 2 s x 0.5 */
	CU_ASSERT_EQUAL(a->computation_time_stdev_us, 500000u);
	CU_ASSERT_EQUAL(a->computation_time_type, (unsigned)SB_CTIME_UNIFORM);
	CU_ASSERT_EQUAL(a->computation_time_min_us, 500000u);
	CU_ASSERT_EQUAL(a->computation_time_max_us, 1500000u);
	CU_ASSERT_DOUBLE_EQUAL(a->computation_time_shape, 2.5, 1e-12);
	CU_ASSERT_EQUAL(a->computation_time_scale_us, 2000000u);
	CU_ASSERT_DOUBLE_EQUAL(a->au_target_pct, 50, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(a->train_scale, 0.5, 1e-12);
	CU_ASSERT_EQUAL(a->checkpoint_after_epoch, 2u);
	CU_ASSERT_EQUAL(a->epochs_between_checkpoints, 3u);
	CU_ASSERT_EQUAL(a->steps_between_checkpoints, 4u);
	CU_ASSERT_EQUAL(a->model_size, 500u);                        /* 1000 x 0.5 */
	CU_ASSERT_TRUE(a->do_eval);
	CU_ASSERT_EQUAL(a->num_files_eval, 6u);
	CU_ASSERT_EQUAL(a->batch_size_eval, 2u);
	CU_ASSERT_EQUAL(a->eval_after_epoch, 2u);
	CU_ASSERT_EQUAL(a->epochs_between_evals, 2u);
	CU_ASSERT_EQUAL(a->eval_time_us, 1500000u);                  /* not scaled */
	CU_ASSERT_EQUAL(a->eval_time_stdev_us, 500000u);
}

static const char all_set[] =
	"[a]\nioengine=null\nworkload=train\ntrain_model=unet3d\ntrain_scale=0.5\n"
	"dataset_files=12\nsamples_per_file=3\nrecord_length=1000\nrecord_length_stdev=10\n"
	"data_dir=/tmp/a data dir\nsubfolders=2\nepochs=3\nbatch_size=2\nread_threads=4\n"
	"prefetch=5\naccelerators=2\nshuffle=file\nseed=7\nread_order=reshuffle\n"
	"computation_time=2\ncomputation_time_stdev=1\nau_target=50\naccelerator=a100\n"
	"dataset_format=npy\ncheckpoint_after_epoch=2\nepochs_between_checkpoints=3\n"
	"steps_between_checkpoints=4\ncomputation_time_type=uniform\ncomputation_time_min=1\n"
	"computation_time_max=3\ncomputation_time_shape=2.5\ncomputation_time_scale=4\ndo_eval=1\n"
	"num_files_eval=6\nbatch_size_eval=2\neval_time=1.5\neval_time_stdev=0.5\n"
	"eval_after_epoch=2\nepochs_between_evals=2\nmodel_size=1000\ntrain_destination=host\n"
	"dataset_verify=0\n"
	"[b]\nioengine=psync\nworkload=train\ntrain_model=resnet50\ndataset_verify=1\n"
	"dataset_format=raw\n"
	"[c]\nioengine=null\nsize=1m\n"
	"[d]\nioengine=null\nworkload=checkpoint\nmodel=llama3-8b\n";

/* values of every type, and what the check resolves */
static void test_values(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	int rc = parse(all_set, &jl);
	if (rc)
		fprintf(stderr, "trainopts: %s\n", logbuf);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 4u);
	const struct sb_train_opts *a = sb_train_opts(&jl.jobs[0]), *b = sb_train_opts(&jl.jobs[1]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NULL(sb_train_opts(&jl.jobs[2])); /* an io job has none */
	CU_ASSERT_PTR_NULL(sb_train_opts(&jl.jobs[3])); /* nor a checkpoint job */
	check_all_set(a);

	/* the preset's values where nothing is set, the rows' defaults else */
	const struct sb_train_preset *p = sb_train_preset_find("resnet50");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_EQUAL(b->train_preset, p);
	CU_ASSERT_EQUAL(b->dataset_files, p->files);
	CU_ASSERT_EQUAL(b->samples_per_file, p->samples_per_file);
	CU_ASSERT_EQUAL(b->batch_size, p->batch_size);
	CU_ASSERT_EQUAL(b->read_threads, p->read_threads);
	CU_ASSERT_EQUAL(b->epochs, p->epochs);
	CU_ASSERT_DOUBLE_EQUAL(b->record_length, p->record_length, 1e-9);
	CU_ASSERT_EQUAL(b->computation_time_us, (uint64_t)(p->compute_h100_s * 1e6 + 0.5));
	CU_ASSERT_DOUBLE_EQUAL(b->au_target_pct, p->au_required_pct, 1e-12);
	CU_ASSERT_EQUAL(b->model_size, p->model_size);
	CU_ASSERT_EQUAL(b->dataset_format, (unsigned)SB_DSFMT_RAW); /* explicit wins */
	CU_ASSERT_TRUE(b->dataset_verify);
	CU_ASSERT_PTR_NULL(b->data_dir);
	CU_ASSERT_EQUAL(b->prefetch, 2u);
	CU_ASSERT_EQUAL(b->ml_seed, (uint64_t)SB_TRAIN_SEED_DEFAULT);
	CU_ASSERT_EQUAL(b->accelerators, 1u);
	CU_ASSERT_DOUBLE_EQUAL(b->train_scale, 1, 1e-12);

	/* its text: the copy's own, freed with it, the original kept */
	struct sb_jobspec *copy = malloc(sizeof(*copy));
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	CU_ASSERT_EQUAL_FATAL(sb_spec_copy(copy, &jl.jobs[0]), 0);
	const struct sb_train_opts *ac = sb_train_opts(copy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ac);
	CU_ASSERT_PTR_NOT_EQUAL(ac->train_model, a->train_model);
	CU_ASSERT_PTR_NOT_EQUAL(ac->data_dir, a->data_dir);
	check_all_set(ac);
	sb_spec_release(copy);
	free(copy);
	check_all_set(a);
	sb_joblist_free(&jl);
}

/* every train option set for a job of another workload: refused where it
 * was set, naming train and the fix */
static void test_misplaced(void)
{
	struct sb_joblist jl;
	char text[512], want[256];
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const char *other[] = { "size=1m\n", "workload=checkpoint\nmodel=llama3-8b\n",
				"workload=kvcache\nmodel=llama3-8b\n" };
	const char *wname[] = { "io", "checkpoint", "kvcache" };
	for (unsigned w = 0; w < 3; w++) {
		for (unsigned i = 0; i < sb_train_rows_n; i++) {
			const struct sb_option *r = &sb_train_rows[i];
			const char *v = r->def && r->def[0] ? r->def : "1";
			snprintf(text, sizeof(text), "[a]\nioengine=null\n%s=%s\n%s", r->name, v, other[w]);
			CU_ASSERT_NOT_EQUAL(parse(text, &jl), 0);
			snprintf(want, sizeof(want), "train.ini:3: %s=%s applies to workload=train, but job 'a' "
				 "has workload=%s: add workload=train to the job or remove %s=", r->name, v,
				 wname[w], r->name);
			if (!strstr(logbuf, want))
				fprintf(stderr, "trainopts: %s: got %s\n", r->name, logbuf);
			CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want));
			sb_joblist_free(&jl);
		}
	}
}

/* dataset_verify=1 with ioengine=null: refused at its line by train's
 * check, and reported beside the job's other errors */
static void test_verify_null(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_NOT_EQUAL(parse("[v]\nworkload=train\nioengine=null\ndataset_files=8\n"
				  "record_length=4k\ndataset_verify=1\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "train.ini:6: dataset_verify=1 checks data read from "
				      "storage, but job 'v' has ioengine=null, which reads nothing: pick "
				      "a real engine (e.g. psync) or drop dataset_verify"));
	sb_joblist_free(&jl);
	CU_ASSERT_NOT_EQUAL(parse("[v]\nworkload=train\nioengine=null\ndataset_files=1\n"
				  "record_length=4k\ndataset_verify=1\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "step(s) per epoch"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "train.ini:6: dataset_verify=1 checks data"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[v]\nworkload=train\nioengine=psync\ndataset_files=8\n"
			      "record_length=4k\ndataset_verify=1\n", &jl), 0);
	sb_joblist_free(&jl);
}

/* the hooks generic code asks: gpu_mem and folders, from the struct */
static void test_hooks(void)
{
	struct sb_joblist jl;
	const char *dirs[4] = { NULL };
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_parse_workload *tw = sb_parse_workload_find(sb_workload_id(&sb_workload_train));
	CU_ASSERT_PTR_NOT_NULL_FATAL(tw);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tw->gpu_mem);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_workload_train.folders);
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nworkload=train\nioengine=null\ndataset_files=8\n"
				    "record_length=4k\ndata_dir=/srv/ds:/srv/ds2\n"
				    "[b]\nworkload=train\nioengine=null\ndataset_files=8\nrecord_length=4k\n"
				    "[c]\nioengine=null\nsize=1m\n", &jl), 0);
	CU_ASSERT_PTR_NULL(tw->gpu_mem(&jl.jobs[0]));  /* host */
	CU_ASSERT_PTR_NULL(tw->gpu_mem(&jl.jobs[2]));  /* not a train job */
	sb_train_opts_mut(&jl.jobs[0])->train_destination = SB_ML_MEM_GPU;
	CU_ASSERT_PTR_EQUAL(tw->gpu_mem(&jl.jobs[0]), sb_option_find("train_destination"));
	/* directory, checkpoint_folder (NULL when unset) and data_dir, in that order */
	CU_ASSERT_EQUAL(sb_workload_train.folders(&jl.jobs[0], dirs, 4), 3u);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dirs[2]);
	CU_ASSERT_STRING_EQUAL(dirs[2], "/srv/ds:/srv/ds2");
	CU_ASSERT_EQUAL(sb_workload_train.folders(&jl.jobs[0], dirs, 0), 0u);
	CU_ASSERT_EQUAL(sb_workload_train.folders(&jl.jobs[1], dirs, 4), 3u);
	CU_ASSERT_PTR_NULL(dirs[2]); /* <directory>/data */
	CU_ASSERT_EQUAL(sb_workload_train.folders(&jl.jobs[2], dirs, 4), 3u);
	CU_ASSERT_PTR_NULL(dirs[2]); /* not a train job: no data_dir read */
	sb_joblist_free(&jl);
}

static CU_TestInfo tests[] = {
	{ "every row in struct sb_train_opts", test_rows },
	{ "values and resolved defaults in the struct", test_values },
	{ "refused on other workloads' jobs", test_misplaced },
	{ "dataset_verify with ioengine=null", test_verify_null },
	{ "gpu_mem and folders from the struct", test_hooks },
	CU_TEST_INFO_NULL,
};
SB_SUITE(trainopts, tests)
