/* test_steady.c: steady-state judgement (stats/steady.h): the rolling
 * window, fio's criteria (largest deviation from the mean, least-squares
 * slope; absolute or percent of the mean), and the copy kept for the
 * results; and the histogram geometry the hist log relies on (stats/hist.h
 * buckets are fio 3.33's latency bins). */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "parse/jobspec.h"
#include "stats/hist.h"
#include "stats/steady.h"

static void test_window_and_deviation(void)
{
	struct sb_steady s;
	CU_ASSERT_EQUAL_FATAL(sb_steady_init(&s, SB_SS_IOPS, true, 5.0, 3), 0);
	CU_ASSERT_FALSE(sb_steady_add(&s, 1000, 4096000)); /* window not full */
	CU_ASSERT_FALSE(sb_steady_add(&s, 2000, 8192000));
	CU_ASSERT_FALSE(sb_steady_add(&s, 2002, 8200192)); /* mean 1667: far */
	CU_ASSERT_TRUE(sb_steady_add(&s, 2001, 8196096));  /* 2000 2002 2001 */
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_EQUAL(sb_steady_iops(&s, 0), 2000);
	CU_ASSERT_EQUAL(sb_steady_iops(&s, 2), 2001);
	CU_ASSERT_DOUBLE_EQUAL(s.iops_mean, 2001.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.max_deviation, 1.0, 1e-9);
	/* fio printed criterion 0.049975% for samples 2002, 2001, 2000 */
	CU_ASSERT_DOUBLE_EQUAL(s.criterion, 100.0 / 2001.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.bw_mean, (8192000.0 + 8200192.0 + 8196096.0) / 3, 1e-6);
	struct sb_steady *c = sb_steady_dup(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	sb_steady_add(&s, 5000, 1);   /* the copy keeps its own window */
	CU_ASSERT_EQUAL(sb_steady_iops(c, 0), 2000);
	CU_ASSERT_TRUE(c->attained);
	CU_ASSERT_FALSE(s.attained);
	sb_steady_free(c);
	free(c);
	sb_steady_free(&s);
}

static void test_slope_absolute(void)
{
	struct sb_steady s;
	CU_ASSERT_EQUAL_FATAL(sb_steady_init(&s, SB_SS_BW_SLOPE, false, 10.0, 4), 0);
	uint64_t bw[] = { 100, 120, 140, 160 }; /* slope 20 per second */
	for (unsigned i = 0; i < 4; i++)
		sb_steady_add(&s, 1, bw[i]);
	CU_ASSERT_DOUBLE_EQUAL(s.slope, 20.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.criterion, 20.0, 1e-9);
	CU_ASSERT_FALSE(s.attained);
	sb_steady_add(&s, 1, 140); /* 120 140 160 140: slope 40 / 5 = 8 */
	CU_ASSERT_DOUBLE_EQUAL(s.slope, 8.0, 1e-9);
	CU_ASSERT_TRUE(s.attained);
	CU_ASSERT_STRING_EQUAL(sb_steady_kind_name(s.kind), "bw_slope");
	sb_steady_free(&s);
}

/* fio's plat_val_to_idx, written from its description: exact below 128,
 * then 64 bins per power of two */
static unsigned fio_idx(uint64_t v)
{
	if (v < 128)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned err = msb - 6;
	return ((err + 1) << 6) + (unsigned)((v >> err) & 63);
}

static void test_hist_is_fio_bins(void)
{
	for (uint64_t v = 0; v < (1ull << 36); v = v < 300 ? v + 1 : v * 9 / 8)
		CU_ASSERT_EQUAL(sb_hist_index(v), fio_idx(v));
}

static CU_TestInfo tests[] = {
	{ "window and mean deviation (percent)", test_window_and_deviation },
	{ "slope (absolute)", test_slope_absolute },
	{ "histogram buckets are fio's bins", test_hist_is_fio_bins },
	CU_TEST_INFO_NULL,
};
SB_SUITE(steady, tests)
