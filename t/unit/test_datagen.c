/* test_datagen.c: lib/datagen (random blocks, the content recipe, stamps),
 * lib/pattern (fio's pattern syntax) and ml/content's classification of
 * a failing block.  Also measures the generator's speed per core (printed,
 * not asserted: the machine may be shared). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "lib/datagen.h"
#include "ml/content.h"
#include "lib/pattern.h"

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_random_bytes(void)
{
	enum { N = 1 << 20 };
	unsigned char *a = malloc(N), *b = malloc(N);
	CU_ASSERT_FATAL(a && b);
	sb_dg_random(7, 0, a, N);
	/* no fixed bit in any byte lane (the old generator ORed 0x01 in) */
	unsigned char or8[8] = { 0 }, and8[8];
	memset(and8, 0xff, 8);
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < N; i++) {
		or8[i % 8] |= a[i];
		and8[i % 8] &= a[i];
		hist[a[i]]++;
	}
	for (int i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(or8[i], 0xff);
		CU_ASSERT_EQUAL(and8[i], 0);
	}
	for (int v = 0; v < 256; v++) /* 4096 expected each, sigma 64 */
		CU_ASSERT(hist[v] > 3600 && hist[v] < 4600);
	/* a pure function of (key, position), whatever the alignment */
	memset(b, 0, N);
	size_t cuts[] = { 0, 1, 100, 4095, 4096, 4097, 70000, 300001, N };
	for (size_t i = 0; i + 1 < sizeof(cuts) / sizeof(cuts[0]); i++)
		sb_dg_random(7, cuts[i], b + cuts[i], cuts[i + 1] - cuts[i]);
	CU_ASSERT_EQUAL(memcmp(a, b, N), 0);
	/* blocks differ, keys differ */
	CU_ASSERT_NOT_EQUAL(memcmp(a, a + 4096, 4096), 0);
	sb_dg_random(8, 0, b, 4096);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, 4096), 0);
	/* xor: every byte changes with a word of 8 non-zero bytes */
	memcpy(b, a, 4096);
	sb_dg_xor(b, 4095, 0x0102030405060708ull);
	size_t same = 0;
	for (size_t i = 0; i < 4095; i++)
		same += a[i] == b[i];
	CU_ASSERT_EQUAL(same, 0);
	CU_ASSERT_EQUAL(a[4095], b[4095]);
	free(a);
	free(b);
}

static void test_recipe(void)
{
	enum { N = 1 << 20 };
	unsigned char *a = malloc(N), *b = malloc(N);
	CU_ASSERT_FATAL(a && b);
	static const unsigned char pat[] = { 0xab, 0xcd, 0xef };
	struct sb_dg g = { .key = 99, .unit = 65536, .compress_pct = 25, .chunk = 1000,
			   .dedupe_pct = 40, .stamp = true, .pat = pat, .patlen = 3 };
	sb_dg_init(&g);
	sb_dg_fill(&g, 0, a, N);
	size_t cuts[] = { 0, 3, 4096, 5000, 65535, 65536, 65537, 200000, N };
	for (size_t i = 0; i + 1 < sizeof(cuts) / sizeof(cuts[0]); i++)
		sb_dg_fill(&g, cuts[i], b + cuts[i], cuts[i + 1] - cuts[i]);
	CU_ASSERT_EQUAL(memcmp(a, b, N), 0);
	/* chunk 1000, 25%: bytes 750..999 of each chunk are the pattern */
	CU_ASSERT_EQUAL(a[750], pat[750 % 3]);
	CU_ASSERT_EQUAL(a[999], pat[999 % 3]);
	CU_ASSERT_EQUAL(a[1750], pat[1750 % 3]);
	/* a duplicate unit holds its source's bytes */
	for (uint64_t u = 0; u < N / g.unit; u++) {
		uint64_t s = sb_dg_source(&g, u);
		CU_ASSERT(s <= u);
		if (s != u)
			CU_ASSERT_EQUAL(memcmp(a + u * g.unit, a + s * g.unit, g.unit), 0);
	}
	/* the dedupe share over many units */
	unsigned dup = 0;
	for (uint64_t u = 0; u < 100000; u++)
		dup += sb_dg_source(&g, u) != u;
	CU_ASSERT(dup > 39000 && dup < 41000);
	/* the stamp names the block's position; a foreign key's does not */
	struct sb_dg h = { .key = 5, .unit = 8192, .stamp = true };
	sb_dg_init(&h);
	sb_dg_fill(&h, 0, a, N);
	CU_ASSERT_EQUAL(sb_dg_stamp(&h, a + 12288, N), 12288);
	CU_ASSERT_EQUAL(sb_dg_stamp(&h, a + 8192, N), 8192);
	CU_ASSERT_EQUAL(sb_dg_stamp(&h, a + 8192, 8192), UINT64_MAX);
	CU_ASSERT_EQUAL(sb_dg_stamp(&g, a + 12288, N), UINT64_MAX);
	free(a);
	free(b);
}

