/* test_jobs.c: CUnit suite "jobs": job files -> struct sb_joblist.  Good
 * fixtures in t/jobs/ are checked field by field; every t/jobs/bad/ fixture
 * states its expected errors in "; expect-line: N" and "; expect: TEXT"
 * comments, and this suite checks each message names file:line and the text
 * (option, bad value, accepted form), and that nothing else was reported. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_driver.h"
#include "harness.h"
#include "lib/log.h"
#include "parse/parse.h"

static char logbuf[16384];

static const struct sb_jobspec *job(const struct sb_joblist *jl, const char *name)
{
	for (size_t i = 0; i < jl->njobs; i++)
		if (!strcmp(jl->jobs[i].name, name))
			return &jl->jobs[i];
	return NULL;
}

static const char *echo(const struct sb_opt_echo *e, unsigned n, const char *key)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(e[i].key, key))
			return e[i].value;
	return NULL;
}

static int parse_one(const char *path, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_files(&path, 1, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

static void test_basic(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse_one("t/jobs/basic.ini", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 3);
	const struct sb_jobspec *a = job(&jl, "seq-read"), *b = job(&jl, "rand-write"),
				*c = job(&jl, "mixed");
	CU_ASSERT_FATAL(a && b && c);
	CU_ASSERT_STRING_EQUAL(a->ioengine, "sync");
	CU_ASSERT_EQUAL(a->size, 4u << 20);
	CU_ASSERT(a->bs[0] == 4096 && a->bs[1] == 4096 && a->bs_min[0] == 4096 && a->bs_max[2] == 4096);
	CU_ASSERT_EQUAL(a->runtime_us, 2000000);
	CU_ASSERT(a->time_based && a->group_reporting && !a->direct);
	CU_ASSERT_EQUAL(a->rw, SB_RW_READ);
	CU_ASSERT_STRING_EQUAL(a->description, "sequential read pass");
	CU_ASSERT_STRING_EQUAL(a->file, "t/jobs/basic.ini");
	CU_ASSERT_EQUAL(a->line, 11);
	CU_ASSERT_EQUAL(a->groupid, 0);
	/* fio defaults */
	CU_ASSERT(a->iodepth == 1 && a->iodepth_batch_complete_max == 1 && a->numjobs == 1);
	CU_ASSERT(a->rwmixread == 50 && a->randrepeat && a->randseed == 0x89 && a->loops == 1);
	CU_ASSERT(a->fallocate == SB_FALLOC_POSIX && a->kb_base == 1024 && a->clat_percentiles);
	CU_ASSERT(a->percentile_n == 17 && a->percentile_list[0] == 1 && a->percentile_list[16] == 99.99);
	CU_ASSERT(spec_eopt_get(a, "sqthread_poll_cpu") == -1 && a->thinktime_blocks == 1 && a->nrfiles == 1);
	/* bs=8k,16k: read 8k, write and trim 16k */
	CU_ASSERT(b->bs[0] == 8192 && b->bs[1] == 16384 && b->bs[2] == 16384);
	CU_ASSERT(b->stonewall && b->groupid == 1);
	CU_ASSERT_STRING_EQUAL(b->wait_for, "seq-read");
	CU_ASSERT_EQUAL(b->rw, SB_RW_WRITE | SB_RW_RANDOM);
	/* the second [global] applies only to the jobs after it */
	CU_ASSERT(!a->direct && !b->direct && c->direct);
	CU_ASSERT(c->rwmixread == 70 && a->rwmixread == 50);
	CU_ASSERT(c->new_group && c->groupid == 2);
	CU_ASSERT_EQUAL(c->rw, SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM);
	/* "job options" echo: only what the section itself set, as written */
	CU_ASSERT_EQUAL(a->nopts, 2);
	CU_ASSERT_STRING_EQUAL(echo(a->opts, a->nopts, "rw"), "read");
	CU_ASSERT_STRING_EQUAL(echo(b->opts, b->nopts, "bs"), "8k,16k");
	CU_ASSERT_STRING_EQUAL(echo(jl.global_opts, jl.nglobal, "size"), "4m");
	CU_ASSERT_STRING_EQUAL(echo(jl.global_opts, jl.nglobal, "time_based"), "");
	CU_ASSERT_STRING_EQUAL(echo(jl.global_opts, jl.nglobal, "direct"), "1");
	CU_ASSERT_EQUAL(jl.nglobal, 8);
	CU_ASSERT_PTR_NULL(strstr(logbuf, "storbench: t/"));
	sb_joblist_free(&jl);
}

