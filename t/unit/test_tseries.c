/* test_tseries.c: the per-interval accumulators (stats/ilat.h), the bounded
 * time series (stats/tseries.h), the fio log ring and lines
 * (stats/iolog.h), and the run monitor on synthetic threads seen through
 * their stats-facing views (stats/monitor.h, stats/tview.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/thread.h"
#include "harness.h"
#include "parse/options.h"
#include "stats/ilat.h"
#include "stats/iolog.h"
#include "stats/monitor.h"
#include "stats/tseries.h"

static void test_ilat_buckets(void)
{
	for (uint64_t v = 0; v < 32; v++)
		CU_ASSERT_EQUAL(sb_ilat_bucket_value(sb_ilat_index(v)), v);
	for (uint64_t v = 33; v < (1ull << 39); v = v * 5 / 4 + 7) {
		double got = (double)sb_ilat_bucket_value(sb_ilat_index(v));
		double err = (got - (double)v) / (double)v;
		CU_ASSERT(err < 0.032 && err > -0.032);
	}
	CU_ASSERT_EQUAL(sb_ilat_index(UINT64_MAX), SB_ILAT_NB - 1);
}

/* each interval's max is its own; a quiet interval has none; counts are
 * cumulative and nothing is lost at the boundaries */
static void test_ilat_snapshots(void)
{
	static struct sb_ilat il;
	static struct sb_ilat_snap a, b, c;
	sb_ilat_init(&il);
	sb_ilat_add(&il, SB_DDIR_READ, 4096, 1000, 0, 1000);
	sb_ilat_add(&il, SB_DDIR_READ, 4096, 50000, 0, 50000);
	sb_ilat_add(&il, SB_DDIR_WRITE, 8192, 7000, 100, 7100);
	sb_ilat_snapshot(&il, &a, true);
	CU_ASSERT_EQUAL(a.d[0].ios, 2);
	CU_ASSERT_EQUAL(a.d[0].bytes, 8192);
	CU_ASSERT_EQUAL(a.d[0].clat_sum, 51000);
	CU_ASSERT_EQUAL(a.d[0].clat_max, 50000);
	CU_ASSERT_EQUAL(a.d[1].clat_max, 7000);
	CU_ASSERT_EQUAL(a.d[1].slat_sum, 100);
	CU_ASSERT_EQUAL(a.d[1].lat_sum, 7100);
	sb_ilat_add(&il, SB_DDIR_READ, 4096, 2000, 0, 2000);
	sb_ilat_snapshot(&il, &b, true);
	CU_ASSERT_EQUAL(b.d[0].ios, 3);
	CU_ASSERT_EQUAL(b.d[0].clat_max, 2000);   /* not the 50 us of the interval before */
	CU_ASSERT_EQUAL(b.d[1].clat_max, 0);      /* no write in this interval */
	sb_ilat_snapshot(&il, &c, false);         /* a log read does not end the interval */
	CU_ASSERT_EQUAL(c.d[0].clat_max, 0);
	sb_ilat_add(&il, SB_DDIR_READ, 4096, 3000, 0, 3000);
	sb_ilat_snapshot(&il, &c, true);
	CU_ASSERT_EQUAL(c.d[0].clat_max, 3000);
	uint64_t ios, bytes;
	sb_ilat_totals(&il, SB_DDIR_READ, &ios, &bytes);
	CU_ASSERT_EQUAL(ios, 4);
	CU_ASSERT_EQUAL(bytes, 16384);
}