/* dedupe_global: two peers' duplicates come from one working set of
 * ws_units entries, entry w being unit w / 2 of peer w % 2 as that peer
 * writes it; the global share holds; the walk ends at 100% too */
static void test_global(void)
{
	enum { U = 4096, N = 4000, WS = 200 };
	struct sb_dg g[2];
	for (unsigned i = 0; i < 2; i++) {
		g[i] = (struct sb_dg){ .unit = U, .dedupe_pct = 50, .mode = SB_DG_WORKING_SET,
				       .ws_units = WS, .peers = 2, .peer = i, .gkey = 77 };
		sb_dg_init(&g[i]);
	}
	CU_ASSERT_NOT_EQUAL(g[0].key, g[1].key);
	CU_ASSERT_EQUAL(g[1].key, sb_dg_peer_key(77, 1));
	unsigned char a[U], b[U];
	unsigned dup = 0, cross = 0;
	for (uint64_t u = 0; u < N; u++) {
		uint64_t k, s = sb_dg_origin(&g[1], u, &k);
		if (k == g[1].key && s == u)
			continue;
		dup++;
		cross += k == g[0].key;
		CU_ASSERT(s < WS / 2);
		/* the duplicate holds the bytes its owner writes at that unit
		 * (but entry 0, where every walk ends, may be a duplicate in its
		 * stream: then it is its own bytes, one extra unique block) */
		const struct sb_dg *o = k == g[0].key ? &g[0] : &g[1];
		if (o == &g[0] && s == 0)
			continue;
		uint64_t k2, s2 = sb_dg_origin(o, s, &k2);
		CU_ASSERT(k2 == k && s2 == s);
		sb_dg_fill(&g[1], u * U, a, U);
		sb_dg_fill(o, s * U, b, U);
		CU_ASSERT_EQUAL(memcmp(a, b, U), 0);
	}
	CU_ASSERT(dup > N * 45 / 100 && dup < N * 55 / 100);
	CU_ASSERT(cross > dup * 4 / 10 && cross < dup * 6 / 10);
	/* dedupe_global has no effect in repeat mode (as in fio) */
	struct sb_dg r = { .unit = U, .dedupe_pct = 50, .peers = 2, .gkey = 77, .key = 9 };
	sb_dg_init(&r);
	CU_ASSERT_EQUAL(r.peers, 0);
	CU_ASSERT_EQUAL(r.key, 9);
	/* 100%: every unit is a set entry's own bytes */
	g[0].dedupe_pct = 100;
	for (uint64_t u = 0; u < 1000; u++) {
		uint64_t k, s = sb_dg_origin(&g[0], u, &k);
		CU_ASSERT(s < WS / 2);
	}
}

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* fio's scramble: per whole 512-byte sector, the sector's offset in one of
 * the first six 8-byte slots and (a, b) at bytes 48-63; nothing else
 * changes; a partial last sector gets what fits */
static void test_scramble(void)
{
	enum { N = 4096 + 512 + 100 };
	unsigned char a[N], b[N];
	sb_dg_random(3, 0, a, N);
	for (unsigned slot = 0; slot < 9; slot++) {
		for (size_t len = 0; len <= N; len += len < 600 ? 1 : 97) {
			memcpy(b, a, N);
			sb_dg_scramble(b, len, 1 << 20, slot, 0x1111, 0x2222);
			size_t at = (slot % 6) * 8, changed = 0;
			for (size_t i = 0; i < N; i++) {
				size_t s = i / 512 * 512, in = i - s;
				bool stamped = i < len && ((in >= at && in < at + 8) || (in >= 48 && in < 64));
				changed += a[i] != b[i];
				if (!stamped)
					CU_ASSERT_EQUAL(a[i], b[i]);
			}
			CU_ASSERT(changed <= (len + 511) / 512 * 24);
			for (size_t s = 0; s + 64 <= len; s += 512) {
				CU_ASSERT_EQUAL(le64_at(b + s + at), (1u << 20) + s);
				CU_ASSERT_EQUAL(le64_at(b + s + 48), 0x1111);
				CU_ASSERT_EQUAL(le64_at(b + s + 56), 0x2222);
			}
		}
	}
}

static void test_speed(void)
{
	enum { N = 1 << 20, IT = 256 };
	unsigned char *a = aligned_alloc(4096, N);
	CU_ASSERT_FATAL(a != NULL);
	double t = now_s();
	for (unsigned i = 0; i < IT; i++)
		sb_dg_random(1, (uint64_t)i * N, a, N);
	double fill = (double)N * IT / (now_s() - t) / 1e9;
	t = now_s();
	for (unsigned i = 0; i < IT * 4; i++)
		sb_dg_xor(a, N, i * 0x9e3779b97f4a7c15ull);
	double x = (double)N * IT * 4 / (now_s() - t) / 1e9;
	printf("\n    datagen: random fill %.1f GB/s, scramble (xor) %.1f GB/s per core ", fill, x);
	CU_ASSERT(fill > 0.5); /* a floor far below what any x86-64 core does */
	free(a);
}

