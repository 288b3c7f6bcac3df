/* test_stat.c: Welford statistics against the two-pass textbook formulas,
 * merging (threads, group_reporting), and fio's I/O depth buckets. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "stats/stat.h"
#include "stats/tstats.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static void two_pass(const uint64_t *v, size_t n, double *mean, double *sd)
{
	double sum = 0.0, ss = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += ((double)v[i] - *mean) * ((double)v[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

static int close_rel(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

static void test_welford_vs_two_pass(void)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct sb_stat s = SB_STAT_INIT;
	uint64_t mn = UINT64_MAX, mx = 0;
	CU_ASSERT_FATAL(v != NULL);
	/* large offset, small spread: where a naive sum of squares loses digits */
	for (size_t i = 0; i < N; i++) {
		v[i] = 1000000000ull + rnd() % 100000;
		sb_stat_add(&s, v[i]);
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
	}
	double mean, sd;
	two_pass(v, N, &mean, &sd);
	CU_ASSERT_EQUAL(s.n, N);
	CU_ASSERT_EQUAL(s.min, mn);
	CU_ASSERT_EQUAL(s.max, mx);
	CU_ASSERT(close_rel(s.mean, mean));
	CU_ASSERT(fabs(sb_stat_stddev(&s) - sd) <= 1e-6 * sd);
	free(v);
}

static void test_small_n(void)
{
	struct sb_stat s;
	sb_stat_init(&s);
	CU_ASSERT_EQUAL(sb_stat_min(&s), 0);
	CU_ASSERT_EQUAL(sb_stat_stddev(&s), 0.0);
	sb_stat_add(&s, 7);
	CU_ASSERT_EQUAL(sb_stat_min(&s), 7);
	CU_ASSERT_EQUAL(sb_stat_stddev(&s), 0.0);
	sb_stat_add(&s, 9);
	CU_ASSERT(close_rel(s.mean, 8.0));
	CU_ASSERT(close_rel(sb_stat_stddev(&s), sqrt(2.0))); /* sample (n-1) stddev */
}

static void test_merge(void)
{
	struct sb_stat a = SB_STAT_INIT, b = SB_STAT_INIT, all = SB_STAT_INIT;
	struct sb_stat empty = SB_STAT_INIT, e2 = SB_STAT_INIT;
	for (int i = 0; i < 5000; i++) {
		/* two different distributions, uneven sizes */
		uint64_t v = i % 4 ? 100 + rnd() % 50 : 90000 + rnd() % 20000;
		sb_stat_add(i % 4 ? &a : &b, v);
		sb_stat_add(&all, v);
	}
	sb_stat_merge(&a, &b);
	CU_ASSERT_EQUAL(a.n, all.n);
	CU_ASSERT_EQUAL(a.min, all.min);
	CU_ASSERT_EQUAL(a.max, all.max);
	CU_ASSERT(close_rel(a.mean, all.mean));
	CU_ASSERT(fabs(sb_stat_stddev(&a) - sb_stat_stddev(&all)) <= 1e-9 * sb_stat_stddev(&all));

	/* empty on either side changes nothing */
	struct sb_stat before = a;
	sb_stat_merge(&a, &empty);
	CU_ASSERT(memcmp(&a, &before, sizeof(a)) == 0);
	sb_stat_merge(&e2, &a);
	CU_ASSERT_EQUAL(e2.n, a.n);
	CU_ASSERT_EQUAL(e2.min, a.min);
	CU_ASSERT(close_rel(e2.mean, a.mean));
}

static struct sb_tstats *new_ts(void)
{
	struct sb_tstats *t = calloc(1, sizeof(*t));
	CU_ASSERT_FATAL(t != NULL);
	sb_tstats_init(t);
	return t;
}

static void test_tstats_init(void)
{
	struct sb_tstats *t = new_ts();
	for (int d = 0; d < SB_DDIR_N; d++) {
		CU_ASSERT_EQUAL(t->clat[d].min, UINT64_MAX);
		CU_ASSERT_EQUAL(t->slat[d].min, UINT64_MAX);
		CU_ASSERT_EQUAL(t->lat[d].min, UINT64_MAX);
		CU_ASSERT_EQUAL(t->bw_samples[d].min, UINT64_MAX);
		CU_ASSERT_EQUAL(t->iops_samples[d].min, UINT64_MAX);
		CU_ASSERT_EQUAL(t->lat_h[d].n, 0);
	}
	CU_ASSERT_EQUAL(t->sync_lat.min, UINT64_MAX);
	free(t);
}

