/* test_host_pcpu.c: the per-CPU utilization beside the host series
 * (sb_host_series_cpus, "cpus" in host.series) on the pcpu1 -> pcpu2 ->
 * pcpu3 fixtures: CPU indexes with a gap (cpu2 offline at open), a CPU that
 * does not tick in an interval, and the merge of two samples past the cap.
 *
 * /proc/stat per CPU (busy = total - idle - iowait, total of 8 fields):
 *   pcpu1: cpu0 100/1000, cpu1 200/1000, cpu3 0/1000 (no cpu2: nidx 4)
 *   pcpu2: cpu0 150/1100 -> 50 %; cpu1 200/1000 unchanged -> no reading;
 *          cpu2 10/20 first seen -> no reading; cpu3 25/1100 -> 25 %
 *   pcpu3: cpu0 170/1200 -> 20 %; cpu1 300/1100 -> 100 %;
 *          cpu2 20/40 -> 50 %; cpu3 35/1200 -> 10 %
 * With cap 2, a third sample (pcpu3 again: nothing ticked, no readings)
 * merges the first two: (50+20)/2, 100 (read on one side only), 50, 17.5. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host_fixture.h"
#include "output/host.h"
#include "output/jsonw.h"
#include "stats/host.h"

#define S (1000000000ull)
#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-4)

static struct sb_host *open_at(unsigned cap)
{
	struct sb_host_config cfg = {
		.root = sb_test_host_root_at("pcpu1"), .which = 1u << SB_HOST_CPU,
		.series_cap = cap, .start_ns = S,
	};
	return sb_host_open(&cfg);
}

static void test_per_cpu(void)
{
	struct sb_host *h = open_at(0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL_FATAL(sb_host_series_ncpus(h), 4);
	sb_test_host_root_at("pcpu2");
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	sb_test_host_root_at("pcpu3");
	CU_ASSERT_EQUAL(sb_host_sample(h, 3 * S), 0);
	float v[2 * 4];
	CU_ASSERT_EQUAL_FATAL(sb_host_series_cpus(h, v, 2), 2);
	NEAR(v[0], 50.0);
	CU_ASSERT_TRUE(isnan(v[1]));
	CU_ASSERT_TRUE(isnan(v[2]));
	NEAR(v[3], 25.0);
	NEAR(v[4], 20.0);
	NEAR(v[5], 100.0);
	NEAR(v[6], 50.0);
	NEAR(v[7], 10.0);
	/* the average across CPUs is of the CPUs with a reading */
	struct sb_host_sample ser[2];
	CU_ASSERT_EQUAL_FATAL(sb_host_series(h, ser, 2), 2);
	NEAR(ser[0].cpu_avg, 37.5);
	NEAR(ser[1].cpu_avg, 45.0);

	/* JSON: one "cpus" row per sample, null where a CPU had no reading */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	struct sb_jw w;
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_out_host_json(&w, h);
	sb_jw_obj_end(&w);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"cpus\" : [50.00, null, null, 25.00]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"cpus\" : [20.00, 100.00, 50.00, 10.00]"));
	free(buf);
	sb_host_close(h);
}

/* cap 2: the third sample halves the store; the first two intervals merge
 * (equal lengths: the mean; a CPU read on one side only keeps that side) */
static void test_per_cpu_merge(void)
{
	struct sb_host *h = open_at(2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	sb_test_host_root_at("pcpu2");
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	sb_test_host_root_at("pcpu3");
	CU_ASSERT_EQUAL(sb_host_sample(h, 3 * S), 0);
	CU_ASSERT_EQUAL(sb_host_sample(h, 4 * S), 0);   /* nothing ticked: no readings */
	float v[2 * 4];
	CU_ASSERT_EQUAL_FATAL(sb_host_series_cpus(h, v, 2), 2);
	NEAR(v[0], 35.0);
	NEAR(v[1], 100.0);
	NEAR(v[2], 50.0);
	NEAR(v[3], 17.5);
	for (unsigned i = 4; i < 8; i++)
		CU_ASSERT_TRUE(isnan(v[i]));
	sb_host_close(h);
}

/* no cpu source: no per-CPU series */
static void test_per_cpu_absent(void)
{
	struct sb_host_config cfg = { .root = sb_test_host_root_at("empty"), .which = SB_HOST_ALL,
				      .nvml_lib = "libnvidia-ml-not-here.so.1", .start_ns = S };
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	CU_ASSERT_EQUAL(sb_host_series_ncpus(h), 0);
	float v[4];
	CU_ASSERT_EQUAL(sb_host_series_cpus(h, v, 1), 0);
	sb_host_close(h);
}

static CU_TestInfo tests[] = {
	{ "per-CPU series", test_per_cpu },
	{ "per-CPU series merged past the cap", test_per_cpu_merge },
	{ "no cpu source", test_per_cpu_absent },
	CU_TEST_INFO_NULL,
};
SB_SUITE(host_pcpu, tests)
