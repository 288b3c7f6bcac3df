/* test_engopts.c: CUnit suite "engopts": engine-specific options are declared
 * by their engines (engines/<name>.c), handed to the parser from above
 * (run/engtable.c), land in the engine's own area of the spec, and reach the
 * engine through struct sb_engine_job; parse/ learns engine names only from
 * the list it is given. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/value.h"
#include "run/engtable.h"

static char logbuf[4096];

/* the rows an engine declares are in the table, once, in its own area */
static void test_engine_rows_in_table(void)
{
	unsigned seen = 0;
	for (unsigned e = 0; sb_parse_engine_at(e); e++) {
		const struct sb_parse_engine *pe = sb_parse_engine_at(e);
		const struct sb_engine_ops *ops = sb_engine_find(pe->name);
		/* a built engine's rows are the ones its ops declare */
		if (ops) {
			CU_ASSERT_EQUAL(pe->noptions, ops->options ? ops->options->n : 0);
			CU_ASSERT_PTR_NULL(pe->package);
		} else {
			CU_ASSERT_PTR_NOT_NULL(pe->package);
		}
		for (unsigned i = 0; i < pe->noptions; i++) {
			const struct sb_option *o = sb_engine_option_row(pe, i);
			CU_ASSERT_PTR_NOT_NULL_FATAL(o);
			CU_ASSERT_STRING_EQUAL(o->name, pe->options[i].name);
			CU_ASSERT_PTR_EQUAL(sb_option_find(o->name), o);
			CU_ASSERT_PTR_EQUAL(sb_option_at(sb_option_index(o)), o);
			CU_ASSERT(o->off >= offsetof(struct sb_jobspec, engine_opts) &&
				  o->off < offsetof(struct sb_jobspec, engine_opts) + SB_ENGINE_OPTS_MAX);
			CU_ASSERT_EQUAL(o->category, SB_CAT_ENG);
			seen++;
		}
	}
	/* userspace_reap + io_uring's six + libcufile's cuda_io + stat_type,
	 * seen for filestat and for dirstat, which share the row, + the 19 of
	 * s3 and http (engines/s3.c), which share theirs: seen twice, + cpuio's
	 * four + exec's four */
	CU_ASSERT_EQUAL(seen, 10 + 2 * 19 + 4 + 4);
	CU_ASSERT_PTR_EQUAL(sb_engine_option_row(sb_parse_engine_find("s3"), 0),
			    sb_engine_option_row(sb_parse_engine_find("http"), 0));
	CU_ASSERT_PTR_EQUAL(sb_engine_option_row(sb_parse_engine_find("filestat"), 0),
			    sb_engine_option_row(sb_parse_engine_find("dirstat"), 0));
	CU_ASSERT_PTR_NULL(sb_engine_option_row(sb_parse_engine_find("psync"), 0));
	/* the rows follow cmdprio_bssplit, the last I/O engine row of the table */
	const struct sb_option *ef = sb_option_find("cmdprio_bssplit");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 1)->name, "userspace_reap");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 7)->name, "nonvectored");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 8)->name, "cuda_io");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 9)->name, "stat_type");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 10)->name, "http_host");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 29)->name, "cpuload");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 33)->name, "program");
	CU_ASSERT_STRING_EQUAL(sb_option_at(sb_option_index(ef) + 37)->name, "runtime");
}

