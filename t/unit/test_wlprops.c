/* test_wlprops.c: parse/ and run/ know a workload only by its row.  A
 * workload's id is its position in main's table; the generic checks ask the
 * row's properties (its option category, the options it takes too, its
 * SB_PWL_* flags), so two toy workloads handed to the parser get the same
 * treatment as the shipped ones; the system inventory asks the row's
 * folders hook; an ML result is read only through the typed accessor of
 * the workload that made it; kv_users becomes a user count in one place. */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/kvcache/kvcache.h"
#include "ml/registry.h"
#include "ml/train/trainst.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"
#include "run/workload.h"

static char logbuf[4096];

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("p.ini", text, jl);
	if (!rc)
		rc = sb_joblist_finish(jl);
	sb_log_capture(NULL, 0);
	return rc;
}

/* the registry's list plus toya (takes rules= and checkpoint_folder=,
 * creates its data) and toyb (nothing of anyone else's) */
static int hand_down_toys(void)
{
	static const char *const toya_also[] = { "rules", "checkpoint_folder", NULL };
	struct sb_parse_workload w[SB_PARSE_WORKLOADS_MAX];
	unsigned n = 0;
	for (unsigned i = 1; sb_workload_table[i]; i++) /* 0 is io, parse's own */
		w[n++] = sb_workload_parse_view(sb_workload_table[i], i);
	w[n++] = (struct sb_parse_workload){ .id = 9, .name = "toya", .help = "a toy",
					     .also = toya_also, .flags = SB_PWL_MAKES_DATA };
	w[n++] = (struct sb_parse_workload){ .id = 10, .name = "toyb", .help = "another toy" };
	return sb_parse_set_workloads(w, n);
}

static void test_ids_are_positions(void)
{
	const struct sb_workload_ops *const *t = sb_workloads_get();
	CU_ASSERT_TRUE_FATAL(t[0] && (t[0]->flags & SB_WL_THREADS)); /* io first */
	for (unsigned i = 0; t[i]; i++) {
		CU_ASSERT_EQUAL(sb_workload_id(t[i]), i);
		struct sb_jobspec s = { .workload = i };
		CU_ASSERT_EQUAL(sb_spec_is_io(&s), i == 0);
		const struct sb_parse_workload *p = sb_parse_workload_find(i);
		if (i == 0) {
			CU_ASSERT_PTR_NULL(p); /* io is parse's own */
			continue;
		}
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_STRING_EQUAL(p->name, t[i]->name);
		CU_ASSERT_EQUAL(p->category, t[i]->category);
		CU_ASSERT_EQUAL(p->flags, t[i]->parse_flags);
	}
	static const struct sb_workload_ops stranger = { .name = "stranger" };
	CU_ASSERT_EQUAL(sb_workload_id(&stranger), UINT_MAX);
}

/* misplaced options and --readonly by the rows' properties */
static void test_checks_ask_the_row(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(hand_down_toys(), 0);
	/* what toya takes too is its own */
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=toya\nrules=mlperf\n"
			      "checkpoint_folder=/nonexistent/c\n", &jl), 0);
	CU_ASSERT_PTR_NULL(strstr(logbuf, "applies to"));
	/* --readonly refuses a workload that creates its data */
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_joblist_check_readonly(&jl), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "p.ini:3: workload=toya: job 'a' creates its dataset"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=toyb\n", &jl), 0);
	CU_ASSERT_EQUAL(sb_joblist_check_readonly(&jl), 0);
	sb_joblist_free(&jl);
	/* an option a workload owns by category, given to toya: refused, naming
	 * its owner, with file:line */
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nworkload=toya\nepochs=2\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "p.ini:4: epochs=2 applies to workload=train,"));
	sb_joblist_free(&jl);
	/* rules= (parse's own row) given to toyb: every workload that takes it
	 * is named, the first as the fix */
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nworkload=toyb\nrules=mlperf\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "p.ini:4: rules=mlperf applies to workload=checkpoint or "
					      "train or kvcache or toya, but job 'a' has workload=toyb"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "add workload=checkpoint"));
	sb_joblist_free(&jl);
	/* checkpoint_folder: checkpoint's, taken by train and toya, not kvcache */
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nworkload=kvcache\ncheckpoint_folder=/x\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "checkpoint_folder=/x applies to workload=checkpoint or "
					      "train or toya,"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(sb_workloads_hand_down(), 0); /* back to main's */
	CU_ASSERT_PTR_NULL(sb_parse_workload_find(9));
}

