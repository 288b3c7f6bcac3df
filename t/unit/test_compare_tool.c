/* test_compare_tool.c: tools/rcmp.c, the model of `storbench compare`: the
 * noise rule (means against the other side's min..max band, the tolerance,
 * what cannot be judged), matching by name then by position, and reading
 * fio 3.33's JSON, storbench's sweeps and ML results into samples.  (The
 * engine comparisons inside one run are test_compare.c.) */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "harness.h"
#include "lib/log.h"
#include "tools/rcmp.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static enum sb_rcmp_verdict vd(const double *a, size_t na, const double *b, size_t nb, double tol)
{
	enum sb_rcmp_verdict v = sb_rcmp_verdict(a, na, b, nb, tol);
	/* the rule is symmetric: B against A as A against B */
	CU_ASSERT_EQUAL(v, sb_rcmp_verdict(b, nb, a, na, tol));
	return v;
}

static void test_rule(void)
{
	static const double one[] = { 100 }, other[] = { 150 }, same[] = { 100, 100, 100 };
	/* single runs on both sides: no spread, nothing to judge, even if equal */
	CU_ASSERT_EQUAL(vd(one, 1, one, 1, 0.01), SB_RCMP_UNJUDGED);
	CU_ASSERT_EQUAL(vd(one, 1, other, 1, 0.01), SB_RCMP_UNJUDGED);
	CU_ASSERT_EQUAL(vd(one, 0, same, 3, 0.01), SB_RCMP_UNJUDGED);
	CU_ASSERT_EQUAL(vd(same, 3, same, 3, 0), SB_RCMP_NOISE);
	CU_ASSERT_EQUAL(vd(same, 3, one, 1, 0), SB_RCMP_NOISE);

	/* B's mean inside A's band, or A's inside B's */
	static const double a[] = { 90, 110 }, b_in[] = { 95 }, b_out[] = { 130 }, b_edge[] = { 111 };
	CU_ASSERT_EQUAL(vd(a, 2, b_in, 1, 0), SB_RCMP_NOISE);
	CU_ASSERT_EQUAL(vd(a, 2, b_out, 1, 0.01), SB_RCMP_DIFF);
	/* the tolerance widens the band: 110 * 1.01 = 111.1 */
	CU_ASSERT_EQUAL(vd(a, 2, b_edge, 1, 0), SB_RCMP_DIFF);
	CU_ASSERT_EQUAL(vd(a, 2, b_edge, 1, 0.01), SB_RCMP_NOISE);
	/* a wide side contains the narrow one's mean, not the other way round */
	static const double wide[] = { 100, 200 }, narrow[] = { 150.5, 150.7 };
	CU_ASSERT_EQUAL(vd(wide, 2, narrow, 2, 0), SB_RCMP_NOISE);
	/* overlapping ranges are not enough: neither mean lies in the other's band */
	static const double lo[] = { 100, 110 }, hi[] = { 108, 130 };
	CU_ASSERT_EQUAL(vd(lo, 2, hi, 2, 0), SB_RCMP_DIFF);
	/* steady figures: 0.05% apart with no spread is noise within 1%, a
	 * difference without tolerance */
	static const double s1[] = { 2001, 2001 }, s2[] = { 2000, 2000 };
	CU_ASSERT_EQUAL(vd(s1, 2, s2, 2, 0.01), SB_RCMP_NOISE);
	CU_ASSERT_EQUAL(vd(s1, 2, s2, 2, 0), SB_RCMP_DIFF);
	CU_ASSERT_STRING_EQUAL(sb_rcmp_verdict_name(SB_RCMP_UNJUDGED), "unjudged");

	struct sb_rcmp_sum s = sb_rcmp_summary(wide, 2);
	CU_ASSERT_DOUBLE_EQUAL(s.mean, 150, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.min, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.max, 200, 1e-9);
	CU_ASSERT_TRUE(isnan(sb_rcmp_summary(NULL, 0).mean));
}

static void side_of(struct sb_rcmp_side *s, const char *const *names, size_t n)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(sb_rcmp_add(s, names[i], SB_RCMP_R_IOPS, (double)i), 0);
}

static size_t match(const char *const *an, size_t na, const char *const *bn, size_t nb,
		    struct sb_rcmp_match *m, unsigned char *used)
{
	struct sb_rcmp_side a, b;
	side_of(&a, an, na);
	side_of(&b, bn, nb);
	size_t pairs = sb_rcmp_match(&a, &b, m, used);
	sb_rcmp_side_free(&a);
	sb_rcmp_side_free(&b);
	return pairs;
}

