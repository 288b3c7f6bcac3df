/* collect.c: job and group results from the job threads (see collect.h). */
#include <errno.h>
#include <stdbool.h>
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

/* What one result adds up over its threads until it is finished. */
struct acc {
	uint64_t usr, sys, run_ns, first, last;
};

static void entry_begin(struct sb_job_result *jr, const struct sb_jobspec *s, struct acc *a)
{
	memset(a, 0, sizeof(*a));
	a->first = UINT64_MAX;
	snprintf(jr->name, sizeof(jr->name), "%s", s->name); /* the first member's name, as fio */
	jr->groupid = s->groupid;
	jr->spec = s;
	sb_tstats_init(&jr->st);
}

/* Thread t of job spec s joins result jr, by fio's rules for a merged entry
 * (stat.c sum_thread_stats): counters, histograms and CPU times add, the
 * per-direction runtime is the longest, job_runtime is the sum, and the
 * options echoed and the percentile list are the last member's. */
static void entry_add(struct sb_job_result *jr, const struct sb_jobspec *s, struct acc *a,
		      const struct sb_thread *t)
{
	const struct sb_tstats *st = t->st;
	jr->spec = s;
	jr->nthreads++;
	(void)sb_tstats_merge(&jr->st, st); /* out of memory: its histograms are left out */
	for (int d = 0; d < SB_DDIR_N; d++)
		if (to_ms(st->runtime_ns[d]) > jr->runtime_ms[d])
			jr->runtime_ms[d] = to_ms(st->runtime_ns[d]);
	jr->job_runtime_ms += to_ms(st->job_runtime_ns);
	a->usr += st->usr_us;
	a->sys += st->sys_us;
	a->run_ns += st->job_runtime_ns;
	if (t->start_ns && t->start_ns < a->first)
		a->first = t->start_ns;
	if (t->end_ns > a->last)
		a->last = t->end_ns;
	if (st->error && !jr->error)
		jr->error = st->error; /* its details: jr->st.err (merged the same way) */
	if (t->lt.on && !jr->latency_depth) /* the first thread's, as for ss */
		jr->latency_depth = t->lt.qd;
	if (t->ctl.ss && !jr->ss) /* the first thread's (fio judges each job) */
		jr->ss = sb_steady_dup(t->ctl.ss); /* out of memory: no steadystate object */
	if (t->verify && !jr->verify)
		jr->verify = sb_verify_result_new(t->verify->type);
	if (t->verify && jr->verify)
		(void)sb_verify_merge(jr->verify, t->verify); /* out of memory: fewer kept in full */
}

/* usr/sys CPU: the members' CPU time over their summed job_runtime (fio's
 * usr_cpu: the average member's share of one CPU) */
static void entry_end(struct sb_job_result *jr, const struct acc *a)
{
	if (jr->spec && jr->spec->no_stats) { /* stats=0: fio reports zeroes; the error stays */
		struct sb_errinfo ei = jr->st.err;
		int err = jr->st.error;
		sb_tstats_release(&jr->st);
		sb_tstats_init(&jr->st);
		jr->st.err = ei;
		jr->st.error = err;
		memset(jr->runtime_ms, 0, sizeof(jr->runtime_ms));
		jr->job_runtime_ms = 0;
		jr->usr_cpu = jr->sys_cpu = 0;
	} else if (a->run_ns) {
		jr->usr_cpu = 100.0 * (double)a->usr * 1000.0 / (double)a->run_ns;
		jr->sys_cpu = 100.0 * (double)a->sys * 1000.0 / (double)a->run_ns;
	}
	if (a->last > a->first && a->first != UINT64_MAX)
		jr->elapsed_s = (a->last - a->first + 500000000ull) / 1000000000ull;
}

/* threads [from, to) of one job go into one result */
void sb_collect_job(struct sb_job_result *jr, const struct sb_jobspec *s, size_t job,
		    const struct sb_thread *th, unsigned from, unsigned to)
{
	struct acc a;
	entry_begin(jr, s, &a);
	for (unsigned i = from; i < to; i++)
		if (th[i].job == job && th[i].st)
			entry_add(jr, s, &a, &th[i]);
	entry_end(jr, &a);
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

/* fio's entries (sb_results_joins): all the jobs of a group merge into one
 * entry, across job sections, named after its first member.  A job without threads (not started, or an ML
 * workload, which fills its own result later) gets an entry of its own. */
static int fill_jobs(struct sb_results *res, const struct sb_joblist *jl,
		     const struct sb_thread *th, unsigned n)
{
	struct acc a;
	struct sb_job_result *cur = NULL;
	bool prev = false;            /* a thread came before (prev_group valid) */
	unsigned prev_group = 0, from = 0, to = 0;
	res->jobs = calloc((size_t)n + jl->njobs + 1, sizeof(*res->jobs));
	if (!res->jobs)
		return -ENOMEM;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		thread_range(th, n, j, &from, &to);
		if (from == to) {
			if (cur)
				entry_end(cur, &a);
			cur = NULL;
			prev = false;
			sb_collect_job(&res->jobs[res->njobs++], s, j, th, from, to);
			continue;
		}
		for (unsigned i = from; i < to; i++) {
			if (!cur || !sb_results_joins(s, prev, prev_group)) {
				if (cur)
					entry_end(cur, &a);
				cur = &res->jobs[res->njobs++];
				entry_begin(cur, s, &a);
			}
			if (th[i].st)
				entry_add(cur, s, &a, &th[i]);
			prev = true;
			prev_group = s->groupid;
		}
	}
	if (cur)
		entry_end(cur, &a);
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
	for (int d = 0; d < SB_DDIR_N; d++)
		sb_group_dir_finish(&g->dir[d]);
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
			g->sig_figs = jr->spec ? jr->spec->significant_figures : 4;
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
	if (!e && res->njobs) { /* room was made for threads + jobs + 1 entries:
				  * a sweep keeps each point's (15 KB for one job) */
		struct sb_job_result *fit = realloc(res->jobs, res->njobs * sizeof(*fit));
		res->jobs = fit ? fit : res->jobs;
	}
	if (!e)
		e = sb_collect_groups(res);
	return e;
}
