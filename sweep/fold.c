/* fold.c: a sweep's results (see sweep.h), pure functions of the
 * repetitions' results: each repetition is folded into its point as it ends
 * (its summary kept, its jobs merged into the point's, its own results
 * released), a finished point is summarized (bw/IOPS mean/min/max, clat
 * percentiles, score), and the best point is picked per direction. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/collect.h"
#include "sweep/sweep.h"

static double dir_value(const struct sb_sweep_dirsum *ds, unsigned metric)
{
	if (metric == SB_SWEEP_METRIC_IOPS)
		return ds->iops_mean;
	if (metric == SB_SWEEP_METRIC_CLAT_P99)
		return -(double)ds->clat_p99_ns;
	return ds->bw_mean;
}

/* one repetition, direction d: all jobs' bytes and I/Os over the slowest
 * job's runtime (DeepSpeed's GB/s: total bytes / slowest worker's time) */
static bool rep_dir(const struct sb_results *res, int d, double *bw, double *iops,
		    uint64_t *bytes)
{
	uint64_t ios = 0, slow = 0;
	*bytes = 0;
	for (size_t j = 0; j < res->njobs; j++) {
		const struct sb_tstats *st = &res->jobs[j].st;
		*bytes += st->io_bytes[d];
		ios += st->total_ios[d];
		if (st->runtime_ns[d] > slow)
			slow = st->runtime_ns[d];
	}
	if (!ios && !*bytes)
		return false;
	*bw = slow ? (double)*bytes * 1e9 / (double)slow : 0.0;
	*iops = slow ? (double)ios * 1e9 / (double)slow : 0.0;
	return true;
}

/* the clat of direction d over every job of res: stats and histogram (h is
 * released first; out of memory: what merged) */
static void jobs_clat(const struct sb_results *res, int d, struct sb_stat *clat, struct sb_shist *h)
{
	sb_stat_init(clat);
	sb_shist_free(h);
	for (size_t j = 0; j < res->njobs; j++) {
		(void)sb_shist_merge(h, &res->jobs[j].st.clat_h[d]);
		sb_stat_merge(clat, &res->jobs[j].st.clat[d]);
	}
}

/* the repetition's summary, from its full results */
static void rep_summary(struct sb_sweep_rep *rep, struct sb_shist *h)
{
	const struct sb_results *res = &rep->res;
	rep->dirs = 0;
	rep->error = 0;
	for (size_t j = 0; j < res->njobs && !rep->error; j++)
		rep->error = res->jobs[j].error;
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_sweep_repdir *rd = &rep->dir[d];
		struct sb_stat clat;
		memset(rd, 0, sizeof(*rd));
		if (!rep_dir(res, d, &rd->bw, &rd->iops, &rd->io_bytes))
			continue;
		rep->dirs |= 1u << d;
		jobs_clat(res, d, &clat, h);
		rd->clat_mean_ns = clat.n ? clat.mean : 0.0;
		rd->clat_p50_ns = h->n ? sb_shist_percentile(h, 50.0) : 0;
		rd->clat_p99_ns = h->n ? sb_shist_percentile(h, 99.0) : 0;
		rd->clat_p99_9_ns = h->n ? sb_shist_percentile(h, 99.9) : 0;
		for (size_t j = 0; j < res->njobs; j++)
			if (res->jobs[j].runtime_ms[d] > rd->runtime_ms)
				rd->runtime_ms = res->jobs[j].runtime_ms[d];
	}
}

/* at most max samples: neighbours merged, stride by stride */
static void thin_series(struct sb_job_result *j, unsigned max)
{
	unsigned stride, n = 0;
	if (j->nts <= max)
		return;
	stride = (j->nts + max - 1) / max;
	for (unsigned i = 0; i < j->nts; i += stride) {
		struct sb_ts_sample t = j->ts[i];
		for (unsigned k = i + 1; k < i + stride && k < j->nts; k++)
			sb_ts_merge(&t, &j->ts[k]);
		j->ts[n++] = t;
	}
	j->nts = n;
	struct sb_ts_sample *small = realloc(j->ts, n * sizeof(*small));
	if (small)
		j->ts = small;
}

/* m += r: one job, a later repetition of it.  Repetitions run one after
 * the other: runtimes add (bw and IOPS come out as totals over total
 * time), bw/iops samples merge as samples, CPU percentages are weighted by
 * runtime. */
static void merge_job(struct sb_job_result *m, const struct sb_job_result *r)
{
	struct sb_stat bw[SB_DDIR_N], iops[SB_DDIR_N];
	uint64_t run_ns[SB_DDIR_N];
	double wm = (double)m->job_runtime_ms, wr = (double)r->job_runtime_ms;
	for (int d = 0; d < SB_DDIR_N; d++) {
		bw[d] = m->st.bw_samples[d];
		iops[d] = m->st.iops_samples[d];
		run_ns[d] = m->st.runtime_ns[d] + r->st.runtime_ns[d];
	}
	(void)sb_tstats_merge(&m->st, &r->st); /* out of memory: histograms as they were */
	for (int d = 0; d < SB_DDIR_N; d++) {
		m->st.bw_samples[d] = bw[d];
		m->st.iops_samples[d] = iops[d];
		sb_stat_merge(&m->st.bw_samples[d], &r->st.bw_samples[d]);
		sb_stat_merge(&m->st.iops_samples[d], &r->st.iops_samples[d]);
		m->st.runtime_ns[d] = run_ns[d];
		m->runtime_ms[d] += r->runtime_ms[d];
	}
	if (wm + wr > 0) {
		m->usr_cpu = (m->usr_cpu * wm + r->usr_cpu * wr) / (wm + wr);
		m->sys_cpu = (m->sys_cpu * wm + r->sys_cpu * wr) / (wm + wr);
	}
	m->job_runtime_ms += r->job_runtime_ms;
	m->elapsed_s += r->elapsed_s;
	if (!m->error && r->error)
		m->error = r->error; /* its details: st.err, merged above */
	if (r->verify && !m->verify)
		m->verify = sb_verify_result_new(r->verify->type);
	if (r->verify && m->verify)
		(void)sb_verify_merge(m->verify, r->verify); /* out of memory: fewer kept in full */
}