static void test_include_env(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse_one("t/jobs/include.ini", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 1);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].ioengine, "psync");
	CU_ASSERT_EQUAL(jl.jobs[0].size, 16u << 20);
	CU_ASSERT_EQUAL(jl.jobs[0].numjobs, 2);
	sb_joblist_free(&jl);

	setenv("SB_T_SIZE", "2m", 1);
	setenv("SB_T_NAME", "x", 1);
	CU_ASSERT_EQUAL_FATAL(parse_one("t/jobs/env.ini", &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 1);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].name, "job-x");
	CU_ASSERT_EQUAL(jl.jobs[0].size, 2u << 20);
	sb_joblist_free(&jl);
}

static void test_splits(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse_one("t/jobs/splits.ini", &jl), 0);
	const struct sb_jobspec *s = &jl.jobs[0];
	CU_ASSERT_EQUAL(s->kb_base, 1000);
	CU_ASSERT_EQUAL(s->size, 1000000000ull);
	CU_ASSERT(s->filesize_min == 1000000 && s->filesize_max == 2000000);
	CU_ASSERT(s->bssplit_n[0] == 3 && s->bssplit_n[1] == 1 && s->bssplit_n[2] == 1);
	CU_ASSERT(s->bssplit[0][0].bs == 4000 && s->bssplit[0][0].pct == 50);
	CU_ASSERT(s->bssplit[0][2].bs == 64000 && s->bssplit[0][2].pct == 20);
	CU_ASSERT(s->bssplit[1][0].bs == 16000 && s->bssplit[2][0].bs == 16000);
	CU_ASSERT(s->bs_min[0] == 4000 && s->bs_max[0] == 64000 && s->bs_min[1] == 16000);
	CU_ASSERT(s->rate[0] == 1000000 && s->rate[1] == 500000 && s->rate[2] == 500000);
	CU_ASSERT(s->rate_iops[0] == 100 && s->rate_iops[1] == 0 && s->rate_iops[2] == 0);
	CU_ASSERT(s->random_distribution == SB_DIST_ZIPF && s->dist_param == 1.2);
	CU_ASSERT(s->percentile_n == 3 && s->percentile_list[0] == 50 && s->percentile_list[2] == 99.9);
	CU_ASSERT(s->thinktime_us == 250 && s->thinktime_spin_us == 100);
	CU_ASSERT_EQUAL(s->fallocate, SB_FALLOC_KEEP);
	sb_joblist_free(&jl);
}

static void test_bsrange(void)
{
	struct sb_joblist jl = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_parse_text("r.ini", "[r]\nrw=randrw\nbsrange=1k-4k,2k:8k\n", &jl), 0);
	const struct sb_jobspec *s = &jl.jobs[0];
	CU_ASSERT(s->bs_min[0] == 1024 && s->bs_max[0] == 4096);
	CU_ASSERT(s->bs_min[1] == 2048 && s->bs_max[1] == 8192 && s->bs_max[2] == 8192);
	sb_joblist_free(&jl);
}

static void test_cmdline(void)
{
	char *args[] = { "--ioengine=sync", "--size=1m", "--name=a", "--rw=randread", "--bs=8k",
			 "--name=b", "--rw=write", "--stonewall", "--time_based", "--runtime=3" };
	struct sb_joblist jl = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_parse_cmdline_jobs(args, 10, &jl), 0);
	CU_ASSERT_EQUAL_FATAL(jl.njobs, 2);
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].name, "a");
	CU_ASSERT_STRING_EQUAL(jl.jobs[0].file, "<cmdline>");
	CU_ASSERT(jl.jobs[0].bs[0] == 8192 && jl.jobs[1].bs[0] == 4096);
	CU_ASSERT(jl.jobs[0].size == 1048576 && jl.jobs[1].size == 1048576);
	CU_ASSERT(jl.jobs[1].groupid == 1 && jl.jobs[1].time_based && jl.jobs[1].runtime_us == 3000000);
	CU_ASSERT_STRING_EQUAL(echo(jl.global_opts, jl.nglobal, "ioengine"), "sync");
	sb_joblist_free(&jl);

	char *bad[] = { "--name=a", "--bs=4q", "--blocksiz=4k", "size=1m" };
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_parse_cmdline_jobs(bad, 4, &jl), -EINVAL);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "storbench: <cmdline>: bs=4q: invalid size '4q'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "<cmdline>: unknown option 'blocksiz' (did you mean 'blocksize'?)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "'size=1m': expected a job option as --option=value"));
	sb_joblist_free(&jl);
}

