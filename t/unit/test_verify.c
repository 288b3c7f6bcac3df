/* test_verify.c: verify= building blocks: the checksums against published
 * test vectors (lib/csum.c), the parser's refusals (a type whose library is
 * missing, with the package), the block format's classification of every
 * fault kind (run/vblock.c) and the state file round trip (run/vstate.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/csum.h"
#include "lib/log.h"
#include "parse/parse.h"
#include "run/vblock.h"
#include "run/vstate.h"

static char logbuf[8192];

static void hex(const uint8_t *d, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* the digest of text, split in two at `split`, as hex (integers as stored:
 * little-endian) */
static void digest_hex(unsigned type, const char *text, size_t split, char *out)
{
	struct sb_csum c;
	uint8_t d[SB_CSUM_MAX];
	CU_ASSERT_EQUAL_FATAL(sb_csum_init(&c, type), 0);
	sb_csum2(&c, text, split, text + split, strlen(text) - split, d);
	hex(d, sb_csum_info(type)->len, out);
	sb_csum_free(&c);
}

static void test_vectors(void)
{
	static const struct { unsigned type; const char *text, *hex; } v[] = {
		/* CRC-32C check value 0xe3069283, little-endian */
		{ SB_VT_CRC32C, "123456789", "839206e3" },
		/* CRC-64/XZ check value 0x995dc9bbdf1939fa */
		{ SB_VT_CRC64, "123456789", "fa3919dfbbc95d99" },
		/* XXH3_64bits("") = 0x2d06800538d394c2 */
		{ SB_VT_XXHASH, "", "c294d3380580062d" },
		{ SB_VT_MD5, "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ SB_VT_SHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ SB_VT_SHA256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ SB_VT_SHA512, "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
				       "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	};
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char want[160], got[160];
		size_t k = 0;
		for (const char *p = v[i].hex; *p; p++)
			if (*p != ' ')
				want[k++] = *p;
		want[k] = 0;
		if (!sb_csum_built(v[i].type)) {
			fprintf(stderr, "[%s not built: skipped] ", sb_csum_info(v[i].type)->name);
			continue;
		}
		for (size_t split = 0; split <= strlen(v[i].text); split++) {
			digest_hex(v[i].type, v[i].text, split, got);
			CU_ASSERT_STRING_EQUAL(got, want);
		}
	}
}

static int parse(const char *text, struct sb_joblist *jl)
{
	memset(jl, 0, sizeof(*jl));
	logbuf[0] = 0;
	sb_log_capture(logbuf, sizeof(logbuf));
	int rc = sb_parse_text("v.ini", text, jl);
	sb_log_capture(NULL, 0);
	return rc;
}

/* a build without a checksum's library refuses the type at parse time with
 * file:line, the option and value, and the package to install */
static void test_missing_library(void)
{
	static const struct { unsigned type; const char *name, *pkg; } v[] = {
		{ SB_VT_CRC32C, "crc32c-intel", "libisal-dev" },
		{ SB_VT_CRC64, "crc64", "libisal-dev" },
		{ SB_VT_XXHASH, "xxhash", "libxxhash-dev" },
		{ SB_VT_SHA256, "sha256", "libssl-dev" },
	};
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char text[256], opt[64];
		struct sb_joblist jl;
		snprintf(text, sizeof(text), "[j]\nrw=write\nsize=1m\nverify=%s\n", v[i].name);
		snprintf(opt, sizeof(opt), "verify=%s", v[i].name);
		sb_csum_pretend_missing(v[i].type, true);
		CU_ASSERT_NOT_EQUAL(parse(text, &jl), 0);
		sb_csum_pretend_missing(v[i].type, false);
		CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, "v.ini:4"));
		CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, opt));
		CU_ASSERT_PTR_NOT_NULL(strstr(logbuf, v[i].pkg));
		sb_joblist_free(&jl);
		if (sb_csum_built(v[i].type)) { /* and accepted when present */
			CU_ASSERT_EQUAL(parse(text, &jl), 0);
			sb_joblist_free(&jl);
		}
	}
}

/* verify_pattern alone means verify=pattern (fio); its bytes are parsed */
static void test_pattern_parse(void)
{
	struct sb_joblist jl;
	CU_ASSERT_EQUAL_FATAL(parse("[j]\nrw=write\nsize=1m\nverify_pattern=0xdeadbeef\"ab\"%o\n",
				    &jl), 0);
	const struct sb_jobspec *s = &jl.jobs[0];
	CU_ASSERT_EQUAL(s->verify, SB_VT_PATTERN);
	CU_ASSERT_EQUAL(s->verify_pat_len, 14);
	CU_ASSERT_EQUAL(s->verify_pat_off, 6);
	CU_ASSERT_EQUAL(memcmp(s->verify_pat, "\xde\xad\xbe\xef" "ab", 6), 0);
	sb_joblist_free(&jl);
}

/* ---- the block format ---- */

#define L 4096u

struct fixture {
	struct sb_csum cs;
	struct sb_vfmt f;
	uint8_t a[L], b[L];
};

