/* merge.c: a checkpoint job across MPI processes (ml/mpimerge.c shares
 * the start): its ranks_merge hook makes rank 0's result the whole run's
 * (a checkpoint's slowest time from the first start to the last end over
 * all processes, every process's ranks in per_rank, the rules on the
 * world), and its rules=mlperf report from its spec and result. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist/dist.h"
#include "lib/log.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/checkpoint/rules.h"
#include "lib/timeutil.h"
#include "parse/options.h"
#include "ml/checkpoint/opts.h"
#include "parse/mlshape.h"

void sb_ml_ckpt_rules(const struct sb_jobspec *s, struct sb_ckpt_job_result *m)
{
	bool named = s->ml_preset != NULL;  /* the parser resolved it: model= names a row */
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	struct sb_ml_shape sh = { .tp = s->shape.tp, .pp = s->shape.pp, .dp = s->shape.dp };
	struct sb_ml_ckpt_facts f = {
		.model = named ? s->ml_model : NULL, .shape_changed = sb_ckpt_shape_changed(s), .ranks = o->ranks,
		.world = sb_ml_world(&sh), .tp = sh.tp, .pp = sh.pp,
		.subset = o->subset, .want_writes = o->num_checkpoints_write,
		.want_reads = o->num_checkpoints_read, .writes = m->ckpt.write.n, .reads = m->ckpt.read.n,
		.fsync = s->checkpoint_fsync, .caches_dropped = m->ckpt.caches_dropped,
		.scale = o->checkpoint_scale,
		.io_known = true, .nodiskio = m->ml.nodiskio, .io_bytes = m->ml.io_bytes,
		.content_unique = o->checkpoint_content == SB_CKPT_CONTENT_UNIQUE,
	};
	m->ml.has_rules = sb_ml_rules_ckpt(&f, &m->ml.rules) == 0;
}

/* per_rank of every process at rank 0, in global rank order (process p's
 * block follows process p-1's): each process moves its ranks' start_s and
 * end_s from its own first start to the first start over all processes
 * (first[k], wall clock), pads its block to the largest block (rank
 * UINT_MAX) and rank 0 gathers them. */
static int merge_per_rank(struct sb_ml_ckpt_phase *ph, unsigned n, const uint64_t *first)
{
	uint64_t most = ph->v[0].nranks;
	if (sb_dist_reduce_u64(&most, 1, SB_DIST_MAX, true))
		return -EIO;
	size_t blk = (size_t)n * most, np = (size_t)sb_dist_size();
	struct sb_ml_ckpt_rank *mine = calloc(blk, sizeof(*mine)), *all = NULL;
	if (sb_dist_rank() == 0)
		all = calloc(blk * np, sizeof(*all));
	if (!mine || (sb_dist_rank() == 0 && !all))
		sb_dist_abort(SB_EXIT_IOERR); /* the others wait in the gather */
	for (unsigned k = 0; k < n; k++) {
		const struct sb_ml_ckpt_point *p = &ph->v[k];
		double off = p->first_wall_ns > first[k] ? (double)(p->first_wall_ns - first[k]) / 1e9 : 0;
		for (size_t l = 0; l < most; l++) {
			struct sb_ml_ckpt_rank *x = &mine[k * most + l];
			if (l >= p->nranks) {
				x->rank = UINT_MAX;
				continue;
			}
			*x = p->per_rank[l];
			x->start_s += off;
			x->end_s += off;
		}
	}
	int e = sb_dist_gather(mine, blk * sizeof(*mine), all) ? -EIO : 0;
	free(mine);
	if (e || sb_dist_rank() != 0) {
		free(all);
		return e;
	}
	size_t tot = 0; /* ranks over all processes (the same in every point) */
	for (size_t i = 0; i < np * most; i++)
		tot += all[(i / most) * blk + i % most].rank != UINT_MAX;
	struct sb_ml_ckpt_rank *v = calloc((size_t)n * tot + 1, sizeof(*v)), *o = v;
	if (!v) {
		free(all);
		return -ENOMEM;
	}
	for (unsigned k = 0; k < n; k++) {
		ph->v[k].per_rank = o;
		for (size_t q = 0; q < np; q++)
			for (size_t l = 0; l < most; l++)
				if (all[q * blk + k * most + l].rank != UINT_MAX)
					*o++ = all[q * blk + k * most + l];
		ph->v[k].nranks = (unsigned)(o - ph->v[k].per_rank);
	}
	free(all);
	free(ph->ranks);
	ph->ranks = v;
	return 0;
}

