/* test_values.c: CUnit suite "values": parse/value.c against fio's rules
 * for sizes (kb_base), times, ints, bools, ranges, splits, bssplit,
 * percentile lists and random distributions, including the error messages. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "parse/value.h"

static uint64_t size_of(const char *s, unsigned kb)
{
	char err[SB_VERR_LEN];
	uint64_t v = 0xdead;
	CU_ASSERT_EQUAL_FATAL(sb_parse_size(s, kb, &v, err), 0);
	return v;
}

static void test_size_suffixes(void)
{
	CU_ASSERT_EQUAL(size_of("4096", 1024), 4096);
	CU_ASSERT_EQUAL(size_of("4k", 1024), 4096);
	CU_ASSERT_EQUAL(size_of("4K", 1024), 4096);
	CU_ASSERT_EQUAL(size_of("4kb", 1024), 4096);
	CU_ASSERT_EQUAL(size_of("4KB", 1024), 4096);
	CU_ASSERT_EQUAL(size_of("512b", 1024), 512);
	CU_ASSERT_EQUAL(size_of("1m", 1024), 1048576);
	CU_ASSERT_EQUAL(size_of("1g", 1024), 1073741824ull);
	CU_ASSERT_EQUAL(size_of("1t", 1024), 1099511627776ull);
	CU_ASSERT_EQUAL(size_of("1p", 1024), 1125899906842624ull);
	CU_ASSERT_EQUAL(size_of("0x1000", 1024), 4096);
	CU_ASSERT_EQUAL(size_of(" 8k ", 1024), 8192);
	CU_ASSERT_EQUAL(size_of("1.5k", 1024), 1536);
}

/* fio: kb_base=1024 is "compatibility mode": k = 1024, ki = 1000;
 * kb_base=1000 follows SI/IEC: k = 1000, ki = 1024 */
static void test_size_kb_base(void)
{
	CU_ASSERT_EQUAL(size_of("4KiB", 1024), 4000);
	CU_ASSERT_EQUAL(size_of("1mi", 1024), 1000000);
	CU_ASSERT_EQUAL(size_of("4k", 1000), 4000);
	CU_ASSERT_EQUAL(size_of("4kB", 1000), 4000);
	CU_ASSERT_EQUAL(size_of("4KiB", 1000), 4096);
	CU_ASSERT_EQUAL(size_of("4ki", 1000), 4096);
	CU_ASSERT_EQUAL(size_of("1m", 1000), 1000000);
	CU_ASSERT_EQUAL(size_of("1MiB", 1000), 1048576);
	CU_ASSERT_EQUAL(size_of("1ti", 1000), 1099511627776ull);
}

