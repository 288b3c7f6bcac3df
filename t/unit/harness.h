/* harness.h: how a CUnit suite file registers itself with t/unit/main.c.
 *
 *   static CU_TestInfo tests[] = { { "name", fn }, CU_TEST_INFO_NULL };
 *   SB_SUITE(values, tests)
 *
 * One suite per module; main.c runs every registered suite. */
#ifndef SB_T_HARNESS_H
#define SB_T_HARNESS_H
#include <CUnit/CUnit.h>

struct sb_test_suite {
	const char *name;
	CU_TestInfo *tests;
	struct sb_test_suite *next;
};
void sb_test_register(struct sb_test_suite *s);

/* A scratch directory for the test process, created on first use and
 * removed with everything in it at exit. */
const char *sb_test_tmpdir(void);
/* Path to a fixture under t/fixtures (tests run from the source root). */
const char *sb_test_fixture(const char *rel);
/* Write text to root/rel, making the folders on the way (fixture trees). */
void sb_test_put(const char *root, const char *rel, const char *text);

#define SB_SUITE(sname, arr)                                                   \
	static struct sb_test_suite sb_suite_##sname = { #sname, arr, 0 };     \
	__attribute__((constructor)) static void sb_suite_reg_##sname(void)    \
	{                                                                      \
		sb_test_register(&sb_suite_##sname);                           \
	}
#endif
