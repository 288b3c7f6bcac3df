/* ml_trainrun.c: workload=train, DLIO's training loop.  Per epoch, the
 * batch plan (ml_train.h) says which samples form batch b; reader r
 * (read_threads of them) reads batches r, r+R, ... whole, sample by sample,
 * with the job's engine and bs, staying at most prefetch batches per reader
 * ahead of what the accelerators have asked for (torch's prefetch_factor;
 * prefetch=0: a batch is read only once asked for).  `accelerators`
 * consumer threads take batches in order, each spending computation_time
 * (+ a normal draw of computation_time_stdev) asleep on it, and record per
 * step load_start / compute_start / compute_end.  AU and throughput per
 * epoch come from sb_ml_au_block / sb_ml_au_combine (ml_au.h).
 * read_threads=0: each accelerator reads its own batches.
 *
 * The dataset (ml_train.h layout and sizes; ml/dataset.c) is created when missing and
 * kept; a file of the wrong size stops the job before any I/O (storbench
 * never deletes a dataset it finds). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ml/au.h"
#include "ml/content.h"
#include "ml/dataset.h"
#include "ml/formats.h"
#include "ml/rules.h"
#include "ml/run.h"
#include "ml/train.h"
#include "parse/catalog.h"
#include "run/rate.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/scratch.h"

#define PATH_LEN 1024

struct sb_ml_trainst {
	struct sb_ml_dataset ds;
	char dir[PATH_LEN - 256];
	unsigned nmissing;
	unsigned readers, consumers;
	/* one epoch's pipeline, under mu */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct sb_ml_plan plan;
	size_t requested;           /* batches claimed by consumers */
	bool *ready;                /* per batch: read */
	bool stop;
	struct sb_ml_step **steps;  /* per consumer */
	size_t *nsteps;
	struct sb_ml_rng *crng;     /* per consumer: computation-time jitter */
	struct sb_ml_fmtrd *fmtrd;  /* per worker: its format reader's state */
};

struct role_arg {
	struct sb_ml_job *j;
	unsigned id;
	pthread_t tid;
	bool started;
};

static double now_s(void)
{
	return (double)sb_now_ns() / 1e9;
}

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

/* read every sample of batch b with worker t, as the format's reader does
 * (ml/formats.h) */
static int read_batch(struct sb_ml_job *j, struct sb_thread *t, size_t b)
{
	struct sb_ml_trainst *tr = j->priv;
	struct sb_ml_fmtrd *rd = &tr->fmtrd[t - j->workers];
	char name[512], path[PATH_LEN];
	size_t n = sb_ml_plan_batch_len(&tr->plan, b);
	for (size_t i = 0; i < n; i++) {
		uint32_t file, in_file;
		sb_ml_plan_sample(&tr->plan, b, i, &file, &in_file);
		if (tr->ds.fmt == SB_DSFMT_TFRECORD) /* streamed in file order; a shuffle is in memory */
			sb_ml_plan_stream_sample(&tr->plan, b, i, &file, &in_file);
		sb_ml_file_name(&tr->ds, file, name, sizeof(name));
		sb_ml_join(path, sizeof(path), tr->dir, name);
		sb_ml_content_file(t, sb_ml_dataset_key(&tr->ds, file), sb_ml_file_bytes(&tr->ds, file), path);
		int e = sb_ml_fmt_read(rd, t, &tr->ds, file, in_file, path);
		if (e)
			return e;
	}
	return 0;
}

static void halt(struct sb_ml_trainst *tr)
{
	pthread_mutex_lock(&tr->mu);
	tr->stop = true;
	pthread_cond_broadcast(&tr->cv);
	pthread_mutex_unlock(&tr->mu);
}

static void *reader_main(void *arg)
{
	struct role_arg *a = arg;
	struct sb_ml_trainst *tr = a->j->priv;
	struct sb_thread *t = &a->j->workers[a->id];
	size_t ahead = (size_t)tr->readers * a->j->spec->prefetch;
	struct rusage ru;
	sb_ml_cpu_begin(&ru);
	if (sb_ml_engine_start(t))
		halt(tr); /* the loop sees tr->stop at once */
	for (size_t b = a->id; b < tr->plan.nbatches; b += tr->readers) {
		pthread_mutex_lock(&tr->mu);
		while (!tr->stop && b >= tr->requested + ahead)
			pthread_cond_wait(&tr->cv, &tr->mu);
		bool stop = tr->stop;
		pthread_mutex_unlock(&tr->mu);
		if (stop)
			break;
		if (read_batch(a->j, t, b)) {
			halt(tr);
			break;
		}
		pthread_mutex_lock(&tr->mu);
		tr->ready[b] = true;
		pthread_cond_broadcast(&tr->cv);
		pthread_mutex_unlock(&tr->mu);
	}
	sb_thread_engine_stop(t);
	sb_ml_cpu_end(t, &ru);
	return NULL;
}

