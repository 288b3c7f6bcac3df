/* test_mixed.c: unified_rw_reporting's merged direction (stats/mixed.c)
 * against the figures fio 3.33 printed for the same inputs. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "stats/mixed.h"

static void add_lat(struct sb_tstats *t, int d, uint64_t v)
{
	sb_stat_add(&t->clat[d], v);
	sb_shist_add(&t->clat_h[d], v);
	sb_stat_add(&t->lat[d], v + 10);
	sb_shist_add(&t->lat_h[d], v + 10);
	t->total_ios[d]++;
	t->io_bytes[d] += 4096;
}

/* a read and a write stream; *all gets every completion latency */
static void fill(struct sb_tstats *t, struct sb_hist *all, struct sb_stat *sall)
{
	sb_tstats_init(t);
	memset(all, 0, sizeof(*all));
	sb_stat_init(sall);
	for (uint64_t i = 0; i < 3000; i++) {
		uint64_t v = 100 + (i * 7919) % 5000;   /* reads: 100..5099 ns */
		add_lat(t, SB_DDIR_READ, v);
		sb_hist_add(all, v);
		sb_stat_add(sall, v);
	}
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t v = 20000 + (i * 104729) % 30000;  /* writes: slower */
		add_lat(t, SB_DDIR_WRITE, v);
		sb_hist_add(all, v);
		sb_stat_add(sall, v);
	}
	/* fio 3.33, rw=randrw rate_iops=3000,1000 unified_rw_reporting=both:
	 * read bw samples 12000, 12008, 12016; write 4000, 4000, 4008 */
	const uint64_t rb[] = { 12000, 12008, 12016 }, wb[] = { 4000, 4000, 4008 };
	for (int i = 0; i < 3; i++) {
		sb_stat_add(&t->bw_samples[SB_DDIR_READ], rb[i]);
		sb_stat_add(&t->bw_samples[SB_DDIR_WRITE], wb[i]);
	}
	t->runtime_ns[SB_DDIR_READ] = 1001000000;
	t->runtime_ns[SB_DDIR_WRITE] = 2001000000;
	t->ctx = 77;
	t->sync_lat.n = 5;
}