/* job file -> the engine's own struct through the engine-facing view */
static void test_values_reach_engine(void)
{
	struct sb_joblist jl = { 0 };
	if (!sb_engine_find("io_uring")) {
		printf("\n  engopts: io_uring not built: skipped\n");
		return;
	}
	sb_log_capture(logbuf, sizeof(logbuf));
	int r = sb_parse_text("eo.ini",
			      "[global]\nsize=1m\nfilename=/nonexistent/eo\nfixedbufs=1\n"
			      "[u]\nioengine=io_uring\nsqthread_poll_cpu=3\nnonvectored=0\ndirect=1\n"
			      "bs=4k\nbsrange=4k-16k\nrw=randread\n"
			      "[p]\nioengine=psync\nhipri=1\n",
			      &jl);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL_FATAL(r, 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 2);
	struct sb_engine_job *j = calloc(1, sizeof(*j));
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	sb_engine_job_fill(j, &jl.jobs[0]);
	CU_ASSERT(j->direct && j->random);
	CU_ASSERT_PTR_NOT_NULL(j->opts);
	/* the block sizes the direct-I/O check sees (the job's, not the engine's):
	 * bsrange=4k-16k issues multiples of 4k; no writes */
	uint64_t bs[4];
	CU_ASSERT_EQUAL(sb_spec_bs_set(&jl.jobs[0], SB_DDIR_READ, bs, 4), 1);
	CU_ASSERT_EQUAL(bs[0], 4096);
	CU_ASSERT_EQUAL(sb_spec_bs_set(&jl.jobs[0], SB_DDIR_WRITE, bs, 4), 0);
	/* the option's row reads the value from the area the engine is handed */
	const struct sb_option *cpu = sb_option_find("sqthread_poll_cpu");
	const struct sb_option *fb = sb_option_find("fixedbufs");
	CU_ASSERT_TRUE(sb_spec_engine_owns(&jl.jobs[0], cpu));
	CU_ASSERT_EQUAL(*(const int *)((const char *)&jl.jobs[0] + cpu->off), 3);
	CU_ASSERT_TRUE(*(const bool *)((const char *)&jl.jobs[0] + fb->off));
	CU_ASSERT((const char *)j->opts <= (const char *)&jl.jobs[0] + cpu->off);
	/* psync has no options: hipri=1 for it is stored, not its engine's, and no error */
	sb_engine_job_fill(j, &jl.jobs[1]);
	CU_ASSERT_PTR_NULL(j->opts);
	CU_ASSERT_FALSE(sb_spec_engine_owns(&jl.jobs[1], sb_option_find("hipri")));
	free(j);
	sb_joblist_free(&jl);
}

/* the parser knows the engines it is given, nothing else */
static void test_injected_engine_list(void)
{
	static const struct sb_option bad_row[] = {
		{ .name = "fakeopt", .type = SB_OT_BSSPLIT, .category = SB_CAT_ENG, .help = "a split" },
	};
	static const struct sb_option big_row[] = {
		{ .name = "fakeopt", .type = SB_OT_BOOL, .def = "0", .category = SB_CAT_ENG, .help = "a flag" },
	};
	const struct sb_parse_engine fake[] = {
		{ "psync", NULL, NULL, 0, 0, true, NULL },
		{ "fakeio", "libfake-dev", NULL, 0, 0, false, NULL },
	};
	const struct sb_parse_engine strrow[] = { { "x", NULL, bad_row, 1, 8, false, NULL } };
	const struct sb_parse_engine toobig[] = { { "x", NULL, big_row, 1, SB_ENGINE_OPTS_MAX + 1, false, NULL } };
	char err[SB_VERR_LEN];
	struct sb_jobspec *s = calloc(1, sizeof(*s));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sb_parse_set_engines(strrow, 1), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_set_engines(toobig, 1), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("fixedbufs"));  /* a refused list changes nothing */
	CU_ASSERT_EQUAL_FATAL(sb_parse_set_engines(fake, 2), 0);
	CU_ASSERT_PTR_NULL(sb_option_find("fixedbufs"));
	const struct sb_option *eng = sb_option_find("ioengine");
	CU_ASSERT_EQUAL(sb_option_set(eng, s, "psync", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(eng, s, "io_uring", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown engine 'io_uring': expected one of psync"));
	CU_ASSERT_EQUAL(sb_option_set(eng, s, "fakeio", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "engine 'fakeio' is not built into this storbench: install "
					   "libfake-dev and re-run ./configure (built engines: psync)"));
	CU_ASSERT_EQUAL_FATAL(sb_run_engines_to_parser(), 0);
	CU_ASSERT_PTR_NOT_NULL(sb_option_find("fixedbufs"));
	if (sb_engine_find("io_uring"))
		CU_ASSERT_EQUAL(sb_option_set(eng, s, "io_uring", false, err), 0);
	free(s);
}

static CU_TestInfo tests[] = {
	{ "engine rows in the table", test_engine_rows_in_table },
	{ "values reach the engine's struct", test_values_reach_engine },
	{ "injected engine list", test_injected_engine_list },
	CU_TEST_INFO_NULL,
};
SB_SUITE(engopts, tests)
