/* figures.c: how a workload=train job's result is written (see
 * ml/figures.h).  JSON: job-level "train" {au_pct, samples_per_s, mb_per_s,
 * epochs [...], au_target_pct, au_met, ...}; normal: a block of lines. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/assert.h"
#include "ml/figures.h"
#include "ml/train/result.h"
#include "run/wljob.h"

static void json_train_pipeline(struct sb_jw *w, const struct sb_ml_train_result *t)
{
	sb_jw_u64(w, "readers_per_accelerator", t->read_threads);
	sb_jw_u64(w, "reader_threads", t->readers);
	sb_jw_u64(w, "reader_threads_did_io", t->readers_did_io);
	sb_jw_u64(w, "prefetch_per_reader", t->prefetch_per_reader);
	sb_jw_arr_begin(w, "checkpoints");
	for (unsigned i = 0; i < t->nckpts; i++) {
		const struct sb_ml_train_ckpt *c = &t->ckpts[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "epoch", c->epoch);
		sb_jw_u64(w, "step", c->step);
		sb_jw_u64(w, "bytes", c->bytes);
		sb_jw_dbl(w, "duration_s", c->duration_s);
		sb_jw_dbl(w, "gbps", c->duration_s > 0 ? (double)c->bytes / c->duration_s / 1e9 : 0);
		sb_jw_dbl(w, "gibps", c->duration_s > 0 ? (double)c->bytes / c->duration_s / 1073741824.0 : 0);
		sb_jw_str(w, "path", c->path);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
}

static void json_train(struct sb_jw *w, const struct sb_ml_train_result *t)
{
	sb_jw_obj_begin(w, "train");
	sb_jw_dbl(w, "au_pct", t->au_pct);
	sb_jw_dbl(w, "samples_per_s", t->samples_per_s);
	sb_jw_dbl(w, "mb_per_s", t->mb_per_s);
	sb_jw_arr_begin(w, "epochs");
	for (unsigned i = 0; i < t->nepochs; i++) {
		const struct sb_ml_epoch_result *e = &t->epochs[i];
		sb_jw_obj_begin(w, NULL);
		sb_jw_u64(w, "epoch", e->epoch);
		sb_jw_u64(w, "steps", e->steps);
		sb_jw_dbl(w, "duration_s", e->duration_s);
		sb_jw_dbl(w, "au_pct", e->au_pct);
		sb_jw_dbl(w, "samples_per_s", e->samples_per_s);
		sb_jw_dbl(w, "mb_per_s", e->mb_per_s);
		sb_jw_dbl(w, "step_s_min", e->step_s_min);
		sb_jw_dbl(w, "step_s_max", e->step_s_max);
		sb_jw_u64(w, "eval_steps", e->eval_steps);
		sb_jw_dbl(w, "eval_duration_s", e->eval_duration_s);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	json_train_pipeline(w, t);
	sb_jw_dbl(w, "au_target_pct", t->au_target_pct);
	sb_jw_bool(w, "au_met", t->au_met);
	sb_jw_u64(w, "steps_per_epoch", t->steps_per_epoch);
	sb_jw_u64(w, "dataset_files", t->dataset_files);
	sb_jw_u64(w, "dataset_bytes", t->dataset_bytes);
	sb_jw_bool(w, "dataset_created", t->dataset_created);
	sb_jw_str(w, "data_dir", t->data_dir);
	sb_ml_gpu_json(w, &t->gpu);
	sb_jw_obj_end(w);
}


static void normal_train(FILE *f, const struct sb_ml_train_result *t)
{
	if (!t->nepochs) /* --datagen (the dataset only), or stopped before an epoch */
		fprintf(f, "  train        : no epoch ran (no AU measured), %zu steps/epoch/accelerator\n",
			t->steps_per_epoch);
	else
		fprintf(f, "  train        : AU=%.2f%% (target %.1f%%: %s), %.1f samples/s, %.2f MB/s, "
			   "%zu steps/epoch/accelerator\n", t->au_pct, t->au_target_pct,
			t->au_met ? "met" : "NOT met", t->samples_per_s, t->mb_per_s, t->steps_per_epoch);
	fprintf(f, "    dataset: %u files, %.3f GiB in %s (%s; kept so the next run reuses it: "
		   "remove the directory when done)\n", t->dataset_files,
		(double)t->dataset_bytes / 1073741824.0, t->data_dir,
		t->dataset_created ? "created for this run" : "reused");
	if (t->nepochs)
		fprintf(f, "    readers: %u accelerators x %u read_threads = %u reader threads (%u did "
			   "I/O), %u batches prefetched each\n", t->accelerators, t->read_threads,
			t->readers, t->readers_did_io, t->prefetch_per_reader);
	for (unsigned i = 0; i < t->nepochs; i++) {
		fprintf(f, "    epoch %u: %zu steps in %.3f s, AU=%.2f%%, %.1f samples/s, %.2f MB/s",
			t->epochs[i].epoch, t->epochs[i].steps, t->epochs[i].duration_s,
			t->epochs[i].au_pct, t->epochs[i].samples_per_s, t->epochs[i].mb_per_s);
		if (t->epochs[i].eval_steps)
			fprintf(f, "; eval %zu steps in %.3f s", t->epochs[i].eval_steps,
				t->epochs[i].eval_duration_s);
		fputc('\n', f);
	}
	sb_ml_gpu_normal(f, &t->gpu);
	for (unsigned i = 0; i < t->nckpts; i++)
		fprintf(f, "    checkpoint after epoch %u step %" PRIu64 ": %" PRIu64 " bytes in %.3f s "
			   "(%.3f GB/s) %s\n", t->ckpts[i].epoch, t->ckpts[i].step, t->ckpts[i].bytes,
			t->ckpts[i].duration_s, t->ckpts[i].duration_s > 0 ?
			(double)t->ckpts[i].bytes / t->ckpts[i].duration_s / 1e9 : 0, t->ckpts[i].path);
}


/* ---- the result as its workload makes it (ml/result.h) */

static void json(struct sb_jw *w, const struct sb_ml_result *m)
{
	json_train(w, &((const struct sb_train_job_result *)m)->train);
}

static void normal(FILE *f, const struct sb_ml_result *m)
{
	normal_train(f, &((const struct sb_train_job_result *)m)->train);
}

static void release(struct sb_ml_result *m)
{
	struct sb_ml_train_result *t = &((struct sb_train_job_result *)m)->train;
	free(t->epochs);
	free(t->ckpts);
}

const struct sb_ml_figures sb_train_figures = {
	.size = sizeof(struct sb_train_job_result),
	.gpu_off = offsetof(struct sb_train_job_result, train.gpu),
	.json = json,
	.normal = normal,
	.release = release,
};

const struct sb_ml_train_result *sb_train_result_of(const struct sb_job_result *jr)
{
	struct sb_ml_result *m = sb_ml_result_mine(jr ? jr->wl : NULL, &sb_train_figures);
	return m ? &((struct sb_train_job_result *)m)->train : NULL;
}

struct sb_train_job_result *sb_train_res(const struct sb_wl_job *j)
{
	struct sb_ml_result *m = sb_ml_result_mine(j->res, &sb_train_figures);
	SB_ASSERT(m || !j->res); /* a running job's result is its workload's own */
	return (struct sb_train_job_result *)m;
}