static void pat(const char *in, const char *hex, unsigned nofs)
{
	unsigned char out[64];
	unsigned short ofs[4];
	size_t len;
	unsigned n;
	char err[128], got[140] = "";
	int r = sb_pattern_parse(in, out, sizeof(out), &len, ofs, 4, &n, err, sizeof(err));
	CU_ASSERT_EQUAL(r, 0);
	for (size_t i = 0; !r && i < len; i++)
		snprintf(got + 2 * i, 3, "%02x", out[i]);
	CU_ASSERT_STRING_EQUAL(got, hex);
	CU_ASSERT_EQUAL(n, nofs);
}

static void bad(const char *in, const char *why)
{
	unsigned char out[8];
	unsigned short ofs[1];
	size_t len;
	unsigned n;
	char err[128] = "";
	CU_ASSERT_EQUAL(sb_pattern_parse(in, out, sizeof(out), &len, ofs, 1, &n, err, sizeof(err)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, why));
}

static void test_pattern(void)
{
	/* what fio 3.33 writes for each (checked with fio) */
	pat("0xdeadface\"ab\"-12", "deadface6162f4ffffff", 0);
	pat("0x123", "0123", 0);
	pat("300", "2c01", 0);
	pat("1234567", "87d612", 0);
	pat("0", "00", 0);
	pat("\"ab\"%o", "61620000000000000000", 1);
	pat("%o%o", "00000000000000000000000000000000", 2);
	bad("0xZZ", "no hex digits");
	bad("\"ab", "no closing");
	bad("12 \"a\"", "unexpected ' '"); /* "12 3" is 0c 03 in fio 3.33 (strtol skips blanks) */
	bad("'f'", "not supported");
	bad("", "empty");
	bad("0x112233445566778899", "longer than 8 bytes");
	bad("%o%o", "more than 1 %o");
}

/* ---- ml/content: classification of a failing block ---- */

static uint64_t old_key = 1234;

static bool one_stale(void *ctx, unsigned i, struct sb_ml_alt *out)
{
	(void)ctx;
	if (i)
		return false;
	*out = (struct sb_ml_alt){ .key = old_key, .size = 1 << 20, .stale = true };
	snprintf(out->what, sizeof(out->what), "checkpoint 1 of this file");
	return true;
}

static void test_classify(void)
{
	struct sb_jobspec spec;
	memset(&spec, 0, sizeof(spec));
	spec.bs_hi = 16384;
	struct sb_thread t;
	memset(&t, 0, sizeof(t));
	t.spec = &spec;
	t.etd.buf_per_io = 16384;
	CU_ASSERT_FATAL(sb_ml_content_setup(&t, 2, 0, true, true, one_stale, NULL) == 0);
	sb_ml_content_file(&t, 777, 1 << 20, "f");
	unsigned char *buf = malloc(16384);
	struct sb_io_u io = { .buf = buf, .len = 16384, .offset = 65536, .result = 16384 };
	t.io_prep(&t, &io);
	CU_ASSERT_TRUE(t.io_check(&t, &io));
	CU_ASSERT_EQUAL(sb_verify_nfail(t.verify), 0);
	CU_ASSERT_EQUAL(t.verify->blocks, 4);
	/* block 0: an older checkpoint's; 1: this file's block at 0; 2: zeroes; 3: a flip */
	struct sb_dg old;
	sb_ml_content_recipe(&spec, old_key, 0, 1 << 20, &old);
	sb_dg_fill(&old, 65536, buf, 4096);
	struct sb_ml_content *mc = t.content;
	sb_dg_fill(&mc->g, 0, buf + 4096, 4096);
	memset(buf + 8192, 0, 4096);
	buf[12288 + 5] ^= 0x80;
	CU_ASSERT_TRUE(t.io_check(&t, &io));
	CU_ASSERT_EQUAL(t.verify->failures[SB_VFY_STALE], 1);
	CU_ASSERT_EQUAL(t.verify->failures[SB_VFY_MISPLACED], 1);
	CU_ASSERT_EQUAL(t.verify->failures[SB_VFY_NEVER_WRITTEN], 1);
	CU_ASSERT_EQUAL(t.verify->failures[SB_VFY_CORRUPT], 1);
	CU_ASSERT_EQUAL_FATAL(t.verify->nfirst, 4);
	CU_ASSERT_EQUAL(t.verify->first[0].offset, 65536);
	CU_ASSERT_EQUAL(t.verify->first[0].thread, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.verify->first[1].found, "this file at offset 0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t.verify->first[3].found, "first at offset 77829"));
	sb_ml_content_release(&t);
	CU_ASSERT_PTR_NULL(t.io_check);
	sb_verify_result_free(t.verify);
	free(buf);
}

static CU_TestInfo tests[] = {
	{ "random bytes", test_random_bytes },
	{ "recipe", test_recipe },
	{ "dedupe_global", test_global },
	{ "scramble", test_scramble },
	{ "speed", test_speed },
	{ "pattern syntax", test_pattern },
	{ "ml classify", test_classify },
	CU_TEST_INFO_NULL,
};
SB_SUITE(datagen, tests)
