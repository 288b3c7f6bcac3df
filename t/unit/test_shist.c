/* test_shist.c: the kept (sparse) histogram of the results model answers
 * exactly as the dense one the I/O path counts into: same percentiles, same
 * share below fio's latency edges, same used buckets, after any mix of
 * merges; it holds only the used buckets; and the JSON number writer prints
 * what "%f" prints. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/jsonw.h"
#include "stats/hist.h"
#include "stats/tstats.h"

static uint64_t rs = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* mostly tens of us with a log-uniform tail up to 10 s, and some exact
 * small values */
static uint64_t rnd_lat(void)
{
	uint64_t r = rnd();
	if (r % 10 == 0)
		return r % 128;
	if (r % 10 == 1)
		return (uint64_t)exp((double)(rnd() >> 11) / 9007199254740992.0 * log(1e10));
	return 10000 + (r >> 20) % 50000;
}

static const double pcts[] = { 0.001, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95,
			       99, 99.5, 99.9, 99.95, 99.99, 100 };
static const uint64_t edges[] = { 0, 2, 10, 128, 250, 1000, 10000, 50000, 100000, 1000000,
				  2000000000ull, UINT64_MAX };

/* every query of s equals the dense h's; s holds only used buckets, ascending */
static void same_as_dense(const struct sb_shist *s, const struct sb_hist *h)
{
	CU_ASSERT_EQUAL(s->n, h->n);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		CU_ASSERT_EQUAL(sb_shist_percentile(s, pcts[i]), sb_hist_percentile(h, pcts[i]));
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		CU_ASSERT_EQUAL(sb_shist_pct_below(s, edges[i]), sb_hist_pct_below(h, edges[i]));
	uint32_t used = 0;
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		used += h->bucket[i] != 0;
		CU_ASSERT_EQUAL(sb_shist_count(s, i), h->bucket[i]);
	}
	CU_ASSERT_EQUAL(s->nbins, used);
	for (uint32_t k = 0; k < s->nbins; k++) {
		CU_ASSERT(s->bins[k].count > 0);
		CU_ASSERT(!k || s->bins[k - 1].i < s->bins[k].i);
	}
	struct sb_hist *back = calloc(1, sizeof(*back));
	CU_ASSERT_FATAL(back != NULL);
	sb_shist_to_dense(back, s);
	CU_ASSERT(memcmp(back, h, sizeof(*h)) == 0);
	free(back);
}

/* 8 dense "threads" of random sizes merged every way the results merge
 * them (into an empty one, into a non-empty one, sparse into sparse, range
 * bounded or not), against one dense histogram of all the samples */
static void test_merge_random(void)
{
	for (int round = 0; round < 20; round++) {
		struct sb_hist *th = calloc(8, sizeof(*th)), *all = calloc(1, sizeof(*all));
		CU_ASSERT_FATAL(th && all);
		struct sb_shist job = { 0 }, other = { 0 }, inserted = { 0 };
		uint64_t lo[8], hi[8];
		for (int t = 0; t < 8; t++) {
			unsigned n = (unsigned)(rnd() % (round < 2 ? 3 : 5000));
			lo[t] = UINT64_MAX;
			hi[t] = 0;
			for (unsigned k = 0; k < n; k++) {
				uint64_t v = rnd_lat();
				sb_hist_add(&th[t], v);
				sb_hist_add(all, v);
				CU_ASSERT_EQUAL(sb_shist_add(&inserted, v), 0);
				lo[t] = v < lo[t] ? v : lo[t];
				hi[t] = v > hi[t] ? v : hi[t];
			}
		}
		for (int t = 0; t < 8; t++) {
			int r;
			if (t < 4) /* bounded by the samples' range, as sb_tstats_merge */
				r = sb_shist_add_dense_range(&job, &th[t], lo[t], hi[t]);
			else /* a wrong range: still every count */
				r = sb_shist_add_dense_range(&other, &th[t], 60000, 60001);
			CU_ASSERT_EQUAL(r, 0);
		}
		CU_ASSERT_EQUAL(sb_shist_merge(&job, &other), 0);
		same_as_dense(&job, all);
		same_as_dense(&inserted, all);
		struct sb_shist copy;
		CU_ASSERT_EQUAL(sb_shist_copy(&copy, &job), 0);
		same_as_dense(&copy, all);
		sb_shist_free(&copy);
		sb_shist_free(&job);
		sb_shist_free(&other);
		sb_shist_free(&inserted);
		CU_ASSERT_EQUAL(job.nbins, 0);
		CU_ASSERT_PTR_NULL(job.bins);
		free(th);
		free(all);
	}
}