/* claim the next batch and wait until it is read; false when none is left */
static bool next_batch(struct sb_ml_job *j, unsigned c, size_t *bout)
{
	struct sb_ml_trainst *tr = j->priv;
	pthread_mutex_lock(&tr->mu);
	if (tr->stop || tr->requested >= tr->plan.nbatches || sb_run_stopping()) {
		pthread_mutex_unlock(&tr->mu);
		return false;
	}
	size_t b = tr->requested++;
	pthread_cond_broadcast(&tr->cv);
	while (tr->readers && !tr->ready[b] && !tr->stop)
		pthread_cond_wait(&tr->cv, &tr->mu);
	bool ok = !tr->stop;
	pthread_mutex_unlock(&tr->mu);
	if (ok && !tr->readers && read_batch(j, &j->workers[c], b)) {
		halt(tr);
		ok = false;
	}
	*bout = b;
	return ok;
}

static void *consumer_main(void *arg)
{
	struct role_arg *a = arg;
	struct sb_ml_job *j = a->j;
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_jobspec *s = j->spec;
	double mean = (double)s->computation_time_us / 1e6, sd = (double)s->computation_time_stdev_us / 1e6;
	struct rusage ru;
	size_t b;
	if (!tr->readers) {
		sb_ml_cpu_begin(&ru);
		if (sb_ml_engine_start(&j->workers[a->id]))
			halt(tr);
	}
	for (;;) {
		struct sb_ml_step st;
		st.load_start = now_s();
		if (!next_batch(j, a->id, &b))
			break;
		uint64_t t0 = sb_now_ns();
		st.compute_start = (double)t0 / 1e9;
		double ct = mean + (sd > 0 ? sd * sb_ml_rng_normal(&tr->crng[a->id]) : 0);
		if (ct > 0 && !sb_sleep_until(t0 + (uint64_t)(ct * 1e9)))
			break;
		st.compute_end = now_s();
		tr->steps[a->id][tr->nsteps[a->id]++] = st;
	}
	if (sb_run_stopping()) /* readers waiting for this consumer would wait for ever */
		halt(tr);
	if (!tr->readers) {
		sb_thread_engine_stop(&j->workers[a->id]);
		sb_ml_cpu_end(&j->workers[a->id], &ru);
	}
	return NULL;
}

static int epoch_setup(struct sb_ml_job *j, unsigned epoch)
{
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_jobspec *s = j->spec;
	struct sb_ml_plan_cfg cfg = {
		.files = s->dataset_files, .samples_per_file = s->samples_per_file,
		.batch_size = s->batch_size, .read_threads = tr->readers, .rank = 0, .ranks = 1,
		.epoch = epoch, .seed = s->ml_seed, .file_shuffle = s->shuffle & SB_SHUFFLE_FILE,
		.sample_shuffle = s->shuffle & SB_SHUFFLE_SAMPLE, .seed_change_epoch = true,
		.drop_last = true,
	};
	sb_ml_plan_free(&tr->plan);
	int e = sb_ml_plan_build(&cfg, &tr->plan);
	if (e)
		return e;
	free(tr->ready);
	tr->ready = calloc(tr->plan.nbatches ? tr->plan.nbatches : 1, sizeof(bool));
	if (!tr->ready)
		return -ENOMEM;
	for (unsigned c = 0; c < tr->consumers; c++) {
		free(tr->steps[c]);
		tr->steps[c] = calloc(tr->plan.nbatches ? tr->plan.nbatches : 1, sizeof(struct sb_ml_step));
		tr->nsteps[c] = 0;
		if (!tr->steps[c])
			return -ENOMEM;
	}
	tr->requested = 0;
	tr->stop = false;
	for (unsigned w = 0; w < j->nworkers; w++)
		sb_ml_fmtrd_reset(&tr->fmtrd[w]);
	for (unsigned w = 0; w < j->nworkers; w++)
		sb_rate_init(&j->workers[w].rate, j->workers[w].spec, sb_now_ns());
	return 0;
}