static void test_size_errors(void)
{
	char err[SB_VERR_LEN];
	uint64_t v;
	CU_ASSERT_EQUAL(sb_parse_size("4q", 1024, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'4q'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "4k"));
	CU_ASSERT_EQUAL(sb_parse_size("-4k", 1024, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "negative"));
	CU_ASSERT_EQUAL(sb_parse_size("", 1024, &v, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_size("k", 1024, &v, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_size("4kk", 1024, &v, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_size("20000p", 1024, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "too large"));
	CU_ASSERT_EQUAL(sb_parse_size("99999999999999999999", 1024, &v, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_size("50%", 1024, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "percentage"));
}

static uint64_t time_of(const char *s, uint64_t unit)
{
	char err[SB_VERR_LEN];
	uint64_t v = 0xdead;
	CU_ASSERT_EQUAL_FATAL(sb_parse_time(s, unit, &v, err), 0);
	return v;
}

static void test_time(void)
{
	CU_ASSERT_EQUAL(time_of("10", SB_US_PER_SEC), 10000000);  /* runtime: seconds */
	CU_ASSERT_EQUAL(time_of("10", 1), 10);                    /* thinktime: usec */
	CU_ASSERT_EQUAL(time_of("100us", SB_US_PER_SEC), 100);
	CU_ASSERT_EQUAL(time_of("100usec", SB_US_PER_SEC), 100);
	CU_ASSERT_EQUAL(time_of("20ms", SB_US_PER_SEC), 20000);
	CU_ASSERT_EQUAL(time_of("20msec", 1), 20000);
	CU_ASSERT_EQUAL(time_of("3s", 1), 3000000);
	CU_ASSERT_EQUAL(time_of("2m", 1), 120000000);
	CU_ASSERT_EQUAL(time_of("2M", 1), 120000000);
	CU_ASSERT_EQUAL(time_of("1h", 1), 3600000000ull);
	CU_ASSERT_EQUAL(time_of("1d", 1), 86400000000ull);
	CU_ASSERT_EQUAL(time_of("1.5s", 1), 1500000);
	char err[SB_VERR_LEN];
	uint64_t v;
	CU_ASSERT_EQUAL(sb_parse_time("10x", SB_US_PER_SEC, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'10x'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "500us"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "seconds"));
	CU_ASSERT_EQUAL(sb_parse_time("-1", SB_US_PER_SEC, &v, err), -EINVAL);
}

static void test_int_bool_pct(void)
{
	char err[SB_VERR_LEN];
	int64_t i;
	bool b;
	double d;
	CU_ASSERT_EQUAL(sb_parse_int("32", 1, 64, &i, err), 0);
	CU_ASSERT_EQUAL(i, 32);
	CU_ASSERT_EQUAL(sb_parse_int("0x10", 0, 64, &i, err), 0);
	CU_ASSERT_EQUAL(i, 16);
	CU_ASSERT_EQUAL(sb_parse_int("-1", -1, 64, &i, err), 0);
	CU_ASSERT_EQUAL(i, -1);
	CU_ASSERT_EQUAL(sb_parse_int("65", 1, 64, &i, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 to 64"));
	CU_ASSERT_EQUAL(sb_parse_int("4k", 1, 64, &i, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_int("", 1, 64, &i, err), -EINVAL);
	const char *yes[] = { "1", "true", "TRUE", "yes", "on", "On" };
	const char *no[] = { "0", "false", "no", "off", "OFF", " 0 " };
	for (unsigned k = 0; k < 6; k++) {
		CU_ASSERT(sb_parse_bool(yes[k], &b, err) == 0 && b);
		CU_ASSERT(sb_parse_bool(no[k], &b, err) == 0 && !b);
	}
	CU_ASSERT_EQUAL(sb_parse_bool("maybe", &b, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "yes/no"));
	CU_ASSERT(sb_parse_pct("99.5", &d, err) == 0 && d == 99.5);
	CU_ASSERT(sb_parse_pct("30%", &d, err) == 0 && d == 30);
	CU_ASSERT_EQUAL(sb_parse_pct("101", &d, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "0 to 100"));
}

static void test_range(void)
{
	char err[SB_VERR_LEN];
	uint64_t lo, hi;
	CU_ASSERT(sb_parse_size_range("4k-64k", 1024, &lo, &hi, err) == 0 && lo == 4096 && hi == 65536);
	CU_ASSERT(sb_parse_size_range("1k:4k", 1024, &lo, &hi, err) == 0 && lo == 1024 && hi == 4096);
	CU_ASSERT(sb_parse_size_range("64k-4k", 1024, &lo, &hi, err) == 0 && lo == 4096 && hi == 65536);
	CU_ASSERT(sb_parse_size_range("8k", 1024, &lo, &hi, err) == 0 && lo == 8192 && hi == 8192);
	CU_ASSERT_EQUAL(sb_parse_size_range("4k-x", 1024, &lo, &hi, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "LOW-HIGH"));
}

static void test_split_ddir(void)
{
	char buf[128], err[SB_VERR_LEN];
	const char *p[SB_DDIR_N];
	CU_ASSERT_EQUAL_FATAL(sb_split_ddir("256k", buf, sizeof(buf), p, err), 0);
	CU_ASSERT(!strcmp(p[0], "256k") && !strcmp(p[1], "256k") && !strcmp(p[2], "256k"));
	CU_ASSERT_EQUAL_FATAL(sb_split_ddir("8k,32k", buf, sizeof(buf), p, err), 0);
	CU_ASSERT(!strcmp(p[0], "8k") && !strcmp(p[1], "32k") && !strcmp(p[2], "32k"));
	CU_ASSERT_EQUAL_FATAL(sb_split_ddir("8k,32k,", buf, sizeof(buf), p, err), 0);
	CU_ASSERT(!strcmp(p[0], "8k") && !strcmp(p[1], "32k") && p[2] == NULL);
	CU_ASSERT_EQUAL_FATAL(sb_split_ddir(",8k", buf, sizeof(buf), p, err), 0);
	CU_ASSERT(p[0] == NULL && !strcmp(p[1], "8k") && !strcmp(p[2], "8k"));
	CU_ASSERT_EQUAL_FATAL(sb_split_ddir(",8k,", buf, sizeof(buf), p, err), 0);
	CU_ASSERT(p[0] == NULL && !strcmp(p[1], "8k") && p[2] == NULL);
	CU_ASSERT_EQUAL(sb_split_ddir("1,2,3,4", buf, sizeof(buf), p, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "READ[,WRITE[,TRIM]]"));
	CU_ASSERT_EQUAL(sb_split_ddir(",,", buf, sizeof(buf), p, err), -EINVAL);
}

static void test_bssplit(void)
{
	char err[SB_VERR_LEN];
	struct sb_bssplit b[SB_BSSPLIT_MAX];
	unsigned n;
	CU_ASSERT_EQUAL_FATAL(sb_parse_bssplit_one("4k/50:8k/30:64k/20", 1024, b, &n, err), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT(b[0].bs == 4096 && b[0].pct == 50 && b[2].bs == 65536 && b[2].pct == 20);
	/* fio: empty percentages share what is left evenly */
	CU_ASSERT_EQUAL_FATAL(sb_parse_bssplit_one("4k/50:1k/:32k/", 1024, b, &n, err), 0);
	CU_ASSERT(n == 3 && b[1].pct == 25 && b[2].pct == 25);
	CU_ASSERT_EQUAL_FATAL(sb_parse_bssplit_one("4k", 1024, b, &n, err), 0);
	CU_ASSERT(n == 1 && b[0].pct == 100);
	CU_ASSERT_EQUAL(sb_parse_bssplit_one("4k/50:8k/30", 1024, b, &n, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "add up to 80, not 100"));
	CU_ASSERT_EQUAL(sb_parse_bssplit_one("4k/80:8k/30:16k/", 1024, b, &n, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_bssplit_one("4x/100", 1024, b, &n, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "'4x'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "4k/50:8k/30:64k/20"));
	CU_ASSERT_EQUAL(sb_parse_bssplit_one("4k/150", 1024, b, &n, err), -EINVAL);
}

static void test_pctl_list(void)
{
	char err[SB_VERR_LEN];
	double p[SB_PCTL_MAX];
	unsigned n;
	CU_ASSERT_EQUAL_FATAL(sb_parse_pctl_list("99.9:50:99", p, SB_PCTL_MAX, &n, err), 0);
	CU_ASSERT(n == 3 && p[0] == 50 && p[1] == 99 && p[2] == 99.9);
	CU_ASSERT_EQUAL(sb_parse_pctl_list("50:0", p, SB_PCTL_MAX, &n, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(0, 100]"));
	CU_ASSERT_EQUAL(sb_parse_pctl_list("50:101", p, SB_PCTL_MAX, &n, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_pctl_list("50,99", p, SB_PCTL_MAX, &n, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_pctl_list("1:2:3", p, 2, &n, err), -EINVAL);
}

static void test_distribution(void)
{
	char err[SB_VERR_LEN];
	enum sb_dist d;
	double v;
	CU_ASSERT(sb_parse_distribution("random", &d, &v, err) == 0 && d == SB_DIST_RANDOM);
	CU_ASSERT(sb_parse_distribution("zipf", &d, &v, err) == 0 && d == SB_DIST_ZIPF && v == 1.1);
	CU_ASSERT(sb_parse_distribution("zipf:1.2", &d, &v, err) == 0 && v == 1.2);
	CU_ASSERT(sb_parse_distribution("pareto", &d, &v, err) == 0 && d == SB_DIST_PARETO && v == 0.2);
	CU_ASSERT(sb_parse_distribution("pareto:0.5", &d, &v, err) == 0 && v == 0.5);
	CU_ASSERT(sb_parse_distribution("normal:10", &d, &v, err) == 0 && d == SB_DIST_NORMAL && v == 10);
	CU_ASSERT_EQUAL(sb_parse_distribution("zipf:1.0", &d, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not 1.0"));
	CU_ASSERT_EQUAL(sb_parse_distribution("pareto:1.5", &d, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "0 < h < 1"));
	CU_ASSERT_EQUAL(sb_parse_distribution("normal:100", &d, &v, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_parse_distribution("zipf:1.2:0.5", &d, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "center"));
	CU_ASSERT_EQUAL(sb_parse_distribution("zoned:60/10:40/90", &d, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "zone list")); /* zones: sb_parse_zones */
	CU_ASSERT_EQUAL(sb_parse_distribution("gauss", &d, &v, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "zipf[:theta]"));
}

static void test_format(void)
{
	char b[32];
	sb_size_str(4096, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "4 KiB");
	sb_size_str(512, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "512 B");
	sb_size_str(1572864, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "1.50 MiB");
	sb_fmt_time(10 * SB_US_PER_SEC, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "10 s");
	sb_fmt_time(1500, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "1500 us");
	sb_fmt_time(120 * SB_US_PER_SEC, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "2 m");
}

static CU_TestInfo tests[] = {
	{ "size suffixes", test_size_suffixes },
	{ "size kb_base", test_size_kb_base },
	{ "size errors", test_size_errors },
	{ "time", test_time },
	{ "int bool pct", test_int_bool_pct },
	{ "range", test_range },
	{ "split by direction", test_split_ddir },
	{ "bssplit", test_bssplit },
	{ "percentile list", test_pctl_list },
	{ "distribution", test_distribution },
	{ "format", test_format },
	CU_TEST_INFO_NULL,
};
SB_SUITE(values, tests)
