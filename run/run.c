/* run.c: sb_run: plan and lay out the files, set up every job thread, run
 * the groups in order, then hand the threads' statistics to results.c.
 * Setup failures come back as -errno before any I/O; I/O errors and
 * interrupts are part of the results. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/zbd.h"
#include "run/cgroup.h"
#include "run/iosched.h"
#include "run/collect.h"
#include "run/contents.h"
#include "run/flock.h"
#include "run/wljob.h"
#include "run/precheck.h"
#include "run/run.h"
#include "run/thread.h"
#include "dist/dist.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/diskstats.h"
#include "stats/diskutil.h"
#include "stats/monitor.h"
#include "stats/statsthread.h"
#include "stats/sysinv.h"

#define SB_MAX_DISKS 32

struct run {
	const struct sb_joblist *jl;
	const struct sb_run_env *env;
	const struct sb_engine_ops **ops;  /* per job */
	bool *nodiskio;                    /* per job */
	size_t *first;                     /* per job: index of its first thread */
	struct sb_thread *threads;
	struct sb_tview *views;            /* the threads as the stats side sees them */
	unsigned nthreads;
	struct sb_layout lay;
	bool laid_out;
	int layout_error;                  /* sb_files_create failed: -errno */
	struct sb_runsync sync;
	struct sb_runctl ctl;              /* flows and exitall (run/flowctl.h) */
	struct sb_statsthread stats;
	struct sb_wl_runs *ml;             /* workload=checkpoint|train jobs, NULL: none */
	struct sb_monitor mon;
	bool mon_up;
	struct sb_diskstat disks0[SB_MAX_DISKS], disks1[SB_MAX_DISKS];
	size_t ndisks;
	uint64_t t0_ns, t1_ns;
	struct sb_sysinv *sys;             /* the system inventory, for the results */
	uint64_t start_wall_ns, end_wall_ns; /* the first group's barrier passed, the end (CLOCK_REALTIME) */
	bool tsc, gtod;                    /* the run's clock (clock_start) */
	enum sb_clock_why clock_why;
};

static const struct sb_run_env default_env = { .opts = { .progress = -1 } };

const char *sb_run_drop_path(const struct sb_run_env *env)
{
	return env && env->drop_caches ? env->drop_caches : "/proc/sys/vm/drop_caches";
}

/* a directory the jobs use, for the host's filesystem figures */
static void first_dir(const struct run *r, char *buf, size_t len)
{
	const struct sb_jobspec *s = r->jl->njobs ? &r->jl->jobs[0] : NULL;
	snprintf(buf, len, ".");
	if (s && s->directory && *s->directory) {
		snprintf(buf, len, "%s", s->directory);
	} else if (r->lay.n && r->lay.files[0].path) {
		const char *p = r->lay.files[0].path, *slash = strrchr(p, '/');
		if (slash)
			snprintf(buf, len, "%.*s", slash == p ? 1 : (int)(slash - p), p);
	}
}

static int monitor_init(struct run *r)
{
	char names[SB_MAX_DISKS][64], dir[4096];
	size_t nd = sb_files_disks(&r->lay, names, SB_MAX_DISKS);
	first_dir(r, dir, sizeof(dir));
	r->views = calloc(r->nthreads ? r->nthreads : 1, sizeof(*r->views));
	if (!r->views)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nthreads; i++) {
		sb_thread_view(&r->threads[i], &r->views[i]);
		r->threads[i].on_start = sb_monitor_thread_started;
		r->threads[i].on_start_arg = &r->mon;
	}
	r->mon_up = true;
	int e = sb_monitor_init(&r->mon, r->jl, r->views, r->nthreads,
				(const char (*)[64])names, (unsigned)nd, dir, &r->env->opts);
	if (sb_dist_local_rank()) /* MPI: one host-counter collector per host (run/rankhosts.c) */
		r->mon.hcfg.which = 0;
	return e;
}

