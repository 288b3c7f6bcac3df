/* ml/train/trainrun.c: workload=train, DLIO's training loop (main.py's run and
 * _train): per epoch a training phase (ml/train/trainpipe.c: per accelerator its
 * shard and its own pool of read_threads readers, DLIO's prefetch depth, a
 * barrier after every step), the in-training checkpoint when the epoch or
 * step options say (ml/train/trainckpt.c), and the eval phase (do_eval: the
 * valid/ dataset, batch_size_eval, eval_time) from eval_after_epoch every
 * epochs_between_evals.  AU and throughput per epoch come from
 * sb_ml_au_block / sb_ml_au_combine (ml_au.h), over the training steps only.
 *
 * The datasets (ml_train.h layout and sizes; ml/train/dataset.c) are created when
 * missing and kept; a file of the wrong size stops the job before any I/O
 * (storbench never deletes a dataset it finds). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/dist.h"
#include "ml/train/au.h"
#include "ml/content.h"
#include "ml/train/dataset.h"
#include "run/engtable.h"
#include "parse/options.h"
#include "ml/train/formats.h"
#include "ml/train/rules.h"
#include "ml/run.h"
#include "ml/train/train.h"
#include "ml/train/trainst.h"
#include "parse/catalog.h"
#include "run/rate.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/scratch.h"

/* alternatives of a failing block (dataset_verify): the dataset's files */
static bool ds_alt(void *ctx, unsigned n, struct sb_ml_alt *out)
{
	struct sb_ml_trainst *tr = ctx;
	if (n >= tr->ds.files)
		return false;
	*out = (struct sb_ml_alt){ .key = sb_ml_dataset_key(&tr->ds, n), .size = sb_ml_file_bytes(&tr->ds, n) };
	snprintf(out->what, sizeof(out->what), "dataset file #%u", n);
	return true;
}

static void epoch_metrics(struct sb_wl_job *j, unsigned epoch, double dur)
{
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_train_opts *o = sb_train_opts(j->spec);
	struct sb_ml_train_result *res = &sb_train_res(j)->train;
	struct sb_ml_au *au = calloc(tr->consumers ? tr->consumers : 1, sizeof(*au));
	size_t n = 0, steps = 0;
	double pmin = INFINITY, pmax = 0;
	if (!au)
		return;
	for (unsigned c = 0; c < tr->consumers; c++) {
		const struct sb_ml_step *st = tr->steps[c];
		size_t k = tr->nsteps[c];
		steps += k;
		if (k >= 2) { /* this accelerator's step period, after its first step */
			double p = (st[k - 1].compute_end - st[0].compute_end) / (double)(k - 1);
			pmin = p < pmin ? p : pmin;
			pmax = p > pmax ? p : pmax;
		}
		if (k && !sb_ml_au_block(st, k, st[0].load_start, st[k - 1].compute_end,
					 SB_ML_EXCLUDE_START, SB_ML_EXCLUDE_END, o->batch_size,
					 &au[n]))
			n++;
	}
	struct sb_ml_train_metrics m;
	sb_ml_au_combine(au, n, o->record_length, &m);
	free(au);
	if (!n)
		return;
	struct sb_ml_epoch_result *er = &res->epochs[res->nepochs++];
	er->epoch = epoch;
	er->steps = steps;
	er->duration_s = dur;
	er->au_pct = m.au_pct;
	er->samples_per_s = m.samples_per_s;
	er->mb_per_s = m.mb_per_s;
	er->step_s_min = pmax > 0 ? pmin : 0;
	er->step_s_max = pmax;
}

/* MPI: every process goes on, or none (a barrier that votes): e, or
 * -ECANCELED when another process stopped */
static int agree(int e)
{
	bool stop = e || sb_stopping();
	sb_dist_sync_vote(&stop);
	return e ? e : stop ? -ECANCELED : 0;
}