static void test_unreadable(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL(parse_one("t/jobs/no-such-file.ini", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "storbench: t/jobs/no-such-file.ini: cannot read job "
				      "file: No such file or directory"));
	sb_joblist_free(&jl);
	CU_ASSERT_EQUAL(parse_one("t/jobs", &jl), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "t/jobs: cannot read job file: it is a directory, "
				      "not a regular file"));
	sb_joblist_free(&jl);
}

/* wait_for across files: a job may wait for one of an earlier file */
static void test_groups_across_files(void)
{
	const char *paths[] = { "t/jobs/basic.ini", "t/jobs/include.ini" };
	struct sb_joblist jl = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_parse_files(paths, 2, &jl), 0);
	CU_ASSERT_EQUAL(jl.njobs, 4);
	/* no stonewall, yet a new group: fio 3.33 starts one at each job file
	 * after the first (fio a.ini b.ini, one job each: groupid 0 and 1) */
	CU_ASSERT_EQUAL(jl.jobs[3].groupid, 3);
	CU_ASSERT_STRING_EQUAL(jl.jobs[3].file, "t/jobs/include.ini");
	sb_joblist_free(&jl);
}

/* one bad fixture: its "; expect" comments against the captured messages */
static void check_bad_fixture(const char *path)
{
	char text[8192], msg[1200], want[300];
	unsigned nlines = 0;
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	struct sb_joblist jl;
	int rc = parse_one(path, &jl);
	snprintf(msg, sizeof(msg), "%s: parse returned %d, want -EINVAL", path, rc);
	CU_assertImplementation(rc == -EINVAL, __LINE__, msg, __FILE__, "", CU_FALSE);
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "; expect-line: ", 15)) {
			snprintf(want, sizeof(want), "storbench: %s:%s: ", path, l + 15);
			nlines++;
		} else if (!strncmp(l, "; expect: ", 10)) {
			snprintf(want, sizeof(want), "%s", l + 10);
		} else {
			continue;
		}
		snprintf(msg, sizeof(msg), "%s: no message contains \"%s\"; got: %.300s", path, want, logbuf);
		CU_assertImplementation(strstr(logbuf, want) != NULL, __LINE__, msg, __FILE__, "", CU_FALSE);
	}
	unsigned nerr = 0;
	for (const char *p = logbuf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		nerr += !strncmp(p, "storbench: ", 11) && strncmp(p, "storbench: warning:", 19);
	snprintf(msg, sizeof(msg), "%s: %u errors reported, %u expected: %.300s", path, nerr, nlines,
		 logbuf);
	CU_assertImplementation(nlines > 0 && nerr == nlines, __LINE__, msg, __FILE__, "", CU_FALSE);
	sb_joblist_free(&jl);
}

static void test_bad_fixtures(void)
{
	DIR *d = opendir("t/jobs/bad");
	unsigned count = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	unsetenv("SB_SURELY_UNSET_VAR_42");
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "t/jobs/bad/%s", e->d_name);
		check_bad_fixture(path);
		count++;
	}
	closedir(d);
	CU_ASSERT(count >= 20);
}

static void test_print(void)
{
	struct sb_joblist jl;
	char *out = NULL;
	size_t len = 0;
	CU_ASSERT_EQUAL_FATAL(parse_one("t/jobs/basic.ini", &jl), 0);
	FILE *f = open_memstream(&out, &len);
	sb_joblist_print(f, &jl);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[rand-write] (t/jobs/basic.ini:15, group 1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "read 8192 (8 KiB), write 16384 (16 KiB), trim 16384 (16 KiB)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4194304 (4 MiB)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "2000000 us (2 s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "randwrite"));
	free(out);
	sb_joblist_free(&jl);
}

static CU_TestInfo tests[] = {
	{ "basic: globals, bare keys, groups", test_basic },
	{ "include and ${VAR}", test_include_env },
	{ "splits, bssplit, kb_base", test_splits },
	{ "bsrange", test_bsrange },
	{ "command-line jobs", test_cmdline },
	{ "unreadable job file", test_unreadable },
	{ "several files", test_groups_across_files },
	{ "bad fixtures report file:line", test_bad_fixtures },
	{ "--parse-only print", test_print },
	CU_TEST_INFO_NULL,
};
SB_SUITE(jobs, tests)