static int find_engines(struct run *r)
{
	const struct sb_joblist *jl = r->jl;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		r->ops[j] = sb_engine_find(s->ioengine);
		if (!r->ops[j] || !r->ops[j]->queue) {
			char names[256];
			sb_engine_names(names, sizeof(names));
			sb_err(s->name, "ioengine=%s is not available; this build has: %s", s->ioengine,
			       names);
			return -EINVAL;
		}
		r->nodiskio[j] = r->ops[j]->flags & SB_ENGINE_NODISKIO;
	}
	return 0;
}

static long job_index(const struct sb_joblist *jl, const char *name)
{
	for (size_t j = 0; j < jl->njobs; j++)
		if (!strcmp(jl->jobs[j].name, name))
			return (long)j;
	return -1;
}

static int setup_threads(struct run *r)
{
	const struct sb_joblist *jl = r->jl;
	unsigned n = 0, peers = 0, peer = 0;
	for (size_t j = 0; j < jl->njobs; j++) {
		n += r->lay.jobs[j].nthreads;
		if (sb_contents_global(&jl->jobs[j])) /* dedupe_global: run/contents.h */
			peers += r->lay.jobs[j].nthreads;
	}
	r->threads = calloc(n ? n : 1, sizeof(*r->threads));
	r->sync.left = calloc(jl->njobs ? jl->njobs : 1, sizeof(*r->sync.left));
	if (!r->threads || !r->sync.left)
		return -ENOMEM;
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		long w = s->wait_for ? job_index(jl, s->wait_for) : -1;
		if (s->wait_for && (w < 0 || (size_t)w == j)) {
			sb_err(s->name, "wait_for=%s names no other job", s->wait_for);
			return -EINVAL;
		}
		r->first[j] = r->nthreads;
		r->sync.left[j] = r->lay.jobs[j].nthreads;
		for (unsigned k = 0; k < r->lay.jobs[j].nthreads; k++) {
			struct sb_thread *t = &r->threads[r->nthreads++];
			t->spec = s;
			t->ops = r->ops[j];
			t->sync = &r->sync;
			t->job = j;
			t->sub = k;
			t->wait_job = w;
			if (sb_contents_global(s)) {
				t->dg_peer = peer++;
				t->dg_peers = peers;
			}
			int e = sb_thread_setup(t, &r->lay.jobs[j]);
			if (e) {
				if (e == -ENOMEM)
					sb_err(s->name, "out of memory setting up the job");
				return e;
			}
		}
	}
	return 0;
}

static void start_one(struct sb_thread *t)
{
	int e = pthread_create(&t->tid, NULL, sb_thread_main, t);
	t->started = e == 0;
	if (e) { /* the job reports it like an I/O error; the run goes on */
		sb_tstats_set_error(t->st, e, "cannot start a thread", NULL);
		pthread_mutex_lock(&t->sync->mu);
		if (!--t->sync->left[t->job])
			(void)sb_dist_done(t->job); /* MPI: for the other ranks' wait_for */
		pthread_mutex_unlock(&t->sync->mu);
	}
}

/* groups in order: a group's threads start together (its ML jobs run in
 * this thread meanwhile); the next group starts when every thread of this
 * one has finished (stonewall / new_group) */
static void run_groups(struct run *r)
{
	unsigned i = 0, ngroups = r->jl->njobs ? r->jl->jobs[r->jl->njobs - 1].groupid + 1 : 0;
	for (unsigned gid = 0; gid < ngroups; gid++) {
		unsigned end = i;
		while (end < r->nthreads && r->threads[end].spec->groupid == gid)
			end++;
		/* every rank passes every group's barrier (MPI), also when stopping;
		 * a group starts on all ranks or on none (its ML jobs' barriers) */
		bool stop = sb_stopping() || atomic_load(&r->ctl.exit_rest); /* exit_what=all */
		uint64_t t = sb_dist_sync_start(&stop);
		if (!gid)
			r->start_wall_ns = t;
		if (stop)
			continue;
		atomic_store(&r->ctl.exitall, 0); /* exitall stops its own group (fio) */
		for (unsigned k = i; k < end; k++)
			start_one(&r->threads[k]);
		sb_wl_run_group(r->ml, gid);
		for (unsigned k = i; k < end; k++)
			if (r->threads[k].started)
				pthread_join(r->threads[k].tid, NULL);
		i = end;
	}
}

