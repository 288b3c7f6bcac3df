/* test_sweep.c: CUnit suite "sweep": sweep.* lists -> points (product size,
 * order, @references, per-point validation), file:line errors for unknown
 * options and bad values inside a list, ${VAR:-default}, the summary of a
 * point's repetitions, best-point selection, the table order, and a whole
 * sweep run on the null engine. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "harness.h"
#include "lib/log.h"
#include "output/sweep.h"
#include "parse/parse.h"
#include "parse/sweep.h"

static char logbuf[16384];

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("job.ini", text, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static const char *val(const struct sb_sweep *sw, size_t p, unsigned d)
{
	return sw->points[p].values[d];
}

static void test_product_and_order(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[global]\nioengine=null\nsize=1m\n"
				    "sweep.bs = 4k | 64k\n"
				    "[a]\nsweep.iodepth = 1|2 | 4\n"
				    "[b]\nrw=write\n", &jl), 0);
	const struct sb_sweep *sw = jl.sweep;
	CU_ASSERT_FATAL(sw != NULL);
	CU_ASSERT_EQUAL(sw->ndims, 2);
	CU_ASSERT_EQUAL_FATAL(sw->npoints, 6);
	CU_ASSERT_STRING_EQUAL(sw->dims[0].name, "bs");
	CU_ASSERT_STRING_EQUAL(sw->dims[1].name, "iodepth");
	/* first-listed varies slowest */
	CU_ASSERT_STRING_EQUAL(val(sw, 0, 0), "4k");
	CU_ASSERT_STRING_EQUAL(val(sw, 0, 1), "1");
	CU_ASSERT_STRING_EQUAL(val(sw, 2, 1), "4");
	CU_ASSERT_STRING_EQUAL(val(sw, 3, 0), "64k");
	CU_ASSERT_STRING_EQUAL(val(sw, 3, 1), "1");
	/* each point's jobs carry its values; [global] sweeps reach every job,
	 * a job's sweep only that job; derived defaults follow the point */
	const struct sb_joblist *p4 = &sw->points[4].jl;
	CU_ASSERT_EQUAL_FATAL(p4->njobs, 2);
	CU_ASSERT_EQUAL(p4->jobs[0].bs[0], 65536);
	CU_ASSERT_EQUAL(p4->jobs[0].bs_min[0], 65536);
	CU_ASSERT_EQUAL(p4->jobs[0].iodepth, 2);
	CU_ASSERT_EQUAL(p4->jobs[1].bs[1], 65536);
	CU_ASSERT_EQUAL(p4->jobs[1].iodepth, 1);
	/* the list's own jobs are point 1's */
	CU_ASSERT_EQUAL(jl.jobs[0].bs[0], 4096);
	sb_joblist_free(&jl);
}

static void test_commas_stay_fio(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nioengine=null\nsize=1m\nrw=rw\n"
				    "sweep.bs = 4k,8k | 16k,32k\n", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.sweep->npoints, 2);
	const struct sb_jobspec *s = &jl.sweep->points[1].jl.jobs[0];
	CU_ASSERT_EQUAL(s->bs[0], 16384);
	CU_ASSERT_EQUAL(s->bs[1], 32768);
	sb_joblist_free(&jl);
}

static void test_at_references(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nioengine=null\nsize=1m\n"
				    "sweep.iodepth = 4 | 16\n"
				    "sweep.iodepth_batch_complete_min = 1 | @iodepth\n"
				    "[b]\nioengine=null\nsize=1m\niodepth=8\n"
				    "sweep.iodepth_batch_submit = @iodepth\n"
				    "[c]\nioengine=null\nsize=1m\n"
				    "sweep.iodepth_batch_complete_max = @iodepth\n", &jl), 0);
	const struct sb_sweep *sw = jl.sweep;
	CU_ASSERT_EQUAL_FATAL(sw->npoints, 4);
	/* swept in the same point */
	CU_ASSERT_STRING_EQUAL(val(sw, 3, 1), "16");
	CU_ASSERT_EQUAL(sw->points[3].jl.jobs[0].iodepth_batch_complete_min, 16);
	CU_ASSERT_EQUAL(sw->points[2].jl.jobs[0].iodepth_batch_complete_min, 1);
	/* set plainly in the section; the default when set nowhere */
	CU_ASSERT_STRING_EQUAL(val(sw, 0, 2), "8");
	CU_ASSERT_EQUAL(sw->points[0].jl.jobs[1].iodepth_batch_submit, 8);
	CU_ASSERT_STRING_EQUAL(val(sw, 0, 3), "1");
	sb_joblist_free(&jl);
}