static void test_tstats_mix(void)
{
	struct sb_tstats *t = calloc(1, sizeof(*t)), *m = calloc(1, sizeof(*m));
	struct sb_hist *all = calloc(1, sizeof(*all));
	struct sb_stat sall;
	CU_ASSERT_FATAL(t && m && all);
	fill(t, all, &sall);
	sb_tstats_mix(m, t);
	const int o = SB_DDIR_READ;
	CU_ASSERT_EQUAL(m->total_ios[o], 4000);
	CU_ASSERT_EQUAL(m->io_bytes[o], 4000 * 4096);
	CU_ASSERT_EQUAL(m->clat[o].n, 4000);
	CU_ASSERT_EQUAL(m->clat[o].min, sall.min);
	CU_ASSERT_EQUAL(m->clat[o].max, sall.max);
	CU_ASSERT_DOUBLE_EQUAL(m->clat[o].mean, sall.mean, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_stat_stddev(&m->clat[o]), sb_stat_stddev(&sall), 1e-6);
	CU_ASSERT_EQUAL(m->lat[o].n, 4000);
	/* percentiles are over every I/O: the histogram of all of them */
	const double p[] = { 1, 50, 70, 75, 80, 99, 99.9 };
	for (unsigned i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		CU_ASSERT_EQUAL(sb_shist_percentile(&m->clat_h[o], p[i]), sb_hist_percentile(all, p[i]));
	/* the p80 of all I/Os is a write's, not the reads' p80 */
	CU_ASSERT(sb_shist_percentile(&m->clat_h[o], 80) >= 20000);
	/* fio: mixed bw min=16000 max=16024 mean=16010.666667 dev=5.842374 samples=6 */
	const struct sb_stat *bw = &m->bw_samples[o];
	CU_ASSERT_EQUAL(bw->n, 6);
	CU_ASSERT_EQUAL(bw->min, 16000);
	CU_ASSERT_EQUAL(bw->max, 16024);
	CU_ASSERT_DOUBLE_EQUAL(bw->mean, 16010.666667, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(sb_stat_stddev(bw), 5.842374, 1e-5);
	/* runtime: the longest direction's (fio: mixed runtime 2001 of 1001/2001) */
	CU_ASSERT_EQUAL(m->runtime_ns[o], 2001000000);
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (d == o)
			continue;
		CU_ASSERT_EQUAL(m->total_ios[d], 0);
		CU_ASSERT_EQUAL(m->io_bytes[d], 0);
		CU_ASSERT_EQUAL(m->clat[d].n, 0);
		CU_ASSERT_EQUAL(m->clat_h[d].n, 0);
		CU_ASSERT_EQUAL(m->bw_samples[d].n, 0);
		CU_ASSERT_EQUAL(m->runtime_ns[d], 0);
	}
	/* not per direction: as it was; the source is untouched */
	CU_ASSERT_EQUAL(m->ctx, 77);
	CU_ASSERT_EQUAL(m->sync_lat.n, 5);
	CU_ASSERT_EQUAL(t->total_ios[SB_DDIR_WRITE], 1000);
	CU_ASSERT_EQUAL(t->total_ios[SB_DDIR_READ], 3000);
	sb_tstats_release(t);
	sb_tstats_release(m);
	free(t);
	free(m);
	free(all);
}

static void test_job_mixed(void)
{
	struct sb_job_result *j = calloc(1, sizeof(*j));
	struct sb_hist *all = calloc(1, sizeof(*all));
	struct sb_stat sall;
	CU_ASSERT_FATAL(j && all);
	fill(&j->st, all, &sall);
	j->runtime_ms[SB_DDIR_READ] = 1001;
	j->runtime_ms[SB_DDIR_WRITE] = 2001;
	j->ts = (struct sb_ts_sample *)all;   /* any non-NULL pointer: must not be shared */
	j->nts = 1;
	struct sb_job_result *m = sb_job_mixed(j);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL(m->runtime_ms[SB_DDIR_READ], 2001);
	CU_ASSERT_EQUAL(m->runtime_ms[SB_DDIR_WRITE], 0);
	CU_ASSERT_PTR_NULL(m->ts);
	CU_ASSERT_EQUAL(m->nts, 0);
	CU_ASSERT_EQUAL(m->st.total_ios[SB_DDIR_READ], 4000);
	sb_job_mixed_free(m);
	sb_tstats_release(&j->st);
	free(j);
	free(all);
}

/* fio 3.33, group_reporting of a (rw=read, 4096000 B in 1001 ms) and b
 * (rw=write, 4096000 B in 2001 ms):
 *   =both:  MIXED: bw=5995KiB/s, 1999KiB/s-3996KiB/s, io=8000KiB, run=1001-2001msec
 *   =mixed: MIXED: bw=3998KiB/s, 3998KiB/s-3998KiB/s, io=8000KiB, run=2001-2001msec */
static void test_group_mixed(void)
{
	struct sb_results r;
	struct sb_job_result *j = calloc(1, sizeof(*j));
	struct sb_group_result g, gm;
	CU_ASSERT_FATAL(j != NULL);
	memset(&r, 0, sizeof(r));
	memset(&g, 0, sizeof(g));
	sb_tstats_init(&j->st);
	j->st.io_bytes[SB_DDIR_READ] = j->st.io_bytes[SB_DDIR_WRITE] = 4096000;
	j->runtime_ms[SB_DDIR_READ] = 1001;
	j->runtime_ms[SB_DDIR_WRITE] = 2001;
	g.groupid = 0;
	g.kb_base = 1024;
	for (int d = 0; d < 2; d++) {
		uint64_t bw = 4096000ull * 1000 / j->runtime_ms[d];
		g.dir[d] = (struct sb_group_dir){ .io_bytes = 4096000, .agg_bw = bw, .min_bw = bw,
						  .max_bw = bw, .min_run_ms = j->runtime_ms[d],
						  .max_run_ms = j->runtime_ms[d] };
	}
	r.jobs = j;
	r.njobs = 1;
	r.groups = &g;
	r.ngroups = 1;

	CU_ASSERT_EQUAL(sb_group_mixed(&r, 0, SB_UNIFIED_BOTH, &gm), 0);
	const struct sb_group_dir *x = &gm.dir[SB_DDIR_READ];
	CU_ASSERT_EQUAL(x->io_bytes, 8192000);
	CU_ASSERT_EQUAL(x->min_run_ms, 1001);
	CU_ASSERT_EQUAL(x->max_run_ms, 2001);
	CU_ASSERT_EQUAL(x->min_bw / 1024, 1999);
	CU_ASSERT_EQUAL(x->max_bw / 1024, 3996);
	CU_ASSERT_EQUAL(x->agg_bw / 1024, 3998);   /* 8192000 B / 2.001 s */
	CU_ASSERT_EQUAL(gm.kb_base, 1024);
	CU_ASSERT_EQUAL(gm.dir[SB_DDIR_WRITE].io_bytes, 0);

	CU_ASSERT_EQUAL(sb_group_mixed(&r, 0, SB_UNIFIED_MIXED, &gm), 0);
	CU_ASSERT_EQUAL(x->io_bytes, 8192000);
	CU_ASSERT_EQUAL(x->min_run_ms, 2001);
	CU_ASSERT_EQUAL(x->max_run_ms, 2001);
	CU_ASSERT_EQUAL(x->min_bw / 1024, 3998);
	CU_ASSERT_EQUAL(x->max_bw / 1024, 3998);

	CU_ASSERT_EQUAL(sb_group_mixed(&r, 7, SB_UNIFIED_MIXED, &gm), -ENOENT);
	sb_tstats_release(&j->st);
	free(j);
}

static void test_ts_mix(void)
{
	struct sb_ts_sample s, m;
	memset(&s, 0, sizeof(s));
	s.t_ms = 1000;
	s.dur_ns = 1000000000;
	s.d[SB_DDIR_READ] = (struct sb_ts_dir){ .bytes = 3000 * 4096, .ios = 3000, .clat_sum_ns = 300000,
						.clat_max_ns = 900, .clat_p99_ns = 500, .clat_p50_ns = 100 };
	s.d[SB_DDIR_WRITE] = (struct sb_ts_dir){ .bytes = 1000 * 4096, .ios = 1000, .clat_sum_ns = 500000,
						 .clat_max_ns = 2000, .clat_p99_ns = 1500, .clat_p50_ns = 500 };
	sb_ts_mix(&m, &s);
	CU_ASSERT_EQUAL(m.d[SB_DDIR_READ].ios, 4000);
	CU_ASSERT_EQUAL(sb_ts_bw_bytes(&m, SB_DDIR_READ), sb_ts_bw_bytes(&s, 0) + sb_ts_bw_bytes(&s, 1));
	CU_ASSERT_DOUBLE_EQUAL(sb_ts_iops(&m, SB_DDIR_READ), 4000.0, 1e-9);
	CU_ASSERT_EQUAL(sb_ts_clat_mean_ns(&m, SB_DDIR_READ), 200);
	CU_ASSERT_EQUAL(m.d[SB_DDIR_READ].clat_max_ns, 2000);
	CU_ASSERT_EQUAL(m.d[SB_DDIR_READ].clat_p99_ns, 1500);
	CU_ASSERT_EQUAL(m.d[SB_DDIR_READ].clat_p50_ns, 200);
	CU_ASSERT_EQUAL(m.d[SB_DDIR_WRITE].ios, 0);
	CU_ASSERT_EQUAL(m.t_ms, 1000);
}

static CU_TestInfo tests[] = {
	{ "tstats mix (fio's sums)", test_tstats_mix },
	{ "job mixed copy", test_job_mixed },
	{ "group mixed and both", test_group_mixed },
	{ "time-series sample mix", test_ts_mix },
	CU_TEST_INFO_NULL,
};
SB_SUITE(mixed, tests)