/* The system inventory, once before the first I/O: the machine, and where
 * the jobs' files and folders live (stats/sysinv.h; each job's workload
 * names its folders).  Out of memory:
 * the results go without it. */
static void sysinv_start(struct run *r)
{
	const char *root = r->env->sysroot && *r->env->sysroot ? r->env->sysroot : "/";
	r->sys = malloc(sizeof(*r->sys));
	if (!r->sys)
		return;
	sb_sysinv_host(r->sys, root, NULL);
	for (size_t i = 0; i < r->lay.n; i++)
		sb_sysinv_add_path(r->sys, root, r->lay.files[i].path);
	for (size_t j = 0; j < r->jl->njobs; j++) {
		const struct sb_jobspec *s = &r->jl->jobs[j];
		const struct sb_workload_ops *w = sb_workload_of(s);
		const char *dirs[8];
		unsigned n = w->folders ? w->folders(s, dirs, sizeof(dirs) / sizeof(dirs[0])) : 0;
		for (unsigned k = 0; k < n && k < sizeof(dirs) / sizeof(dirs[0]); k++) {
			char one[4096];
			for (const char *p = dirs[k]; p && *p; p += strcspn(p, ":"), p += *p == ':') {
				snprintf(one, sizeof(one), "%.*s", (int)strcspn(p, ":"), p);
				if (one[0])
					sb_sysinv_add_path(r->sys, root, one);
			}
		}
	}
}

static void disks_start(struct run *r)
{
	char names[SB_MAX_DISKS][64];
	r->ndisks = sb_files_disks(&r->lay, names, SB_MAX_DISKS);
	for (size_t i = 0; i < r->ndisks; i++)
		snprintf(r->disks0[i].name, sizeof(r->disks0[i].name), "%s", names[i]);
	memcpy(r->disks1, r->disks0, sizeof(r->disks0));
	if (r->ndisks && sb_os_diskstats_read("", r->disks0, r->ndisks))
		r->ndisks = 0;
}

static int disks_finish(struct run *r, struct sb_results *res)
{
	if (!r->ndisks || sb_os_diskstats_read("", r->disks1, r->ndisks))
		return 0;
	res->disks = calloc(r->ndisks, sizeof(*res->disks));
	if (!res->disks)
		return -ENOMEM;
	uint64_t wall_ms = (r->t1_ns - r->t0_ns) / 1000000;
	for (size_t i = 0; i < r->ndisks; i++)
		if (r->disks0[i].found && r->disks1[i].found)
			sb_disk_util_delta(&r->disks0[i], &r->disks1[i], wall_ms,
					   &res->disks[res->ndisks++]);
	return 0;
}

/* errors continue_on_error / ignore_error let pass: error_dump's records
 * (fio prints them as they happen; the I/O threads print nothing, so
 * they come here, after the run), then how many there were */
static void report_passed(const struct sb_job_result *j)
{
	const struct sb_tstats *st = &j->st;
	static const char *const op[] = { "read", "write", "trim" };
	for (unsigned k = 0; k < st->ndump; k++) {
		const struct sb_errdump *dp = &st->dump[k];
		sb_warn(j->name, "error let pass: %s %s at offset %" PRIu64 " (%" PRIu64 " bytes): %s",
			op[dp->ddir < 3 ? dp->ddir : 0], dp->path, dp->offset, dp->len,
			strerror(dp->error));
	}
	if (st->total_err)
		sb_warn(j->name, "%" PRIu64 " I/O error%s let pass (continue_on_error/ignore_error), "
			"the first: %s%s", st->total_err, st->total_err == 1 ? "" : "s",
			strerror(st->first_error),
			st->ndump && st->total_err > st->ndump ? " (error_dump shows the first ones)" : "");
}

