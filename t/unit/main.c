/* main.c: runs every CUnit suite registered with SB_SUITE and writes the
 * "passed failed skipped" counts that t/run-suite.sh sums. */
#include <CUnit/Basic.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "ml/registry.h"
#include "run/engtable.h"

static struct sb_test_suite *suites;
static char tmpdir[PATH_MAX];

void sb_test_register(struct sb_test_suite *s)
{
	struct sb_test_suite **p = &suites;
	while (*p && strcmp((*p)->name, s->name) < 0)
		p = &(*p)->next;
	s->next = *p;
	*p = s;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void rm_tmpdir(void)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *sb_test_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/sbunit.XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(2);
		}
		atexit(rm_tmpdir);
	}
	return tmpdir;
}

const char *sb_test_fixture(const char *rel)
{
	static char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "t/fixtures/%s", rel);
	return buf;
}

void sb_test_put(const char *root, const char *rel, const char *text)
{
	char p[1024], cmd[1200];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	CU_ASSERT_EQUAL(system(cmd), 0);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *counts = NULL;
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--counts") && i + 1 < argc)
			counts = argv[++i];
		else
			only = argv[i];
	}
	if (sb_workloads_hand_down() || sb_run_engines_to_parser() || /* as main does */
	    CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (struct sb_test_suite *s = suites; s; s = s->next) {
		if (only && strcmp(only, s->name))
			continue;
		CU_pSuite cs = CU_add_suite(s->name, NULL, NULL);
		for (CU_TestInfo *t = s->tests; cs && t->pName; t++)
			CU_add_test(cs, t->pName, t->pTestFunc);
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned ran = CU_get_number_of_tests_run();
	unsigned bad = CU_get_number_of_tests_failed();
	printf("\nunit: %u passed, %u failed\n", ran - bad, bad);
	if (counts) {
		FILE *f = fopen(counts, "w");
		if (f) {
			fprintf(f, "%u %u 0\n", ran - bad, bad);
			fclose(f);
		}
	}
	CU_cleanup_registry();
	return bad ? 1 : 0;
}