static void test_tstats_merge(void)
{
	struct sb_tstats *a = new_ts(), *b = new_ts();
	sb_stat_add(&a->clat[SB_DDIR_READ], 1000);
	sb_shist_add(&a->clat_h[SB_DDIR_READ], 1000);
	sb_stat_add(&b->clat[SB_DDIR_READ], 3000);
	sb_shist_add(&b->clat_h[SB_DDIR_READ], 3000);
	a->io_bytes[SB_DDIR_READ] = 4096;
	b->io_bytes[SB_DDIR_READ] = 8192;
	a->total_ios[SB_DDIR_WRITE] = 3;
	b->total_ios[SB_DDIR_WRITE] = 4;
	a->runtime_ns[SB_DDIR_READ] = 5;
	b->runtime_ns[SB_DDIR_READ] = 9;
	a->iodepth_level[2] = 1;
	b->iodepth_level[2] = 2;
	a->ctx = 10;
	b->ctx = 20;
	atomic_store(&b->live_ios[SB_DDIR_READ], 2);
	/* two threads at ~100 and ~300 KiB/s: the job did ~400 KiB/s */
	sb_stat_add(&a->bw_samples[SB_DDIR_READ], 90);
	sb_stat_add(&a->bw_samples[SB_DDIR_READ], 110);
	sb_stat_add(&b->bw_samples[SB_DDIR_READ], 280);
	sb_stat_add(&b->bw_samples[SB_DDIR_READ], 320);
	b->error = 5;
	b->err.op = "read";
	strcpy(b->err.path, "/x");

	sb_tstats_merge(a, b);
	CU_ASSERT_EQUAL(a->clat[SB_DDIR_READ].n, 2);
	CU_ASSERT_EQUAL(a->clat[SB_DDIR_READ].min, 1000);
	CU_ASSERT_EQUAL(a->clat[SB_DDIR_READ].max, 3000);
	CU_ASSERT_EQUAL(a->clat_h[SB_DDIR_READ].n, 2);
	CU_ASSERT_EQUAL(a->clat[SB_DDIR_WRITE].n, 0);
	CU_ASSERT_EQUAL(a->clat[SB_DDIR_WRITE].min, UINT64_MAX);
	CU_ASSERT_EQUAL(a->io_bytes[SB_DDIR_READ], 12288);
	CU_ASSERT_EQUAL(a->total_ios[SB_DDIR_WRITE], 7);
	CU_ASSERT_EQUAL(a->runtime_ns[SB_DDIR_READ], 9);
	CU_ASSERT_EQUAL(a->iodepth_level[2], 3);
	CU_ASSERT_EQUAL(a->ctx, 30);
	CU_ASSERT_EQUAL(atomic_load(&a->live_ios[SB_DDIR_READ]), 2);
	/* fio 3.33 (sum_stat, pure sum) adds the sample counts too: numjobs=4,
	 * one sample each, group_reporting prints samples=4; m2 adds, so the
	 * stddev is over the summed count */
	CU_ASSERT_EQUAL(a->bw_samples[SB_DDIR_READ].n, 4);
	CU_ASSERT_EQUAL(a->bw_samples[SB_DDIR_READ].min, 370);
	CU_ASSERT_EQUAL(a->bw_samples[SB_DDIR_READ].max, 430);
	CU_ASSERT(close_rel(a->bw_samples[SB_DDIR_READ].mean, 400.0));
	CU_ASSERT(close_rel(sb_stat_stddev(&a->bw_samples[SB_DDIR_READ]), sqrt((200.0 + 800.0) / 3.0)));
	CU_ASSERT_EQUAL(a->error, 5);
	CU_ASSERT_STRING_EQUAL(a->err.path, "/x");
	sb_tstats_release(a);
	sb_tstats_release(b);
	free(a);
	free(b);
}

/* one kept priority entry of t: n samples of v ns */
static void prio_put(struct sb_tstats *t, int d, uint16_t ioprio, unsigned n, uint64_t v)
{
	int i = sb_tstats_prio_slot(t, d, ioprio);
	CU_ASSERT_FATAL(i >= 0);
	for (unsigned k = 0; k < n; k++) {
		sb_stat_add(&t->prio[d][i].s, v);
		sb_shist_add(&t->prio[d][i].h, v);
	}
}

static const struct sb_prio_lat *prio_of(const struct sb_tstats *t, int d, uint16_t ioprio)
{
	for (unsigned i = 0; i < t->nprio[d]; i++)
		if (t->prio[d][i].ioprio == ioprio)
			return &t->prio[d][i];
	return NULL;
}

/* fio 3.33 stat.c:2104-2170 (sum_thread_stats): entries of one priority
 * merge; a thread that kept none is its own priority with its clat (lat
 * with lat_percentiles); more than SB_PRIO_MAX priorities: none shown */