/* one error reported at file:line and containing every text in want[] */
static void expect_error(const char *text, const char *const *want)
{
	struct sb_joblist jl;
	CU_ASSERT_NOT_EQUAL(parse(text, &jl), 0);
	for (unsigned i = 0; want[i]; i++) {
		CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, want[i]));
		if (!strstr(logbuf, want[i]))
			fprintf(stderr, "\nmissing '%s' in:\n%s", want[i], logbuf);
	}
	CU_ASSERT_PTR_NULL(jl.sweep);
	sb_joblist_free(&jl);
}

static void test_errors(void)
{
	expect_error("[a]\nsize=1m\nsweep.bz = 4k | 8k\n",
		     (const char *[]){ "job.ini:3:", "'bz'", "did you mean 'sweep.bs'", NULL });
	expect_error("[a]\nsize=1m\nsweep.qqqqqqqqq = 1|2\n",
		     (const char *[]){ "job.ini:3:", "unknown option 'qqqqqqqqq'", NULL });
	expect_error("[a]\nsize=1m\n\nsweep.iodepth = 4 | lots\n",
		     (const char *[]){ "job.ini:4:", "'lots'", "2 of 2", NULL });
	expect_error("[a]\nsize=1m\nsweep.rw = read | sideways\n",
		     (const char *[]){ "job.ini:3:", "'sideways'", "randread", NULL });
	expect_error("[a]\nsize=1m\nsweep.iodepth_batch_submit = 1 | @iodpth\n",
		     (const char *[]){ "job.ini:3:", "did you mean '@iodepth'", NULL });
	expect_error("[a]\nsize=1m\nsweep.bs = 4k || 8k\n",
		     (const char *[]){ "job.ini:3:", "value 2 of the list is empty", NULL });
	expect_error("[a]\nsize=1m\nbs=4k\nsweep.bs = 8k | 16k\n",
		     (const char *[]){ "job.ini:4:", "also set at job.ini:3", NULL });
	expect_error("[global]\nsweep.bs = 8k | 16k\n[a]\nsize=1m\nsweep.blocksize = 4k\n",
		     (const char *[]){ "job.ini:5:", "already swept at job.ini:2", NULL });
	/* a value valid alone but not with the rest of its point: the checker's
	 * message at the sweep line, and which point it was */
	expect_error("[a]\nioengine=null\nsize=64k\nsweep.bs = 4k | 1m\n",
		     (const char *[]){ "job.ini:4:", "bs=1m", "sweep point 2 of 2", NULL });
}

static void test_var_default(void)
{
	struct sb_joblist jl;
	const char *text = "[a]\nioengine=null\nsize=${SB_T_SWEEP_SIZE:-2m}\n"
			   "sweep.bs = ${SB_T_SWEEP_BS:-4k} | 8k\n";
	unsetenv("SB_T_SWEEP_SIZE");
	setenv("SB_T_SWEEP_BS", "", 1);
	CU_ASSERT_EQUAL_FATAL(parse(text, &jl), 0);
	CU_ASSERT_EQUAL(jl.jobs[0].size, 2u << 20);
	CU_ASSERT_STRING_EQUAL(val(jl.sweep, 0, 0), "4k");
	sb_joblist_free(&jl);
	setenv("SB_T_SWEEP_SIZE", "3m", 1);
	setenv("SB_T_SWEEP_BS", "16k", 1);
	CU_ASSERT_EQUAL_FATAL(parse(text, &jl), 0);
	CU_ASSERT_EQUAL(jl.jobs[0].size, 3u << 20);
	CU_ASSERT_STRING_EQUAL(val(jl.sweep, 0, 0), "16k");
	sb_joblist_free(&jl);
	unsetenv("SB_T_SWEEP_SIZE");
	unsetenv("SB_T_SWEEP_BS");
}