static void epoch_metrics(struct sb_ml_job *j, unsigned epoch, double dur)
{
	struct sb_ml_trainst *tr = j->priv;
	struct sb_ml_train_result *res = &j->res->train;
	struct sb_ml_au *au = calloc(tr->consumers ? tr->consumers : 1, sizeof(*au));
	size_t n = 0, steps = 0;
	if (!au)
		return;
	for (unsigned c = 0; c < tr->consumers; c++) {
		const struct sb_ml_step *st = tr->steps[c];
		size_t k = tr->nsteps[c];
		steps += k;
		if (k && !sb_ml_au_block(st, k, st[0].load_start, st[k - 1].compute_end,
					 SB_ML_EXCLUDE_START, SB_ML_EXCLUDE_END, j->spec->batch_size,
					 &au[n]))
			n++;
	}
	struct sb_ml_train_metrics m;
	sb_ml_au_combine(au, n, j->spec->record_length, &m);
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
}

/* one epoch: readers and consumers started together, then joined */
static int run_epoch(struct sb_ml_job *j, unsigned epoch, struct role_arg *args)
{
	struct sb_ml_trainst *tr = j->priv;
	unsigned nr = tr->readers, nc = tr->consumers;
	int e = epoch_setup(j, epoch);
	if (e)
		return e;
	uint64_t t0 = sb_now_ns();
	for (unsigned i = 0; i < nr + nc; i++) {
		args[i] = (struct role_arg){ .j = j, .id = i < nr ? i : i - nr };
		args[i].started = !pthread_create(&args[i].tid, NULL, i < nr ? reader_main : consumer_main,
						  &args[i]);
		if (!args[i].started) {
			halt(tr);
			e = -EAGAIN;
		}
	}
	for (unsigned i = 0; i < nr + nc; i++)
		if (args[i].started)
			pthread_join(args[i].tid, NULL);
	for (unsigned w = 0; w < j->nworkers; w++)
		if (j->workers[w].st->error)
			e = -j->workers[w].st->error;
	if (!e)
		epoch_metrics(j, epoch, (double)(sb_now_ns() - t0) / 1e9);
	return e ? e : tr->stop ? -EIO : 0;
}

static void train_rules(struct sb_ml_job *j)
{
	const struct sb_jobspec *s = j->spec;
	struct sb_ml_train_result *t = &j->res->train;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	struct sb_ml_train_facts f;
	sb_ml_train_facts_of(s, pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0, &f);
	f.au_measured = t->nepochs > 0;
	f.au_pct = t->au_pct;
	j->res->has_rules = sb_ml_rules_train(&f, &j->res->rules) == 0;
}

static void train_results(struct sb_ml_job *j)
{
	struct sb_ml_train_result *t = &j->res->train;
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
	t->au_target_pct = j->spec->au_target_pct;
	t->au_met = t->nepochs && t->au_pct >= t->au_target_pct;
	if (j->spec->rules == SB_RULES_MLPERF)
		train_rules(j);
}

/* the missing dataset files (ml/dataset.c), before the first epoch and for --datagen */
static int datagen_train(struct sb_ml_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	if (j->nodiskio || !tr->nmissing)
		return 0;
	int e = sb_ml_dataset_create(&j->wspec, j->spec->name, &tr->ds, tr->dir);
	if (!e) {
		j->res->train.dataset_created = true;
		tr->nmissing = 0;
	}
	return e;
}

static void run_train(struct sb_ml_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	unsigned n = tr->readers + tr->consumers;
	struct role_arg *args = calloc(n, sizeof(*args));
	uint64_t rsum = 0;
	int e = args ? datagen_train(j) : -ENOMEM;
	if (e && e != -ENOMEM && e != -EINTR)
		sb_ml_fail(&j->workers[0], -e, "cannot create the dataset in", tr->dir);
	j->start_ns = sb_now_ns();
	for (unsigned ep = 1; !e && ep <= j->spec->epochs && !sb_run_stopping(); ep++) {
		e = run_epoch(j, ep, args);
		if (!e && j->res->train.nepochs)
			rsum += (uint64_t)(j->res->train.epochs[j->res->train.nepochs - 1].duration_s * 1e9);
	}
	j->end_ns = sb_now_ns();
	free(args);
	for (unsigned w = 0; w < j->nworkers; w++) {
		j->workers[w].st->runtime_ns[SB_DDIR_READ] = rsum;
		j->workers[w].st->job_runtime_ns = j->end_ns - j->start_ns;
	}
	train_results(j);
}