/* two threads' intervals add up; p99, mean, bandwidth and IOPS of the sum */
static void test_interval_math(void)
{
	static struct sb_ilat t1, t2;
	static struct sb_ilat_snap p1, p2, c1, c2;
	static uint64_t h[SB_DDIR_N][SB_ILAT_NB];
	struct sb_ts_sample s;
	sb_ilat_init(&t1);
	sb_ilat_init(&t2);
	sb_ilat_add(&t1, 0, 4096, 999999, 0, 0);   /* before the interval */
	sb_ilat_snapshot(&t1, &p1, true);
	sb_ilat_snapshot(&t2, &p2, true);
	for (int i = 0; i < 990; i++)
		sb_ilat_add(i % 2 ? &t1 : &t2, 0, 4096, 10000, 0, 10000);
	for (int i = 0; i < 10; i++)
		sb_ilat_add(&t2, 0, 4096, 5000000, 0, 5000000);
	sb_ilat_snapshot(&t1, &c1, true);
	sb_ilat_snapshot(&t2, &c2, true);
	memset(&s, 0, sizeof(s));
	memset(h, 0, sizeof(h));
	s.dur_ns = 500000000; /* 0.5 s */
	sb_ts_accumulate(&s, h, &c1, &p1);
	sb_ts_accumulate(&s, h, &c2, &p2);
	sb_ts_finish(&s, h);
	CU_ASSERT_EQUAL(s.d[0].ios, 1000);
	CU_ASSERT_EQUAL(s.d[0].bytes, 4096000);
	CU_ASSERT_EQUAL(s.d[0].clat_max_ns, 5000000);
	CU_ASSERT_EQUAL(sb_ts_bw_bytes(&s, 0), 8192000);
	CU_ASSERT_DOUBLE_EQUAL(sb_ts_iops(&s, 0), 2000.0, 1e-9);
	CU_ASSERT_EQUAL(sb_ts_clat_mean_ns(&s, 0), (990ull * 10000 + 10ull * 5000000) / 1000);
	/* 990 of 1000 at 10 us: the 99th percentile is 10 us (within a bucket) */
	CU_ASSERT(s.d[0].clat_p99_ns >= 9700 && s.d[0].clat_p99_ns <= 10300);
	CU_ASSERT(s.d[0].clat_p50_ns >= 9700 && s.d[0].clat_p50_ns <= 10300); /* and the median */
	CU_ASSERT_EQUAL(s.d[1].ios, 0);
	CU_ASSERT_EQUAL(s.d[1].clat_p50_ns, 0);
	CU_ASSERT_EQUAL(s.d[1].clat_p99_ns, 0);
	uint64_t p100 = sb_ilat_percentile(h[0], 100.0);         /* a bucket midpoint */
	CU_ASSERT(p100 > 4840000 && p100 < 5160000);
}

static struct sb_ts_sample one(uint64_t k)
{
	struct sb_ts_sample s;
	memset(&s, 0, sizeof(s));
	s.t_ms = (k + 1) * 1000;
	s.dur_ns = 1000000000;
	s.d[0].ios = 1;
	s.d[0].bytes = 4096;
	s.d[0].clat_max_ns = k == 5 ? 777 : 10;
	s.d[0].clat_p99_ns = k;
	return s;
}

/* the p50 of merged intervals: the I/O-weighted mean of their p50s, which
 * lies between them as the merged median does; an interval without I/O
 * does not move it */
static void test_p50_merge(void)
{
	struct sb_ts_sample a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.d[0].ios = 300;
	a.d[0].clat_p50_ns = 1000;
	b.d[0].ios = 100;
	b.d[0].clat_p50_ns = 5000;
	sb_ts_merge(&a, &b);
	CU_ASSERT_EQUAL(a.d[0].ios, 400);
	CU_ASSERT_EQUAL(a.d[0].clat_p50_ns, 2000);
	memset(&b, 0, sizeof(b));
	sb_ts_merge(&a, &b);
	CU_ASSERT_EQUAL(a.d[0].clat_p50_ns, 2000);
	CU_ASSERT_EQUAL(sb_ts_p50_merge(0, 0, 7, 3), 7);
}

/* past the cap, neighbours merge: memory stays at cap samples, every
 * interval stays covered, nothing is counted twice */