static void fx_init(struct fixture *x, unsigned type, uint64_t voff)
{
	CU_ASSERT_EQUAL_FATAL(sb_csum_init(&x->cs, type), 0);
	x->f = (struct sb_vfmt){ .type = type, .hdr = sb_vhdr_len(type), .len = L, .voff = voff,
				 .patoff = -1, .check_seed = true, .cs = &x->cs };
}

static struct sb_vid vid(uint64_t off, uint64_t gen)
{
	struct sb_vid id = { off, gen, sb_vblock_seed(7, gen, off), 1, 2, 0, false, false };
	return id;
}

static bool check(struct fixture *x, uint8_t *buf, uint64_t off, uint64_t gen,
		  enum sb_verify_kind *k)
{
	char e[SB_VERIFY_TEXT_MAX], f[SB_VERIFY_TEXT_MAX];
	struct sb_vid want = vid(off, gen);
	uint8_t copy[L];
	memcpy(copy, buf, L);
	return sb_vblock_check(&x->f, copy, &want, k, e, f, sizeof(e));
}

/* one block of each fault kind is classified as that kind, and a good one
 * passes, for every type with a header */
static void test_classify(void)
{
	static const unsigned types[] = { SB_VT_CRC32C, SB_VT_CRC64, SB_VT_XXHASH, SB_VT_MD5,
					  SB_VT_SHA1, SB_VT_SHA256, SB_VT_SHA512, SB_VT_META };
	for (unsigned ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
		for (uint64_t voff = 0; voff <= 1024; voff += 1024) {
			struct fixture *x = calloc(1, sizeof(*x));
			enum sb_verify_kind k;
			if (!sb_csum_built(types[ti])) {
				free(x);
				continue;
			}
			fx_init(x, types[ti], voff);
			struct sb_vid id = vid(8192, 5);
			sb_vblock_fill(&x->f, x->a, &id, 123);
			CU_ASSERT_TRUE(check(x, x->a, 8192, 5, &k));
			CU_ASSERT_TRUE(check(x, x->a, 8192, 0, &k)); /* any generation */
			/* a bit flipped in the data (not for meta: no data checksum),
			 * in the header, in the trailer */
			unsigned hpos = voff ? (unsigned)voff : 0;
			const unsigned flips[] = { 2000, hpos + 20, L - 10 };
			for (unsigned i = types[ti] == SB_VT_META ? 1 : 0; i < 3; i++) {
				memcpy(x->b, x->a, L);
				x->b[flips[i]] ^= 0x08;
				CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
				CU_ASSERT_EQUAL(k, SB_VFY_CORRUPT);
			}
			/* misplaced: a valid block of another offset */
			struct sb_vid other = vid(16384, 9);
			sb_vblock_fill(&x->f, x->b, &other, 123);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_MISPLACED);
			/* stale: an older generation of this offset */
			struct sb_vid old = vid(8192, 3);
			sb_vblock_fill(&x->f, x->b, &old, 100);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_STALE);
			/* torn: second half from the older write, then from zeroes,
			 * then from other data */
			uint8_t oldb[L];
			memcpy(oldb, x->b, L);
			memcpy(x->b, x->a, L / 2);
			memcpy(x->b + L / 2, oldb + L / 2, L / 2);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_TORN);
			memset(x->b + L / 2, 0, L / 2);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_TORN);
			memset(x->b + L / 2, 0x5a, L / 2);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_TORN);
			/* never written: zeroes, or data without headers */
			memset(x->b, 0, L);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_NEVER_WRITTEN);
			memset(x->b, 0x77, L);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_NEVER_WRITTEN);
			/* another run's seed (verify_header_seed) */
			struct sb_vid alien = id;
			alien.seed ^= 1;
			sb_vblock_fill(&x->f, x->b, &alien, 1);
			CU_ASSERT_FALSE(check(x, x->b, 8192, 5, &k));
			CU_ASSERT_EQUAL(k, SB_VFY_MISPLACED);
			x->f.check_seed = false;
			CU_ASSERT_TRUE(check(x, x->b, 8192, 5, &k));
			sb_csum_free(&x->cs);
			free(x);
		}
	}
}

/* fio's t/verify.py (fio 3.42 t/verify.py:154-160, 862-870) overwrites 4
 * bytes of a verified file and expects the check to fail: for every type,
 * 4 bytes changed anywhere in a block (header, its unused part, data,
 * trailer) fail it.  Every aligned window of the header and trailer, and
 * a stride of the data. */