/* a repetition with one job per (bytes, runtime) pair, direction d */
static void fake_rep(struct sb_sweep_rep *rep, int d, const uint64_t *bytes,
		     const uint64_t *run_ns, size_t njobs)
{
	memset(rep, 0, sizeof(*rep));
	rep->res.jobs = calloc(njobs, sizeof(*rep->res.jobs));
	rep->res.njobs = njobs;
	for (size_t j = 0; j < njobs; j++) {
		struct sb_tstats *st = &rep->res.jobs[j].st;
		sb_tstats_init(st);
		st->io_bytes[d] = bytes[j];
		st->total_ios[d] = bytes[j] / 4096;
		st->runtime_ns[d] = run_ns[j];
		for (int k = 0; k < 100; k++) {
			sb_shist_add(&st->clat_h[d], k < 99 ? 1000 : 100000);
			sb_stat_add(&st->clat[d], k < 99 ? 1000 : 100000);
		}
	}
}

static void test_summarize(void)
{
	struct sb_sweep_point_result pr = { 0 };
	struct sb_sweep_rep reps[2];
	/* DeepSpeed's GB/s: all bytes over the slowest worker's time */
	fake_rep(&reps[0], SB_DDIR_READ, (const uint64_t[]){ 1 << 30, 1 << 30 },
		 (const uint64_t[]){ 1000000000, 2000000000 }, 2);
	fake_rep(&reps[1], SB_DDIR_READ, (const uint64_t[]){ 1 << 30, 1 << 30 },
		 (const uint64_t[]){ 500000000, 1000000000 }, 2);
	pr.reps = reps;
	pr.nreps = 2;
	for (int k = 0; k < 2; k++)
		CU_ASSERT_EQUAL_FATAL(sb_sweep_fold_rep(&pr, &reps[k]), 0);
	sb_sweep_summarize(&pr, SB_SWEEP_METRIC_BW);
	const struct sb_sweep_dirsum *ds = &pr.dir[SB_DDIR_READ];
	CU_ASSERT_EQUAL(pr.dirs, 1u << SB_DDIR_READ);
	CU_ASSERT_DOUBLE_EQUAL(ds->bw_min, 1024.0 * 1024 * 1024, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(ds->bw_max, 2048.0 * 1024 * 1024, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(ds->bw_mean, 1536.0 * 1024 * 1024, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(ds->iops_mean, 1.5 * 262144, 1.0); /* 2^19 I/Os: 2 s, then 1 s */
	CU_ASSERT_EQUAL(ds->io_bytes, 2ull << 30);
	/* p50 of 400 completions, 4 of them slow: p50 is the fast bucket */
	CU_ASSERT(ds->clat_p50_ns >= 990 && ds->clat_p50_ns <= 1010);
	CU_ASSERT(ds->clat_p99_ns >= 990 && ds->clat_p99_ns <= 1010);
	CU_ASSERT_DOUBLE_EQUAL(pr.score, ds->bw_mean, 1.0);
	CU_ASSERT_FALSE(pr.dirs & (1u << SB_DDIR_WRITE));
	/* each repetition keeps its summary, not its results */
	for (int k = 0; k < 2; k++) {
		const struct sb_sweep_repdir *rd = &reps[k].dir[SB_DDIR_READ];
		CU_ASSERT_PTR_NULL(reps[k].res.jobs);
		CU_ASSERT_EQUAL(reps[k].res.njobs, 0);
		CU_ASSERT_EQUAL(reps[k].dirs, 1u << SB_DDIR_READ);
		CU_ASSERT_EQUAL(rd->io_bytes, 2ull << 30);
		CU_ASSERT_DOUBLE_EQUAL(rd->bw, (k ? 2048.0 : 1024.0) * 1024 * 1024, 1.0);
		CU_ASSERT_EQUAL(rd->runtime_ms, 0); /* fake jobs: no runtime_ms set */
		CU_ASSERT(rd->clat_p50_ns >= 990 && rd->clat_p50_ns <= 1010);
		CU_ASSERT(rd->clat_p99_9_ns >= 99000 && rd->clat_p99_9_ns <= 101000);
	}
	/* the jobs merged over the repetitions: bytes and completions add */
	CU_ASSERT_EQUAL_FATAL(pr.merged.njobs, 2);
	CU_ASSERT_EQUAL(pr.merged.jobs[0].st.io_bytes[SB_DDIR_READ], 2ull << 30);
	CU_ASSERT_EQUAL(pr.merged.jobs[1].st.clat_h[SB_DDIR_READ].n, 200);
	CU_ASSERT_EQUAL(pr.merged.jobs[1].st.runtime_ns[SB_DDIR_READ], 3000000000ull);
	sb_results_free(&pr.merged);
}

static void set_point(struct sb_sweep_point_result *p, size_t index, unsigned dirs, double bw,
		      double iops, uint64_t p99, int error)
{
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->dirs = dirs;
	p->error = error;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (!(dirs & (1u << d)))
			continue;
		p->dir[d].bw_mean = bw;
		p->dir[d].iops_mean = iops;
		p->dir[d].clat_p99_ns = p99;
	}
}

static void test_best(void)
{
	struct sb_sweep_point_result pts[5];
	struct sb_sweep_results sr = { .points = pts, .ndone = 5 };
	set_point(&pts[0], 0, 1u << SB_DDIR_READ, 100, 900, 5000, 0);
	set_point(&pts[1], 1, 1u << SB_DDIR_READ, 300, 100, 9000, 0);
	set_point(&pts[2], 2, 1u << SB_DDIR_READ, 900, 999, 100, EIO); /* errors: never best */
	set_point(&pts[3], 3, 1u << SB_DDIR_WRITE, 50, 10, 7000, 0);
	set_point(&pts[4], 4, 1u << SB_DDIR_WRITE, 70, 5, 8000, 0);
	sr.metric = SB_SWEEP_METRIC_BW;
	sb_sweep_pick_best(&sr);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_READ], 1);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_WRITE], 4);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_TRIM], -1);
	sr.metric = SB_SWEEP_METRIC_IOPS;
	sb_sweep_pick_best(&sr);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_READ], 0);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_WRITE], 3);
	sr.metric = SB_SWEEP_METRIC_CLAT_P99; /* lowest wins */
	sb_sweep_pick_best(&sr);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_READ], 0);
	CU_ASSERT_EQUAL(sr.best[SB_DDIR_WRITE], 3);
}