static void test_empty(void)
{
	struct sb_shist s = { 0 };
	struct sb_hist *h = calloc(1, sizeof(*h));
	CU_ASSERT_FATAL(h != NULL);
	CU_ASSERT_EQUAL(sb_shist_add_dense(&s, h), 0);
	CU_ASSERT_EQUAL(sb_shist_merge(&s, &s), 0);
	CU_ASSERT_PTR_NULL(s.bins); /* nothing allocated for an empty histogram */
	CU_ASSERT_EQUAL(sb_shist_percentile(&s, 99), 0);
	CU_ASSERT_EQUAL(sb_shist_pct_below(&s, 1000), 0.0);
	same_as_dense(&s, h);
	free(h);
}

/* a job's kept figures are what its threads used: a few hundred bytes for
 * a 4k randread thread, not the 200 KB of ten dense histograms */
static void test_kept_size(void)
{
	struct sb_tstats *t = malloc(sizeof(*t)), *job = malloc(sizeof(*job));
	CU_ASSERT_FATAL(t && job);
	CU_ASSERT_EQUAL_FATAL(sb_tstats_init_live(t), 0);
	sb_tstats_init(job);
	for (int k = 0; k < 256; k++) {
		uint64_t v = 1000 + rnd() % 30000;
		sb_stat_add(&t->clat[SB_DDIR_READ], v);
		sb_hist_add(&t->live_h->clat_h[SB_DDIR_READ], v);
	}
	CU_ASSERT_EQUAL(sb_tstats_merge(job, t), 0);
	CU_ASSERT_PTR_NULL(job->live_h);
	CU_ASSERT_EQUAL(job->clat_h[SB_DDIR_READ].n, 256);
	CU_ASSERT(job->clat_h[SB_DDIR_READ].nbins <= 256);
	CU_ASSERT(job->clat_h[SB_DDIR_READ].nbins * sizeof(struct sb_hist_bin) < 4096);
	CU_ASSERT_EQUAL(job->lat_h[SB_DDIR_READ].nbins, 0);
	CU_ASSERT(sizeof(*job) < 8192); /* the rest of a job's statistics */
	CU_ASSERT_EQUAL(sb_shist_percentile(&job->clat_h[SB_DDIR_READ], 50),
			sb_hist_percentile(&t->live_h->clat_h[SB_DDIR_READ], 50));
	sb_tstats_release(t);
	sb_tstats_release(job);
	free(t);
	free(job);
}

/* sb_jw_fmt_f (JSON's doubles and percentile keys) is "%f" byte for byte */
static void test_fmt_f(void)
{
	char a[64], b[64];
	static const double sp[] = { 0.0, -0.0, 1e-7, -1e-7, 5e-7, -5e-7, 4.9999999e-7, 99.95,
				     99.99, 0.0000005, 2.5e-6, 1.5e-6, 1125899906.842624,
				     1125899906.8426241, 1e15, 1e300, -1e300, 256000.0 };
	for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
		sb_jw_fmt_f(a, sizeof(a), sp[i]);
		snprintf(b, sizeof(b), "%f", sp[i]);
		CU_ASSERT_STRING_EQUAL(a, b);
	}
	unsigned bad = 0;
	for (int k = 0; k < 300000; k++) {
		double v;
		uint64_t r = rnd();
		switch (k % 5) {
		case 0: v = (double)(r % 1000000000) / 1000.0; break;
		case 1: v = (double)(r % 100000000) / 1e6 + ((double)(r >> 40) / 1e12 - 0.5e-9); break;
		case 2: v = -(double)(r >> 11) / 9007199254740992.0 * 1e9; break;
		case 3: v = ldexp((double)(r >> 11) / 9007199254740992.0, (int)(r % 120) - 60); break;
		default: v = (double)(r % 1000000) + 0.5e-6 * (double)(r % 3); break;
		}
		sb_jw_fmt_f(a, sizeof(a), v);
		snprintf(b, sizeof(b), "%f", v);
		bad += strcmp(a, b) != 0;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static CU_TestInfo tests[] = {
	{ "sparse = dense after merges (random data)", test_merge_random },
	{ "empty sparse histogram", test_empty },
	{ "a job keeps only the used buckets", test_kept_size },
	{ "JSON doubles as %f", test_fmt_f },
	CU_TEST_INFO_NULL,
};
SB_SUITE(shist, tests)