int sb_sweep_fold_rep(struct sb_sweep_point_result *pr, struct sb_sweep_rep *rep)
{
	struct sb_results *res = &rep->res, *m = &pr->merged;
	struct sb_shist h = { 0 };
	rep_summary(rep, &h);
	sb_shist_free(&h);
	if (!m->jobs) {
		/* the first repetition's jobs become the point's */
		*m = *res;
		memset(res, 0, sizeof(*res));
		for (size_t j = 0; j < m->njobs; j++)
			thin_series(&m->jobs[j], SB_SWEEP_TS_MAX);
		struct sb_results rest = { .host = m->host, .interim = m->interim,
					   .ninterim = m->ninterim, .disks = m->disks };
		m->host = NULL;
		m->interim = NULL;
		m->ninterim = 0;
		m->disks = NULL;
		m->ndisks = 0;
		sb_results_free(&rest);
	} else {
		for (size_t j = 0; j < m->njobs && j < res->njobs; j++)
			merge_job(&m->jobs[j], &res->jobs[j]);
		m->interrupted |= res->interrupted;
		sb_results_free(res);
	}
	return sb_collect_groups(m);
}

void sb_sweep_summarize(struct sb_sweep_point_result *pr, unsigned metric)
{
	struct sb_shist hs = { 0 }, *h = &hs;
	pr->dirs = 0;
	pr->error = 0;
	pr->wall_ns = pr->io_ns = pr->sync_ns = 0;
	memset(pr->dir, 0, sizeof(pr->dir));
	for (unsigned r = 0; r < pr->nreps; r++) {
		const struct sb_sweep_rep *rep = &pr->reps[r];
		pr->wall_ns += rep->wall_ns;
		pr->io_ns += rep->io_ns;
		pr->sync_ns += rep->sync_ns;
		if (!pr->error)
			pr->error = rep->error;
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_sweep_dirsum *ds = &pr->dir[d];
		struct sb_stat clat;
		unsigned n = 0;
		for (unsigned r = 0; r < pr->nreps; r++) {
			const struct sb_sweep_repdir *rd = &pr->reps[r].dir[d];
			if (!(pr->reps[r].dirs & (1u << d)))
				continue;
			ds->io_bytes += rd->io_bytes;
			ds->bw_mean += rd->bw;
			ds->iops_mean += rd->iops;
			ds->bw_min = (!n || rd->bw < ds->bw_min) ? rd->bw : ds->bw_min;
			ds->bw_max = rd->bw > ds->bw_max ? rd->bw : ds->bw_max;
			ds->iops_min = (!n || rd->iops < ds->iops_min) ? rd->iops : ds->iops_min;
			ds->iops_max = rd->iops > ds->iops_max ? rd->iops : ds->iops_max;
			n++;
		}
		if (!n)
			continue;
		pr->dirs |= 1u << d;
		ds->io_bytes /= n;
		ds->bw_mean /= n;
		ds->iops_mean /= n;
		/* every repetition's completions: the merged jobs hold them all */
		jobs_clat(&pr->merged, d, &clat, h);
		ds->clat_mean_ns = clat.n ? clat.mean : 0.0;
		ds->clat_p50_ns = h->n ? sb_shist_percentile(h, 50.0) : 0;
		ds->clat_p99_ns = h->n ? sb_shist_percentile(h, 99.0) : 0;
	}
	sb_shist_free(h);
	/* the point's score: both directions' bw or IOPS together, or its
	 * worst p99 (negated: higher is better everywhere) */
	double score = 0.0;
	bool any = false;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (!(pr->dirs & (1u << d)))
			continue;
		double v = dir_value(&pr->dir[d], metric);
		if (metric == SB_SWEEP_METRIC_CLAT_P99)
			score = (!any || v < score) ? v : score;
		else
			score += v;
		any = true;
	}
	pr->score = any ? score : -INFINITY;
}

void sb_sweep_pick_best(struct sb_sweep_results *sr)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		sr->best[d] = -1;
		for (size_t i = 0; i < sr->ndone; i++) {
			const struct sb_sweep_point_result *p = &sr->points[i];
			if (p->error || !(p->dirs & (1u << d)))
				continue;
			if (sr->best[d] < 0 ||
			    dir_value(&p->dir[d], sr->metric) >
				    dir_value(&sr->points[sr->best[d]].dir[d], sr->metric))
				sr->best[d] = (long)i;
		}
	}
}

bool sb_sweep_had_errors(const struct sb_sweep_results *sr)
{
	for (size_t i = 0; i < sr->ndone; i++) {
		const struct sb_results *m = &sr->points[i].merged;
		if (sr->points[i].error)
			return true;
		for (size_t j = 0; j < m->njobs; j++)
			if (sb_verify_nfail(m->jobs[j].verify))
				return true;
	}
	return false;
}
