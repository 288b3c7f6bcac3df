/* test_workload.c: the workload table (run/workload.h) and the run
 * environment main passes down (run/run.h): every row consistent and named
 * as parse's workload= values, a job's workload found through the table,
 * the interim-output callback and the drop-caches path taken from the
 * environment, the one stop flag. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib/assert.h"
#include "lib/log.h"
#include "ml/checkpoint/result.h"
#include "ml/result.h"
#include "ml/registry.h"
#include "ml/run.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"
#include "run/run.h"
#include "run/thread.h"
#include "run/workload.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/train/trainst.h"

#define WL_CHECKPOINT sb_workload_id(&sb_workload_checkpoint)
#define WL_TRAIN sb_workload_id(&sb_workload_train)

static char logbuf[4096];

static void test_rows_consistent(void)
{
	unsigned n = 0;
	const struct sb_workload_ops *const *sb_workloads = sb_workloads_get();
	CU_ASSERT_PTR_EQUAL(sb_workloads, sb_workload_table); /* main's, handed down */
	for (unsigned i = 0; sb_workloads[i]; i++, n++) {
		const struct sb_workload_ops *w = sb_workloads[i];
		CU_ASSERT_PTR_NOT_NULL_FATAL(w->name);
		CU_ASSERT_EQUAL(sb_workload_id(w), i); /* its id is its position */
		CU_ASSERT_PTR_EQUAL(sb_workload_find(i), w);
		for (unsigned k = 0; k < i; k++)
			CU_ASSERT_NOT_EQUAL(strcmp(sb_workloads[k]->name, w->name), 0);
		if (w->flags & SB_WL_THREADS) {
			/* run/ drives it as I/O threads: no per-job hooks, a check */
			CU_ASSERT_PTR_NOT_NULL(w->validate);
			CU_ASSERT_PTR_NULL(w->prepare);
			CU_ASSERT_PTR_NULL(w->run);
			CU_ASSERT_PTR_NULL(w->datagen);
			CU_ASSERT_PTR_NULL(w->results);
			CU_ASSERT_PTR_NULL(w->release);
		} else {
			CU_ASSERT_PTR_NOT_NULL(w->prepare);
			CU_ASSERT_PTR_NOT_NULL(w->run);
			CU_ASSERT_PTR_NOT_NULL(w->results);
			CU_ASSERT_PTR_NOT_NULL(w->release);
		}
	}
	CU_ASSERT(n >= 3);
	CU_ASSERT_STRING_EQUAL(sb_workload_find(0)->name, "io");
	CU_ASSERT_TRUE(sb_workload_find(0)->flags & SB_WL_THREADS);
	CU_ASSERT_STRING_EQUAL(sb_workload_find(WL_CHECKPOINT)->name, "checkpoint");
	CU_ASSERT_STRING_EQUAL(sb_workload_find(WL_TRAIN)->name, "train");
	CU_ASSERT_PTR_NOT_NULL(sb_workload_find(WL_TRAIN)->datagen);
	CU_ASSERT_PTR_NULL(sb_workload_find(WL_CHECKPOINT)->datagen);
}

/* every row, whatever its name: the id is its index, its option rows are
 * its own as the parser holds them (each found by name, owned by this
 * workload, documented by its help, inside its options struct when it has
 * one), and it carries what the conformance suite runs */
static void test_rows_hold_their_invariants(void)
{
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	const struct sb_workload_ops *const *t = sb_workloads_get();
	for (unsigned i = 0; t[i]; i++) {
		const struct sb_workload_ops *w = t[i];
		CU_ASSERT_EQUAL(sb_workload_id(w), i);
		CU_ASSERT(w->help || i == 0);
		CU_ASSERT_EQUAL(w->rows == NULL, w->nrows == NULL || *w->nrows == 0);
		unsigned n = w->nrows ? *w->nrows : 0;
		CU_ASSERT(w->opts_size <= SB_SPEC_WLOPTS_MAX);
		for (unsigned k = 0; k < n; k++) {
			const struct sb_option *r = &w->rows[k];
			const struct sb_option *o = sb_option_find(r->name);
			CU_ASSERT_PTR_NOT_NULL_FATAL(o);
			const struct sb_parse_workload *pw = sb_parse_workload_of_row(o);
			CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
			CU_ASSERT_EQUAL(pw->id, i); /* the row is this workload's */
			CU_ASSERT(r->help && r->help[0]);
			CU_ASSERT(o->flags & SB_OF_ML); /* I/O comparisons ignore it */
			for (unsigned m = 0; m < k; m++)
				CU_ASSERT_NOT_EQUAL(strcmp(w->rows[m].name, r->name), 0);
			if (w->opts_size && !(r->flags & SB_OF_SPEC)) { /* inside its own struct */
				size_t sz = sb_opt_value_size(r->type);
				CU_ASSERT(r->off + (sz ? sz : 1) <= w->opts_size);
			}
		}
		const struct sb_wl_conformance *c = w->conformance;
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		const char *need[] = { c->quick, c->endless, c->sweep_opt, c->sweep_a, c->sweep_b,
				       c->json_key, c->normal };
		for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
			CU_ASSERT(need[k] && need[k][0]);
		if (n) { /* the swept option is one of its own */
			const struct sb_option *o = sb_option_find(c->sweep_opt);
			CU_ASSERT(o && sb_parse_workload_of_row(o) &&
				  sb_parse_workload_of_row(o)->id == i);
		}
	}
}

