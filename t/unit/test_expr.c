/* test_expr.c: lib/expr.c: fio's built-in values ($ncpus, $pagesize,
 * $mb_memory) and arithmetic in option values, with units, precedence,
 * integer division and the errors for bad expressions. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lib/expr.h"
#include "parse/value.h"

static const char *ev(const char *in, enum sb_expr_kind k, uint64_t unit_us)
{
	static char out[64];
	char err[SB_VERR_LEN];
	int rc = sb_expr_eval(in, k, 1024, unit_us, out, sizeof(out), err);
	if (rc < 0)
		return "ERR";
	return rc ? out : "PLAIN";
}

static const char *everr(const char *in)
{
	static char err[SB_VERR_LEN];
	char out[64];
	err[0] = 0;
	if (sb_expr_eval(in, SB_EXPR_SIZE, 1024, 1, out, sizeof(out), err) >= 0)
		return "";
	return err;
}

static void test_sizes(void)
{
	CU_ASSERT_STRING_EQUAL(ev("4k*2", SB_EXPR_SIZE, 1), "8192");
	CU_ASSERT_STRING_EQUAL(ev("(1+1)*1g", SB_EXPR_SIZE, 1), "2147483648");
	CU_ASSERT_STRING_EQUAL(ev("(7/2)*1k", SB_EXPR_SIZE, 1), "3072");   /* integer division */
	CU_ASSERT_STRING_EQUAL(ev("(1.5*1m)", SB_EXPR_SIZE, 1), "1572864");
	CU_ASSERT_STRING_EQUAL(ev("(2^10)", SB_EXPR_SIZE, 1), "1024");
	CU_ASSERT_STRING_EQUAL(ev("(2^3^2)", SB_EXPR_SIZE, 1), "512");    /* right to left */
	CU_ASSERT_STRING_EQUAL(ev("(10%3)", SB_EXPR_SIZE, 1), "1");
	CU_ASSERT_STRING_EQUAL(ev("1+2*3", SB_EXPR_SIZE, 1), "7");
	CU_ASSERT_STRING_EQUAL(ev("(1 + 2) * 3", SB_EXPR_SIZE, 1), "9");
	CU_ASSERT_STRING_EQUAL(ev("1m-4k", SB_EXPR_SIZE, 1), "1044480");
	CU_ASSERT_STRING_EQUAL(ev("(0x10*2)", SB_EXPR_SIZE, 1), "32");
	CU_ASSERT_STRING_EQUAL(ev("4k", SB_EXPR_SIZE, 1), "PLAIN");
	CU_ASSERT_STRING_EQUAL(ev("50%", SB_EXPR_SIZE, 1), "PLAIN");
	CU_ASSERT_STRING_EQUAL(ev("-1", SB_EXPR_INT, 1), "PLAIN");
	CU_ASSERT_STRING_EQUAL(ev("(0-3)", SB_EXPR_INT, 1), "-3");
}

static void test_times_floats(void)
{
	/* no unit anywhere: the option's unit (seconds here) */
	CU_ASSERT_STRING_EQUAL(ev("(1+2)", SB_EXPR_TIME, 1000000), "3000000us");
	CU_ASSERT_STRING_EQUAL(ev("(1m+30s)", SB_EXPR_TIME, 1000000), "90000000us");
	CU_ASSERT_STRING_EQUAL(ev("(2*500ms)", SB_EXPR_TIME, 1000000), "1000000us");
	CU_ASSERT_STRING_EQUAL(ev("(1s+500)", SB_EXPR_TIME, 1000000), "1000500us");
	CU_ASSERT_STRING_EQUAL(ev("(1/4)", SB_EXPR_FLOAT, 1), "0");
	CU_ASSERT_STRING_EQUAL(ev("(1.0/4)", SB_EXPR_FLOAT, 1), "0.25");
	CU_ASSERT_STRING_EQUAL(ev("1e-3", SB_EXPR_FLOAT, 1), "PLAIN");   /* strtod's own form */
	CU_ASSERT_STRING_EQUAL(ev("2.5E+2", SB_EXPR_FLOAT, 1), "PLAIN");
	CU_ASSERT_STRING_EQUAL(ev("1e-3*2", SB_EXPR_FLOAT, 1), "ERR");
}

static void test_errors(void)
{
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(1/0)"), "division by zero"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(4%0)"), "division by zero"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(1+1"), "a '(' is not closed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("1+1)"), "a ')' without its '('"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(1+)"), "missing before ')'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("1+"), "missing at the end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(3-5)"), "negative"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(2*4x)"), "unknown unit at '4x'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(2^70)"), "too large"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("10%3+1"), "modulus only inside parentheses"));
	CU_ASSERT_PTR_NOT_NULL(strstr(everr("(1/0)"), "write e.g."));
}

static void test_keywords(void)
{
	char *out = NULL, err[SB_VERR_LEN], want[128];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), pg = sysconf(_SC_PAGESIZE);
	unsigned long long mb = (unsigned long long)sysconf(_SC_PHYS_PAGES) * (unsigned long long)pg >> 20;
	CU_ASSERT_EQUAL(sb_expr_keywords("4k", &out, err), 0);
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_EQUAL_FATAL(sb_expr_keywords("$ncpus,$pagesize:$mb_memory/$ncpusx", &out, err), 1);
	snprintf(want, sizeof(want), "%ld,%ld:%llu/%ldx", ncpu, pg, mb, ncpu);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	CU_ASSERT_EQUAL(sb_expr_keywords("$other", &out, err), 0);
}

static CU_TestInfo tests[] = {
	{ "sizes", test_sizes },
	{ "times_floats", test_times_floats },
	{ "errors", test_errors },
	{ "keywords", test_keywords },
	CU_TEST_INFO_NULL,
};
SB_SUITE(expr, tests)