static void test_table_order(void)
{
	struct sb_sweep_point_result pts[4];
	struct sb_sweep_results sr = { .points = pts, .ndone = 4 };
	size_t order[4];
	double scores[4] = { 2.0, 5.0, 2.0, -INFINITY };
	for (int i = 0; i < 4; i++) {
		memset(&pts[i], 0, sizeof(pts[i]));
		pts[i].score = scores[i];
	}
	sb_sweep_order(&sr, order);
	CU_ASSERT_EQUAL(order[0], 1);
	CU_ASSERT_EQUAL(order[1], 0); /* ties keep the run order */
	CU_ASSERT_EQUAL(order[2], 2);
	CU_ASSERT_EQUAL(order[3], 3);
	/* clat_p99 scores are negated latencies: the lower p99 scores higher */
	struct sb_sweep_rep ra, rb;
	struct sb_sweep_point_result a = { 0 }, b = { 0 };
	fake_rep(&ra, SB_DDIR_READ, (const uint64_t[]){ 4096 }, (const uint64_t[]){ 1000 }, 1);
	fake_rep(&rb, SB_DDIR_READ, (const uint64_t[]){ 4096 }, (const uint64_t[]){ 1000 }, 1);
	for (int k = 0; k < 10; k++)
		sb_shist_add(&rb.res.jobs[0].st.clat_h[SB_DDIR_READ], 5000000);
	a.reps = &ra;
	a.nreps = 1;
	b.reps = &rb;
	b.nreps = 1;
	CU_ASSERT_EQUAL_FATAL(sb_sweep_fold_rep(&a, &ra), 0);
	CU_ASSERT_EQUAL_FATAL(sb_sweep_fold_rep(&b, &rb), 0);
	sb_sweep_summarize(&a, SB_SWEEP_METRIC_CLAT_P99);
	sb_sweep_summarize(&b, SB_SWEEP_METRIC_CLAT_P99);
	CU_ASSERT(a.dir[0].clat_p99_ns < b.dir[0].clat_p99_ns);
	CU_ASSERT(a.score > b.score);
	sb_results_free(&a.merged);
	sb_results_free(&b.merged);
}