static void test_match(void)
{
	struct sb_rcmp_match m[4];
	unsigned char used[4];
	/* by name, whatever the order */
	static const char *const a1[] = { "x", "y" }, *const b1[] = { "y", "x" };
	CU_ASSERT_EQUAL(match(a1, 2, b1, 2, m, used), 2);
	CU_ASSERT_EQUAL(m[0].b, 1);
	CU_ASSERT_EQUAL(m[0].how, SB_RCMP_BY_NAME);
	CU_ASSERT_EQUAL(m[1].b, 0);
	/* no name in common, as many on both sides: by position */
	static const char *const a2[] = { "psync" }, *const b2[] = { "uring" };
	CU_ASSERT_EQUAL(match(a2, 1, b2, 1, m, used), 1);
	CU_ASSERT_EQUAL(m[0].b, 0);
	CU_ASSERT_EQUAL(m[0].how, SB_RCMP_BY_POSITION);
	/* names first, then the left-overs in order */
	static const char *const a3[] = { "p", "same", "q" }, *const b3[] = { "r", "s", "same" };
	CU_ASSERT_EQUAL(match(a3, 3, b3, 3, m, used), 3);
	CU_ASSERT_EQUAL(m[0].b, 0);
	CU_ASSERT_EQUAL(m[0].how, SB_RCMP_BY_POSITION);
	CU_ASSERT_EQUAL(m[1].b, 2);
	CU_ASSERT_EQUAL(m[1].how, SB_RCMP_BY_NAME);
	CU_ASSERT_EQUAL(m[2].b, 1);
	CU_ASSERT_EQUAL(m[2].how, SB_RCMP_BY_POSITION);
	/* left-overs of different counts stay unmatched */
	static const char *const a4[] = { "x", "y", "z" }, *const b4[] = { "y", "q" };
	CU_ASSERT_EQUAL(match(a4, 3, b4, 2, m, used), 1);
	CU_ASSERT_EQUAL(m[0].b, -1);
	CU_ASSERT_EQUAL(m[0].how, SB_RCMP_NONE);
	CU_ASSERT_EQUAL(m[1].b, 0);
	CU_ASSERT_EQUAL(m[2].b, -1);
	CU_ASSERT_EQUAL(used[0], 1);
	CU_ASSERT_EQUAL(used[1], 0);
	/* nothing in common */
	static const char *const a5[] = { "x", "y" }, *const b5[] = { "z" };
	CU_ASSERT_EQUAL(match(a5, 2, b5, 1, m, used), 0);
	CU_ASSERT_EQUAL(match(a5, 2, b5, 0, m, NULL), 0);
}

static const struct sb_rcmp_stat *row(const struct sb_rcmp_side *s, const char *name, int r)
{
	for (size_t i = 0; i < s->ne; i++)
		if (!strcmp(s->e[i].name, name))
			return &s->e[i].row[r];
	CU_FAIL("no such entry");
	return NULL;
}

static void test_load_fio(void)
{
	struct sb_rcmp_side s = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_rcmp_load(&s, sb_test_fixture("fio-3.33/fio-3.33-randrw.json")), 0);
	CU_ASSERT_EQUAL_FATAL(s.ne, 1);
	CU_ASSERT_STRING_EQUAL(s.e[0].name, "randrw-4k");
	const struct sb_rcmp_stat *st = row(&s, "randrw-4k", SB_RCMP_R_IOPS);
	CU_ASSERT_EQUAL_FATAL(st->n, 1);
	CU_ASSERT_DOUBLE_EQUAL(st->v[0], 22416.992188, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "randrw-4k", SB_RCMP_R_BW)->v[0], 91820000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "randrw-4k", SB_RCMP_R_P50)->v[0], 34560, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "randrw-4k", SB_RCMP_W_P999)->v[0], 29568, 1e-6);
	/* (usr + sys) % of job_runtime ms, over read + write I/Os, in us */
	double want = (4.105572 + 44.379277) / 100 * 1023 * 1000 / (22955 + 9814);
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "randrw-4k", SB_RCMP_CPU_PER_IO)->v[0], want, 1e-6);
	/* trim moved nothing: no rows */
	CU_ASSERT_EQUAL(row(&s, "randrw-4k", SB_RCMP_T_IOPS)->n, 0);
	/* a second run of the same side adds a sample to the same entry */
	CU_ASSERT_EQUAL(sb_rcmp_load(&s, sb_test_fixture("fio-3.33/fio-3.33-randrw.json")), 0);
	CU_ASSERT_EQUAL(s.ne, 1);
	CU_ASSERT_EQUAL(row(&s, "randrw-4k", SB_RCMP_R_IOPS)->n, 2);
	sb_rcmp_side_free(&s);
}