static void test_every_byte_covered(void)
{
	static const unsigned types[] = { SB_VT_CRC32C, SB_VT_CRC64, SB_VT_XXHASH, SB_VT_MD5,
					  SB_VT_SHA1, SB_VT_SHA256, SB_VT_SHA512 };
	for (unsigned ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
		struct fixture *x = calloc(1, sizeof(*x));
		enum sb_verify_kind k;
		if (!sb_csum_built(types[ti])) {
			free(x);
			continue;
		}
		fx_init(x, types[ti], 0);
		struct sb_vid id = vid(8192, 5);
		sb_vblock_fill(&x->f, x->a, &id, 123);
		unsigned missed = 0;
		for (unsigned o = 0; o + 4 <= L; o += (o < 256 || o >= L - 64) ? 4 : 60) {
			memcpy(x->b, x->a, L);
			for (unsigned i = 0; i < 4; i++)
				x->b[o + i] ^= (uint8_t)(0xa5 + i);
			if (check(x, x->b, 8192, 5, &k)) {
				if (!missed++)
					printf("\n  %s: 4 bytes at +%u not seen", sb_csum_info(types[ti])->name, o);
			} else {
				CU_ASSERT(k == SB_VFY_CORRUPT || k == SB_VFY_TORN);
			}
		}
		CU_ASSERT_EQUAL(missed, 0);
		sb_csum_free(&x->cs);
		free(x);
	}
}

/* the data of a block is the same for the same seed (a dump can rebuild
 * it) and differs between seeds and offsets */
static void test_data_from_seed(void)
{
	struct fixture *x = calloc(1, sizeof(*x));
	fx_init(x, SB_VT_META, 0);
	struct sb_vid id = vid(0, 1);
	sb_vblock_fill(&x->f, x->a, &id, 5);
	sb_vblock_fill(&x->f, x->b, &id, 5);
	CU_ASSERT_EQUAL(memcmp(x->a, x->b, L), 0);
	id = vid(4096, 1);
	sb_vblock_fill(&x->f, x->b, &id, 5);
	CU_ASSERT_NOT_EQUAL(memcmp(x->a + 64, x->b + 64, 1024), 0);
	sb_csum_free(&x->cs);
	free(x);
}

static void test_pattern_block(void)
{
	struct fixture *x = calloc(1, sizeof(*x));
	enum sb_verify_kind k;
	fx_init(x, SB_VT_PATTERN, 0);
	static const uint8_t pat[12] = { 1, 2, 3, 4 };
	x->f.pat = pat;
	x->f.patlen = 12;
	x->f.patoff = 4;
	struct sb_vid id = vid(4096, 1);
	sb_vblock_fill(&x->f, x->a, &id, 0);
	CU_ASSERT_EQUAL(x->a[12], 1);
	CU_ASSERT_EQUAL(x->a[5], 0x10); /* 4096 little-endian at +4 */
	CU_ASSERT_TRUE(check(x, x->a, 4096, 1, &k));
	CU_ASSERT_FALSE(check(x, x->a, 8192, 1, &k)); /* %o names another offset */
	x->a[100] ^= 1;
	CU_ASSERT_FALSE(check(x, x->a, 4096, 1, &k));
	CU_ASSERT_EQUAL(k, SB_VFY_CORRUPT);
	sb_csum_free(&x->cs);
	free(x);
}

static void test_state_roundtrip(void)
{
	uint32_t g0[10] = { 0, 1, 2, 3, 0, 9, 7, 5, 5, 0 }, g1[3] = { 4, 4, 4 };
	uint32_t r0[10] = { 0 }, r1[3] = { 0 };
	struct sb_vtrack tr[2] = { { g0, 10, 0 }, { g1, 3, 4096 } }, rd[2] = { { r0, 10, 0 },
									       { r1, 3, 4096 } };
	char *paths[2] = { "/x/a", "/x/b c" };
	struct sb_vstate_id id = { "job", 3, "crc32c", 4096, 0xabc, 42, 1, 123456789 };
	char file[4200], why[512];
	uint64_t gen = 0, seed = 0;
	snprintf(file, sizeof(file), "%s/v.state", sb_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(sb_vstate_save(file, &id, tr, paths, 2), 0);
	CU_ASSERT_EQUAL(sb_vstate_load(file, &id, rd, 2, &gen, &seed, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(memcmp(g0, r0, sizeof(g0)), 0);
	CU_ASSERT_EQUAL(memcmp(g1, r1, sizeof(g1)), 0);
	CU_ASSERT_EQUAL(gen, 42);
	CU_ASSERT_EQUAL(seed, 0xabc);
	CU_ASSERT_EQUAL(sb_vstate_start(file, &id), 123456789); /* the writing run's start */
	id.thread = 4; /* another thread's state is refused with the reason */
	CU_ASSERT_NOT_EQUAL(sb_vstate_load(file, &id, rd, 2, &gen, &seed, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(sb_vstate_start(file, &id), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "run the same job"));
}

static CU_TestInfo tests[] = {
	{ "checksum test vectors, in one or two pieces", test_vectors },
	{ "a checksum whose library is missing is refused with the package", test_missing_library },
	{ "verify_pattern parsed, verify=pattern implied", test_pattern_parse },
	{ "each fault kind classified, for every type", test_classify },
	{ "4 bytes changed anywhere in a block are seen, for every type", test_every_byte_covered },
	{ "block data rebuilt from the seed", test_data_from_seed },
	{ "verify=pattern blocks", test_pattern_block },
	{ "verify state saved and loaded", test_state_roundtrip },
	CU_TEST_INFO_NULL,
};
SB_SUITE(verify, tests)