static void test_run_null(void)
{
	struct sb_joblist jl;
	struct sb_sweep_results sr;
	struct sb_results res;
	CU_ASSERT_EQUAL_FATAL(parse("[global]\nioengine=null\nsize=256k\nloops=2\n"
				    "drop_caches=1\nsweep.rw = read | write\n"
				    "[a]\nsweep.bs = 4k | 64k\n", &jl), 0);
	const struct sb_run_env env = { .drop_caches = "/nonexistent-storbench/drop_caches" };
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_sweep_run(&jl, &env, &sr, &res);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(sr.ndone, 4);
	CU_ASSERT_FALSE(sr.interrupted);
	CU_ASSERT_PTR_EQUAL(res.sweep, &sr);
	CU_ASSERT_EQUAL(res.njobs, 0);
	/* warned once, went on */
	CU_ASSERT_EQUAL(sr.caches, -1);
	const char *w = strstr(logbuf, "caches not dropped");
	CU_ASSERT(w && !strstr(w + 1, "caches not dropped"));
	for (size_t i = 0; i < sr.ndone; i++) {
		const struct sb_sweep_point_result *p = &sr.points[i];
		int d = i < 2 ? SB_DDIR_READ : SB_DDIR_WRITE;
		CU_ASSERT_EQUAL(p->index, i);
		CU_ASSERT_EQUAL(p->nreps, 2);       /* loops=2: two repetitions */
		CU_ASSERT_EQUAL(p->dirs, 1u << d);
		CU_ASSERT_EQUAL(p->dir[d].io_bytes, 256 * 1024); /* one pass each */
		CU_ASSERT(p->dir[d].bw_min <= p->dir[d].bw_mean && p->dir[d].bw_mean <= p->dir[d].bw_max);
		/* bounded memory: a finished point keeps the repetitions'
		 * summaries and one merged result per job, never the
		 * repetitions' own results (histograms, time series) */
		for (unsigned k = 0; k < p->nreps; k++) {
			CU_ASSERT_PTR_NULL(p->reps[k].res.jobs);
			CU_ASSERT_EQUAL(p->reps[k].res.njobs, 0);
			CU_ASSERT_PTR_NULL(p->reps[k].res.groups);
			CU_ASSERT_EQUAL(p->reps[k].dirs, 1u << d);
			CU_ASSERT_EQUAL(p->reps[k].dir[d].io_bytes, 256 * 1024);
		}
		CU_ASSERT_EQUAL_FATAL(p->merged.njobs, 1);
		CU_ASSERT_EQUAL(p->merged.jobs[0].st.io_bytes[d], 2 * 256 * 1024);
		CU_ASSERT_EQUAL(p->merged.jobs[0].st.total_ios[d], p->merged.jobs[0].st.clat_h[d].n);
		CU_ASSERT(p->merged.jobs[0].nts <= SB_SWEEP_TS_MAX);
		CU_ASSERT_EQUAL(p->merged.ngroups, 1);
		/* the parser's point job list, not a copy per point */
		CU_ASSERT_PTR_EQUAL(p->merged.joblist, &jl.sweep->points[i].jl);
		CU_ASSERT_PTR_EQUAL(p->merged.jobs[0].spec, &jl.sweep->points[i].jl.jobs[0]);
		CU_ASSERT_PTR_NULL(p->specs);
	}
	CU_ASSERT(sr.best[SB_DDIR_READ] == 0 || sr.best[SB_DDIR_READ] == 1);
	CU_ASSERT(sr.best[SB_DDIR_WRITE] == 2 || sr.best[SB_DDIR_WRITE] == 3);
	sb_sweep_results_free(&sr);
	sb_joblist_free(&jl);
}

static CU_TestInfo tests[] = {
	{ "product_and_order", test_product_and_order },
	{ "commas_stay_fio", test_commas_stay_fio },
	{ "at_references", test_at_references },
	{ "errors", test_errors },
	{ "var_default", test_var_default },
	{ "summarize", test_summarize },
	{ "best", test_best },
	{ "table_order", test_table_order },
	{ "run_null", test_run_null },
	CU_TEST_INFO_NULL,
};
SB_SUITE(sweep, tests)
