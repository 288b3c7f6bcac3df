/* collect.c: job and group results from the job threads (see collect.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/collect.h"

/* ms, rounded; at least 1 for a phase that ran at all (bw = bytes / ms) */
static uint64_t to_ms(uint64_t ns)
{
	uint64_t ms = (ns + 500000) / 1000000;
	return ns && !ms ? 1 : ms;
}

/* threads [from, to) of one job go into one result */
void sb_collect_job(struct sb_job_result *jr, const struct sb_jobspec *s, size_t job,
		    const struct sb_thread *th, unsigned from, unsigned to)
{
	uint64_t usr = 0, sys = 0, run_ns = 0, first = UINT64_MAX, last = 0;
	snprintf(jr->name, sizeof(jr->name), "%s", s->name);
	jr->groupid = s->groupid;
	jr->spec = s;
	sb_tstats_init(&jr->st);
	for (unsigned i = from; i < to; i++) {
		const struct sb_thread *t = &th[i];
		const struct sb_tstats *st = t->st;
		if (t->job != job || !st)
			continue;
		jr->nthreads++;
		sb_tstats_merge(&jr->st, st);
		for (int d = 0; d < SB_DDIR_N; d++)
			if (to_ms(st->runtime_ns[d]) > jr->runtime_ms[d])
				jr->runtime_ms[d] = to_ms(st->runtime_ns[d]);
		if (to_ms(st->job_runtime_ns) > jr->job_runtime_ms)
			jr->job_runtime_ms = to_ms(st->job_runtime_ns);
		usr += st->usr_us;
		sys += st->sys_us;
		run_ns += st->job_runtime_ns;
		if (t->start_ns && t->start_ns < first)
			first = t->start_ns;
		if (t->end_ns > last)
			last = t->end_ns;
		if (st->error && !jr->error)
			jr->error = st->error; /* its details: jr->st.err (merged the same way) */
	}
	if (run_ns) {
		jr->usr_cpu = 100.0 * (double)usr * 1000.0 / (double)run_ns;
		jr->sys_cpu = 100.0 * (double)sys * 1000.0 / (double)run_ns;
	}
	if (last > first && first != UINT64_MAX)
		jr->elapsed_s = (last - first + 500000000ull) / 1000000000ull;
}

static size_t count_results(const struct sb_joblist *jl, const struct sb_thread *th, unsigned n)
{
	size_t cnt = 0;
	for (size_t j = 0; j < jl->njobs; j++) {
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++)
			k += th[i].job == j;
		cnt += jl->jobs[j].group_reporting || k == 0 ? 1 : k;
	}
	return cnt;
}

static int fill_jobs(struct sb_results *res, const struct sb_joblist *jl,
		     const struct sb_thread *th, unsigned n)
{
	size_t cnt = count_results(jl, th, n);
	res->jobs = calloc(cnt ? cnt : 1, sizeof(*res->jobs));
	if (!res->jobs)
		return -ENOMEM;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		unsigned from = 0, to;
		while (from < n && th[from].job != j)
			from++;
		for (to = from; to < n && th[to].job == j; to++)
			;
		if (s->group_reporting || from == to) {
			sb_collect_job(&res->jobs[res->njobs++], s, j, th, from, to);
			continue;
		}
		for (unsigned i = from; i < to; i++)
			sb_collect_job(&res->jobs[res->njobs++], s, j, th, i, i + 1);
	}
	return 0;
}

static void fill_group(struct sb_group_result *g, const struct sb_results *res)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_group_dir *gd = &g->dir[d];
		gd->min_bw = gd->min_run_ms = UINT64_MAX;
		for (size_t i = 0; i < res->njobs; i++) {
			const struct sb_job_result *jr = &res->jobs[i];
			if (jr->groupid != g->groupid)
				continue;
			uint64_t bytes = jr->st.io_bytes[d];
			gd->io_bytes += bytes;
			if (!jr->runtime_ms[d])
				continue;
			uint64_t bw = bytes * 1000 / jr->runtime_ms[d];
			gd->min_bw = bw < gd->min_bw ? bw : gd->min_bw;
			gd->max_bw = bw > gd->max_bw ? bw : gd->max_bw;
			gd->min_run_ms = jr->runtime_ms[d] < gd->min_run_ms ? jr->runtime_ms[d] : gd->min_run_ms;
			gd->max_run_ms = jr->runtime_ms[d] > gd->max_run_ms ? jr->runtime_ms[d] : gd->max_run_ms;
		}
		if (gd->min_bw == UINT64_MAX)
			gd->min_bw = 0;
		if (gd->min_run_ms == UINT64_MAX)
			gd->min_run_ms = 0;
		if (gd->max_run_ms)
			gd->agg_bw = gd->io_bytes * 1000 / gd->max_run_ms;
	}
}

int sb_collect_groups(struct sb_results *res)
{
	free(res->groups);
	res->ngroups = 0;
	res->groups = calloc(res->njobs ? res->njobs : 1, sizeof(*res->groups));
	if (!res->groups)
		return -ENOMEM;
	for (size_t i = 0; i < res->njobs; i++) {
		const struct sb_job_result *jr = &res->jobs[i];
		bool seen = false;
		for (size_t k = 0; k < res->ngroups && !seen; k++)
			seen = res->groups[k].groupid == jr->groupid;
		if (seen)
			continue;
		struct sb_group_result *g = &res->groups[res->ngroups++];
		g->groupid = jr->groupid;
		g->kb_base = jr->spec->kb_base ? jr->spec->kb_base : 1024;
		g->unit_base = jr->spec->unit_base;
		fill_group(g, res);
	}
	return 0;
}

int sb_collect(struct sb_results *res, const struct sb_joblist *jl, const struct sb_thread *threads,
	       unsigned n)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	res->version = "storbench-" SB_VERSION;
	res->timestamp = ts.tv_sec;
	res->timestamp_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	res->joblist = jl;
	int e = fill_jobs(res, jl, threads, n);
	if (!e)
		e = sb_collect_groups(res);
	return e;
}