/* every job's error, once, whatever the output format (the writers show
 * it again in the results: err= in normal output, "error_message" in JSON) */
static void report_errors(const struct sb_results *res)
{
	char text[SB_ERRPATH_MAX + 256];
	for (size_t i = 0; i < res->njobs; i++) {
		const struct sb_job_result *j = &res->jobs[i];
		if (j->error)
			sb_err(j->name, "%s", sb_tstats_error_text(&j->st, text, sizeof(text)));
		report_passed(j);
	}
}

/* Everything up to the first I/O.  dry: only the checks (engines, logs,
 * ML jobs, file plan, regions, engine start-up), nothing laid out. */
static int prepare(struct run *r, bool dry)
{
	sb_zbd_run_start(); /* zonemode=zbd: a run (or its check) starts with fresh zones */
	size_t nj = r->jl->njobs ? r->jl->njobs : 1;
	r->ops = calloc(nj, sizeof(*r->ops));
	r->nodiskio = calloc(nj, sizeof(*r->nodiskio));
	r->first = calloc(nj, sizeof(*r->first));
	if (!r->ops || !r->nodiskio || !r->first)
		return -ENOMEM;
	int e = find_engines(r);
	if (!e)
		e = sb_precheck_logs(r->jl);
	if (!e)
		e = sb_wl_prepare(r->jl, r->env, r->ops, &r->ml);
	if (!e)
		e = sb_files_plan(r->jl, r->nodiskio, r->env, &r->lay);
	r->laid_out = true;
	if (!e)
		e = sb_precheck_jobs(r->jl, r->ops, &r->lay);
	if (e || dry)
		return e;
	e = sb_files_create(&r->lay);
	if (e == -EINTR) /* interrupted while laying out: nothing to run */
		return 0;
	if (e)
		r->layout_error = e;
	if (!e)
		e = setup_threads(r);
	if (!e) /* lockfile, unlink_each_loop */
		e = sb_flock_setup(r->threads, r->nthreads, &r->lay);
	if (!e)
		e = sb_runctl_setup(&r->ctl, r->threads, r->nthreads);
	if (!e)
		e = monitor_init(r);
	return e;
}

static void release(struct run *r, bool failed)
{
	sb_iosched_restore();
	sb_cgroup_restore();
	(void)sb_trace_close_all(); /* a run that failed before it started */
	if (r->mon_up)
		sb_monitor_free(&r->mon);
	for (unsigned i = 0; r->threads && i < r->nthreads; i++)
		sb_thread_teardown(&r->threads[i]);
	sb_flock_free(r->threads, r->nthreads, &r->lay); /* after teardown: ops wrapped */
	if (r->laid_out)
		sb_files_cleanup(&r->lay, failed);
	sb_wl_release(r->ml, failed);
	pthread_mutex_destroy(&r->sync.mu);
	pthread_cond_destroy(&r->sync.cv);
	free(r->threads);
	free(r->views);
	free(r->sync.left);
	sb_runctl_free(&r->ctl);
	free(r->ops);
	free(r->nodiskio);
	free(r->first);
	free(r->sys);
}

int sb_run_check(const struct sb_joblist *jl, const struct sb_run_env *env)
{
	struct run r = { .jl = jl, .env = env ? env : &default_env };
	pthread_mutex_init(&r.sync.mu, NULL);
	pthread_cond_init(&r.sync.cv, NULL);
	int e = jl->datagen_only ? 0 : prepare(&r, true);
	release(&r, true); /* nothing was created: only frees */
	return e;
}

/* Laying out a file failed (EIO, ENOSPC...): an I/O error of the run, not a
 * bad job.  The results say so: every job, none measured, the first job
 * using the file with the error (exit 3, valid JSON). */
static int layout_failed(struct run *r, struct sb_results *res)
{
	const struct sb_layout_file *lf = &r->lay.files[r->lay.failed];
	int e = sb_collect(res, r->jl, NULL, 0);
	for (size_t i = 0; !e && i < res->njobs; i++) {
		struct sb_job_result *jr = &res->jobs[i];
		if (jr->spec != lf->spec)
			continue;
		jr->error = -r->layout_error;
		sb_tstats_set_error(&jr->st, jr->error, "lay out", lf->path);
		break;
	}
	if (!e)
		report_errors(res);
	return e;
}

