/* test_host_golden.c: the host writers (output/host.c) byte for byte - the
 * "host" JSON object and the normal-output host section of the fixture run
 * (host_fixture.h: host1 -> host1b -> host1c -> host1d), once with perf
 * requested too (no threads counted: its events are absent or zero), are
 * compared with the golden text under t/fixtures/host-golden/.  The only
 * figures that depend on this machine, the used share of the scratch
 * filesystem, are masked as "#".  SB_HOST_GOLDEN_WRITE=1 rewrites the golden
 * files (only after checking by hand that a change of output is wanted). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host_fixture.h"
#include "output/host.h"
#include "output/jsonw.h"
#include "stats/host.h"

/* the number after each marker becomes "#" */
static void mask(char *s)
{
	/* perf counts of this thread: the digits after '=' on the perf line */
	for (char *p = strstr(s, "    perf ("); p && *p && *p != '\n'; p++) {
		if (p[0] == '=' && p[1] >= '0' && p[1] <= '9') {
			size_t n = strspn(p + 1, "0123456789");
			p[1] = '#';
			memmove(p + 2, p + 1 + n, strlen(p + 1 + n) + 1);
		}
	}
	static const char *const marks[] = {
		"\"max_t_disk_usage_percent\" : ", "\"fs_used_pct\" : ", "filesystem: max used=", "\"count\" : ",
	};
	for (unsigned m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
		for (char *p = strstr(s, marks[m]); p; p = strstr(p, marks[m])) {
			p += strlen(marks[m]);
			size_t n = strspn(p, "0123456789.-e+");
			if (n) {
				*p = '#';
				memmove(p + 1, p + n, strlen(p + n) + 1);
			}
		}
	}
}

static char *render(const struct sb_host *h, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (json) {
		struct sb_jw w;
		sb_jw_init(&w, f);
		sb_jw_obj_begin(&w, NULL);
		sb_jw_obj_begin(&w, "host");
		sb_out_host_json(&w, h);
		sb_jw_obj_end(&w);
		sb_jw_obj_end(&w);
	} else {
		sb_out_host_normal(f, h);
	}
	fclose(f);
	mask(buf);
	return buf;
}

static void check_both(const struct sb_host *h, const char *json_name, const char *txt_name);

/* the empty root: every source absent, the disks listed one by one, no
 * filesystem path */
static void test_golden_empty(void)
{
	static const char *const disks[] = { "sda", "vdb" };
	struct sb_host_config cfg = {
		.root = sb_test_fixture("empty"), .which = SB_HOST_ALL,
		.disks = disks, .ndisks = 2,
		.nvml_lib = "libnvidia-ml-not-here.so.1",
		.start_ns = 1000000000ull,
	};
	struct sb_host *h = sb_host_open(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(sb_host_sample(h, 2000000000ull), 0);
	check_both(h, "empty.json", "empty.txt");
	sb_host_close(h);
}

static void check(const char *got, const char *name)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "host-golden/%s", name);
	const char *path = sb_test_fixture(rel);
	const char *wr = getenv("SB_HOST_GOLDEN_WRITE");
	if (wr && *wr == '1') {
		FILE *f = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(got, f);
		fclose(f);
	}
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static char want[65536];
	size_t n = fread(want, 1, sizeof(want) - 1, f);
	fclose(f);
	want[n] = 0;
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n%s differs; got:\n%s\n", path, got);
}

static void check_both(const struct sb_host *h, const char *json_name, const char *txt_name)
{
	char *js = render(h, 1), *txt = render(h, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(js);
	CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
	check(js, json_name);
	check(txt, txt_name);
	free(js);
	free(txt);
}

static void golden(unsigned which, pid_t tid, const char *json_name, const char *txt_name)
{
	struct sb_host *h = sb_test_host_fixture_run_which(0, which, tid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	check_both(h, json_name, txt_name);
	sb_host_close(h);
}

static void test_golden_fixture(void)
{
	golden(SB_HOST_ALL & ~(1u << SB_HOST_PERF), 0, "fixture.json", "fixture.txt");
}

/* perf too, counting this thread (counts masked) */
static void test_golden_perf(void)
{
	golden(SB_HOST_ALL, (pid_t)gettid(), "perf.json", "perf.txt");
}

/* nothing requested, and cpu alone */
static void test_golden_few(void)
{
	golden(0, 0, "none.json", "none.txt");
	golden(1u << SB_HOST_CPU, 0, "cpu.json", "cpu.txt");
}

static CU_TestInfo tests[] = {
	{ "fixture run", test_golden_fixture },
	{ "fixture run with perf", test_golden_perf },
	{ "fixture run, few sources", test_golden_few },
	{ "empty root", test_golden_empty },
	CU_TEST_INFO_NULL,
};
SB_SUITE(host_golden, tests)
