/* test_output_host.c: the host counters in the writers' output - a real
 * sb_host opened on the fixture tree t/fixtures/host1 and sampled twice
 * (host1b at 2 s, host1c at 3 s, through a symlink re-pointed between
 * samples as test_host.c does), put into sb_results.host and written as
 * JSON ("host" between "disk_util" and "comparisons") and as normal text;
 * and the writers of output/host.c on the three-sample run of test_host.c
 * (host1 -> host1b -> host1c -> host1d at 2, 3 and 5 s). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host_fixture.h"
#include "output/host.h"
#include "output/jsonw.h"
#include "output/output.h"
#include "stats/host.h"
#include "test_output_json.h"

#define S (1000000000ull)

static const char *const disks[] = { "sda", "nosuch" };

/* cpu, mem, disk, net, ib, rapl and gpu requested (perf not); no NVML */
static struct sb_host *host_two_samples(void)
{
	struct sb_host_config cfg = {
		.root = sb_test_host_root_at("host1"),
		.which = SB_HOST_ALL & ~(1u << SB_HOST_PERF),
		.disks = disks, .ndisks = 2,
		.fs_path = sb_test_tmpdir(),
		.nvml_lib = "libnvidia-ml-not-here.so.1",
		.start_ns = 1 * S,
	};
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg.root);
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_test_host_root_at("host1b"));
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sb_test_host_root_at("host1c"));
	CU_ASSERT_EQUAL(sb_host_sample(h, 3 * S), 0);
	return h;
}

/* the JSON literal true at path */
static int is_true(const char *doc, const char *path)
{
	const char *v = sb_tj_get(doc, path);
	return v && !strncmp(v, "true", 4);
}

/* Per-CPU averages of the two intervals: 62.5% and 99.75% (test_host.c
 * works them out), 1 s each: 81.125% over the run; 1 of 2 samples at 100. */
static void test_host_json(void)
{
	struct sb_host *h = host_two_samples();
	struct sb_results r = { .version = "storbench-0.1.0", .host = h };
	char *doc = sb_tj_render(&r, SB_FMT_JSON);
	CU_ASSERT_FATAL(sb_tj_valid(doc));
	const char *du = strstr(doc, "\"disk_util\""), *ho = strstr(doc, "\"host\"");
	const char *cmp = strstr(doc, "\"comparisons\"");
	CU_ASSERT_FATAL(du && ho && cmp);
	CU_ASSERT_TRUE(du < ho && ho < cmp);
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\"cpu_avg_utilization_pct\""));
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "host/cpu/cpu_avg_utilization_pct"), 81.125, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "host/cpu/cpu_avg_utilization_at100_pct"), 50.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "host/samples"), 2, 0);
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "host/series/1"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "host/series/2"));
	/* absent sources say so, with a reason, and carry no figures */
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "host/cpu/absent"));
	CU_ASSERT_TRUE(is_true(doc, "host/gpu/absent"));
	CU_ASSERT_PTR_NOT_NULL(sb_tj_get(doc, "host/gpu/reason"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "host/gpu/mean_power_w"));
	CU_ASSERT_TRUE(is_true(doc, "host/perf/absent"));
	CU_ASSERT_TRUE(sb_tj_str_is(doc, "host/disk/devices/1/name", "nosuch"));
	CU_ASSERT_TRUE(is_true(doc, "host/disk/devices/1/absent"));
	CU_ASSERT_PTR_NULL(sb_tj_get(doc, "host/disk/devices/1/read_ios"));
	CU_ASSERT_DOUBLE_EQUAL(sb_tj_num(doc, "host/disk/devices/0/write_ios"), 400, 0);
	/* the host object is indented like the rest of the document */
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\n  \"host\" : {\n    \"run_s\" : 2.000000,\n"));
	free(doc);
	sb_host_close(h);
}

static void test_host_normal(void)
{
	struct sb_host *h = host_two_samples();
	struct sb_results r = { .version = "storbench-0.1.0", .host = h };
	struct sb_group_result g = { .groupid = 0, .kb_base = 1024, .unit_base = 0 };
	g.dir[SB_DDIR_READ].io_bytes = 4096;
	g.dir[SB_DDIR_READ].max_run_ms = 1000;
	r.groups = &g;
	r.ngroups = 1;
	char *out = sb_tj_render(&r, SB_FMT_NORMAL);
	const char *grp = strstr(out, "Run status group 0");
	const char *ho = strstr(out, "\n  host (2 samples over 2.0s):\n");
	CU_ASSERT_FATAL(grp && ho);
	CU_ASSERT_TRUE(grp < ho);
	CU_ASSERT_PTR_NOT_NULL(strstr(ho, "    cpu (4): avg=81.1%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ho, "    gpu: absent ("));
	free(out);
	/* no host counters: no host section, no "host" key */
	r.host = NULL;
	out = sb_tj_render(&r, SB_FMT_NORMAL | SB_FMT_JSON);
	CU_ASSERT_PTR_NULL(strstr(out, "host ("));
	CU_ASSERT_PTR_NULL(strstr(out, "\"host\""));
	free(out);
	sb_host_close(h);
}

/* the "host" object alone, as json.c writes it (one level deep) */
static char *emit_json(const struct sb_host *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sb_jw w;
	sb_jw_init(&w, f);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_obj_begin(&w, "host");
	sb_out_host_json(&w, h);
	sb_jw_obj_end(&w);
	sb_jw_obj_end(&w);
	fclose(f);
	return buf;
}

/* moved from test_host.c with the writers; the same figures, in the
 * layout of the real JSON writer (the FILE emitter it used is gone) */
static void test_host_writers(void)
{
	struct sb_host *h = sb_test_host_fixture_run(0);
	char *js = emit_json(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(js);
	CU_ASSERT_FATAL(sb_tj_valid(js));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"cpu_avg_utilization_pct\" : 43.062500"));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"node_unused_cpu_hours\" : 0.002531"));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"total_net_io_ext_recv_mb\" : 12.750000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"name\" : \"nosuch\",\n          \"absent\" : true,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"gpu\" : {\n      \"absent\" : true,\n      \"reason\" : \""));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"perf\" : {\n      \"absent\" : true,\n      \"reason\" : \"not requested"));
	CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"t_ms\" : 4000,\n        \"dur_ms\" : 2000,\n        \"cpu_avg\" : 5.000000"));
	CU_ASSERT_PTR_NULL(strstr(js, "gpu_util_pct"));   /* absent: not in the series */
	int depth = 0, ok = 1;
	for (char *p = js; *p; p++) {
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		ok &= depth >= 0 && !(p[0] == ',' && (p[1] == '}' || p[1] == ']'));
	}
	CU_ASSERT_EQUAL(depth, 0);
	CU_ASSERT_TRUE(ok);
	free(js);

	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	sb_out_host_normal(f, h);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "host (3 samples over 4.0s)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "cpu (4): avg=43.1%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "disk sda: ios=100/400, merge=5/8, ticks=50/90, in_queue=140, util=12.50%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "disk nosuch: absent (nosuch: not in proc/diskstats)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "rapl: package-0=2.0J (0.5W)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "gpu: absent ("));
	CU_ASSERT_PTR_NULL(strstr(txt, "perf"));   /* not requested */
	free(txt);
	sb_host_close(h);
}

static CU_TestInfo tests[] = {
	{ "host in json", test_host_json },
	{ "host in normal output", test_host_normal },
	{ "host writers", test_host_writers },
	CU_TEST_INFO_NULL,
};
SB_SUITE(output_host, tests)
