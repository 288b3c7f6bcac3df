/* test_wlopts.c: a workload brings its own options struct (parse/workloads.h),
 * as an engine does: a toy workload handed to the parser with rows of every
 * kind a workload uses (count, size, flag, text, fraction, time) whose
 * offsets are into its own struct; its options parse into the spec's
 * wl_opts area (sb_spec_wl_opts), take their defaults, are refused for a
 * job of another workload with file:line, reach its check, and bad lists
 * are refused whole.  This is the path a new workload takes: its folder and
 * one registry row, nothing in parse/jobspec.h. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "ml/registry.h"
#include "parse/jobspec.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/workloads.h"

struct toy_opts {
	unsigned widgets;
	uint64_t span;
	bool loud;
	char *label;
	double ratio;
	uint64_t pause_us;
};

static const struct sb_option toy_rows[] = {
	{ .name = "sbtestwl_widgets", .type = SB_OT_UINT, .off = offsetof(struct toy_opts, widgets),
	  .def = "3", .max = 100, .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "widgets" },
	{ .name = "sbtestwl_span", .type = SB_OT_SIZE, .off = offsetof(struct toy_opts, span),
	  .def = "1m", .unit = "bytes", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "span" },
	{ .name = "sbtestwl_loud", .type = SB_OT_BOOL, .off = offsetof(struct toy_opts, loud),
	  .def = "0", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "loud" },
	{ .name = "sbtestwl_label", .type = SB_OT_STR, .off = offsetof(struct toy_opts, label),
	  .def = "plain", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "label" },
	{ .name = "sbtestwl_ratio", .type = SB_OT_FLOAT, .off = offsetof(struct toy_opts, ratio),
	  .def = "0.5", .max = 1, .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "ratio" },
	{ .name = "sbtestwl_pause", .type = SB_OT_TIME, .off = offsetof(struct toy_opts, pause_us),
	  .def = "2ms", .unit_us = 1000000, .unit = "s", .flags = SB_OF_ML, .category = SB_CAT_ML, .help = "pause" },
};
#define TOY_NROWS (sizeof(toy_rows) / sizeof(toy_rows[0]))

#define TOY_ID 9u /* past the table's ids (test_workload: fewer than 8 rows) */
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

/* the registry's list plus the toy: from the table, as sb_workloads_hand_down
 * builds it (the parser's copies hold rows already moved into the spec) */
static int hand_down_with_toy(void)
{
	struct sb_parse_workload w[SB_PARSE_WORKLOADS_MAX];
	unsigned n = 0;
	for (unsigned i = 1; sb_workload_table[i]; i++) /* 0 is io, parse's own */
		w[n++] = sb_workload_parse_view(sb_workload_table[i], i);
	w[n++] = (struct sb_parse_workload){ .id = TOY_ID, .name = "sbtestwl", .help = "a test workload",
					     .rows = toy_rows, .nrows = TOY_NROWS,
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

	/* text, fraction and time in its struct: set, copied with the spec, freed with it */
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\nsbtestwl_label=loud one\n"
			      "sbtestwl_ratio=0.25\nsbtestwl_pause=3\n", &jl), 0);
	o = jl.njobs ? sb_spec_wl_opts(&jl.jobs[0]) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(o->label, "loud one");
	CU_ASSERT_DOUBLE_EQUAL(o->ratio, 0.25, 1e-12);
	CU_ASSERT_EQUAL(o->pause_us, 3000000u);
	struct sb_jobspec *copy = malloc(sizeof(*copy));
	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	CU_ASSERT_EQUAL_FATAL(sb_spec_copy(copy, &jl.jobs[0]), 0);
	const struct toy_opts *oc = sb_spec_wl_opts(copy);
	CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
	CU_ASSERT_PTR_NOT_EQUAL(oc->label, o->label); /* its own string */
	CU_ASSERT_STRING_EQUAL(oc->label, "loud one");
	sb_spec_release(copy);
	free(copy);
	CU_ASSERT_STRING_EQUAL(o->label, "loud one"); /* the original kept */
	sb_joblist_free(&jl);
	CU_ASSERT_NOT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\nsbtestwl_ratio=2\n", &jl), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "toy.ini:4"));
	sb_joblist_free(&jl);

	/* defaults, from the rows */
	CU_ASSERT_EQUAL(parse("[a]\nioengine=null\nworkload=sbtestwl\n", &jl), 0);
	o = jl.njobs ? sb_spec_wl_opts(&jl.jobs[0]) : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->widgets, 3u);
	CU_ASSERT_EQUAL(o->span, 1u << 20);
	CU_ASSERT_STRING_EQUAL(o->label, "plain");
	CU_ASSERT_DOUBLE_EQUAL(o->ratio, 0.5, 1e-12);
	CU_ASSERT_EQUAL(o->pause_us, 2000u);
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

	/* a row type that names the spec itself (engine=), a second offset past
	 * the struct, or a struct too big */
	struct sb_option bad_row = toy_rows[0];
	bad_row.type = SB_OT_ENGINE;
	struct sb_parse_workload bad = { .id = TOY_ID, .name = "sbtestwl", .rows = &bad_row, .nrows = 1,
					 .opts_size = sizeof(struct toy_opts) };
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&bad, 1), -EINVAL);
	bad_row = toy_rows[1];
	bad_row.type = SB_OT_SIZE_RANGE;
	bad_row.off2 = sizeof(struct toy_opts);
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&bad, 1), -EINVAL);
	bad_row.off2 = offsetof(struct toy_opts, pause_us);
	CU_ASSERT_EQUAL(sb_parse_set_workloads(&bad, 1), 0); /* inside: taken */
	CU_ASSERT_EQUAL_FATAL(hand_down_with_toy(), 0);
	bad.rows = toy_rows;
	bad.opts_size = SB_SPEC_WLOPTS_MAX + 1;
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
