/* ml/train/trainpipe.c: one phase of workload=train (a training epoch or an
 * eval pass) as DLIO's PyTorch loader runs it.  Every accelerator c (a
 * consumer thread, DLIO's rank c of `accelerators`) has its own shard of
 * the samples (sb_ml_plan_build, rank c) and its own pool of rt =
 * read_threads readers (a DataLoader per rank): reader k of accelerator c
 * reads batches k, k+rt, ... of c's plan whole, staying at most
 * rt * prefetch_per_reader batches ahead of what c has asked for, with
 * prefetch_per_reader = ceil(prefetch / rt) (DLIO's prefetch_factor;
 * prefetch=0: a batch is read only once asked for).  rt = 0: the
 * accelerator reads its own batches.  After each step's computation the
 * accelerators wait at a barrier (DLIO's comm.barrier() after every step),
 * so the slowest sets the pace; an accelerator whose shard is exhausted
 * leaves the barrier. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "ml/content.h"
#include "ml/train/dataset.h"
#include "ml/train/formats.h"
#include "ml/train/trainst.h"
#include "run/rate.h"
#include "lib/timeutil.h"

/* write_trace: a training step of consumer c, "step" (load start to
 * compute end) and "compute", argument the batch */
static void trace_step(struct sb_wl_job *j, unsigned c, size_t batch, const struct sb_ml_step *st)
{
	if (!j->spec->write_trace)
		return;
	uint64_t ls = (uint64_t)(st->load_start * 1e9), cs = (uint64_t)(st->compute_start * 1e9);
	uint64_t ce = (uint64_t)(st->compute_end * 1e9);
	sb_ml_trace_app(j, 1 + c, "step", "step", batch, ls, ce);
	sb_ml_trace_app(j, 1 + c, "compute", "step", batch, cs, ce);
}

struct role_arg {
	struct sb_wl_job *j;
	unsigned id;
	pthread_t tid;
	bool started;
};

static double now_s(void)
{
	return (double)sb_now_ns() / 1e9;
}

