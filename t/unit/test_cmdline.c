/* test_cmdline.c: CUnit suite "cmdline": parse/cmdline.c's sb_parse_request,
 * i.e. command-line job options combined with job files as fio 3.33 combines
 * them (global options under each file's [global]; command-line jobs first;
 * --name=global), the --section filter, and parse/showcmd.c's lines. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "parse/parse.h"

static char logbuf[8192];

static const char *put(const char *name, const char *text)
{
	static char path[4][512];
	static unsigned n;
	char *p = path[n++ % 4];
	snprintf(p, 512, "%s/%s", sb_test_tmpdir(), name);
	sb_test_put(sb_test_tmpdir(), name, text);
	return p;
}

static int request(char **args, int nargs, const char **files, int nfiles, const char **sec, int nsec,
		   struct sb_joblist *jl)
{
	struct sb_parse_req req = { .files = files, .nfiles = nfiles, .args = args, .nargs = nargs,
				    .sections = sec, .nsections = nsec };
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_request(&req, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static void test_globals_under_the_files_global(void)
{
	const char *f[] = { put("k.fio", "[global]\nioengine=null\nrw=read\nsize=2m\n[k1]\n[k2]\nbs=16k\n") };
	char *args[] = { "--bs=8k", "--size=4m", "--iodepth=4" };
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(request(args, 3, f, 1, NULL, 0, &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 2);
	CU_ASSERT_EQUAL(jl.jobs[0].bs[0], 8192);       /* the command line's */
	CU_ASSERT_EQUAL(jl.jobs[1].bs[0], 16384);      /* the section's own wins */
	CU_ASSERT_EQUAL(jl.jobs[0].size, 2u << 20);    /* the file's [global] wins */
	CU_ASSERT_EQUAL(jl.jobs[1].iodepth, 4);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].file, f[0]);
	sb_joblist_free(&jl);
}

static void test_cmdline_jobs_first_and_own_options(void)
{
	const char *f[] = { put("k2.fio", "[m1]\nioengine=null\nsize=1m\n") };
	char *args[] = { "--numjobs=2", "--name=a", "--ioengine=null", "--size=1m", "--bs=8k",
			 "--name=global", "--rwmixread=30" };
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(request(args, 7, f, 1, NULL, 0, &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 2);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].name, "a");
	CU_ASSERT_STRING_EQUAL(jl.jobs[1].name, "m1");
	CU_ASSERT_EQUAL(jl.jobs[0].bs[0], 8192);
	CU_ASSERT_EQUAL(jl.jobs[1].bs[0], 4096);       /* a's options stay a's */
	CU_ASSERT_EQUAL(jl.jobs[0].numjobs, 2);
	CU_ASSERT_EQUAL(jl.jobs[1].numjobs, 2);        /* global before --name */
	CU_ASSERT_EQUAL(jl.jobs[0].rwmixread, 50);     /* --name=global after a */
	CU_ASSERT_EQUAL(jl.jobs[1].rwmixread, 30);
	CU_ASSERT_EQUAL(jl.jobs[0].groupid, jl.jobs[1].groupid);
	sb_joblist_free(&jl);
}

static void test_sections(void)
{
	const char *f[] = { put("s.fio", "[global]\nioengine=null\nsize=1m\n[a]\n[b]\nbs=4q\n[c]\n") };
	const char *sec[] = { "c", "a" };
	struct sb_joblist jl;
	/* b's bad value is never read: b is not selected */
	CU_ASSERT_EQUAL_FATAL(request(NULL, 0, f, 1, sec, 2, &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 2);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].name, "a");
	CU_ASSERT_STRING_EQUAL(jl.jobs[1].name, "c");
	sb_joblist_free(&jl);
	const char *none[] = { "zz" };
	CU_ASSERT_EQUAL(request(NULL, 0, f, 1, none, 1, &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "storbench: <cmdline>: --section=zz: no job section of "
				      "that name in the job files"));
	sb_joblist_free(&jl);
}

static void test_bad_global_once(void)
{
	const char *f[] = { put("g1.fio", "[x]\nioengine=null\nsize=1m\n"),
			    put("g2.fio", "[y]\nioengine=null\nsize=1m\n") };
	char *args[] = { "--bs=4q" };
	struct sb_joblist jl;
	CU_ASSERT_EQUAL(request(args, 1, f, 2, NULL, 0, &jl), -EINVAL);
	const char *m = strstr(logbuf, "<cmdline>: bs=4q:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NULL(strstr(m + 1, "<cmdline>: bs=4q:"));
	CU_ASSERT_EQUAL(jl.njobs, 0);
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(request(args, 1, NULL, 0, NULL, 0, &jl), -EINVAL);
	sb_joblist_free(&jl);
	char *only[] = { "--bs=8k" };
	CU_ASSERT_EQUAL(request(only, 1, NULL, 0, NULL, 0, &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "<cmdline>: no jobs defined"));
	sb_joblist_free(&jl);
}

static void test_showcmd(void)
{
	const char *f[] = { put("sc.fio", "[global]\nbs=64k ; c\ntime_based\n[a]\ndescription=two words\n"
				"[global]\nsize=1m\n[b]\nfilename=it's\ndirectory=a\\b'c\n") };
	char out[1024] = "";
	FILE *m = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sb_showcmd(m, f, 1), 0);
	fclose(m);
	CU_ASSERT_STRING_EQUAL(out, "storbench --bs=64k --time_based --name=a --description=\"two words\" "
			       "--name=global --size=1m --name=b --filename=\"it's\" --directory='a\\b'\\''c'\n");
}

static CU_TestInfo tests[] = {
	{ "global options under each file's [global]", test_globals_under_the_files_global },
	{ "command-line jobs first, with their own options", test_cmdline_jobs_first_and_own_options },
	{ "--section", test_sections },
	{ "a bad global option is reported once", test_bad_global_once },
	{ "--showcmd lines", test_showcmd },
	CU_TEST_INFO_NULL,
};
SB_SUITE(cmdline, tests)