static void test_downsampling(void)
{
	struct sb_tseries ts;
	CU_ASSERT_EQUAL(sb_tseries_init(&ts, 8), 0);
	for (uint64_t k = 0; k < 8; k++) {
		struct sb_ts_sample s = one(k);
		sb_tseries_add(&ts, &s);
	}
	CU_ASSERT_EQUAL(ts.n, 8);
	CU_ASSERT_EQUAL(ts.stride, 1);
	struct sb_ts_sample s9 = one(8);
	sb_tseries_add(&ts, &s9);
	CU_ASSERT_EQUAL(ts.n, 4);
	CU_ASSERT_EQUAL(ts.stride, 2);
	CU_ASSERT_EQUAL(ts.s[0].t_ms, 2000);       /* the end of the later interval */
	CU_ASSERT_EQUAL(ts.s[0].dur_ns, 2000000000ull);
	CU_ASSERT_EQUAL(ts.s[0].d[0].ios, 2);
	CU_ASSERT_EQUAL(ts.s[2].d[0].clat_max_ns, 777); /* the larger max survives */
	CU_ASSERT_EQUAL(ts.s[1].d[0].clat_p99_ns, 3);   /* the larger p99 */
	for (uint64_t k = 9; k < 1000; k++) {
		struct sb_ts_sample s = one(k);
		sb_tseries_add(&ts, &s);
		CU_ASSERT(ts.n <= 8);
	}
	unsigned n;
	struct sb_ts_sample *all = sb_tseries_take(&ts, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT(n >= 4 && n <= 8);
	uint64_t ios = 0, dur = 0, last = 0;
	for (unsigned i = 0; i < n; i++) {
		ios += all[i].d[0].ios;
		dur += all[i].dur_ns;
		CU_ASSERT(all[i].t_ms > last);
		last = all[i].t_ms;
	}
	CU_ASSERT_EQUAL(ios, 1000);
	CU_ASSERT_EQUAL(dur, 1000ull * 1000000000ull);
	CU_ASSERT_EQUAL(last, 1000000);
	free(all);
	sb_tseries_free(&ts);
}

static unsigned count_lines(const char *path, char *first, size_t len)
{
	FILE *f = fopen(path, "r");
	char buf[256];
	unsigned n = 0;
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		if (n++ == 0 && first)
			snprintf(first, len, "%s", buf);
	fclose(f);
	return n;
}

/* per-I/O entries go through the ring into fio's columns; a ring drained
 * when full takes more */
static void test_iolog_ring(void)
{
	struct sb_iolog_ring r;
	struct sb_iolog_files lf;
	char base[512], path[600], first[256];
	CU_ASSERT_EQUAL_FATAL(sb_iolog_ring_init(&r), 0);
	snprintf(base, sizeof(base), "%s/ring", sb_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(sb_iolog_open(&lf, base, base, base, 3, true, true, 0), 0);
	for (unsigned i = 0; i < SB_IOLOG_RING; i++) {
		struct sb_iolog_ent e = { 5000000000ull + i * 1000000ull, 8192ull * i, 2000, 300, 2300,
					  4096, 1, 0, 0 };
		sb_iolog_push(&r, &e);
	}
	CU_ASSERT_EQUAL(atomic_load(&r.waits), 0);
	CU_ASSERT_EQUAL(sb_iolog_drain(&r, &lf, 4000000000ull), SB_IOLOG_RING);
	struct sb_iolog_ent e = { 4000000000ull, 0, 1000, 0, 1000, 512, 0, 0, 0 };
	for (int i = 0; i < 11; i++)
		sb_iolog_push(&r, &e); /* room again after the drain */
	CU_ASSERT_EQUAL(sb_iolog_drain(&r, &lf, 4000000000ull), 11);
	CU_ASSERT_EQUAL(sb_iolog_close(&lf), 0);
	snprintf(path, sizeof(path), "%s_clat.3.log", base);
	CU_ASSERT_EQUAL(count_lines(path, first, sizeof(first)), SB_IOLOG_RING + 11);
	CU_ASSERT_STRING_EQUAL(first, "1000, 2000, 1, 4096, 0, 0\n"); /* t, ns, ddir, bs, offset, prio */
	snprintf(path, sizeof(path), "%s_slat.3.log", base);
	CU_ASSERT_EQUAL(count_lines(path, first, sizeof(first)), SB_IOLOG_RING + 11);
	CU_ASSERT_STRING_EQUAL(first, "1000, 300, 1, 4096, 0, 0\n");
	snprintf(path, sizeof(path), "%s_bw.3.log", base);
	count_lines(path, first, sizeof(first));
	CU_ASSERT_STRING_EQUAL(first, "1000, 2000000, 1, 4096, 0, 0\n"); /* 4 KiB in 2 us, KiB/s */
	snprintf(path, sizeof(path), "%s_iops.3.log", base);
	count_lines(path, first, sizeof(first));
	CU_ASSERT_STRING_EQUAL(first, "1000, 1, 1, 4096, 0, 0\n");
	sb_iolog_ring_free(&r);
}

#define PRODUCE (4 * SB_IOLOG_RING + 123)

static void *producer(void *arg)
{
	struct sb_iolog_ring *r = arg;
	for (uint64_t i = 0; i < PRODUCE; i++) {
		struct sb_iolog_ent e = { 5000000000ull, i, i + 1, 0, i + 1, 4096, 0, 0, 0 };
		sb_iolog_push(r, &e);
	}
	return NULL;
}

/* A producer far faster than its consumer loses nothing: it wakes the
 * consumer at the kick mark and waits for room when the ring is full;
 * every entry is in the log, in order.  Once with the wake object (the
 * consumer sleeps until kicked, as the log writer does), once without. */
static void ring_lossless(bool wake)
{
	static struct sb_iolog_ring r;
	static struct sb_iolog_wake w;
	struct sb_iolog_files lf;
	char base[512], path[600], buf[256];
	CU_ASSERT_EQUAL_FATAL(sb_iolog_ring_init(&r), 0);
	sb_iolog_wake_init(&w);
	r.wake = wake ? &w : NULL;
	snprintf(base, sizeof(base), "%s/lossless%d", sb_test_tmpdir(), wake);
	CU_ASSERT_EQUAL_FATAL(sb_iolog_open(&lf, NULL, NULL, base, 1, false, false, 0), 0);
	pthread_t tid;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&tid, NULL, producer, &r), 0);
	uint64_t got = 0;
	while (got < PRODUCE) {
		if (wake) { /* sleep until kicked (or 20 ms), as monlog.c's writer */
			struct timespec ts;
			pthread_mutex_lock(&w.mu);
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += 20000000;
			ts.tv_sec += ts.tv_nsec / 1000000000;
			ts.tv_nsec %= 1000000000;
			if (!w.kicked)
				pthread_cond_timedwait(&w.work, &w.mu, &ts);
			w.kicked = false;
			pthread_mutex_unlock(&w.mu);
		} else {
			usleep(20000); /* a slow consumer: the producer fills the ring */
		}
		got += sb_iolog_drain(&r, &lf, 5000000000ull);
	}
	pthread_join(tid, NULL);
	CU_ASSERT_EQUAL(got, PRODUCE);
	CU_ASSERT(atomic_load(&r.waits) > 0 || wake); /* without wake: 20 ms per ring, it waits */
	CU_ASSERT_EQUAL(sb_iolog_close(&lf), 0);
	snprintf(path, sizeof(path), "%s_clat.1.log", base);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	uint64_t n = 0, bad = 0;
	while (fgets(buf, sizeof(buf), f)) {
		unsigned long long v = 0;
		bad += sscanf(buf, "%*u, %llu,", &v) != 1 || v != n + 1;
		n++;
	}
	fclose(f);
	CU_ASSERT_EQUAL(n, PRODUCE);
	CU_ASSERT_EQUAL(bad, 0);
	sb_iolog_ring_free(&r);
	sb_iolog_wake_destroy(&w);
}