/* the training phase of one epoch, its checkpoint and its eval phase */
static int run_epoch(struct sb_wl_job *j, unsigned epoch)
{
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_train_opts *o = sb_train_opts(j->spec);
	uint64_t t0 = sb_now_ns();
	int e = sb_ml_train_phase(j, &tr->train_ph, epoch, SIZE_MAX);
	for (unsigned w = 0; w < j->nworkers; w++)
		if (j->workers[w].st->error)
			e = -j->workers[w].st->error;
	if ((e = agree(e)))
		return e;
	epoch_metrics(j, epoch, (double)(sb_now_ns() - t0) / 1e9);
	sb_ml_trace_app(j, 0, "epoch", "epoch", epoch, t0, sb_now_ns());
	if (!o->steps_between_checkpoints && o->checkpoint_after_epoch && !tr->a0 &&
	    epoch >= o->checkpoint_after_epoch &&
	    (epoch - o->checkpoint_after_epoch) % o->epochs_between_checkpoints == 0)
		e = sb_ml_train_ckpt(j, epoch, tr->nsteps[0] + 1);
	if (!(e = agree(e)) && o->do_eval && epoch >= o->eval_after_epoch &&
	    (epoch - o->eval_after_epoch) % o->epochs_between_evals == 0) {
		uint64_t t1 = sb_now_ns();
		e = sb_ml_train_phase(j, &tr->eval_ph, epoch, SIZE_MAX);
		struct sb_ml_train_result *res = &sb_train_res(j)->train;
		if (!e && res->nepochs && res->epochs[res->nepochs - 1].epoch == epoch) {
			res->epochs[res->nepochs - 1].eval_steps = tr->nsteps[0];
			res->epochs[res->nepochs - 1].eval_duration_s = (double)(sb_now_ns() - t1) / 1e9;
		}
	}
	return e;
}

static void train_rules(struct sb_wl_job *j)
{
	/* one host here; MPI: judged again on the world (ml/mpimerge.c) */
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	sb_ml_note_io(j);
	sb_ml_train_rules(j->spec, sb_train_res(j), 1, pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0);
}

static void train_results(struct sb_wl_job *j)
{
	struct sb_ml_train_result *t = &sb_train_res(j)->train;
	struct sb_ml_train_metrics ep[t->nepochs ? t->nepochs : 1], mean;
	for (unsigned i = 0; i < t->nepochs; i++) {
		ep[i].au_pct = t->epochs[i].au_pct;
		ep[i].samples_per_s = t->epochs[i].samples_per_s;
		ep[i].mb_per_s = t->epochs[i].mb_per_s;
	}
	sb_ml_au_epochs_mean(ep, t->nepochs, &mean);
	t->au_pct = mean.au_pct;
	t->samples_per_s = mean.samples_per_s;
	t->mb_per_s = mean.mb_per_s;
	t->au_target_pct = sb_train_opts(j->spec)->au_target_pct;
	t->au_met = t->nepochs && t->au_pct >= t->au_target_pct;
	if (j->spec->rules == SB_RULES_MLPERF)
		train_rules(j);
}

/* the missing dataset files (ml/train/dataset.c), before the first epoch and for --datagen */
static int datagen_train(struct sb_wl_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	int e = 0;
	if (j->nodiskio)
		return 0;
	if (sb_dist_rank()) /* MPI: rank 0 makes it, on the shared data folder */
		return 0;
	if (j->objects) { /* ioengine=s3: the dataset's objects */
		if (tr->nmissing && !(e = sb_ml_dataset_create_objects(&j->wspec, j->ops, &tr->ds, tr->dir))) {
			sb_train_res(j)->train.dataset_created = true;
			tr->nmissing = 0;
		}
		if (!e && tr->eval_missing && !(e = sb_ml_dataset_create_objects(&j->wspec, j->ops, &tr->eval_ds,
										  tr->dir)))
			tr->eval_missing = 0;
		if (!e && j->ops->object_end) /* the dataset is kept for later runs */
			e = j->ops->object_end(sb_spec_engine_opts(j->spec), &sb_run_engine_fs, tr->dir);
		return e;
	}
	if (tr->nmissing && !(e = sb_ml_dataset_create(&j->wspec, j->spec->name, &tr->ds, tr->dir))) {
		sb_train_res(j)->train.dataset_created = true;
		tr->nmissing = 0;
	}
	if (!e && tr->eval_missing &&
	    !(e = sb_ml_dataset_create(&j->wspec, j->spec->name, &tr->eval_ds, tr->dir)))
		tr->eval_missing = 0;
	return e;
}