static int merge_phase(struct sb_ml_ckpt_phase *ph, uint64_t bytes, bool rank_sync)
{
	uint64_t n = ph->n;
	if (sb_dist_reduce_u64(&n, 1, SB_DIST_MIN, true))
		return -EIO;
	if (!n) {
		ph->n = 0;
		return 0;
	}
	uint64_t *lo = calloc(2 * n, sizeof(*lo)), *hi = lo ? lo + n : NULL;
	double *r0 = calloc(n, sizeof(*r0));
	if (!lo || !r0)
		sb_dist_abort(SB_EXIT_IOERR); /* the others wait in the reduction */
	for (uint64_t k = 0; k < n; k++) {
		lo[k] = ph->v[k].first_wall_ns;
		hi[k] = ph->v[k].last_wall_ns;
		r0[k] = ph->v[k].rank0_s;
	}
	int e = sb_dist_reduce_u64(lo, n, SB_DIST_MIN, true) || sb_dist_reduce_u64(hi, n, SB_DIST_MAX, false) ||
		sb_dist_reduce_double(r0, n, SB_DIST_MAX, false) ? -EIO : 0;
	if (!e) /* lo: every process's, the first start over all */
		e = merge_per_rank(ph, (unsigned)n, lo);
	if (!e && sb_dist_rank() == 0) {
		ph->n = (unsigned)n;
		ph->mean_duration_s = ph->mean_gbps = ph->mean_gibps = 0;
		for (unsigned k = 0; k < ph->n; k++) {
			struct sb_ml_ckpt_point *p = &ph->v[k];
			p->first_wall_ns = lo[k];
			p->last_wall_ns = hi[k];
			p->slowest_s = hi[k] > lo[k] ? (double)(hi[k] - lo[k]) / 1e9 : 0;
			p->rank0_s = r0[k];
			p->duration_s = rank_sync ? p->slowest_s : p->rank0_s;
			p->gbps = p->duration_s > 0 ? (double)bytes / p->duration_s / 1e9 : 0;
			p->gibps = p->duration_s > 0 ? (double)bytes / p->duration_s / 1073741824.0 : 0;
			ph->mean_duration_s += (p->duration_s - ph->mean_duration_s) / (k + 1);
			ph->mean_gbps += (p->gbps - ph->mean_gbps) / (k + 1);
			ph->mean_gibps += (p->gibps - ph->mean_gibps) / (k + 1);
		}
	}
	free(lo);
	free(r0);
	return e;
}

static int merge_ckpt(const struct sb_jobspec *s, struct sb_ckpt_job_result *m)
{
	struct sb_ml_ckpt_result *cr = &m->ckpt;
	uint64_t bytes = cr->bytes_model + cr->bytes_optimizer;
	uint64_t dropped = cr->caches_dropped, cached = cr->possibly_cached;
	double fs = cr->fsync_s;
	int e = merge_phase(&cr->write, bytes, cr->rank_sync);
	if (!e)
		e = merge_phase(&cr->read, bytes, cr->rank_sync);
	uint64_t iob = m->ml.io_bytes; /* the rules' storage_io: all ranks' bytes */
	if (!e && (sb_dist_reduce_u64(&iob, 1, SB_DIST_SUM, false) ||
		   sb_dist_reduce_u64(&dropped, 1, SB_DIST_MIN, false) ||
		   sb_dist_reduce_u64(&cached, 1, SB_DIST_MAX, false) ||
		   sb_dist_reduce_double(&fs, 1, SB_DIST_SUM, false)))
		e = -EIO;
	if (e || sb_dist_rank() != 0)
		return e;
	cr->fsync_s = fs;
	m->ml.io_bytes = iob;
	if (cr->caches_dropped && !dropped)
		snprintf(cr->caches_reason, sizeof(cr->caches_reason), "not dropped on every host");
	cr->caches_dropped = dropped != 0;
	cr->possibly_cached = cached != 0;
	if (s->rules == SB_RULES_MLPERF)
		sb_ml_ckpt_rules(s, m);
	return 0;
}

int sb_ckpt_ranks_merge(struct sb_job_result *jr)
{
	int e = sb_ml_ranks_begin(jr);
	struct sb_ml_result *m = sb_ml_result_mine(jr->wl, &sb_ckpt_figures);
	return e <= 0 ? e : m ? merge_ckpt(jr->spec, (struct sb_ckpt_job_result *)m) : -EINVAL;
}

void sb_ml_ckpt_local(unsigned ranks, unsigned *r0, unsigned *n)
{
	uint64_t p = (uint64_t)sb_dist_rank(), np = (uint64_t)sb_dist_size();
	*r0 = (unsigned)(ranks * p / np);
	*n = (unsigned)(ranks * (p + 1) / np) - *r0;
}

int sb_ml_ckpt_enough(const struct sb_jobspec *s, unsigned ranks)
{
	const struct sb_ckpt_opts *o = sb_ckpt_opts(s);
	if (o->checkpoint_cache_folder && sb_dist_size() > 1) { /* ml/checkpoint/tiered.c: one process's ranks */
		if (sb_dist_rank() == 0) {
			char w[512];
			if (s->line && s->file)
				snprintf(w, sizeof(w), "%s:%u: job %s", s->file, s->line, s->name);
			else
				snprintf(w, sizeof(w), "<cmdline>: job %s", s->name);
			sb_err(w, "%s=%s: tiered checkpoints run in one process, not under %d MPI "
			       "processes: run it without mpirun (ranks= are threads), or remove %s=",
			       SB_CKPT_OPT(checkpoint_cache_folder)->name, o->checkpoint_cache_folder,
			       sb_dist_size(), SB_CKPT_OPT(checkpoint_cache_folder)->name);
		}
		return -EINVAL;
	}
	if (ranks >= (unsigned)sb_dist_size())
		return 0;
	if (sb_dist_rank() == 0)
		sb_err(s->name, "%s=%u ranks for %d MPI processes: every process runs at least one rank; "
		       "start at most %u processes (mpirun -np %u), or raise %s (with subset)",
		       SB_CKPT_OPT(ranks)->name, ranks, sb_dist_size(), ranks, ranks,
		       SB_CKPT_OPT(ranks)->name);
	return -EINVAL;
}

void sb_ml_ckpt_wall(uint64_t first, uint64_t last, uint64_t wall[2])
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t now = sb_now_ns(), w = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	wall[0] = first <= now ? w - (now - first) : w;
	wall[1] = last <= now ? w - (now - last) : w;
}
