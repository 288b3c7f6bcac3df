/* sweep.c: runs a sweep (see sweep.h).  Each point's jobs are copied with
 * loops=1 (a point's loops= becomes that many separate repetitions, so mean,
 * min and max can be reported) and unlink=0 (files stay for the next point;
 * the ones the sweep created are removed once, at the end).  Before each
 * repetition: sync(), and with drop_caches=1 (the default) a write of "1" to
 * /proc/sys/vm/drop_caches - before each repetition, or only before a
 * point's first when no job of the point reads or writes through the page
 * cache (cache_free); without the right to, a warning, once, if the job
 * file asked for it (the report always says whether caches were dropped).
 * Each repetition is folded into its point as it ends (sweep/fold.c), so
 * memory grows with the points' merged results, not with every
 * repetition's. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/collect.h"
#include "os/outfile.h"
#include "dist/dist.h"
#include "run/files.h"
#include "run/ranks.h"
#include "run/run.h"
#include "sweep/sweep.h"
#include "run/thread.h"
#include "engines/engine.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "os/scratch.h"
#include "parse/sweep.h"
#include "parse/options.h"

#define SWEEP_MMAP_THRESHOLD (128 * 1024) /* glibc's initial value */

/* a file a point needed that did not exist before it: the sweep made it */
struct made_file {
	char *path;
	bool unlink;
};

struct ctx {
	const struct sb_sweep *sw;
	struct sb_run_env env;    /* main's, with defer_keep set for the points' runs */
	struct sb_sweep_results *sr;
	struct made_file *made;
	size_t nmade;
	bool drop_warned;
	bool drop_asked;  /* drop_caches=1 written, not defaulted: warn when not permitted */
	struct sb_mpi_summary mpi; /* MPI: the last repetition's merge (rank 0) */
};

/* MPI: every rank goes on to the next repetition, or none (a barrier that
 * votes: the ranks' runs are collectives) */
static bool all_go_on(void)
{
	bool stop = sb_stopping();
	sb_dist_sync_vote(&stop);
	return !stop;
}

/* I/O time of one run: the slowest job of each group, groups in sequence */
static uint64_t io_time_ns(const struct sb_results *res)
{
	uint64_t total = 0;
	for (size_t g = 0; g < res->ngroups; g++) {
		uint64_t slow = 0;
		for (size_t j = 0; j < res->njobs; j++) {
			if (res->jobs[j].groupid != res->groups[g].groupid)
				continue;
			for (int d = 0; d < SB_DDIR_N; d++)
				if (res->jobs[j].st.runtime_ns[d] > slow)
					slow = res->jobs[j].st.runtime_ns[d];
		}
		total += slow;
	}
	return total;
}

static void drop_caches(struct ctx *c)
{
	const char *why = NULL, *drop_path = sb_run_drop_path(&c->env);
	char buf[160];
	int fd = sb_outfile_kernel(drop_path); /* only a /proc or /sys file */
	if (fd < 0) {
		snprintf(buf, sizeof(buf), "cannot open %s: %s", drop_path, strerror(-fd));
		why = buf;
	} else if (write(fd, "1", 1) != 1) {
		snprintf(buf, sizeof(buf), "cannot write %s: %s", drop_path, strerror(errno));
		why = buf;
	}
	if (fd >= 0)
		close(fd);
	if (!why) {
		if (c->sr->caches == 0)
			c->sr->caches = 1;
		return;
	}
	c->sr->caches = -1;
	if (!c->drop_warned && c->drop_asked) /* the default's failure is only noted in the report */
		sb_warn(SB_OPT(drop_caches)->name, "caches not dropped: %s%s; results may be cached", why,
			geteuid() ? " (needs root)" : "");
	c->drop_warned = true;
}