/* reader threads whose statistics show bytes read */
static unsigned readers_did_io(const struct sb_wl_job *j)
{
	const struct sb_ml_trainst *tr = j->priv;
	unsigned n = 0, readers = tr->rt ? tr->readers : tr->consumers;
	for (unsigned w = 0; w < readers && w < j->nworkers; w++)
		n += j->workers[w].st->io_bytes[SB_DDIR_READ] > 0;
	return n;
}

static void run_train(struct sb_wl_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	uint64_t rsum = 0;
	int e = datagen_train(j);
	if (e && e != -ENOMEM && e != -EINTR)
		sb_ml_fail(&j->workers[0], -e, "cannot create the dataset in", tr->dir);
	e = agree(e);
	j->start_ns = sb_now_ns();
	for (unsigned ep = 1; !e && ep <= sb_train_opts(j->spec)->epochs && !(e = agree(0)); ep++) {
		bool late = sb_wl_expired(j); /* runtime=: no further epoch */
		if (sb_dist_sync_vote(&late), late)
			break;
		e = run_epoch(j, ep);
		if (!e && sb_train_res(j)->train.nepochs)
			rsum += (uint64_t)(sb_train_res(j)->train.epochs[sb_train_res(j)->train.nepochs - 1].duration_s * 1e9);
	}
	j->end_ns = sb_now_ns();
	uint64_t wsum = 0;
	for (unsigned i = 0; i < sb_train_res(j)->train.nckpts; i++)
		wsum += (uint64_t)(sb_train_res(j)->train.ckpts[i].duration_s * 1e9);
	for (unsigned w = 0; w < j->nworkers; w++) {
		j->workers[w].st->runtime_ns[SB_DDIR_READ] = rsum;
		j->workers[w].st->runtime_ns[SB_DDIR_WRITE] = wsum;
		j->workers[w].st->job_runtime_ns = j->end_ns - j->start_ns;
	}
	sb_train_res(j)->train.readers_did_io = readers_did_io(j);
	sb_ml_train_ckpt_cleanup(j);
	train_results(j);
}

static void dataset_of(const struct sb_train_opts *o, struct sb_ml_dataset *ds)
{
	const struct sb_train_preset *w = o->train_preset;  /* resolved by the parser */
	ds->fmt = o->dataset_format;
	snprintf(ds->format, sizeof(ds->format), "%s", sb_ml_fmt_ext(o->dataset_format, w ? w->format : "npz"));
	snprintf(ds->prefix, sizeof(ds->prefix), "%s", w ? w->prefix : "img");
	ds->files = o->dataset_files;
	ds->samples_per_file = o->samples_per_file;
	ds->record_length = o->record_length;
	ds->record_stdev = o->record_length_stdev;
	ds->subfolders = o->subfolders;
	ds->seed = SB_ML_DATAGEN_SEED;
}

/* the two phases: what they read, their batch and their compute time */
static void phases_of(const struct sb_train_opts *o, struct sb_ml_trainst *tr)
{
	tr->eval_ds = tr->ds;
	snprintf(tr->eval_ds.split, sizeof(tr->eval_ds.split), "valid");
	tr->eval_ds.files = o->num_files_eval;
	tr->eval_ds.seed = SB_ML_DATAGEN_SEED + 1;
	tr->train_ph = (struct sb_ml_phase){
		.ds = &tr->ds, .dir = tr->dir, .batch_size = o->batch_size,
		.compute = { .type = o->computation_time_type,
			     .mean = (double)o->computation_time_us / 1e6,
			     .stdev = (double)o->computation_time_stdev_us / 1e6,
			     .min = (double)o->computation_time_min_us / 1e6,
			     .max = (double)o->computation_time_max_us / 1e6,
			     .shape = o->computation_time_shape,
			     .scale = (double)o->computation_time_scale_us / 1e6 },
	};
	tr->eval_ph = (struct sb_ml_phase){
		.ds = &tr->eval_ds, .dir = tr->dir, .batch_size = o->batch_size_eval,
		.compute = { .type = SB_CTIME_NORMAL, .mean = (double)o->eval_time_us / 1e6,
			     .stdev = (double)o->eval_time_stdev_us / 1e6 },
	};
}