/* MPI: this rank stops the others on an I/O error of any of its threads
 * or an interrupt (dist.h's listener polls it every few ms; the error field
 * is read racily, a late sight of it costs one poll) */
static bool any_error(void *arg)
{
	const struct run *r = arg;
	if (sb_stopping())
		return true;
	for (unsigned k = 0; k < r->nthreads; k++)
		if (r->threads[k].st && __atomic_load_n(&r->threads[k].st->error, __ATOMIC_RELAXED))
			return true;
	return false;
}

/* MPI: another rank finished a job: the threads waiting for it look again */
static void wake_waiters(void *arg)
{
	struct sb_runsync *sy = arg;
	pthread_mutex_lock(&sy->mu);
	pthread_cond_broadcast(&sy->cv);
	pthread_mutex_unlock(&sy->mu);
}

/* MPI: whether some other rank failed to set up (every rank calls it; one
 * rank: false) */
static bool ranks_failed(bool mine)
{
	uint64_t any = mine;
	if (sb_dist_size() == 1 || sb_dist_reduce_u64(&any, 1, SB_DIST_MAX, true))
		return false;
	return any && !mine;
}

/* The run's clock (lib/timeutil.h).  Tests: STORBENCH_TEST_CLOCK_ROOT
 * points the TSC decision at a fixture tree (its /proc/cpuinfo and
 * current_clocksource), STORBENCH_TEST_TSC_DRIFT_PPM skews the calibrated
 * TSC rate so that the guard sees a drift. */
static void clock_start(struct run *r)
{
	/* the TSC where it is invariant (lib/timeutil.h), unless the job's
	 * clocksource says otherwise: one clock per run, the first job's (fio's
	 * clocksource sets one clock for the process too) */
	unsigned cs = r->jl->njobs ? r->jl->jobs[0].clocksource : SB_CLOCK_AUTO;
	const char *root = getenv("STORBENCH_TEST_CLOCK_ROOT");
	r->tsc = sb_clock_init(cs == SB_CLOCK_AUTO || cs == SB_CLOCK_CPU, root && *root ? root : "/");
	const char *ppm = getenv("STORBENCH_TEST_TSC_DRIFT_PPM");
	if (r->tsc && ppm && *ppm)
		sb_clock_skew_ppm(strtol(ppm, NULL, 10));
	r->clock_why = sb_tsc.why;
	r->gtod = cs == SB_CLOCK_GTOD;
	sb_clock_gtod(r->gtod);
}

/* what the clock was and what the drift guard saw, into the results; a
 * fallback is also said on stderr */
static void clock_end(const struct run *r, struct sb_results *res)
{
	struct sb_clock_result *c = &res->clock;
	bool tsc = r->tsc;
	c->source = tsc ? "tsc" : r->gtod ? "gettimeofday" : "clock_gettime";
	c->reason = sb_clock_why_text(r->clock_why);
	c->checks = sb_tsc.checks;
	c->tol_ns = SB_CLOCK_TOL_ABS_NS;
	c->tol_ppm = SB_CLOCK_TOL_PPM;
	c->max_drift_ns = sb_tsc.max_drift_ns;
	c->tsc_fallback = tsc && sb_tsc.fell_back;
	if (!c->tsc_fallback)
		return;
	c->fallback_drift_ns = sb_tsc.fallback_drift_ns;
	c->fallback_ms = sb_tsc.fallback_ns > r->t0_ns ? (sb_tsc.fallback_ns - r->t0_ns) / 1000000 : 0;
	sb_warn("clock", "the TSC drifted %+.3f ms from CLOCK_MONOTONIC %.3f s into the run (tolerance %llu us + %llu ppm): clock_gettime from then on",
		(double)c->fallback_drift_ns / 1e6, (double)c->fallback_ms / 1e3,
		SB_CLOCK_TOL_ABS_NS / 1000, SB_CLOCK_TOL_PPM);
}

