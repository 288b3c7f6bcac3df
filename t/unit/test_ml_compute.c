/* test_ml_compute.c: the computation-time draws of workload=train
 * (sb_ml_compute_draw, ml/train/train.c): DLIO's normal (mean, stdev), uniform
 * (min, max) and gamma (shape, scale), whose sample means and spreads must
 * match the distributions' within a few standard errors over 200,000 draws,
 * and the eval dataset's folder (valid/). */
#include <math.h>
#include <string.h>

#include "ml/train/train.h"
#include "parse/jobspec.h"
#include "harness.h"

#define N 200000

/* sample mean and variance of n draws */
static void moments(const struct sb_ml_compute *c, uint64_t seed, double *mean, double *var,
		    double *lo, double *hi)
{
	struct sb_ml_rng r;
	double s = 0, s2 = 0;
	sb_ml_rng_seed(&r, seed);
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < N; i++) {
		double x = sb_ml_compute_draw(c, &r);
		s += x;
		s2 += x * x;
		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
	*mean = s / N;
	*var = s2 / N - *mean * *mean;
}

static void test_normal(void)
{
	struct sb_ml_compute c = { .type = SB_CTIME_NORMAL, .mean = 0.323, .stdev = 0.05 };
	double m, v, lo, hi, se = 0.05 / sqrt(N);
	moments(&c, 1, &m, &v, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(m, 0.323, 5 * se);
	CU_ASSERT_DOUBLE_EQUAL(sqrt(v), 0.05, 0.05 * 0.02);
	/* no stdev: the mean exactly (DLIO's computation_time as a number) */
	struct sb_ml_compute k = { .type = SB_CTIME_NORMAL, .mean = 0.224 };
	moments(&k, 2, &m, &v, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(lo, 0.224, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hi, 0.224, 1e-12);
	/* DLIO takes abs() of a draw: never negative */
	struct sb_ml_compute wide = { .type = SB_CTIME_NORMAL, .mean = 0.01, .stdev = 0.1 };
	moments(&wide, 3, &m, &v, &lo, &hi);
	CU_ASSERT(lo >= 0);
}

static void test_uniform(void)
{
	struct sb_ml_compute c = { .type = SB_CTIME_UNIFORM, .min = 0.2, .max = 0.5 };
	double m, v, lo, hi, sd = 0.3 / sqrt(12.0);
	moments(&c, 4, &m, &v, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(m, 0.35, 5 * sd / sqrt(N));
	CU_ASSERT_DOUBLE_EQUAL(sqrt(v), sd, sd * 0.02);
	CU_ASSERT(lo >= 0.2 && lo < 0.2001);
	CU_ASSERT(hi <= 0.5 && hi > 0.4999);
}

static void test_gamma(void)
{
	/* shape >= 1 (Marsaglia-Tsang) and < 1 (the boost): mean k*theta, var k*theta^2 */
	static const double shapes[] = { 0.5, 1.0, 2.0, 9.0 };
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		double k = shapes[i], th = 0.01, m, v, lo, hi;
		struct sb_ml_compute c = { .type = SB_CTIME_GAMMA, .shape = k, .scale = th };
		moments(&c, 10 + i, &m, &v, &lo, &hi);
		double sd = sqrt(k) * th;
		CU_ASSERT_DOUBLE_EQUAL(m, k * th, 5 * sd / sqrt(N));
		CU_ASSERT_DOUBLE_EQUAL(v, k * th * th, k * th * th * 0.05);
		CU_ASSERT(lo > 0);
	}
}

static void test_eval_folder(void)
{
	struct sb_ml_dataset ds = { .format = "npz", .prefix = "img", .files = 16,
				    .samples_per_file = 1, .record_length = 10 };
	char name[128];
	CU_ASSERT_EQUAL(sb_ml_file_name(&ds, 3, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "train/img_03_of_16.npz");
	strcpy(ds.split, "valid");
	CU_ASSERT_EQUAL(sb_ml_file_name(&ds, 3, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "valid/img_03_of_16.npz");
}

static CU_TestInfo tests[] = {
	{ "normal computation time (mean, stdev)", test_normal },
	{ "uniform computation time (min, max)", test_uniform },
	{ "gamma computation time (shape, scale)", test_gamma },
	{ "eval dataset folder", test_eval_folder },
	CU_TEST_INFO_NULL,
};
SB_SUITE(ml_compute, tests)
