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

static void golden_cap(unsigned cap, unsigned which, pid_t tid, const char *json_name, const char *txt_name)
{
	struct sb_host *h = sb_test_host_fixture_run_which(cap, which, tid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	check_both(h, json_name, txt_name);
	sb_host_close(h);
}

static void golden(unsigned which, pid_t tid, const char *json_name, const char *txt_name)
{
	golden_cap(0, which, tid, json_name, txt_name);
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

/* series cap 2: the three samples merged pairwise (two intervals per sample) */
static void test_golden_cap(void)
{
	golden_cap(2, SB_HOST_ALL & ~(1u << SB_HOST_PERF), 0, "cap2.json", "cap2.txt");
}

/* nothing requested, and cpu alone */
static void test_golden_few(void)
{
	golden(0, 0, "none.json", "none.txt");
	golden(1u << SB_HOST_CPU, 0, "cpu.json", "cpu.txt");
}

/* whether {key} names a field of fields (or is {#} / {reason}) */
static int key_ok(const char *key, size_t len, const struct sb_host_field *fields, int element)
{
	if (len == 1 && *key == '#')
		return element;
	if (len == 6 && !strncmp(key, "reason", 6))
		return element;
	for (const struct sb_host_field *f = fields; f->kind != SB_HK_END; f++)
		if (strlen(f->key) == len && !strncmp(f->key, key, len))
			return 1;
	return 0;
}

static void check_template(const char *t, const struct sb_host_field *fields, int element, const char *src)
{
	for (const char *o = t ? strchr(t, '{') : NULL; o; o = strchr(o + 1, '{')) {
		const char *c = strchr(o, '}');
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		size_t len = strcspn(o + 1, ":}");
		int ok = key_ok(o + 1, len, fields, element);
		if (!ok)
			fprintf(stderr, "\n%s: template key {%.*s} names no field\n", src, (int)len, o + 1);
		CU_ASSERT_TRUE(ok);
	}
}

/* Every collector's descriptors hold together: templates name their
 * fields, lists are LIST fields, column kinds merge sensibly, the slots
 * fit, and no series key is used twice. */
static void test_descriptors(void)
{
	unsigned slots = 0;
	const char *keys[256];
	unsigned nkeys = 0;
	for (unsigned src = 0; src < SB_HOST_NSRC; src++) {
		const char *name = sb_host_src_name(src);
		const struct sb_host_field *fields = sb_host_fields(src);
		for (const struct sb_host_field *f = fields; f->kind != SB_HK_END; f++) {
			CU_ASSERT_PTR_NOT_NULL(f->key);
			CU_ASSERT_TRUE(f->kind != SB_HK_LIST || (f->list && f->list->fields &&
				       f->list->fields[0].kind == SB_HK_STR));
		}
		for (const struct sb_host_line *l = sb_host_lines(src); l->text || l->list; l++) {
			check_template(l->text, fields, 0, name);
			if (!l->list)
				continue;
			const struct sb_host_field *lf = NULL;
			for (const struct sb_host_field *f = fields; f->kind != SB_HK_END; f++)
				if (!strcmp(f->key, l->list))
					lf = f;
			CU_ASSERT_FATAL(lf && lf->kind == SB_HK_LIST);
			check_template(l->each, lf->list->fields, 1, name);
			check_template(l->absent, lf->list->fields, 1, name);
		}
		for (const struct sb_host_col *c = sb_host_cols(src); c->kind != SB_HK_END; c++) {
			CU_ASSERT_TRUE(c->kind == SB_HK_DBL || (c->kind == SB_HK_U64 && c->merge != SB_HM_WMEAN));
			slots += c->slot;
			for (unsigned k = 0; k < nkeys; k++)
				CU_ASSERT_STRING_NOT_EQUAL(keys[k], c->key);
			if (nkeys < 256)
				keys[nkeys++] = c->key;
		}
	}
	CU_ASSERT_TRUE(slots <= SB_HOST_SLOTS);
}

static CU_TestInfo tests[] = {
	{ "descriptors", test_descriptors },
	{ "fixture run", test_golden_fixture },
	{ "fixture run with perf", test_golden_perf },
	{ "fixture run, few sources", test_golden_few },
	{ "empty root", test_golden_empty },
	{ "series merged past the cap", test_golden_cap },
	CU_TEST_INFO_NULL,
};
SB_SUITE(host_golden, tests)
