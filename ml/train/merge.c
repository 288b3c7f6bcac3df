/* merge.c: a train job across MPI processes (ml/mpimerge.c shares the
 * start): its ranks_merge hook makes rank 0's result the whole run's (an
 * epoch's AU the mean over the processes, samples/s and MB/s the sums,
 * steps the sum, durations the longest), and its rules=mlperf report
 * judged on the world (hosts, the largest memory of a host). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "dist/dist.h"
#include "lib/log.h"
#include "ml/train/rules.h"
#include "ml/train/trainst.h"

void sb_ml_train_rules(const struct sb_jobspec *s, struct sb_train_job_result *m, unsigned hosts,
		       uint64_t host_mem_bytes)
{
	struct sb_ml_train_facts f;
	struct sb_ml_override ov[SB_ML_OVERRIDES_MAX];
	unsigned a0, all;
	sb_ml_train_facts_of(s, host_mem_bytes, &f);
	f.ov = ov;
	f.nov = sb_ml_train_overrides(s, ov, SB_ML_OVERRIDES_MAX);
	f.io_known = true;
	f.nodiskio = m->ml.nodiskio;
	f.io_bytes = m->ml.io_bytes;
	sb_ml_train_world(sb_train_opts(s)->accelerators, &a0, &all);
	f.accelerators = all;
	f.hosts = hosts;
	f.au_measured = m->train.nepochs > 0;
	f.au_pct = m->train.au_pct;
	m->ml.has_rules = sb_ml_rules_train(&f, &m->ml.rules) == 0;
}

/* per epoch: sums, maxima and a minimum over the processes */
enum { E_STEPS, E_AU, E_SPS, E_MBPS, E_SUMS, E_DUR = 0, E_SMAX, E_EVDUR, E_EVSTEPS, E_MAXES };

static int merge_train(const struct sb_jobspec *s, struct sb_train_job_result *m)
{
	struct sb_ml_train_result *t = &m->train;
	uint64_t n = t->nepochs, cnt[3] = { t->accelerators, t->readers, t->readers_did_io };
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
	if (sb_dist_reduce_u64(&n, 1, SB_DIST_MIN, true) || sb_dist_reduce_u64(cnt, 3, SB_DIST_SUM, false) ||
	    sb_dist_reduce_u64(&mem, 1, SB_DIST_MAX, false))
		return -EIO;
	double *sum = calloc((size_t)(n ? n : 1) * (E_SUMS + E_MAXES + 1), sizeof(double));
	if (!sum)
		sb_dist_abort(SB_EXIT_IOERR);
	double *mx = sum + n * E_SUMS, *mn = mx + n * E_MAXES;
	for (uint64_t k = 0; k < n; k++) {
		const struct sb_ml_epoch_result *ep = &t->epochs[k];
		double *a = sum + k * E_SUMS, *b = mx + k * E_MAXES;
		a[E_STEPS] = (double)ep->steps;
		a[E_AU] = ep->au_pct;
		a[E_SPS] = ep->samples_per_s;
		a[E_MBPS] = ep->mb_per_s;
		b[E_EVSTEPS] = (double)ep->eval_steps; /* per accelerator */
		b[E_DUR] = ep->duration_s;
		b[E_SMAX] = ep->step_s_max;
		b[E_EVDUR] = ep->eval_duration_s;
		mn[k] = ep->step_s_min > 0 ? ep->step_s_min : INFINITY;
	}
	int e = n && (sb_dist_reduce_double(sum, n * E_SUMS, SB_DIST_SUM, false) ||
		      sb_dist_reduce_double(mx, n * E_MAXES, SB_DIST_MAX, false) ||
		      sb_dist_reduce_double(mn, n, SB_DIST_MIN, false)) ? -EIO : 0;
	uint64_t iob = m->ml.io_bytes; /* the rules' storage_io: all processes' bytes */
	if (!e && sb_dist_reduce_u64(&iob, 1, SB_DIST_SUM, false))
		e = -EIO;
	if (!e && sb_dist_rank() == 0) {
		m->ml.io_bytes = iob;
		double procs = (double)sb_dist_size();
		struct sb_ml_train_metrics ep[n ? n : 1], mean;
		t->nepochs = (unsigned)n;
		for (uint64_t k = 0; k < n; k++) {
			struct sb_ml_epoch_result *r = &t->epochs[k];
			const double *a = sum + k * E_SUMS, *b = mx + k * E_MAXES;
			r->steps = (size_t)a[E_STEPS];
			r->au_pct = a[E_AU] / procs;
			r->samples_per_s = a[E_SPS];
			r->mb_per_s = a[E_MBPS];
			r->eval_steps = (size_t)b[E_EVSTEPS];
			r->duration_s = b[E_DUR];
			r->step_s_max = b[E_SMAX];
			r->eval_duration_s = b[E_EVDUR];
			r->step_s_min = isinf(mn[k]) ? 0 : mn[k];
			ep[k] = (struct sb_ml_train_metrics){ r->au_pct, r->samples_per_s, r->mb_per_s };
		}
		sb_ml_au_epochs_mean(ep, (size_t)n, &mean);
		t->au_pct = mean.au_pct;
		t->samples_per_s = mean.samples_per_s;
		t->mb_per_s = mean.mb_per_s;
		t->au_met = t->nepochs && t->au_pct >= t->au_target_pct;
		t->accelerators = (unsigned)cnt[0];
		t->readers = (unsigned)cnt[1];
		t->readers_did_io = (unsigned)cnt[2];
		if (s->rules == SB_RULES_MLPERF)
			sb_ml_train_rules(s, m, (unsigned)sb_dist_nhosts(), mem);
	}
	free(sum);
	return e;
}

int sb_train_ranks_merge(struct sb_job_result *jr)
{
	int e = sb_ml_ranks_begin(jr);
	struct sb_ml_result *m = sb_ml_result_mine(jr->wl, &sb_train_figures);
	return e <= 0 ? e : m ? merge_train(jr->spec, (struct sb_train_job_result *)m) : -EINVAL;
}