/* test hook: STORBENCH_TEST_SLOW_ACCELERATOR=C:SECONDS makes accelerator C
 * compute SECONDS longer per step (the step-barrier test) */
static void slow_hook(struct sb_ml_trainst *tr)
{
	const char *v = getenv("STORBENCH_TEST_SLOW_ACCELERATOR");
	unsigned c;
	double extra;
	tr->slow_acc = UINT_MAX;
	if (v && sscanf(v, "%u:%lf", &c, &extra) == 2 && extra > 0) {
		tr->slow_acc = c;
		tr->slow_extra_s = extra;
	}
}

static int alloc_state(const struct sb_train_opts *o, struct sb_ml_trainst *tr,
		       struct sb_ml_train_result *t)
{
	unsigned n = tr->consumers;
	t->epochs = calloc(o->epochs, sizeof(*t->epochs));
	tr->plan = calloc(n, sizeof(*tr->plan));
	tr->requested = calloc(n, sizeof(*tr->requested));
	tr->ready = calloc(n, sizeof(*tr->ready));
	tr->steps = calloc(n, sizeof(*tr->steps));
	tr->nsteps = calloc(n, sizeof(*tr->nsteps));
	tr->crng = calloc(n, sizeof(*tr->crng));
	if (!t->epochs || !tr->plan || !tr->requested || !tr->ready || !tr->steps || !tr->nsteps ||
	    !tr->crng)
		return -ENOMEM;
	for (unsigned c = 0; c < n; c++)
		sb_ml_rng_seed(&tr->crng[c], o->ml_seed * 7919u + c);
	return 0;
}

static int prepare_train(struct sb_wl_job *j)
{
	const struct sb_jobspec *s = j->spec;
	const struct sb_train_opts *o = sb_train_opts(s);
	if (sb_ml_res_make(j, &sb_train_figures))
		return -ENOMEM;
	struct sb_ml_trainst *tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	j->priv = tr;
	pthread_mutex_init(&tr->mu, NULL);
	pthread_cond_init(&tr->cv, NULL);
	dataset_of(o, &tr->ds);
	if (o->data_dir)
		snprintf(tr->dir, sizeof(tr->dir), "%s", o->data_dir);
	else
		sb_ml_default_dir(s, "data", tr->dir, sizeof(tr->dir));
	if (s->checkpoint_folder)
		snprintf(tr->ckpt_dir, sizeof(tr->ckpt_dir), "%s", s->checkpoint_folder);
	else
		sb_ml_default_dir(s, "checkpoints", tr->ckpt_dir, sizeof(tr->ckpt_dir));
	phases_of(o, tr);
	slow_hook(tr);
	tr->rt = o->read_threads;
	tr->consumers = o->accelerators;
	sb_ml_train_world(tr->consumers, &tr->a0, &tr->all); /* MPI: global ranks */
	tr->readers = tr->rt * tr->consumers;
	tr->prefetch = tr->rt ? (o->prefetch + tr->rt - 1) / tr->rt : 0;
	struct sb_ml_train_result *t = &sb_train_res(j)->train;
	sb_ml_join(t->data_dir, sizeof(t->data_dir), NULL, tr->dir);
	t->dataset_files = o->dataset_files;
	t->dataset_bytes = sb_ml_dataset_bytes(&tr->ds);
	t->steps_per_epoch = sb_ml_steps_per_epoch(o->dataset_files, o->samples_per_file,
						   o->batch_size, tr->all);
	t->accelerators = tr->consumers;
	t->read_threads = tr->rt;
	t->readers = tr->readers;
	t->prefetch_per_reader = tr->prefetch;
	if (alloc_state(o, tr, t))
		return -ENOMEM;
	uint64_t need = 0, need_eval = 0;
	int e = 0;
	if (!j->objects && !strncmp(tr->dir, "s3://", 5)) {
		sb_err(s->name, "data_dir=%s is on S3: set ioengine=s3 (HOWTO 4, \"Object storage\")", tr->dir);
		e = -EINVAL;
	} else if (j->objects && (!j->ops->object_size || !j->ops->object_put)) {
		sb_err(s->name, "workload=train on ioengine=%s: this engine names its objects per block (fio's "
		       "http engine) and cannot hold a dataset's files: use ioengine=s3", j->ops->name);
		e = -EINVAL;
	} else if (j->objects) {
		if (!(e = sb_ml_dataset_check_objects(s, j->ops, &tr->ds, tr->dir, &tr->nmissing, &need)) &&
		    o->do_eval)
			e = sb_ml_dataset_check_objects(s, j->ops, &tr->eval_ds, tr->dir, &tr->eval_missing,
							&need_eval);
	} else if (!j->nodiskio && !(e = sb_ml_dataset_check(s->name, &tr->ds, tr->dir, &tr->nmissing, &need)) &&
		   o->do_eval) {
		e = sb_ml_dataset_check(s->name, &tr->eval_ds, tr->dir, &tr->eval_missing, &need_eval);
	}
	if (!j->nodiskio && !j->objects && !e)
		e = sb_ml_dataset_space(s->name, tr->dir, need + need_eval);
	/* the readers (or the accelerators, read_threads=0), then the checkpoint
	 * writer when there is a checkpoint (a rate= cap is shared by all) */
	tr->ckpt_worker = tr->rt ? tr->readers : tr->consumers;
	bool ckpt = o->checkpoint_after_epoch && o->model_size;
	if (!e)
		e = sb_ml_workers_setup(j, tr->ckpt_worker + ckpt);
	if (!e && !(tr->fmtrd = calloc(j->nworkers, sizeof(*tr->fmtrd))))
		e = -ENOMEM;
	for (unsigned k = 0; !e && o->dataset_verify && k < tr->ckpt_worker; k++) {
		e = sb_ml_content_setup(&j->workers[k], k, SB_ML_DATASET_UNIT, false, true, ds_alt, tr);
		if (e)
			sb_err(s->name, "out of memory setting up dataset_verify");
	}
	if (!e && o->train_destination == SB_ML_MEM_GPU)
		e = sb_ml_gpu_attach(j, 0, tr->ckpt_worker, "train_destination=gpu");
	return e;
}