/* read every sample of batch b of accelerator c with worker t */
static int read_batch(struct sb_wl_job *j, struct sb_thread *t, unsigned c, size_t b)
{
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_ml_dataset *ds = tr->ph->ds;
	const struct sb_ml_plan *p = &tr->plan[c];
	struct sb_ml_fmtrd *rd = &tr->fmtrd[t - j->workers];
	char name[512], path[SB_ML_TRAIN_PATH];
	size_t n = sb_ml_plan_batch_len(p, b);
	for (size_t i = 0; i < n; i++) {
		uint32_t file, in_file;
		sb_ml_plan_sample(p, b, i, &file, &in_file);
		if (ds->fmt == SB_DSFMT_TFRECORD) /* streamed in file order; a shuffle is in memory */
			sb_ml_plan_stream_sample(p, b, i, &file, &in_file);
		sb_ml_file_name(ds, file, name, sizeof(name));
		sb_ml_join(path, sizeof(path), tr->ph->dir, name);
		sb_ml_content_file(t, sb_ml_dataset_key(ds, file), sb_ml_file_bytes(ds, file), path);
		int e = sb_ml_fmt_read(rd, t, ds, file, in_file, path);
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
	unsigned c = a->id / tr->rt, k = a->id % tr->rt;
	size_t ahead = (size_t)tr->rt * tr->prefetch;
	struct rusage ru;
	sb_ml_cpu_begin(&ru);
	if (sb_ml_engine_start(t))
		halt(tr); /* the loop sees tr->stop at once */
	for (size_t b = k; b < tr->plan[c].nbatches; b += tr->rt) {
		pthread_mutex_lock(&tr->mu);
		while (!tr->stop && b >= tr->requested[c] + ahead)
			pthread_cond_wait(&tr->cv, &tr->mu);
		bool stop = tr->stop;
		pthread_mutex_unlock(&tr->mu);
		if (stop)
			break;
		if (read_batch(a->j, t, c, b)) {
			halt(tr);
			break;
		}
		pthread_mutex_lock(&tr->mu);
		tr->ready[c][b] = true;
		pthread_cond_broadcast(&tr->cv);
		pthread_mutex_unlock(&tr->mu);
	}
	sb_thread_engine_stop(t);
	sb_ml_cpu_end(t, &ru);
	return NULL;
}

/* claim accelerator c's next batch and wait until it is read; false when
 * none is left (or max steps are done) */
static bool next_batch(struct sb_wl_job *j, unsigned c, size_t max_steps)
{
	struct sb_ml_trainst *tr = j->priv;
	pthread_mutex_lock(&tr->mu);
	size_t b = tr->requested[c];
	if (tr->stop || b >= tr->plan[c].nbatches || b >= max_steps || sb_stopping()) {
		pthread_mutex_unlock(&tr->mu);
		return false;
	}
	tr->requested[c]++;
	pthread_cond_broadcast(&tr->cv);
	while (tr->rt && !tr->ready[c][b] && !tr->stop)
		pthread_cond_wait(&tr->cv, &tr->mu);
	bool ok = !tr->stop;
	pthread_mutex_unlock(&tr->mu);
	if (ok && !tr->rt && read_batch(j, &j->workers[c], c, b)) {
		halt(tr);
		ok = false;
	}
	return ok;
}

/* the last accelerator in (mu held): under MPI the barrier across the
 * processes first (mu released meanwhile: the others wait for bar_gen), a
 * vote that stops every process's phase at the same step */
static void barrier_open(struct sb_ml_trainst *tr)
{
	tr->bar_arrived = 0;
	if (sb_dist_size() > 1) {
		bool stop = tr->stop || sb_stopping();
		pthread_mutex_unlock(&tr->mu);
		sb_dist_sync_vote(&stop);
		pthread_mutex_lock(&tr->mu);
		tr->bar_done++;
		tr->stop |= stop;
	}
	tr->bar_gen++;
	pthread_cond_broadcast(&tr->cv);
}

/* DLIO's comm.barrier() after a step: false when the phase is stopping */
static bool step_barrier(struct sb_ml_trainst *tr)
{
	pthread_mutex_lock(&tr->mu);
	unsigned gen = tr->bar_gen;
	if (++tr->bar_arrived >= tr->bar_active) {
		barrier_open(tr);
	} else {
		while (gen == tr->bar_gen && !tr->stop)
			pthread_cond_wait(&tr->cv, &tr->mu);
	}
	bool ok = !tr->stop;
	pthread_mutex_unlock(&tr->mu);
	return ok;
}

/* an accelerator without steps left no longer holds the others up */
static void barrier_leave(struct sb_ml_trainst *tr)
{
	pthread_mutex_lock(&tr->mu);
	tr->bar_active--;
	if (tr->bar_arrived && tr->bar_arrived >= tr->bar_active)
		barrier_open(tr);
	pthread_cond_broadcast(&tr->cv);
	pthread_mutex_unlock(&tr->mu);
}

struct consumer_arg {
	struct role_arg r;
	size_t max_steps;
	unsigned epoch;
};

static void *consumer_main(void *arg)
{
	struct consumer_arg *ca = arg;
	struct sb_wl_job *j = ca->r.j;
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_train_opts *o = sb_train_opts(j->spec);
	unsigned c = ca->r.id;
	double extra = c == tr->slow_acc ? tr->slow_extra_s : 0;
	struct rusage ru;
	if (!tr->rt) {
		sb_ml_cpu_begin(&ru);
		if (sb_ml_engine_start(&j->workers[c]))
			halt(tr);
	}
	for (;;) {
		struct sb_ml_step st;
		st.load_start = now_s();
		if (!next_batch(j, c, ca->max_steps))
			break;
		uint64_t t0 = sb_now_ns();
		st.compute_start = (double)t0 / 1e9;
		double ct = sb_ml_compute_draw(&tr->ph->compute, &tr->crng[c]) + extra;
		if (ct > 0 && !sb_sleep_until(t0 + (uint64_t)(ct * 1e9)))
			break;
		st.compute_end = now_s();
		tr->steps[c][tr->nsteps[c]++] = st;
		trace_step(j, c, tr->nsteps[c] - 1, &st); /* write_trace: step and compute events */
		if (!step_barrier(tr))
			break;
		uint64_t every = o->steps_between_checkpoints;
		if (c == 0 && !tr->a0 && every && tr->ph->ds == &tr->ds && o->checkpoint_after_epoch &&
		    ca->epoch >= o->checkpoint_after_epoch && tr->nsteps[c] % every == 0 &&
		    sb_ml_train_ckpt(j, ca->epoch, tr->nsteps[c])) {
			halt(tr);
			break;
		}
	}
	barrier_leave(tr);
	if (sb_stopping()) /* readers waiting for this consumer would wait for ever */
		halt(tr);
	if (!tr->rt) {
		sb_thread_engine_stop(&j->workers[c]);
		sb_ml_cpu_end(&j->workers[c], &ru);
	}
	return NULL;
}

static int phase_setup(struct sb_wl_job *j, const struct sb_ml_phase *ph, unsigned epoch)
{
	struct sb_ml_trainst *tr = j->priv;
	const struct sb_train_opts *o = sb_train_opts(j->spec);
	/* MPI: the most steps of any rank (global rank 0's: the largest shard) */
	uint64_t total = (uint64_t)ph->ds->files * ph->ds->samples_per_file, spp;
	spp = (total + tr->all - 1) / tr->all;
	tr->nsync = (size_t)((spp < total ? spp : total) / ph->batch_size);
	size_t steps = sb_ml_steps_per_epoch(ph->ds->files, ph->ds->samples_per_file, ph->batch_size, tr->all);
	tr->nsync = tr->nsync < steps ? tr->nsync : steps;
	tr->bar_done = 0;
	for (unsigned c = 0; c < tr->consumers; c++) {
		struct sb_ml_plan_cfg cfg = {
			.files = ph->ds->files, .samples_per_file = ph->ds->samples_per_file,
			.batch_size = ph->batch_size, .read_threads = tr->rt, .rank = tr->a0 + c,
			.ranks = tr->all, .epoch = epoch, .seed = o->ml_seed,
			.file_shuffle = o->shuffle & SB_SHUFFLE_FILE,
			.sample_shuffle = o->shuffle & SB_SHUFFLE_SAMPLE, .seed_change_epoch = true,
			.drop_last = true, .dlio = o->read_order == SB_ORDER_DLIO,
			.tfrecord = ph->ds->fmt == SB_DSFMT_TFRECORD, .subfolders = ph->ds->subfolders,
		};
		sb_ml_plan_free(&tr->plan[c]);
		int e = sb_ml_plan_build(&cfg, &tr->plan[c]);
		if (e)
			return e;
		size_t nb = tr->plan[c].nbatches ? tr->plan[c].nbatches : 1;
		free(tr->ready[c]);
		free(tr->steps[c]);
		tr->ready[c] = calloc(nb, sizeof(bool));
		tr->steps[c] = calloc(nb, sizeof(struct sb_ml_step));
		tr->nsteps[c] = 0;
		tr->requested[c] = 0;
		if (!tr->ready[c] || !tr->steps[c])
			return -ENOMEM;
	}
	tr->ph = ph;
	tr->stop = false;
	tr->bar_active = tr->consumers;
	tr->bar_arrived = 0;
	for (unsigned w = 0; w < j->nworkers; w++) {
		sb_ml_fmtrd_reset(&tr->fmtrd[w]);
		sb_rate_init(&j->workers[w].rate, j->workers[w].spec, sb_now_ns());
	}
	return 0;
}

int sb_ml_train_phase(struct sb_wl_job *j, const struct sb_ml_phase *ph, unsigned epoch,
		      size_t max_steps)
{
	struct sb_ml_trainst *tr = j->priv;
	unsigned nr = tr->readers, nc = tr->consumers;
	struct role_arg *rd = calloc(nr ? nr : 1, sizeof(*rd));
	struct consumer_arg *ca = calloc(nc, sizeof(*ca));
	int e = rd && ca ? phase_setup(j, ph, epoch) : -ENOMEM;
	for (unsigned i = 0; !e && i < nr + nc; i++) {
		struct role_arg *a = i < nr ? &rd[i] : &ca[i - nr].r;
		*a = (struct role_arg){ .j = j, .id = i < nr ? i : i - nr };
		if (i >= nr) {
			ca[i - nr].max_steps = max_steps;
			ca[i - nr].epoch = epoch;
		}
		a->started = !pthread_create(&a->tid, NULL, i < nr ? reader_main : consumer_main,
					     i < nr ? (void *)a : (void *)&ca[i - nr]);
		if (!a->started) {
			halt(tr);
			e = -EAGAIN;
		}
	}
	for (unsigned i = 0; rd && ca && i < nr + nc; i++) {
		struct role_arg *a = i < nr ? &rd[i] : &ca[i - nr].r;
		if (a->started)
			pthread_join(a->tid, NULL);
	}
	/* MPI: as many step barriers as every other process (this one stopped
	 * early, or had fewer steps) */
	size_t nsync = max_steps < tr->nsync ? max_steps : tr->nsync;
	for (; sb_dist_size() > 1 && tr->bar_done < nsync; tr->bar_done++) {
		bool stop = true;
		sb_dist_sync_vote(&stop);
	}
	free(rd);
	free(ca);
	return e ? e : tr->stop ? -EIO : 0;
}
