/* test_hist.c: the latency histogram's promises: exact below 128 ns, at most
 * 0.8% relative error from 1 ns to an hour, percentiles close to the exact
 * ones, merging equal to adding. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "stats/hist.h"

#define HOUR_NS (3600ull * 1000000000ull)

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* log-uniform between 1 ns and an hour */
static uint64_t rnd_latency(void)
{
	double u = (double)(rnd() >> 11) / 9007199254740992.0;
	double v = exp(u * log((double)HOUR_NS));
	return v < 1.0 ? 1 : (uint64_t)v;
}

static double relerr(uint64_t got, uint64_t want)
{
	return fabs((double)got - (double)want) / (double)want;
}

static struct sb_hist *new_hist(void)
{
	struct sb_hist *h = calloc(1, sizeof(*h));
	CU_ASSERT_FATAL(h != NULL);
	return h;
}

static void test_exact_below_128(void)
{
	for (uint64_t v = 0; v < 128; v++) {
		unsigned i = sb_hist_index(v);
		CU_ASSERT_EQUAL(sb_hist_bucket_value(i), v);
		CU_ASSERT_EQUAL(sb_hist_bucket_low(i), v);
		CU_ASSERT_EQUAL(sb_hist_bucket_high(i), v + 1);
	}
}

/* buckets tile the value range without gaps, and index() agrees with them */
static void test_bucket_geometry(void)
{
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		uint64_t lo = sb_hist_bucket_low(i), hi = sb_hist_bucket_high(i);
		CU_ASSERT(lo < hi);
		if (i)
			CU_ASSERT_EQUAL(lo, sb_hist_bucket_high(i - 1));
		CU_ASSERT_EQUAL(sb_hist_index(lo), i);
		CU_ASSERT_EQUAL(sb_hist_index(hi - 1), i);
		uint64_t v = sb_hist_bucket_value(i);
		CU_ASSERT(v >= lo && v < hi);
	}
	/* the last bucket ends at 2^MAX_BITS; larger values are clamped into it */
	CU_ASSERT_EQUAL(sb_hist_bucket_high(SB_HIST_NBUCKETS - 1), 1ull << SB_HIST_MAX_BITS);
	CU_ASSERT_EQUAL(sb_hist_index((1ull << SB_HIST_MAX_BITS) - 1), SB_HIST_NBUCKETS - 1);
	CU_ASSERT_EQUAL(sb_hist_index(1ull << SB_HIST_MAX_BITS), SB_HIST_NBUCKETS - 1);
	CU_ASSERT_EQUAL(sb_hist_index(UINT64_MAX), SB_HIST_NBUCKETS - 1);
}

/* every bucket up to an hour: both ends are within 0.8% of the midpoint */
static void test_relative_error_buckets(void)
{
	double worst = 0.0;
	for (unsigned i = 1; i < SB_HIST_NBUCKETS; i++) {
		uint64_t lo = sb_hist_bucket_low(i), hi = sb_hist_bucket_high(i);
		if (lo > HOUR_NS)
			break;
		uint64_t v = sb_hist_bucket_value(i);
		double e1 = relerr(v, lo), e2 = relerr(v, hi - 1);
		worst = fmax(worst, fmax(e1, e2));
	}
	CU_ASSERT(worst <= 0.008);
	CU_ASSERT(worst > 0.007); /* the bound is tight: the geometry is log-linear */
}

static void test_relative_error_random(void)
{
	for (int k = 0; k < 200000; k++) {
		uint64_t v = rnd_latency();
		uint64_t got = sb_hist_bucket_value(sb_hist_index(v));
		if (relerr(got, v) > 0.008) {
			CU_FAIL("relative error above 0.8%");
			break;
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void test_percentiles(void)
{
	enum { N = 50000 };
	static const double pcts[] = { 0.01, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				       99.9, 99.95, 99.99, 100 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct sb_hist *h = new_hist();
	CU_ASSERT_FATAL(v != NULL);
	for (int k = 0; k < N; k++) {
		v[k] = rnd_latency();
		sb_hist_add(h, v[k]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	CU_ASSERT_EQUAL(h->n, N);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		size_t rank = (size_t)ceil(pcts[k] * N / 100.0);
		uint64_t want = v[rank - 1];
		uint64_t got = sb_hist_percentile(h, pcts[k]);
		CU_ASSERT(relerr(got, want) <= 0.008);
	}
	free(v);
	free(h);
}

static void test_percentile_small(void)
{
	struct sb_hist *h = new_hist();
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 50), 0);
	for (uint64_t v = 1; v <= 100; v++)
		sb_hist_add(h, v);
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 50), 50);
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 50.5), 51);
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 99), 99);
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 100), 100);
	CU_ASSERT_EQUAL(sb_hist_percentile(h, 0.001), 1);
	free(h);
}

static void test_merge(void)
{
	struct sb_hist *a = new_hist(), *b = new_hist(), *all = new_hist();
	for (int k = 0; k < 30000; k++) {
		uint64_t v = rnd_latency();
		sb_hist_add(k % 3 ? a : b, v);
		sb_hist_add(all, v);
	}
	sb_hist_merge(a, b);
	CU_ASSERT_EQUAL(a->n, all->n);
	CU_ASSERT(memcmp(a, all, sizeof(*a)) == 0);
	free(a);
	free(b);
	free(all);
}

static void test_pct_below(void)
{
	struct sb_hist *h = new_hist();
	CU_ASSERT_EQUAL(sb_hist_pct_below(h, 1000), 0.0);
	/* 10 samples: 3 below 1 us, 5 in [1 us, 2 us), 2 at 1 ms or more */
	static const uint64_t v[] = { 5, 500, 999, 1000, 1500, 1999, 1200, 1700, 1000000, 5000000 };
	for (size_t k = 0; k < 10; k++)
		sb_hist_add(h, v[k]);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, 1000), 30.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, 2000), 80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, 1000000), 80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, 2000000), 90.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, UINT64_MAX), 100.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sb_hist_pct_below(h, 0), 0.0, 1e-9);
	free(h);
}

static CU_TestInfo tests[] = {
	{ "exact below 128 ns", test_exact_below_128 },
	{ "bucket geometry", test_bucket_geometry },
	{ "relative error per bucket 1ns..1h", test_relative_error_buckets },
	{ "relative error random values", test_relative_error_random },
	{ "percentiles vs sorted samples", test_percentiles },
	{ "percentiles small exact", test_percentile_small },
	{ "merge equals one histogram", test_merge },
	{ "pct_below at fio's edges", test_pct_below },
	CU_TEST_INFO_NULL,
};
SB_SUITE(hist, tests)