static void release_train(struct sb_wl_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	if (!tr)
		return;
	for (unsigned c = 0; c < tr->consumers; c++) {
		if (tr->plan)
			sb_ml_plan_free(&tr->plan[c]);
		if (tr->steps)
			free(tr->steps[c]);
		if (tr->ready)
			free(tr->ready[c]);
	}
	free(tr->plan);
	free(tr->requested);
	free(tr->ready);
	free(tr->steps);
	free(tr->nsteps);
	free(tr->crng);
	free(tr->fmtrd);
	free(tr->made);
	pthread_mutex_destroy(&tr->mu);
	pthread_cond_destroy(&tr->cv);
	free(tr);
	j->priv = NULL;
}

/* the folders the system inventory describes (run/workload.h) */
static unsigned folders_train(const struct sb_jobspec *s, const char **dirs, unsigned max)
{
	const struct sb_train_opts *o = sb_train_opts(s);
	const char *const f[] = { s->directory, s->checkpoint_folder, o ? o->data_dir : NULL };
	return sb_ml_folders(dirs, max, f, sizeof(f) / sizeof(f[0]));
}

const struct sb_workload_ops sb_workload_train = {
	.name = "train",
	.help = "DLIO-style training reads feeding emulated accelerators",
	.category = SB_CAT_TRAIN,
	.also = (const char *const[]){ "rules", "checkpoint_folder", "keep_checkpoints",
				       "checkpoint_fsync", NULL },
	.parse_flags = SB_PWL_MAKES_DATA,
	.rows = sb_train_rows,
	.nrows = &sb_train_rows_n,
	.opts_size = sizeof(struct sb_train_opts),
	.check = sb_ml_check_train,
	.gpu_mem = sb_ml_train_gpu_option,
	.folders = folders_train,
	.prepare = prepare_train,
	.run = run_train,
	.datagen = datagen_train,
	.results = sb_ml_job_results,
	.release = release_train,
	.ranks_merge = sb_train_ranks_merge,
	.conformance = &sb_train_conformance,
};