static void test_tstats_merge_prios(void)
{
	struct sb_tstats *job = new_ts(), *a = new_ts(), *b = new_ts(), *c = new_ts();
	const int R = SB_DDIR_READ, W = SB_DDIR_WRITE;
	prio_put(a, R, 0, 3, 1000);
	prio_put(a, R, 3 << 13 | 5, 2, 5000);
	prio_put(b, R, 3 << 13 | 5, 4, 7000);
	prio_put(b, R, 2 << 13 | 1, 1, 9000);
	/* c: no per-priority entries; its own priority 2/4 with its lat */
	c->ioprio = 2 << 13 | 4;
	c->prio_lat = true;
	sb_stat_add(&c->clat[W], 10);
	sb_shist_add(&c->clat_h[W], 10);
	sb_stat_add(&c->lat[W], 20);
	sb_shist_add(&c->lat_h[W], 20);
	CU_ASSERT_EQUAL(sb_tstats_merge(job, a), 0);
	CU_ASSERT_EQUAL(sb_tstats_merge(job, b), 0);
	CU_ASSERT_EQUAL(sb_tstats_merge(job, c), 0);
	CU_ASSERT_EQUAL(job->nprio[R], 3);
	const struct sb_prio_lat *e = prio_of(job, R, 3 << 13 | 5);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(e->s.n, 6);
	CU_ASSERT_EQUAL(e->s.min, 5000);
	CU_ASSERT_EQUAL(e->s.max, 7000);
	CU_ASSERT_EQUAL(e->h.n, 6);
	CU_ASSERT_EQUAL(prio_of(job, R, 0)->s.n, 3);
	CU_ASSERT_EQUAL(prio_of(job, R, 2 << 13 | 1)->s.n, 1);
	CU_ASSERT_EQUAL(job->nprio[W], 1);
	e = prio_of(job, W, 2 << 13 | 4);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(e->s.min, 20); /* lat, not clat */
	CU_ASSERT_EQUAL(e->h.n, 1);
	/* a copy owns its own histograms */
	struct sb_tstats *cp = new_ts();
	CU_ASSERT_EQUAL(sb_tstats_copy(cp, job), 0);
	CU_ASSERT_NOT_EQUAL(cp->prio[R][0].h.bins, job->prio[R][0].h.bins);
	CU_ASSERT_EQUAL(cp->prio[R][0].h.n, job->prio[R][0].h.n);
	/* a group meeting more than SB_PRIO_MAX priorities is flagged */
	struct sb_tstats *many = new_ts();
	for (unsigned k = 0; k < SB_PRIO_MAX; k++)
		prio_put(many, R, (uint16_t)(3 << 13 | k), 1, 100);
	CU_ASSERT_EQUAL(many->nprio[R], SB_PRIO_MAX);
	CU_ASSERT_EQUAL(sb_tstats_prio_slot(many, R, 1 << 13), -1);
	prio_put(c, R, 1 << 13, 1, 100);
	CU_ASSERT_EQUAL(sb_tstats_merge(many, c), 0);
	CU_ASSERT(many->prio_over[R]);
	CU_ASSERT(!many->prio_over[W]);
	struct sb_tstats *t[] = { job, a, b, c, cp, many };
	for (unsigned k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		sb_tstats_release(t[k]);
		free(t[k]);
	}
}

static void test_depth_buckets(void)
{
	static const unsigned lv[][2] = { { 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 7, 2 },
					  { 8, 3 }, { 16, 4 }, { 31, 4 }, { 32, 5 }, { 63, 5 },
					  { 64, 6 }, { 4096, 6 } };
	for (size_t i = 0; i < sizeof(lv) / sizeof(lv[0]); i++)
		CU_ASSERT_EQUAL(sb_depth_level_bucket(lv[i][0]), lv[i][1]);
	static const unsigned bt[][2] = { { 0, 0 }, { 1, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 }, { 9, 3 },
					  { 16, 3 }, { 17, 4 }, { 32, 4 }, { 33, 5 }, { 64, 5 },
					  { 65, 6 }, { 1000, 6 } };
	for (size_t i = 0; i < sizeof(bt) / sizeof(bt[0]); i++)
		CU_ASSERT_EQUAL(sb_depth_batch_bucket(bt[i][0]), bt[i][1]);
}

static CU_TestInfo tests[] = {
	{ "welford vs two-pass", test_welford_vs_two_pass },
	{ "n = 0, 1, 2", test_small_n },
	{ "merge equals one stat", test_merge },
	{ "tstats init", test_tstats_init },
	{ "tstats merge", test_tstats_merge },
	{ "tstats merge by priority", test_tstats_merge_prios },
	{ "depth buckets", test_depth_buckets },
	CU_TEST_INFO_NULL,
};
SB_SUITE(stat, tests)
