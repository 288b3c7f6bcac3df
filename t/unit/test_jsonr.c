/* test_jsonr.c: lib/jsonr.c, the JSON reader of the tools: values, escapes,
 * paths, errors with their position, arena reuse across parses, and a real
 * fio 3.33 JSON result. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "lib/jsonr.h"
#include "os/infile.h"

static const struct sb_jval *parse_ok(struct sb_json *d, const char *text)
{
	int rc = sb_json_parse(d, text, strlen(text));
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "jsonr: %s: %s\n", text, d->err);
	return d->root;
}

static void test_values(void)
{
	struct sb_json d = { 0 };
	const struct sb_jval *r = parse_ok(&d, " {\"a\": 1, \"b\": [true, false, null, -2.5e3, \"x\"],"
					       " \"c\": {\"d.e\": 12345678901234567}, \"big\": 123456789012345678901} ");
	CU_ASSERT_EQUAL(sb_jv_len(r), 4);
	CU_ASSERT_EQUAL(sb_jv_int(sb_jv_get(r, "a"), 0), 1);
	CU_ASSERT_TRUE(sb_jv_get(r, "a")->is_int);
	const struct sb_jval *b = sb_jv_get(r, "b");
	CU_ASSERT_EQUAL(sb_jv_len(b), 5);
	CU_ASSERT_EQUAL(sb_jv_at(b, 0)->type, SB_JBOOL);
	CU_ASSERT_EQUAL(sb_jv_at(b, 0)->b, 1);
	CU_ASSERT_EQUAL(sb_jv_at(b, 1)->b, 0);
	CU_ASSERT_EQUAL(sb_jv_at(b, 2)->type, SB_JNULL);
	CU_ASSERT_DOUBLE_EQUAL(sb_jv_num(sb_jv_at(b, 3), 0), -2500.0, 1e-9);
	CU_ASSERT_FALSE(sb_jv_at(b, 3)->is_int);
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_at(b, 4), ""), "x");
	CU_ASSERT_PTR_NULL(sb_jv_at(b, 5));
	CU_ASSERT_EQUAL(sb_jv_int(sb_jv_path(r, "c/d.e"), 0), 12345678901234567LL);
	CU_ASSERT_DOUBLE_EQUAL(sb_jv_num(sb_jv_path(r, "big"), 0), 123456789012345678901.0, 1e6);
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_path(r, "b/4"), ""), "x");
	/* defaults through a chain of misses */
	CU_ASSERT_EQUAL(sb_jv_int(sb_jv_path(r, "c/nope/x"), -7), -7);
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_path(r, "a"), "dflt"), "dflt");
	CU_ASSERT_PTR_NULL(sb_jv_path(r, "b/x"));
	sb_json_free(&d);
}

static void test_strings(void)
{
	struct sb_json d = { 0 };
	const struct sb_jval *r = parse_ok(&d, "[\"a\\\"b\\\\c\\/d\\n\\t\", \"\\u00e9\\u20ac\\ud83d\\ude00\", \"\"]");
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_at(r, 0), ""), "a\"b\\c/d\n\t");
	CU_ASSERT_EQUAL(sb_jv_at(r, 0)->n, 9);
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_at(r, 1), ""), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_at(r, 2), "x"), "");
	sb_json_free(&d);
}

static void test_errors(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "{\"a\": 1,}", "line 1, column 9: expected a member name in quotes" },
		{ "[1 2]", "line 1, column 4: expected ',' or ']'" },
		{ "{\n\"a\" 1}", "line 2, column 5: expected ':' after a member name" },
		{ "\"abc", "unterminated string" },
		{ "01", "leading zero" },
		{ "[1] x", "text after the JSON value" },
		{ "\"\\ud800\"", "unpaired surrogate" },
		{ "\"\\q\"", "bad escape" },
		{ "-", "bad number" },
		{ "tru", "unexpected character" },
		{ "", "unexpected end of text" },
		{ "\"a\nb\"", "control character" },
	};
	struct sb_json d = { 0 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(sb_json_parse(&d, bad[i].text, strlen(bad[i].text)), -EINVAL);
		CU_ASSERT_PTR_NULL(d.root);
		if (!strstr(d.err, bad[i].err)) {
			fprintf(stderr, "jsonr: '%s' gave '%s', wanted '%s'\n", bad[i].text, d.err, bad[i].err);
			CU_FAIL("error message");
		}
	}
	/* nesting is bounded: no stack exhaustion on hostile input */
	char deep[2100];
	memset(deep, '[', 2000);
	deep[2000] = 0;
	CU_ASSERT_EQUAL(sb_json_parse(&d, deep, strlen(deep)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.err, "nested too deeply"));
	sb_json_free(&d);
}

static void test_reuse(void)
{
	/* a stream of lines parsed into one document keeps one arena block */
	struct sb_json d = { 0 };
	char line[200];
	for (int i = 0; i < 20000; i++) {
		int n = snprintf(line, sizeof(line),
				 "{\"name\":\"read\",\"ph\":\"X\",\"ts\":%d,\"dur\":%d,\"args\":{\"size\":4096}}", i, i % 7);
		CU_ASSERT_EQUAL_FATAL(sb_json_parse(&d, line, (size_t)n), 0);
		CU_ASSERT_EQUAL(sb_jv_int(sb_jv_get(d.root, "ts"), -1), i);
	}
	CU_ASSERT_EQUAL(d.nblk, 1);
	/* a value larger than a block gets its own block and still parses */
	static char big[200000];
	big[0] = '"';
	memset(big + 1, 'z', sizeof(big) - 3);
	big[sizeof(big) - 2] = '"';
	CU_ASSERT_EQUAL(sb_json_parse(&d, big, sizeof(big) - 1), 0);
	CU_ASSERT_EQUAL(d.root->n, sizeof(big) - 3);
	CU_ASSERT_EQUAL(sb_json_parse(&d, "[1]", 3), 0);
	sb_json_free(&d);
	CU_ASSERT_PTR_NULL(d.blk);
}

static void test_fio_json(void)
{
	/* fio 3.33's own JSON: percentile keys with dots, reached with '/' paths */
	struct sb_json d = { 0 };
	int rc = sb_in_json_load(&d, sb_test_fixture("fio-3.33/fio-3.33-randrw.json"), &sb_in_json, 0);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(sb_jv_str(sb_jv_path(d.root, "fio version"), ""), "fio-3.33");
	const struct sb_jval *job = sb_jv_path(d.root, "jobs/0");
	CU_ASSERT_PTR_NOT_NULL(sb_jv_path(job, "read/clat_ns/percentile/99.000000"));
	CU_ASSERT_TRUE(sb_jv_int(sb_jv_path(job, "read/io_bytes"), 0) > 0);
	CU_ASSERT_EQUAL(sb_in_json_load(&d, "/nonexistent/x.json", &sb_in_json, 0), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(d.err, "cannot open"));
	sb_json_free(&d);
}

static CU_TestInfo tests[] = {
	{ "values and paths", test_values },
	{ "strings and escapes", test_strings },
	{ "errors name line and column", test_errors },
	{ "arena reused across parses", test_reuse },
	{ "fio 3.33 JSON", test_fio_json },
	CU_TEST_INFO_NULL,
};
SB_SUITE(jsonr, tests)