/* drop_caches written in the job file (not just its default of 1) */
static bool drop_asked(const struct sb_joblist *jl)
{
	const char *name = SB_OPT(drop_caches)->name;
	for (unsigned i = 0; i < jl->nglobal; i++)
		if (!strcmp(jl->global_opts[i].key, name))
			return true;
	for (size_t j = 0; j < jl->njobs; j++)
		for (unsigned i = 0; i < jl->jobs[j].nopts; i++)
			if (!strcmp(jl->jobs[j].opts[i].key, name))
				return true;
	return false;
}

static bool job_nodiskio(const struct sb_jobspec *s)
{
	const struct sb_engine_ops *ops = sb_engine_find(s->ioengine);
	return ops && (ops->flags & SB_ENGINE_NODISKIO);
}

/* No job of the point moves data through the page cache: each does
 * O_DIRECT I/O on an engine that honours it, or no disk I/O.  Then a
 * repetition leaves nothing of its data in the cache for the next one to
 * find, and a drop between two repetitions of the point changes nothing
 * that is measured; one drop before the point's first repetition clears
 * what the previous point (buffered, or the layout) left.  The sync before
 * every repetition stays.  A drop costs 0.1-0.5 s (the kernel walks the
 * page cache): jobs/nvme-sweep.ini as root spent 287 of its 392 s in 864
 * drops, one per repetition. */
static bool cache_free(const struct sb_joblist *jl)
{
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_engine_ops *ops = sb_engine_find(jl->jobs[j].ioengine);
		if (!ops || (ops->flags & SB_ENGINE_NODISKIO))
			continue;
		if (!jl->jobs[j].direct || (ops->flags & SB_ENGINE_PAGECACHE))
			return false;
	}
	return true;
}