static void test_load_storbench(void)
{
	const char *dir = sb_test_tmpdir();
	/* numjobs without group_reporting: the same name twice; checkpoints and
	 * epochs are samples; a sweep point's repetitions are samples */
	sb_test_put(dir, "cmp/a.json",
		    "{\"storbench version\": \"storbench-0.1.0\", \"jobs\": ["
		    "{\"jobname\": \"j\", \"read\": {\"total_ios\": 10, \"iops\": 5, \"bw_bytes\": 20480,"
		    " \"clat_ns\": {\"percentile\": {\"50.000000\": 7, \"99.000000\": 8, \"99.900000\": 9}}},"
		    " \"usr_cpu\": 1, \"sys_cpu\": 3, \"job_runtime\": 2000},"
		    "{\"jobname\": \"j\", \"write\": {\"total_ios\": 4, \"iops\": 2},"
		    " \"checkpoint\": {\"write\": [{\"gbps\": 1.5}, {\"gbps\": 2.5}], \"read\": []},"
		    " \"train\": {\"au_pct\": 50, \"epochs\": [{\"au_pct\": 90, \"mb_per_s\": 3},"
		    " {\"au_pct\": 80, \"mb_per_s\": 4}]}}],"
		    " \"sweep\": {\"points\": [{\"point\": 1, \"values\": {\"rw\": \"read\", \"bs\": \"4k\"},"
		    " \"runs\": [{\"read\": {\"iops\": 100, \"clat_ns_p99_9\": 3}}, {\"read\": {\"iops\": 110}}],"
		    " \"jobs\": [{\"usr_cpu\": 10, \"sys_cpu\": 10, \"job_runtime\": 1000,"
		    " \"read\": {\"total_ios\": 200}}]}]}}");
	char path[512];
	snprintf(path, sizeof(path), "%s/cmp/a.json", dir);
	struct sb_rcmp_side s = { 0 };
	CU_ASSERT_EQUAL_FATAL(sb_rcmp_load(&s, path), 0);
	CU_ASSERT_EQUAL_FATAL(s.ne, 3);
	CU_ASSERT_STRING_EQUAL(s.e[1].name, "j (2)");
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "j", SB_RCMP_R_P999)->v[0], 9, 1e-9);
	/* 4% of 2 s = 80 ms of CPU over 10 I/Os */
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "j", SB_RCMP_CPU_PER_IO)->v[0], 8000, 1e-9);
	CU_ASSERT_EQUAL(row(&s, "j (2)", SB_RCMP_W_IOPS)->n, 1);
	CU_ASSERT_EQUAL(row(&s, "j (2)", SB_RCMP_CPU_PER_IO)->n, 0); /* no CPU figures */
	CU_ASSERT_EQUAL(row(&s, "j (2)", SB_RCMP_CKPT_WRITE)->n, 2);
	CU_ASSERT_EQUAL(row(&s, "j (2)", SB_RCMP_CKPT_READ)->n, 0);
	const struct sb_rcmp_stat *au = row(&s, "j (2)", SB_RCMP_TRAIN_AU);
	CU_ASSERT_EQUAL_FATAL(au->n, 2); /* the epochs, not the run's mean */
	CU_ASSERT_DOUBLE_EQUAL(au->v[1], 80, 1e-9);
	const struct sb_rcmp_stat *pi = row(&s, "rw=read bs=4k", SB_RCMP_R_IOPS);
	CU_ASSERT_EQUAL_FATAL(pi->n, 2);
	CU_ASSERT_DOUBLE_EQUAL(pi->v[1], 110, 1e-9);
	CU_ASSERT_EQUAL(row(&s, "rw=read bs=4k", SB_RCMP_R_P999)->n, 1);
	CU_ASSERT_DOUBLE_EQUAL(row(&s, "rw=read bs=4k", SB_RCMP_CPU_PER_IO)->v[0], 1000, 1e-9);
	sb_rcmp_side_free(&s);
}

static void test_load_errors(void)
{
	static const struct {
		const char *rel, *text, *msg;
	} bad[] = {
		{ "cmp/notjson.json", "{\"jobs\": [", "not JSON: line 1" },
		{ "cmp/noresult.json", "{\"fio version\": \"fio-3.33\"}", "not a storbench or fio result" },
		{ "cmp/array.json", "[1, 2]", "no \"jobs\" array" },
	};
	const char *dir = sb_test_tmpdir();
	char path[512], logbuf[1024];
	for (size_t i = 0; i < N(bad); i++) {
		sb_test_put(dir, bad[i].rel, bad[i].text);
		snprintf(path, sizeof(path), "%s/%s", dir, bad[i].rel);
		struct sb_rcmp_side s = { 0 };
		logbuf[0] = 0;
		sb_log_capture(logbuf, sizeof(logbuf));
		int rc = sb_rcmp_load(&s, path);
		sb_log_capture(NULL, 0);
		CU_ASSERT_EQUAL(rc, -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, path));
		if (!strstr(logbuf, bad[i].msg)) {
			fprintf(stderr, "compare_tool: %s gave '%s'\n", bad[i].rel, logbuf);
			CU_FAIL("message");
		}
		sb_rcmp_side_free(&s);
	}
	struct sb_rcmp_side s = { 0 };
	sb_log_capture(logbuf, sizeof(logbuf));
	CU_ASSERT_EQUAL(sb_rcmp_load(&s, "/nonexistent/r.json"), -1);
	sb_log_capture(NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "/nonexistent/r.json: cannot open"));
}

static CU_TestInfo tests[] = {
	{ "noise rule", test_rule },
	{ "matching by name, then position", test_match },
	{ "fio 3.33 JSON", test_load_fio },
	{ "storbench jobs, ML and sweep points", test_load_storbench },
	{ "bad inputs name the file", test_load_errors },
	CU_TEST_INFO_NULL,
};
SB_SUITE(compare_tool, tests)