static int prepare_train(struct sb_ml_job *j)
{
	const struct sb_jobspec *s = j->spec;
	struct sb_ml_trainst *tr = calloc(1, sizeof(*tr));
	const struct sb_train_preset *w = s->train_preset;  /* resolved by the parser */
	if (!tr)
		return -ENOMEM;
	j->priv = tr;
	pthread_mutex_init(&tr->mu, NULL);
	pthread_cond_init(&tr->cv, NULL);
	tr->ds.fmt = s->dataset_format;
	snprintf(tr->ds.format, sizeof(tr->ds.format), "%s", sb_ml_fmt_ext(s->dataset_format, w ? w->format : "npz"));
	snprintf(tr->ds.prefix, sizeof(tr->ds.prefix), "%s", w ? w->prefix : "img");
	tr->ds.files = s->dataset_files;
	tr->ds.samples_per_file = s->samples_per_file;
	tr->ds.record_length = s->record_length;
	tr->ds.record_stdev = s->record_length_stdev;
	tr->ds.subfolders = s->subfolders;
	tr->ds.seed = SB_ML_DATAGEN_SEED;
	if (s->data_dir)
		snprintf(tr->dir, sizeof(tr->dir), "%s", s->data_dir);
	else
		sb_ml_default_dir(s, "data", tr->dir, sizeof(tr->dir));
	tr->readers = s->read_threads;
	tr->consumers = s->accelerators;
	struct sb_ml_train_result *t = &j->res->train;
	sb_ml_join(t->data_dir, sizeof(t->data_dir), NULL, tr->dir);
	t->dataset_files = s->dataset_files;
	t->dataset_bytes = sb_ml_dataset_bytes(&tr->ds);
	t->steps_per_epoch = sb_ml_steps_per_epoch(s->dataset_files, s->samples_per_file,
						   s->batch_size, s->accelerators);
	t->epochs = calloc(s->epochs, sizeof(*t->epochs));
	tr->steps = calloc(tr->consumers, sizeof(*tr->steps));
	tr->nsteps = calloc(tr->consumers, sizeof(*tr->nsteps));
	tr->crng = calloc(tr->consumers, sizeof(*tr->crng));
	if (!t->epochs || !tr->steps || !tr->nsteps || !tr->crng)
		return -ENOMEM;
	for (unsigned c = 0; c < tr->consumers; c++)
		sb_ml_rng_seed(&tr->crng[c], s->ml_seed * 7919u + c);
	uint64_t need = 0;
	int e = 0;
	if (!j->nodiskio && !(e = sb_ml_dataset_check(s->name, &tr->ds, tr->dir, &tr->nmissing, &need)))
		e = sb_ml_dataset_space(s->name, tr->dir, need);
	if (!e)
		e = sb_ml_workers_setup(j, tr->readers ? tr->readers : tr->consumers);
	if (!e && !(tr->fmtrd = calloc(j->nworkers, sizeof(*tr->fmtrd))))
		e = -ENOMEM;
	for (unsigned k = 0; !e && s->dataset_verify && k < j->nworkers; k++) {
		e = sb_ml_content_setup(&j->workers[k], k, SB_ML_DATASET_UNIT, false, true, ds_alt, tr);
		if (e)
			sb_err(s->name, "out of memory setting up dataset_verify");
	}
	return e;
}

static void release_train(struct sb_ml_job *j)
{
	struct sb_ml_trainst *tr = j->priv;
	if (!tr)
		return;
	sb_ml_plan_free(&tr->plan);
	for (unsigned c = 0; tr->steps && c < tr->consumers; c++)
		free(tr->steps[c]);
	free(tr->steps);
	free(tr->nsteps);
	free(tr->crng);
	free(tr->fmtrd);
	free(tr->ready);
	pthread_mutex_destroy(&tr->mu);
	pthread_cond_destroy(&tr->cv);
	free(tr);
	j->priv = NULL;
}

const struct sb_workload_ops sb_workload_train = {
	.name = "train",
	.id = SB_WL_TRAIN,
	.prepare = prepare_train,
	.run = run_train,
	.datagen = datagen_train,
	.results = sb_ml_job_results,
	.release = release_train,
};
