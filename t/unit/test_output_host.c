/* test_output_host.c: the host counters in the writers' output - a real
 * sb_host opened on the fixture tree t/fixtures/host1 and sampled twice
 * (host1b at 2 s, host1c at 3 s, through a symlink re-pointed between
 * samples as test_host.c does), put into sb_results.host and written as
 * JSON ("host" between "disk_util" and "comparisons") and as normal text. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "output/output.h"
#include "stats/host.h"
#include "test_output_json.h"

#define S (1000000000ull)

static char link_path[PATH_MAX];

static const char *root_at(const char *name)
{
	char abs_target[PATH_MAX];
	if (!realpath(sb_test_fixture(name), abs_target))
		return NULL;
	snprintf(link_path, sizeof(link_path), "%s/outroot", sb_test_tmpdir());
	unlink(link_path);
	return symlink(abs_target, link_path) < 0 ? NULL : link_path;
}

static const char *const disks[] = { "sda", "nosuch" };

/* cpu, mem, disk, net, ib, rapl and gpu requested (perf not); no NVML */
static struct sb_host *host_two_samples(void)
{
	struct sb_host_config cfg = {
		.root = root_at("host1"),
		.which = SB_HOST_ALL & ~(1u << SB_HOST_PERF),
		.disks = disks, .ndisks = 2,
		.fs_path = sb_test_tmpdir(),
		.nvml_lib = "libnvidia-ml-not-here.so.1",
		.start_ns = 1 * S,
	};
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg.root);
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root_at("host1b"));
	CU_ASSERT_EQUAL(sb_host_sample(h, 2 * S), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root_at("host1c"));
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

static CU_TestInfo tests[] = {
	{ "host in json", test_host_json },
	{ "host in normal output", test_host_normal },
	CU_TEST_INFO_NULL,
};
SB_SUITE(output_host, tests)