static int remember(struct ctx *c, const struct sb_layout_file *lf)
{
	for (size_t i = 0; i < c->nmade; i++) {
		if (!strcmp(c->made[i].path, lf->path)) {
			c->made[i].unlink |= lf->unlink;
			return 0;
		}
	}
	struct made_file *m = realloc(c->made, (c->nmade + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	c->made = m;
	m[c->nmade] = (struct made_file){ .path = strdup(lf->path), .unlink = lf->unlink };
	if (!m[c->nmade].path)
		return -ENOMEM;
	c->nmade++;
	return 0;
}

/* the files this point will create (plan only; the run lays them out).
 * lay.files[].unlink is the point's own unlink= (the run copy says 0). */
static int plan_files(struct ctx *c, const struct sb_joblist *orig)
{
	struct sb_layout lay;
	bool *nd = calloc(orig->njobs ? orig->njobs : 1, sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	for (size_t j = 0; j < orig->njobs; j++)
		nd[j] = job_nodiskio(&orig->jobs[j]);
	int r = sb_files_plan(orig, nd, &c->env, &lay);
	for (size_t i = 0; !r && i < lay.n; i++)
		if (lay.files[i].regular && !lay.files[i].exists)
			r = remember(c, &lay.files[i]);
	sb_files_cleanup(&lay, false); /* created nothing: only frees */
	free(nd);
	return r;
}

/* remove what the sweep made, if its jobs asked for unlink=1 and it is
 * still the inode a point created (run/files.c remembered it then: a file
 * put in its place since is left alone) */
static void remove_made(struct ctx *c)
{
	struct sb_scratch_id id;
	for (size_t i = 0; i < c->nmade; i++) {
		struct made_file *m = &c->made[i];
		if (!sb_scratch_recall(m->path, &id))
			; /* never made */
		else if (m->unlink)
			sb_scratch_unlink(m->path, &id);
		else
			sb_scratch_keep(m->path, &id); /* kept on purpose: not a leftover */
		free(m->path);
	}
	free(c->made);
	c->made = NULL;
	c->nmade = 0;
}

/* the point's jobs as run: loops=1 (repetitions instead), unlink deferred */
static int copy_jobs(struct sb_sweep_point_result *pr, const struct sb_joblist *pjl)
{
	unsigned loops = 1;
	pr->specs = calloc(pjl->njobs ? pjl->njobs : 1, sizeof(*pr->specs));
	if (!pr->specs)
		return -ENOMEM;
	for (size_t j = 0; j < pjl->njobs; j++) {
		pr->specs[j] = pjl->jobs[j]; /* shallow: strings stay the parser's */
		if (pjl->jobs[j].loops > loops)
			loops = pjl->jobs[j].loops;
		pr->specs[j].loops = 1;
		pr->specs[j].unlink = false;
	}
	pr->jl = *pjl;
	pr->jl.jobs = pr->specs;
	pr->jl.sweep = NULL;
	pr->reps = calloc(loops, sizeof(*pr->reps));
	return pr->reps ? (int)loops : -ENOMEM;
}

/* A finished point's results point at the parser's specs of the point (the
 * same but loops and unlink, which no writer reads: the options echo is the
 * job file's text) and its run copies go: 34 KB a job per point, 340 MB in
 * a 10,000-point sweep. */
static void keep_parser_specs(struct sb_sweep_point_result *pr, const struct sb_joblist *pjl)
{
	for (size_t j = 0; j < pr->merged.njobs; j++) {
		const struct sb_jobspec *s = pr->merged.jobs[j].spec;
		if (s >= pr->specs && s < pr->specs + pjl->njobs)
			pr->merged.jobs[j].spec = &pjl->jobs[s - pr->specs];
	}
	pr->merged.joblist = pjl;
	free(pr->specs);
	pr->specs = NULL;
	pr->jl.jobs = NULL;
	pr->jl.njobs = 0;
}

/* 1: finished, 0: interrupted, -errno: could not run */
static int run_point(struct ctx *c, size_t p, struct sb_sweep_point_result *pr)
{
	const struct sb_joblist *pjl = &c->sw->points[p].jl;
	bool drop = pjl->njobs && pjl->jobs[0].drop_caches, once = cache_free(pjl);
	int loops = copy_jobs(pr, pjl);
	pr->index = p;
	if (loops < 0)
		return loops;
	int r = plan_files(c, pjl);
	if (r)
		return r == -ENOMEM ? (sb_err("sweep", "out of memory"), r) : r;
	for (int k = 0; k < loops; k++) {
		struct sb_sweep_rep *rep = &pr->reps[k];
		if (!all_go_on())
			return 0;
		uint64_t t0 = sb_now_ns();
		sync();
		if (drop && (k == 0 || !once))
			drop_caches(c);
		uint64_t t1 = sb_now_ns();
		r = sb_run(&pr->jl, &c->env, &rep->res);
		uint64_t t2 = sb_now_ns();
		if (r)
			return r;
		/* MPI: rank 0's repetition becomes the aggregate of all ranks' (the
		 * point's figures and the best point are then the aggregate's) */
		if (sb_ranks_merge(&rep->res, rep->res.interrupted))
			return sb_err("sweep", "merging the ranks' results failed"), -EIO;
		if (rep->res.mpi.ranks)
			c->mpi = rep->res.mpi;
		pr->nreps++;
		rep->sync_ns = t1 - t0;
		rep->wall_ns = t2 - t1;
		rep->io_ns = io_time_ns(&rep->res);
		bool interrupted = rep->res.interrupted;
		r = sb_sweep_fold_rep(pr, rep); /* releases the repetition's results */
		if (r)
			return sb_err("sweep", "out of memory"), r;
		if (interrupted)
			return 0;
	}
	sb_sweep_summarize(pr, c->sr->metric);
	keep_parser_specs(pr, pjl);
	return 1;
}

static void point_free(struct sb_sweep_point_result *pr)
{
	for (unsigned k = 0; pr->reps && k < pr->nreps; k++)
		sb_results_free(&pr->reps[k].res);
	sb_results_free(&pr->merged);
	free(pr->reps);
	free(pr->specs);
	memset(pr, 0, sizeof(*pr));
}

void sb_sweep_results_free(struct sb_sweep_results *sr)
{
	free(sr->skipped);
	for (size_t i = 0; sr->points && i < sr->ndone; i++)
		point_free(&sr->points[i]);
	free(sr->points);
	free(sr->sys);
	memset(sr, 0, sizeof(*sr));
}

/* a line on stderr per finished point, with the time so far and an
 * estimate of the rest (the mean point's time so far): when stderr is a
 * terminal (--eta=auto, the default; not in CI logs), always (--eta=always)
 * or never (--eta=never) */
static void progress(const struct ctx *c, const struct sb_sweep_point_result *pr, uint64_t t0)
{
	char vals[512];
	int when = c->env.opts.progress;
	if (!when || (when < 0 && !isatty(STDERR_FILENO)))
		return;
	double bw = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		bw += pr->dir[d].bw_mean;
	double done = (double)(sb_now_ns() - t0) / 1e9;
	size_t n = pr->index + 1, left = c->sw->npoints - n;
	fprintf(stderr, "sweep: point %zu/%zu  %s  %.3f GiB/s  (%.0f s, about %.0f s left)\n", n,
		c->sw->npoints, sb_sweep_point_str(c->sw, pr->index, " ", vals, sizeof(vals)),
		bw / (1024.0 * 1024 * 1024), done, done / (double)n * (double)left);
}

/* why point p cannot run on this machine (a job's gpu_skip), or NULL */
static const char *point_skip(const struct sb_sweep *sw, size_t p)
{
	const struct sb_joblist *pjl = &sw->points[p].jl;
	for (size_t j = 0; j < pjl->njobs; j++)
		if (pjl->jobs[j].gpu_skip[0])
			return pjl->jobs[j].gpu_skip;
	return NULL;
}

/* a skipped point: noted in sr (no file, no I/O), said on the progress line */
static int skip_point(struct ctx *c, size_t p, const char *why)
{
	struct sb_sweep_results *sr = c->sr;
	struct sb_sweep_skip *k = realloc(sr->skipped, (sr->nskipped + 1) * sizeof(*k));
	if (!k)
		return sb_err("sweep", "out of memory"), -ENOMEM;
	sr->skipped = k;
	k += sr->nskipped++;
	k->index = p;
	snprintf(k->why, sizeof(k->why), "%s", why);
	int when = c->env.opts.progress;
	if (when > 0 || (when < 0 && isatty(STDERR_FILENO))) {
		char vals[512];
		fprintf(stderr, "sweep: point %zu/%zu  %s  skipped: %s\n", p + 1, c->sw->npoints,
			sb_sweep_point_str(c->sw, p, " ", vals, sizeof(vals)), why);
	}
	return 0;
}

static void fill_results(const struct sb_joblist *jl, struct sb_sweep_results *sr,
			 struct sb_results *res)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	memset(res, 0, sizeof(*res));
	res->version = "storbench-" SB_VERSION;
	res->timestamp = ts.tv_sec;
	res->timestamp_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	res->joblist = jl;
	res->interrupted = sr->interrupted;
	res->sweep = sr;
}

/* every point is checked (files, devices, space, engines, logs) before the
 * first one runs: a point that would be refused stops the sweep up front */
static int check_points(const struct sb_sweep *sw, const struct sb_run_env *env)
{
	if (!sw)
		return 0;
	for (size_t p = 0; p < sw->npoints; p++) {
		if (point_skip(sw, p)) /* not run: nothing of it to check */
			continue;
		int r = sb_run_check(&sw->points[p].jl, env);
		if (r) {
			char vals[512];
			sb_err("sweep", "point %zu of %zu (%s) would be refused, so no point was run",
			       p + 1, sw->npoints, sb_sweep_point_str(sw, p, " ", vals, sizeof(vals)));
			return r;
		}
	}
	return 0;
}

int sb_sweep_check(const struct sb_joblist *jl, const struct sb_run_env *env)
{
	return check_points(jl->sweep, env);
}

int sb_sweep_run(const struct sb_joblist *jl, const struct sb_run_env *env,
		 struct sb_sweep_results *sr, struct sb_results *res)
{
	static const struct sb_run_env defaults = { .opts = { .progress = -1 } };
	struct ctx c = { .sw = jl->sweep, .sr = sr, .env = env ? *env : defaults };
	int rc = 0;
	memset(sr, 0, sizeof(*sr));
	sr->def = c.sw;
	c.drop_asked = drop_asked(jl);
	sr->metric = jl->njobs ? jl->jobs[0].sweep_metric : SB_SWEEP_METRIC_BW;
	sr->points = calloc(c.sw->npoints ? c.sw->npoints : 1, sizeof(*sr->points));
	if (!sr->points) {
		sb_err("sweep", "out of memory");
		return -ENOMEM;
	}
	rc = check_points(c.sw, &c.env);
	bool bad = rc != 0;
	if (sb_dist_sync_vote(&bad), bad) /* MPI: another rank refused a point */
		return rc ? rc : -ECANCELED;
	/* Hundreds of sb_run calls, each allocating and freeing up to hundreds
	 * of MB of I/O buffers and statistics, interleaved with the points'
	 * small results that stay: glibc's adaptive mmap threshold would move
	 * those buffers into the heap after the first free, where the results
	 * pin them (1.3 GB for jobs/nvme-sweep.ini).  A fixed threshold keeps
	 * every large block in its own mapping, returned when freed. */
	mallopt(M_MMAP_THRESHOLD, SWEEP_MMAP_THRESHOLD);
	c.env.defer_keep = true; /* the points' runs: remove_made decides at the end */
	uint64_t t0 = sb_now_ns();
	for (size_t p = 0; p < c.sw->npoints && !rc; p++) {
		struct sb_sweep_point_result *pr = &sr->points[sr->ndone];
		const char *skip = point_skip(c.sw, p);
		if (skip) {
			rc = skip_point(&c, p, skip);
			continue;
		}
		int r = !all_go_on() ? 0 : run_point(&c, p, pr);
		if (r == 1) {
			if (!sr->sys) /* one inventory for the sweep, not one per point */
				sr->sys = pr->merged.sys;
			else
				free(pr->merged.sys);
			pr->merged.sys = NULL;
			sr->ndone++;
			progress(&c, pr, t0);
			continue;
		}
		point_free(pr); /* unfinished: its partial repetitions are not a result */
		if (r == 0)
			sr->interrupted = true;
		rc = r < 0 ? r : 1;
	}
	if (sb_stopping())
		sr->interrupted = true;
	sb_sweep_pick_best(sr);
	remove_made(&c);
	fill_results(jl, sr, res);
	res->mpi = c.mpi;
	return rc < 0 ? rc : 0;
}

int sb_parse_only(const struct sb_joblist *jl, const char *output, bool job_mode, bool warnings_fatal,
		  bool verbose)
{
	struct sb_run_env penv = { .sysroot = "", .output = output };
	if (sb_ranks_rank() != 0)
		return 0;
	unsigned errs = sb_log_errors();
	sb_log_machine_as_warnings(job_mode);
	int rc = jl->sweep ? sb_sweep_check(jl, &penv) : sb_run_check(jl, &penv);
	sb_log_machine_as_warnings(0);
	if (rc && (!job_mode || sb_log_errors() != errs || !sb_log_machine_warnings()))
		return -EINVAL;
	if (rc) {
		sb_warn("--parse-only=job", "the warnings above are what this machine lacks: here the "
			"run refuses the job (exit 1) before any I/O; --warnings-fatal makes "
			"--parse-only=job refuse it too");
		if (warnings_fatal)
			return -EINVAL;
	}
	if (verbose) {
		sb_joblist_print(stdout, jl);
		if (jl->sweep)
			sb_sweep_print(stdout, jl->sweep);
	}
	return 0;
}