/* the system inventory's folders: each row names its job's */
static void test_folders_hook(void)
{
	struct sb_joblist jl;
	const char *dirs[8];
	CU_ASSERT_EQUAL_FATAL(parse("[a]\nioengine=null\nsize=1m\ndirectory=/d/io\n"
				    "[c]\nioengine=null\nworkload=checkpoint\nmodel=llama3-8b\nranks=4\n"
				    "subset=1\ncheckpoint_folder=/d/ck\ncheckpoint_cache_folder=/d/cache\n"
				    "num_checkpoints_read=0\n", &jl), 0);
	for (size_t i = 0; i < jl.njobs; i++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(sb_workload_of(&jl.jobs[i])->folders);
	unsigned n = sb_workload_of(&jl.jobs[0])->folders(&jl.jobs[0], dirs, 8);
	CU_ASSERT_EQUAL(n, 1u);
	CU_ASSERT_STRING_EQUAL(dirs[0], "/d/io");
	n = sb_workload_of(&jl.jobs[1])->folders(&jl.jobs[1], dirs, 8);
	bool ck = false, cache = false;
	for (unsigned k = 0; k < n; k++) {
		ck |= dirs[k] && !strcmp(dirs[k], "/d/ck");
		cache |= dirs[k] && !strcmp(dirs[k], "/d/cache");
	}
	CU_ASSERT_TRUE(ck);
	CU_ASSERT_TRUE(cache);
	CU_ASSERT_EQUAL(sb_workload_of(&jl.jobs[1])->folders(&jl.jobs[1], dirs, 1), 1u); /* max holds */
	sb_joblist_free(&jl);
}

static void wl_release(struct sb_wl_result *r)
{
	(void)r;
}

/* a result is read only through the accessor of the workload that made it */
static void test_typed_accessors(void)
{
	const struct sb_ml_figures *rows[] = { &sb_ckpt_figures, &sb_train_figures, &sb_kv_figures };
	for (unsigned i = 0; i < 3; i++) {
		struct sb_ml_result *m = sb_ml_result_new(rows[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		if (i == 2)
			((struct sb_kv_job_result *)m)->kv = calloc(1, sizeof(struct sb_kv_result));
		struct sb_job_result jr = { .wl = &m->head };
		CU_ASSERT_PTR_EQUAL(sb_ml_result_of(&jr), m);
		CU_ASSERT_EQUAL(sb_ckpt_result_of(&jr) != NULL, i == 0);
		CU_ASSERT_EQUAL(sb_train_result_of(&jr) != NULL, i == 1);
		CU_ASSERT_EQUAL(sb_kv_result_of(&jr) != NULL, i == 2);
		for (unsigned k = 0; k < 3; k++)
			CU_ASSERT_EQUAL(sb_ml_result_mine(jr.wl, rows[k]) != NULL, k == i);
		jr.wl->fig->release(jr.wl);
	}
	/* an io job (no result) and another kind of result: none of them */
	struct sb_job_result io = { .wl = NULL };
	CU_ASSERT_PTR_NULL(sb_ml_result_of(&io));
	CU_ASSERT_PTR_NULL(sb_ckpt_result_of(&io));
	static const struct sb_wl_figures other_fig = { .release = wl_release };
	struct sb_wl_result other = { .fig = &other_fig };
	struct sb_job_result jo = { .wl = &other };
	CU_ASSERT_PTR_NULL(sb_ml_result_of(&jo));
	CU_ASSERT_PTR_NULL(sb_ckpt_result_of(&jo));
	CU_ASSERT_PTR_NULL(sb_train_result_of(&jo));
	CU_ASSERT_PTR_NULL(sb_kv_result_of(&jo));
}

/* kv_users= is the user count, else concurrency=, at least 1 */
static void test_kv_users(void)
{
	static const struct { const char *opts; unsigned users; } cases[] = {
		{ "", 1 }, { "concurrency=4\n", 4 }, { "kv_profile=mlperf\nkv_users=7\nconcurrency=4\n", 7 },
		{ "kv_profile=mlperf\nconcurrency=3\n", 3 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct sb_joblist jl;
		snprintf(text, sizeof(text), "[a]\nioengine=null\nworkload=kvcache\nmodel=llama3-8b\n%s",
			 cases[i].opts);
		int rc = parse(text, &jl);
		CU_ASSERT_EQUAL(rc, 0);
		if (!rc)
			CU_ASSERT_EQUAL(sb_kv_users(&jl.jobs[0]), cases[i].users);
		sb_joblist_free(&jl);
	}
}

static CU_TestInfo tests[] = {
	{ "ids are table positions", test_ids_are_positions },
	{ "generic checks ask the row", test_checks_ask_the_row },
	{ "folders hook", test_folders_hook },
	{ "typed result accessors", test_typed_accessors },
	{ "kv users", test_kv_users },
	CU_TEST_INFO_NULL,
};
SB_SUITE(wlprops, tests)
