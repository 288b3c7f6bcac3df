/* test_wlopts.c: a workload brings its own options struct (parse/workloads.h),
 * as an engine does: a toy workload handed to the parser with two rows whose
 * offsets are into its own struct; its options parse into the spec's
 * wl_opts area (sb_spec_wl_opts), take their defaults, are refused for a
 * job of another workload with file:line, reach its check, and bad lists
 * are refused whole.  This is the path a new workload takes: its folder and
 * one registry row, nothing in parse/jobspec.h. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/registry.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"

struct toy_opts {
	unsigned widgets;
	uint64_t span;
	bool loud;
};

static const struct sb_option toy_rows[] = {
	{ .name = "sbtestwl_widgets", .type = SB_OT_UINT, .off = offsetof(struct toy_opts, widgets),
	  .def = "3", .max = 100, .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "widgets" },
	{ .name = "sbtestwl_span", .type = SB_OT_SIZE, .off = offsetof(struct toy_opts, span),
	  .def = "1m", .unit = "bytes", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "span" },
	{ .name = "sbtestwl_loud", .type = SB_OT_BOOL, .off = offsetof(struct toy_opts, loud),
	  .def = "0", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "loud" },
};

static unsigned toy_id; /* past the table's ids */
static unsigned toy_checked;

static unsigned toy_check(struct sb_jobctx *c)
{
	const struct toy_opts *o = sb_spec_wl_opts(&c->spec);
	toy_checked++;
	if (o && o->loud && o->widgets > 10) {
		char where[SB_WHERE_MAX];
		sb_err(sb_job_where(c, sb_option_find("sbtestwl_widgets"), where, sizeof(where)),
		       "sbtestwl_widgets=%u with sbtestwl_loud=1: at most 10", o->widgets);
		return 1;
	}
	return 0;
}

static char logbuf[4096];

/* the registry's list (from its rows, whose offsets are into their own
 * structs, as main hands them down) plus the toy, with the first id the
 * table does not use */
static int hand_down_with_toy(void)
{
	struct sb_parse_workload w[SB_PARSE_WORKLOADS_MAX];
	unsigned n = 0, i = 0;
	for (; sb_workload_table[i]; i++) {
		const struct sb_workload_ops *o = sb_workload_table[i];
		if (o->id == SB_WL_IO)
			continue;
		CU_ASSERT_FATAL(n + 1 < SB_PARSE_WORKLOADS_MAX);
		w[n++] = (struct sb_parse_workload){ .id = o->id, .name = o->name, .help = o->help,
						     .rows = o->rows, .nrows = o->nrows ? *o->nrows : 0,
						     .opts_size = o->opts_size, .check = o->check };
	}
	toy_id = i;
	w[n++] = (struct sb_parse_workload){ .id = toy_id, .name = "sbtestwl", .help = "a test workload",
					     .rows = toy_rows, .nrows = 3,
					     .opts_size = sizeof(struct toy_opts), .check = toy_check };
	return sb_parse_set_workloads(w, n);
}

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("toy.ini", text, jl);
	if (!rc)
		rc = sb_joblist_finish(jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static void test_own_struct(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(sb_workloads_hand_down(), 0);
	CU_ASSERT_PTR_NULL(sb_option_find("sbtestwl_widgets"));
	CU_ASSERT_EQUAL_FATAL(hand_down_with_toy(), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_option_find("sbtestwl_widgets"));
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("model")); /* the others still there */

	toy_checked = 0;
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\nsbtestwl_widgets=7\nsbtestwl_span=2m\n", &jl), 0);
	CU_ASSERT_EQUAL(toy_checked, 1u);
	const struct toy_opts *o = jl.njobs ? sb_spec_wl_opts(&jl.jobs[0]) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->widgets, 7u);
	CU_ASSERT_EQUAL(o->span, 2u << 20);
	CU_ASSERT_FALSE(o->loud);
	sb_joblist_free(&jl);

	/* defaults, from the rows */
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\n", &jl), 0);
	o = jl.njobs ? sb_spec_wl_opts(&jl.jobs[0]) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->widgets, 3u);
	CU_ASSERT_EQUAL(o->span, 1u << 20);
	sb_joblist_free(&jl);

	/* its check refuses with file:line */
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\nsbtestwl_loud=1\nsbtestwl_widgets=50\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "toy.ini:5: sbtestwl_widgets=50 with sbtestwl_loud=1"));
	sb_joblist_free(&jl);

	/* its option given to a job of another workload: refused where it was set */
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nsize=1m\nsbtestwl_widgets=4\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "toy.ini:4: sbtestwl_widgets=4 applies to workload=sbtestwl"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "add workload=sbtestwl"));
	sb_joblist_free(&jl);

	/* a bad row type (a string in an options struct), or a struct too big */
	struct sb_option str_row = toy_rows[0];
	str_row.type = SB_OT_STR;
	struct sb_parse_workload bad = { .id = toy_id, .name = "toy", .rows = &str_row, .nrows = 1,
					 .opts_size = sizeof(struct toy_opts) };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&bad, 1), -EINVAL);
	bad.rows = toy_rows;
	bad.opts_size = SB_WL_OPTS_MAX + 1;
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&bad, 1), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("sbtestwl_widgets")); /* refused whole: unchanged */

	CU_ASSERT_EQUAL(sb_workloads_hand_down(), 0); /* back to main's */
	CU_ASSERT_PTR_NULL(sb_option_find("sbtestwl_widgets"));
}

static CU_TestInfo tests[] = {
	{ "own options struct", test_own_struct },
	CU_TEST_INFO_NULL,
};
SB_SUITE(wlopts, tests)