static void test_iolog_lossless(void)
{
	ring_lossless(true);
	ring_lossless(false);
}

static void test_iolog_line(void)
{
	char path[512], buf[128];
	snprintf(path, sizeof(path), "%s/line.log", sb_test_tmpdir());
	FILE *f = fopen(path, "w+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	sb_iolog_line(f, 1000, 2048, 0, 0, 99, false);
	sb_iolog_line(f, 2000, 7, 1, 4096, 8192, true);
	rewind(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	CU_ASSERT_STRING_EQUAL(buf, "1000, 2048, 0, 0, 0\n");
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	CU_ASSERT_STRING_EQUAL(buf, "2000, 7, 1, 4096, 8192, 0\n");
	fclose(f);
}

static const struct sb_engine_ops fake_ops = { .name = "fake", .flags = SB_ENGINE_SYNC };

/* The monitor on two synthetic threads of one group_reporting job: one
 * series, samples at the boundaries, the last one ending at the threads'
 * end, moved into the results. */
static void test_monitor_series(void)
{
	static struct sb_jobspec spec;
	static struct sb_thread th[2];
	static struct sb_tview v[2];
	static struct sb_ilat il[2];
	static struct sb_job_result jr;
	struct sb_joblist jl = { .jobs = &spec, .njobs = 1 };
	struct sb_results res = { .jobs = &jr, .njobs = 1 };
	struct sb_monitor *m = calloc(1, sizeof(*m));
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&spec), 0);
	snprintf(spec.name, sizeof(spec.name), "syn");
	spec.group_reporting = true;
	spec.stats_interval_us = 500000;
	free(spec.host_counters);
	spec.host_counters = strdup("none");
	for (int i = 0; i < 2; i++) {
		memset(&th[i], 0, sizeof(th[i]));
		th[i].spec = &spec;
		th[i].ops = &fake_ops;
		th[i].ilat = &il[i];
		sb_ilat_init(&il[i]);
		sb_thread_view(&th[i], &v[i]);
	}
	struct sb_mon_opts o = { .progress = 0 };
	CU_ASSERT_EQUAL_FATAL(sb_monitor_init(m, &jl, v, 2, NULL, 0, ".", &o), 0);
	CU_ASSERT_EQUAL(m->nser, 1);
	CU_ASSERT_EQUAL(m->interval_ns, 500000000ull);
	uint64_t t0 = 1000000000000ull, ms = 1000000;
	sb_monitor_start(m, t0);
	sb_monitor_tick(m, t0 + 500 * ms);   /* nothing running yet: no sample */
	for (int i = 0; i < 2; i++) {
		atomic_store(&th[i].count_start_ns, t0 + 600 * ms);
		atomic_store(&th[i].phase, SB_PH_RUN);
		for (int k = 0; k < 100; k++)
			sb_ilat_add(&il[i], 0, 4096, 20000, 0, 20000);
	}
	sb_monitor_tick(m, t0 + 1000 * ms);  /* 200 I/Os in 400 ms */
	sb_ilat_add(&il[0], 0, 4096, 90000, 0, 90000);
	th[0].end_ns = th[1].end_ns = t0 + 1200 * ms;
	atomic_store(&th[0].phase, SB_PH_DONE);
	atomic_store(&th[1].phase, SB_PH_DONE);
	CU_ASSERT_EQUAL(sb_monitor_finish(m, t0 + 1300 * ms, &res), 0);
	CU_ASSERT_EQUAL_FATAL(jr.nts, 2);
	CU_ASSERT_EQUAL(jr.ts[0].t_ms, 1000);
	CU_ASSERT_EQUAL(jr.ts[0].dur_ns, 400 * ms);
	CU_ASSERT_DOUBLE_EQUAL(sb_ts_iops(&jr.ts[0], 0), 500.0, 1e-6);
	CU_ASSERT_EQUAL(jr.ts[0].d[0].clat_max_ns, 20000);
	CU_ASSERT_EQUAL(jr.ts[1].t_ms, 1200);          /* ends when the threads ended */
	CU_ASSERT_EQUAL(jr.ts[1].d[0].ios, 1);
	CU_ASSERT_EQUAL(jr.ts[1].d[0].clat_max_ns, 90000);
	CU_ASSERT_PTR_NULL(res.host);                   /* host_counters=none */
	CU_ASSERT_EQUAL(res.stats_interval_ms, 500);
	free(jr.ts);
	sb_monitor_free(m);
	free(m);
	sb_spec_release(&spec);
}

static CU_TestInfo tests[] = {
	{ "ilat buckets within 3.2%", test_ilat_buckets },
	{ "ilat snapshots: interval max, cumulative counts", test_ilat_snapshots },
	{ "interval math over two threads", test_interval_math },
	{ "downsampling at the cap", test_downsampling },
	{ "p50 of merged intervals", test_p50_merge },
	{ "per-I/O log ring and fio columns", test_iolog_ring },
	{ "per-I/O log ring never drops", test_iolog_lossless },
	{ "fio log line format", test_iolog_line },
	{ "monitor series on synthetic threads", test_monitor_series },
	CU_TEST_INFO_NULL,
};
SB_SUITE(tseries, tests)
