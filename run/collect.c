/* collect.c: job and group results from the job threads (see collect.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/collect.h"

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
		if (t->verify && !jr->verify)
			jr->verify = sb_verify_result_new(t->verify->type);
		if (t->verify && jr->verify)
			(void)sb_verify_merge(jr->verify, t->verify); /* out of memory: fewer kept in full */
	}
	if (s->no_stats) { /* stats=0: fio reports the job with zeroes; its error stays */
		struct sb_errinfo ei = jr->st.err;
		int err = jr->st.error;
		sb_tstats_init(&jr->st);
		jr->st.err = ei;
		jr->st.error = err;
		memset(jr->runtime_ms, 0, sizeof(jr->runtime_ms));
		jr->job_runtime_ms = 0;
		run_ns = 0;
	}
	if (run_ns) {
		jr->usr_cpu = 100.0 * (double)usr * 1000.0 / (double)run_ns;
		jr->sys_cpu = 100.0 * (double)sys * 1000.0 / (double)run_ns;
	}
	if (last > first && first != UINT64_MAX)
		jr->elapsed_s = (last - first + 500000000ull) / 1000000000ull;
}

/* Threads [*from, *to) of job j: threads are started job by job, so the
 * search goes on from the previous job's end (from the start if not: any
 * order is right, file order is linear). */
static void thread_range(const struct sb_thread *th, unsigned n, size_t j, unsigned *from,
			 unsigned *to)
{
	unsigned f = *to;
	while (f < n && th[f].job != j)
		f++;
	if (f == n)
		for (f = 0; f < n && th[f].job != j; f++)
			;
	if (f == n) { /* no thread: an empty range where the search stands */
		*from = *to;
		return;
	}
	for (*to = f; *to < n && th[*to].job == j; (*to)++)
		;
	*from = f;
}

static int fill_jobs(struct sb_results *res, const struct sb_joblist *jl,
		     const struct sb_thread *th, unsigned n)
{
	size_t cnt = 0;
	unsigned from = 0, to = 0;
	for (size_t j = 0; j < jl->njobs; j++) {
		thread_range(th, n, j, &from, &to);
		cnt += jl->jobs[j].group_reporting || from == to ? 1 : to - from;
	}
	res->jobs = calloc(cnt ? cnt : 1, sizeof(*res->jobs));
	if (!res->jobs)
		return -ENOMEM;
	to = 0;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		thread_range(th, n, j, &from, &to);
		if (s->group_reporting || from == to) {
			sb_collect_job(&res->jobs[res->njobs++], s, j, th, from, to);
			continue;
		}
		for (unsigned i = from; i < to; i++)
			sb_collect_job(&res->jobs[res->njobs++], s, j, th, i, i + 1);
	}
	return 0;
}

static void add_to_group(struct sb_group_result *g, const struct sb_job_result *jr)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_group_dir *gd = &g->dir[d];
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
}

static void finish_group(struct sb_group_result *g)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_group_dir *gd = &g->dir[d];
		if (gd->min_bw == UINT64_MAX)
			gd->min_bw = 0;
		if (gd->min_run_ms == UINT64_MAX)
			gd->min_run_ms = 0;
		if (gd->max_run_ms)
			gd->agg_bw = gd->io_bytes * 1000 / gd->max_run_ms;
	}
}

/* One pass over the jobs: a group's jobs follow each other in file order,
 * so the previous job's group is tried first (any order stays right). */
int sb_collect_groups(struct sb_results *res)
{
	size_t last = 0;
	free(res->groups);
	res->ngroups = 0;
	res->groups = calloc(res->njobs ? res->njobs : 1, sizeof(*res->groups));
	if (!res->groups)
		return -ENOMEM;
	for (size_t i = 0; i < res->njobs; i++) {
		const struct sb_job_result *jr = &res->jobs[i];
		size_t k = last;
		if (k >= res->ngroups || res->groups[k].groupid != jr->groupid)
			for (k = 0; k < res->ngroups && res->groups[k].groupid != jr->groupid; k++)
				;
		if (k == res->ngroups) {
			struct sb_group_result *g = &res->groups[res->ngroups++];
			g->groupid = jr->groupid;
			g->kb_base = jr->spec && jr->spec->kb_base ? jr->spec->kb_base : 1024;
			g->unit_base = jr->spec ? jr->spec->unit_base : 0;
			for (int d = 0; d < SB_DDIR_N; d++)
				g->dir[d].min_bw = g->dir[d].min_run_ms = UINT64_MAX;
		}
		add_to_group(&res->groups[k], jr);
		last = k;
	}
	for (size_t k = 0; k < res->ngroups; k++)
		finish_group(&res->groups[k]);
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