/* workload= accepts exactly the table's names, with the same ids */
static void test_rows_match_option(void)
{
	const struct sb_option *o = sb_option_find("workload");
	unsigned nvals = 0, nrows = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o->enums);
	for (const struct sb_opt_enum *e = o->enums; e->name; e++, nvals++) {
		const struct sb_workload_ops *w = sb_workload_find(e->val);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_STRING_EQUAL(w->name, e->name);
	}
	while (sb_workloads_get()[nrows])
		nrows++;
	CU_ASSERT_EQUAL(nrows, nvals);
	CU_ASSERT_PTR_NULL(sb_workload_find(nrows));
}

/* run/ sees only the table it is handed (no row of ml/ is named in run/):
 * before main hands it (or with NULL) there is none */
static void test_table_handed_down(void)
{
	sb_workloads_set(NULL);
	CU_ASSERT_PTR_NULL(sb_workloads_get()[0]);
	CU_ASSERT_PTR_NULL(sb_workload_find(0));
	CU_ASSERT_PTR_NULL(sb_workload_find(1));
	sb_workloads_set(sb_workload_table);
	CU_ASSERT_PTR_EQUAL(sb_workloads_get()[0], &sb_workload_io); /* io first */
	struct sb_jobspec s = { .workload = WL_CHECKPOINT };
	CU_ASSERT_STRING_EQUAL(sb_workload_of(&s)->name, "checkpoint");
	s.workload = 77; /* not listed: the io row */
	CU_ASSERT_PTR_EQUAL(sb_workload_of(&s), &sb_workload_io);
	/* the MPI merge is reached through the rows that have one */
	CU_ASSERT_PTR_NOT_NULL(sb_workload_find(WL_CHECKPOINT)->ranks_merge);
	CU_ASSERT_PTR_NOT_NULL(sb_workload_find(WL_TRAIN)->ranks_merge);
	CU_ASSERT_PTR_NULL(sb_workload_find(0)->ranks_merge);
}

/* the parser knows a workload's options and check only as handed down
 * (parse/workloads.h): without them model= is an unknown option and
 * workload=checkpoint an unknown value; with them both parse */
static void test_parser_handed_down(void)
{
	static const char text[] = "[a]\nioengine=null\nworkload=checkpoint\nmodel=llama3-8b\n";
	struct sb_joblist jl = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_parse_set_workloads(NULL, 0), 0);
	CU_ASSERT_PTR_NULL(sb_option_find("model"));
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("workload"));
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_NOT_EQUAL(sb_parse_text("job.ini", text, &jl), 0);
	sb_log_capture(NULL, 0);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("model"));
	memset(&jl, 0, sizeof(jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("job.ini", text, &jl);
	if (!rc)
		rc = sb_joblist_finish(&jl);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL(rc, 0);
	if (!rc)
		CU_ASSERT_EQUAL(jl.jobs[0].shape.layers, 32u); /* llama3-8b, resolved by its check */
	sb_joblist_free(&jl);
	/* a bad list is refused whole: an id twice, or io's */
	struct sb_parse_workload twice[2] = { { .id = 5, .name = "a" }, { .id = 5, .name = "b" } };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(twice, 2), -EINVAL);
	struct sb_parse_workload io = { .id = 0, .name = "io" };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&io, 1), -EINVAL);
	struct sb_parse_workload named[2] = { { .id = 5, .name = "a" }, { .id = 6, .name = "a" } };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(named, 2), -EINVAL); /* a name twice */
	named[1].name = "io";
	CU_ASSERT_EQUAL(sb_parse_set_workloads(named, 2), -EINVAL); /* io's name */
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("model")); /* unchanged */
}