/* the wall clock of the run's start and end, for the ranks' skew; the
 * listener ends (a rank that stopped others is counted) */
static void end_wall(struct run *r, bool watch)
{
	struct timespec ts;
	unsigned nstopped = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (watch)
		(void)sb_dist_watch_end(&nstopped);
	r->end_wall_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int sb_run(const struct sb_joblist *jl, const struct sb_run_env *env, struct sb_results *res)
{
	struct run r = { .jl = jl, .env = env ? env : &default_env };
	if (jl->datagen_only)
		return sb_wl_datagen(jl, r.env, res);
	memset(res, 0, sizeof(*res));
	clock_start(&r);
	pthread_mutex_init(&r.sync.mu, NULL);
	pthread_cond_init(&r.sync.cv, NULL);
	int e = prepare(&r, false);
	if (!e && !r.layout_error) {
		e = sb_iosched_apply(jl, &r.lay); /* ioscheduler=: restored by release() */
		if (!e)
			e = sb_cgroup_apply(jl); /* cgroup=: removed by release() */
	}
	if (ranks_failed(e || r.layout_error)) { /* MPI: another rank could not start */
		release(&r, true);
		return -ECANCELED;
	}
	if (e && r.layout_error) {
		e = layout_failed(&r, res);
		if (e || sb_dist_size() > 1) /* MPI: reported; every rank stops (exit 1) */
			sb_results_free(res);
		e = !e && sb_dist_size() > 1 ? -EIO : e;
	}
	if (e || r.layout_error) {
		release(&r, true);
		return e;
	}
	sysinv_start(&r);
	res->no_disk_util = true;
	for (size_t j = 0; j < jl->njobs; j++)
		res->no_disk_util &= !jl->jobs[j].disk_util;
	if (!res->no_disk_util)
		disks_start(&r);
	r.t0_ns = sb_now_ns();
	if (r.mon_up) {
		sb_monitor_start(&r.mon, r.t0_ns);
		r.stats.tick = sb_monitor_tick;
		r.stats.tick_arg = &r.mon;
		r.stats.tick_ms = r.mon.tick_ms;
	}
	(void)sb_dist_watch_jobs((unsigned)jl->njobs, wake_waiters, &r.sync); /* MPI: wait_for */
	bool watch = !sb_dist_watch_begin(sb_stop_request, any_error, &r); /* MPI */
	/* (no threads at all when a signal cut the layout short) */
	for (size_t j = 0; watch && r.sync.left && j < jl->njobs; j++)
		if (!r.sync.left[j]) /* no I/O threads (an ML job): done for wait_for at once */
			(void)sb_dist_done((unsigned)j);
	if (sb_statsthread_start(&r.stats, r.views, r.nthreads) == 0) {
		run_groups(&r);
		sb_statsthread_stop(&r.stats);
	} else {
		run_groups(&r); /* without bw/iops samples */
	}
	(void)sb_trace_close_all(); /* write_trace: a failed write was reported; the results stand */
	r.t1_ns = sb_now_ns();
	end_wall(&r, watch);
	res->interrupted = sb_stopping();
	e = sb_collect(res, jl, r.threads, r.nthreads);
	clock_end(&r, res);
	res->start_wall_ns = r.start_wall_ns;
	res->end_wall_ns = r.end_wall_ns;
	if (!e)
		e = sb_wl_collect(r.ml, res);
	if (!e)
		e = disks_finish(&r, res);
	if (!e) {
		res->sys = r.sys;
		r.sys = NULL;
	}
	if (!e && r.mon_up && sb_monitor_finish(&r.mon, r.t1_ns, res))
		res->logs_failed = true; /* reported; the results stand, the exit is 3 */
	if (!e)
		report_errors(res);
	release(&r, false);
	if (e) {
		sb_results_free(res);
		sb_err("results", "%s", strerror(-e));
	}
	return e;
}
