/* test_dist_pack.c: records packed by zero runs for the MPI merge
 * (dist/pack.h): every record comes back byte for byte, the packed size
 * stays within the bound, a sparse record shrinks, bad input is refused. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dist/pack.h"
#include "t/unit/harness.h"

static void roundtrip(const unsigned char *rec, size_t len, size_t *plen_out)
{
	uint64_t *p = malloc(sb_dist_pack_bound(len) + 8);
	unsigned char *back = malloc(len + 1);
	CU_ASSERT_FATAL(p && back);
	memset(back, 0xa5, len + 1);
	size_t plen = sb_dist_pack(rec, len, p);
	CU_ASSERT(plen <= sb_dist_pack_bound(len));
	CU_ASSERT_EQUAL(sb_dist_unpack(p, plen, back, len), 0);
	CU_ASSERT(len == 0 || memcmp(rec, back, len) == 0);
	CU_ASSERT_EQUAL(back[len], 0xa5); /* nothing written past the record */
	if (plen_out)
		*plen_out = plen;
	free(p);
	free(back);
}

static void test_roundtrip_shapes(void)
{
	size_t lens[] = { 0, 1, 7, 8, 9, 64, 203, 204168 };
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t len = lens[k];
		unsigned char *r = calloc(1, len + 1);
		CU_ASSERT_FATAL(r != NULL);
		roundtrip(r, len, NULL);              /* all zero */
		memset(r, 0xff, len);
		roundtrip(r, len, NULL);              /* no zero word */
		for (size_t i = 0; i < len; i++)      /* alternating words: the worst case */
			r[i] = (i / 8) % 2 ? 0 : (unsigned char)(i + 1);
		roundtrip(r, len, NULL);
		srand(7);
		memset(r, 0, len);
		for (size_t i = 0; i < len / 50; i++) /* scattered bytes */
			r[(size_t)rand() % len] = (unsigned char)(rand() | 1);
		roundtrip(r, len, NULL);
		free(r);
	}
}

static void test_sparse_shrinks(void)
{
	/* a histogram-like record: 10 x 2,496 bins, a few dozen filled */
	size_t n = 10 * 2496, plen = 0;
	uint64_t *bins = calloc(n, sizeof(*bins));
	CU_ASSERT_FATAL(bins != NULL);
	for (size_t i = 0; i < 40; i++)
		bins[(i * 617) % n] = 1000 + i;
	roundtrip((const unsigned char *)bins, n * sizeof(*bins), &plen);
	CU_ASSERT(plen < 1024); /* 40 literal words and their run headers */
	free(bins);
}

static void test_bad_input_refused(void)
{
	uint64_t rec[4] = { 1, 0, 0, 2 }, p[8], back[4];
	size_t plen = sb_dist_pack(rec, sizeof(rec), p);
	/* a run longer than the record */
	uint64_t bad[2] = { (uint64_t)5 << 32, 0 };
	CU_ASSERT_EQUAL(sb_dist_unpack(bad, 8, back, sizeof(back)), -EPROTO);
	/* literals promised but missing */
	uint64_t cut[1] = { 3 };
	CU_ASSERT_EQUAL(sb_dist_unpack(cut, 8, back, sizeof(back)), -EPROTO);
	/* too short: the record not covered */
	CU_ASSERT_EQUAL(sb_dist_unpack(p, plen - 8, back, sizeof(back)), -EPROTO);
	/* not a whole number of words */
	CU_ASSERT_EQUAL(sb_dist_unpack(p, plen - 3, back, sizeof(back)), -EPROTO);
	CU_ASSERT_EQUAL(sb_dist_unpack(p, plen, back, sizeof(back)), 0);
	CU_ASSERT(memcmp(rec, back, sizeof(rec)) == 0);
}

static CU_TestInfo tests[] = {
	{ "roundtrip_shapes", test_roundtrip_shapes },
	{ "sparse_shrinks", test_sparse_shrinks },
	{ "bad_input_refused", test_bad_input_refused },
	CU_TEST_INFO_NULL,
};
SB_SUITE(dist_pack, tests)
