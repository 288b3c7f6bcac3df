/* test_trace_agg.c: tools/trace_agg.c, what `storbench analyze` adds up from
 * one trace line: both "ph" spellings (DFTracer's "X"/"M" and the newer
 * 1/4), FH names for fhash, fname, bytes from size and ret, filters, the
 * file class, JSON-array punctuation, errors, and merging. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "tools/trace_agg.h"

static int line(struct ta_agg *a, const char *s)
{
	return ta_line(a, s, strlen(s));
}

static void test_events(void)
{
	struct ta_agg a;
	ta_init(&a, NULL);
	CU_ASSERT_EQUAL(line(&a, "["), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":1,\"tid\":1,\"ph\":\"M\","
				 "\"args\":{\"name\":\"/d/f12.npz\",\"value\":77}}"), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":5,\"tid\":1,\"ts\":100,"
				 "\"dur\":10,\"ph\":\"X\",\"args\":{\"fhash\":77,\"size\":4096,\"ret\":1000}},"), 0);
	/* newer DFTracer: "ph":1, a string hash; a ret past size is not bytes
	 * (a negative ret, a failed call, is 0 bytes: test_analyze_fields.py) */
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":6,\"tid\":1,\"ts\":200,"
				 "\"dur\":30,\"ph\":1,\"args\":{\"fname\":\"/d/f3.npz\",\"size\":8,\"ret\":99}}"), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"epoch\",\"cat\":\"app\",\"pid\":6,\"tid\":1,\"ts\":50,"
				 "\"dur\":500,\"ph\":\"X\",\"args\":{}}"), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"c\",\"ph\":\"C\",\"ts\":1}"), 0);
	CU_ASSERT_EQUAL(line(&a, "  ]"), 0);
	CU_ASSERT_EQUAL(a.events, 3);
	CU_ASSERT_EQUAL(a.meta, 1);
	CU_ASSERT_EQUAL(a.other, 1);
	CU_ASSERT_DOUBLE_EQUAL(a.first_us, 50, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(a.last_us, 550, 1e-9);
	const struct ta_ent *op = ta_find(&a.ops, "POSIX\x1fread", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_EQUAL(op->s.n, 2);
	CU_ASSERT_EQUAL(op->s.bytes, 1000 + 8);
	CU_ASSERT_DOUBLE_EQUAL(op->s.dur_us, 40, 1e-9);
	const struct ta_ent *r6 = ta_find(&a.ranks, "", 6);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r6);
	CU_ASSERT_DOUBLE_EQUAL(r6->s.dur_us, 30, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r6->app.dur_us, 500, 1e-9);
	CU_ASSERT_PTR_NOT_NULL(ta_find(&a.files, "#77", 5));
	CU_ASSERT_PTR_NOT_NULL(ta_find(&a.files, "/d/f3.npz", 6));
	CU_ASSERT_STRING_EQUAL(ta_find(&a.fh, "77", 0)->val, "/d/f12.npz");
	char cls[64];
	ta_class("/d/f12.npz", 0, cls, sizeof(cls));
	CU_ASSERT_STRING_EQUAL(cls, "/d/f.npz");
	/* the directory all files share keeps its digits (lustre3, nvme0n1);
	 * below it the digits go, so checkpoint steps and numbered
	 * subfolders group */
	static const char *const files[] = {
		"/lustre3/ckpt/global_epoch1_step2/layer_12.pt",
		"/lustre3/ckpt/global_epoch1_step10/layer_3.pt",
		"/lustre3/ckpt2/x1.pt",
	};
	size_t keep = (size_t)-1;
	for (size_t i = 0; i < 3; i++)
		keep = ta_common_dir(files[0], files[i], keep);
	CU_ASSERT_EQUAL(keep, strlen("/lustre3/"));
	ta_class(files[0], keep, cls, sizeof(cls));
	CU_ASSERT_STRING_EQUAL(cls, "/lustre3/ckpt/global_epoch_step/layer_.pt");
	ta_class(files[1], keep, cls, sizeof(cls));
	CU_ASSERT_STRING_EQUAL(cls, "/lustre3/ckpt/global_epoch_step/layer_.pt");
	ta_class(files[2], keep, cls, sizeof(cls));
	CU_ASSERT_STRING_EQUAL(cls, "/lustre3/ckpt/x.pt");
	/* one file: its own directory; a prefix that ends inside a name is no directory */
	CU_ASSERT_EQUAL(ta_common_dir("/nvme0n1/a1/f1", "/nvme0n1/a1/f1", (size_t)-1), strlen("/nvme0n1/a1/"));
	CU_ASSERT_EQUAL(ta_common_dir("/lustre3/a", "/lustre4/a", (size_t)-1), 1);
	CU_ASSERT_EQUAL(ta_common_dir("rel3/a", "rel3/b", (size_t)-1), 5);
	CU_ASSERT_EQUAL(ta_common_dir("/x1/a/b", "/x1/a/c", 4), 4);
	ta_class("/lustre3/data/file1234567890.bin", 9, cls, 12);   /* truncated, terminated */
	CU_ASSERT_STRING_EQUAL(cls, "/lustre3/da");
	/* merging adds up */
	struct ta_agg b;
	ta_init(&b, NULL);
	CU_ASSERT_EQUAL(ta_merge(&b, &a), 0);
	CU_ASSERT_EQUAL(ta_merge(&b, &a), 0);
	CU_ASSERT_EQUAL(ta_find(&b.ops, "POSIX\x1fread", 0)->s.bytes, 2 * (1000 + 8));
	CU_ASSERT_EQUAL(b.events, 6);
	ta_free(&b);
	ta_free(&a);
}

static void test_filters_and_errors(void)
{
	struct ta_filter f = { .t1 = -1, .any = true };
	f.cat[f.ncat++] = "POSIX";
	f.t0 = 150;
	f.t1 = 1e300;
	struct ta_agg a;
	ta_init(&a, &f);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\",\"cat\":\"POSIX\",\"ts\":100,\"dur\":1,\"ph\":\"X\"}"), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\",\"cat\":\"POSIX\",\"ts\":200,\"dur\":1,\"ph\":\"X\"}"), 0);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"x\",\"cat\":\"app\",\"ts\":300,\"dur\":1,\"ph\":\"X\"}"), 0);
	CU_ASSERT_EQUAL(a.events, 1);
	CU_ASSERT_EQUAL(a.skipped, 2);
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\","), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(a.doc.err, "line 1"));
	CU_ASSERT_EQUAL(line(&a, "42"), -EINVAL);
	CU_ASSERT_STRING_EQUAL(a.doc.err, "not an event (a JSON object)");
	CU_ASSERT_EQUAL(line(&a, "{\"name\":\"read\"}"), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(a.doc.err, "no \"ph\""));
	ta_free(&a);
}

static CU_TestInfo tests[] = {
	{ "events", test_events },
	{ "filters_and_errors", test_filters_and_errors },
	CU_TEST_INFO_NULL,
};
SB_SUITE(trace_agg, tests)