/* a parsed job reaches its row through the table */
static void test_found_through_table(void)
{
	static const struct { const char *text; const char *w; } cases[] = {
		{ "[a]\nioengine=null\nsize=64k\n", "io" },
		{ "[a]\nioengine=null\nworkload=checkpoint\nmodel=llama3-8b\n", "checkpoint" },
		{ "[a]\nioengine=null\nworkload=train\ntrain_model=unet3d\n", "train" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sb_joblist jl = { 0 };
		sb_log_capture(logbuf, sizeof(logbuf));
		int rc = sb_parse_text("job.ini", cases[i].text, &jl);
		if (!rc)
			rc = sb_joblist_finish(&jl);
		sb_log_capture(NULL, 0);
		CU_ASSERT_EQUAL(rc, 0);
		if (!rc)
			CU_ASSERT_STRING_EQUAL(sb_workload_of(&jl.jobs[0])->name, cases[i].w);
		sb_joblist_free(&jl);
	}
}

static unsigned ninterim;
static void *interim_arg_seen;

static void count_interim(void *arg, const struct sb_interim *snap)
{
	interim_arg_seen = arg;
	if (snap->njobs == 1)
		ninterim++;
}

/* --status-interval's snapshots reach main's callback, with its argument
 * (at least 2 of the run's 20 intervals, however loaded the machine) */
static void test_interim_callback(void)
{
	struct sb_joblist jl = { 0 };
	struct sb_results res;
	int marker;
	struct sb_run_env env = { .opts = { .status_interval_ms = 50, .interim = count_interim,
					    .interim_arg = &marker } };
	CU_ASSERT_EQUAL_FATAL(sb_parse_text("job.ini", "[a]\nioengine=null\nrw=read\nsize=1m\n"
					    "time_based\nruntime=1s\n", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(sb_joblist_finish(&jl), 0);
	ninterim = 0;
	CU_ASSERT_EQUAL_FATAL(sb_run(&jl, &env, &res), 0);
	CU_ASSERT(ninterim >= 2);
	CU_ASSERT_PTR_EQUAL(interim_arg_seen, &marker);
	CU_ASSERT_EQUAL(res.ninterim, 0); /* interim_json off: none kept */
	sb_results_free(&res);
	sb_joblist_free(&jl);
}

/* SIGUSR1's request (sb_status_request): one snapshot to opts.status (not
 * to interim), kept with interim_json, without --status-interval; the run
 * goes on to its end */
static void test_status_request(void)
{
	struct sb_joblist jl = { 0 };
	struct sb_results res;
	int marker;
	struct sb_run_env env = { .opts = { .status = count_interim, .status_arg = &marker,
					    .interim_json = true } };
	CU_ASSERT_EQUAL_FATAL(sb_parse_text("job.ini", "[a]\nioengine=null\nrw=read\nsize=1m\n"
					    "time_based\nruntime=300ms\n", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(sb_joblist_finish(&jl), 0);
	ninterim = 0;
	interim_arg_seen = NULL;
	sb_status_request();
	CU_ASSERT_EQUAL_FATAL(sb_run(&jl, &env, &res), 0);
	CU_ASSERT_EQUAL(ninterim, 1);
	CU_ASSERT_PTR_EQUAL(interim_arg_seen, &marker);
	CU_ASSERT_EQUAL(res.ninterim, 1);
	CU_ASSERT_FALSE(res.interrupted);
	CU_ASSERT_FALSE(sb_status_take()); /* taken once */
	sb_results_free(&res);
	sb_joblist_free(&jl);
}

static void test_drop_path(void)
{
	const struct sb_run_env env = { .drop_caches = "/x/drop" };
	CU_ASSERT_STRING_EQUAL(sb_run_drop_path(NULL), "/proc/sys/vm/drop_caches");
	CU_ASSERT_STRING_EQUAL(sb_run_drop_path(&(struct sb_run_env){ 0 }), "/proc/sys/vm/drop_caches");
	CU_ASSERT_STRING_EQUAL(sb_run_drop_path(&env), "/x/drop");
}

/* the ML workloads drop the cache through the environment's path */
static void test_ml_drop_path(void)
{
	sb_log_capture(logbuf, sizeof(logbuf));
	char why[192];
	bool ok = sb_ml_drop_caches("job", "/nonexistent-storbench/drop_caches", NULL, why, sizeof(why));
	sb_log_capture(NULL, 0);
	CU_ASSERT_FALSE(ok);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "/nonexistent-storbench/drop_caches"));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "cannot open /nonexistent-storbench/drop_caches"));
}

/* one stop flag: a request stops a run (and a sweep) until cleared */
static void test_stop_flag(void)
{
	unsigned n = sb_stop_count();
	CU_ASSERT_FALSE(sb_stopping());
	sb_stop_request();
	CU_ASSERT_TRUE(sb_stopping());
	CU_ASSERT_EQUAL(sb_stop_count(), n + 1); /* every request counts */
	sb_stop_request();
	CU_ASSERT_EQUAL(sb_stop_count(), n + 2);
	sb_stop_clear();
	CU_ASSERT_FALSE(sb_stopping());
	CU_ASSERT_EQUAL(sb_stop_count(), n + 2);
	sb_status_request();
	sb_status_request();
	CU_ASSERT_TRUE(sb_status_take()); /* requests before a take: one status */
	CU_ASSERT_FALSE(sb_status_take());
}

/* fn, run in a child, aborts (SIGABRT) after printing a line with want on
 * stderr */
static bool aborts_saying(void (*fn)(void), const char *want)
{
	int fd[2];
	if (pipe(fd))
		return false;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		fn();
		_exit(0);
	}
	close(fd[1]);
	char buf[512] = "";
	ssize_t n, len = 0;
	while ((n = read(fd[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(buf, want) &&
	       strstr(buf, "storbench: internal error: ");
}

static void assert_false(void)
{
	int two = 2;
	SB_ASSERT(two == 3);
}

static void assert_true(void)
{
	int two = 2;
	SB_ASSERT(two == 2);
}

/* a table whose first row is not io (id 0), and one with a row twice
 * (two ids for one row) */
static void set_io_not_first(void)
{
	const struct sb_workload_ops *const *t = sb_workloads_get();
	static const struct sb_workload_ops *bad[3];
	bad[0] = t[1];
	bad[1] = t[0];
	sb_workloads_set(bad);
}

static void set_row_twice(void)
{
	const struct sb_workload_ops *const *t = sb_workloads_get();
	static const struct sb_workload_ops *bad[4];
	bad[0] = t[0];
	bad[1] = t[1];
	bad[2] = t[1];
	sb_workloads_set(bad);
}

/* a running checkpoint job whose result is another workload's, read as
 * the checkpoint's */
static void cast_foreign(void)
{
	static const struct sb_wl_figures fig = { 0 };
	struct sb_wl_result r = { .fig = &fig };
	struct sb_wl_job j = { .res = &r };
	(void)sb_ckpt_res(&j);
}

/* SB_ASSERT is on in this build (as in every build) and the invariants
 * the casts and tables rely on are checked where they are relied on */
static void test_asserts_hold(void)
{
	CU_ASSERT_TRUE(aborts_saying(assert_false, "two == 3"));
	CU_ASSERT_FALSE(aborts_saying(assert_true, ""));
	CU_ASSERT_TRUE(aborts_saying(set_io_not_first, "SB_WL_THREADS"));
	CU_ASSERT_TRUE(aborts_saying(set_row_twice, "table[k] != table[i]"));
	CU_ASSERT_TRUE(aborts_saying(cast_foreign, "m || !j->res"));
	struct sb_wl_job j = { 0 };
	CU_ASSERT_PTR_NULL(sb_ckpt_res(&j)); /* none yet: no abort */
	CU_ASSERT_EQUAL(sb_ml_res_make(&j, &sb_ckpt_figures), 0);
	CU_ASSERT_PTR_NOT_NULL(sb_ckpt_res(&j)); /* its own */
	j.res->fig->release(j.res);
}

static CU_TestInfo tests[] = {
	{ "rows consistent", test_rows_consistent },
	{ "rows match workload=", test_rows_match_option },
	{ "rows hold their invariants", test_rows_hold_their_invariants },
	{ "SB_ASSERT: on, at the casts and tables", test_asserts_hold },
	{ "table handed down", test_table_handed_down },
	{ "parser rows handed down", test_parser_handed_down },
	{ "found through the table", test_found_through_table },
	{ "interim callback", test_interim_callback },
	{ "status request (SIGUSR1)", test_status_request },
	{ "drop-caches path", test_drop_path },
	{ "ML drop-caches path", test_ml_drop_path },
	{ "stop flag", test_stop_flag },
	CU_TEST_INFO_NULL,
};
SB_SUITE(workload, tests)
