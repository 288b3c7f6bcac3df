/* test_iogen.c: offsets, sizes and directions from run/iogen.c: coverage of
 * sequential and random-map passes, mix and split shares, ranges, skew. */
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "run/iogen.h"
#include "harness.h"
#include "parse/parse.h"

struct sb_jobspec sb_test_default_spec(void);

#define KB 1024ull

static struct sb_file files[4];

static void set_files(unsigned n, uint64_t start, uint64_t len)
{
	memset(files, 0, sizeof(files));
	for (unsigned i = 0; i < n; i++) {
		files[i].path = (char *)"f";
		files[i].index = i;
		files[i].region_start = start;
		files[i].region_len = len;
		files[i].size = start + len;
	}
}

static void test_seq_covers_once(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	uint64_t expect = 8192;
	unsigned n = 0;
	set_files(1, 8192, 1024 * KB);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 1), 0);
	while (sb_iogen_next(&g, &io)) {
		CU_ASSERT_EQUAL(io.offset, expect);
		CU_ASSERT_EQUAL(io.len, 4096);
		CU_ASSERT_EQUAL(io.ddir, SB_DDIR_READ);
		expect += io.len;
		n++;
	}
	CU_ASSERT_EQUAL(n, 256);
	CU_ASSERT_EQUAL(expect, 8192 + 1024 * KB);
	sb_iogen_free(&g);
}

static void test_seq_loops_and_files(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned hits[2][64] = { { 0 } };
	s.loops = 3;
	s.rw = SB_RW_WRITE;
	set_files(2, 0, 64 * 4096);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 2, 1), 0);
	unsigned n = 0;
	while (sb_iogen_next(&g, &io) && n < 10000) {
		hits[io.file->index][io.offset / 4096]++;
		n++;
	}
	CU_ASSERT_EQUAL(n, 3 * 2 * 64);
	for (int f = 0; f < 2; f++)
		for (int b = 0; b < 64; b++)
			CU_ASSERT_EQUAL(hits[f][b], 3);
	sb_iogen_free(&g);
}

/* every unit once per pass, also with mixed block sizes */
static void check_map_pass(struct sb_jobspec *s, uint64_t nblocks, unsigned loops)
{
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned *hits = calloc(nblocks, sizeof(*hits));
	uint64_t bytes = 0, pass = nblocks * 4096;
	s->rw = SB_RW_READ | SB_RW_RANDOM;
	s->loops = loops;
	set_files(1, 0, pass);
	sb_spec_derive(s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, s, files, 1, 7), 0);
	bool ok = true, ordered = true;
	while (sb_iogen_next(&g, &io)) {
		CU_ASSERT_TRUE_FATAL(io.offset + io.len <= pass);
		unsigned want = (unsigned)(bytes / pass) + 1;
		for (uint64_t b = io.offset / 4096; b < (io.offset + io.len) / 4096; b++) {
			hits[b]++;
			ok &= hits[b] == want; /* not touched twice within one pass */
		}
		if (io.offset != bytes % pass)
			ordered = false;
		bytes += io.len;
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_FALSE(ordered); /* random, not sequential */
	CU_ASSERT_EQUAL(bytes, pass * loops);
	for (uint64_t b = 0; b < nblocks; b++)
		CU_ASSERT_EQUAL(hits[b], loops);
	free(hits);
	sb_iogen_free(&g);
}

static void test_random_map(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	check_map_pass(&s, 1000, 2);
	s = sb_test_default_spec();
	s.bssplit[SB_DDIR_READ][0] = (struct sb_bssplit){ 4096, 50 };
	s.bssplit[SB_DDIR_READ][1] = (struct sb_bssplit){ 16384, 50 };
	s.bssplit_n[SB_DDIR_READ] = 2;
	check_map_pass(&s, 4097, 1);
}

static void test_norandommap_range(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	s.rw = SB_RW_WRITE | SB_RW_RANDOM;
	s.norandommap = true;
	s.bs[SB_DDIR_WRITE] = s.bs_min[SB_DDIR_WRITE] = s.bs_max[SB_DDIR_WRITE] = 8192;
	s.io_size = 100000ull * 8192;
	set_files(1, 65536, 999 * 4096);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 3), 0);
	unsigned n = 0, bad = 0, at_end = 0;
	while (sb_iogen_next(&g, &io)) {
		bad += io.offset < 65536 || io.offset + io.len > 65536 + 999 * 4096 ||
		       io.offset % 8192 != 0 || io.len != 8192;
		at_end += io.offset + io.len == 65536 + 998 * 4096;
		n++;
	}
	CU_ASSERT_EQUAL(n, 100000);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_TRUE(at_end > 0); /* the last whole block is reachable */
	sb_iogen_free(&g);
}

static void test_rwmixread(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	s.rw = SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM;
	s.rwmixread = 70;
	s.norandommap = true;
	s.io_size = 100000ull * 4096;
	set_files(1, 0, 1024 * KB);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 11), 0);
	unsigned n = 0, reads = 0;
	while (sb_iogen_next(&g, &io)) {
		reads += io.ddir == SB_DDIR_READ;
		n++;
	}
	CU_ASSERT_EQUAL(n, 100000);
	CU_ASSERT_TRUE(reads >= 69000 && reads <= 71000);
	sb_iogen_free(&g);
}

static void test_bssplit_shares(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	static const uint64_t bs[3] = { 4096, 16384, 65536 };
	static const double pct[3] = { 50, 30, 20 };
	unsigned cnt[3] = { 0 }, n = 0;
	s.rw = SB_RW_WRITE | SB_RW_RANDOM;
	s.norandommap = true;
	for (int i = 0; i < 3; i++)
		s.bssplit[SB_DDIR_WRITE][i] = (struct sb_bssplit){ bs[i], pct[i] };
	s.bssplit_n[SB_DDIR_WRITE] = 3;
	s.io_size = 100000ull * 65536;
	set_files(1, 0, 64 * 1024 * KB);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 5), 0);
	while (n < 100000 && sb_iogen_next(&g, &io)) {
		for (int i = 0; i < 3; i++)
			cnt[i] += io.len == bs[i];
		CU_ASSERT_EQUAL(io.offset % 4096, 0);
		n++;
	}
	for (int i = 0; i < 3; i++)
		CU_ASSERT_DOUBLE_EQUAL(100.0 * cnt[i] / n, pct[i], 2.0);
	sb_iogen_free(&g);
}

static void test_bsrange(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned seen_min = 0, seen_max = 0, bad = 0, n = 0;
	s.rw = SB_RW_READ | SB_RW_RANDOM;
	s.norandommap = true;
	s.bs_min[SB_DDIR_READ] = 4096;
	s.bs_max[SB_DDIR_READ] = 65536;
	s.io_size = 1ull << 32;
	set_files(1, 0, 16 * 1024 * KB);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 9), 0);
	while (n < 20000 && sb_iogen_next(&g, &io)) {
		bad += io.len < 4096 || io.len > 65536 || io.len % 4096 || io.offset % 4096 ||
		       io.offset + io.len > 16 * 1024 * KB;
		seen_min += io.len == 4096;
		seen_max += io.len == 65536;
		n++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_TRUE(seen_min > 0 && seen_max > 0);
	sb_iogen_free(&g);
}

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* share of hits on the hottest 10% of nblocks blocks */
static double top10_share(enum sb_dist dist, double param)
{
	enum { NB = 10000, N = 200000 };
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned *hits = calloc(NB, sizeof(*hits)), n = 0;
	s.rw = SB_RW_READ | SB_RW_RANDOM;
	s.random_distribution = dist;
	s.dist_param = param;
	s.io_size = (uint64_t)N * 4096;
	set_files(1, 0, NB * 4096ull);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 13), 0);
	while (sb_iogen_next(&g, &io)) {
		CU_ASSERT_TRUE_FATAL(io.offset + io.len <= NB * 4096ull);
		hits[io.offset / 4096]++;
		n++;
	}
	CU_ASSERT_EQUAL(n, N);
	qsort(hits, NB, sizeof(*hits), cmp_desc);
	uint64_t top = 0;
	for (int i = 0; i < NB / 10; i++)
		top += hits[i];
	free(hits);
	sb_iogen_free(&g);
	return 100.0 * (double)top / N;
}

static void test_distributions_skewed(void)
{
	double zipf = top10_share(SB_DIST_ZIPF, 1.2);
	CU_ASSERT_TRUE(zipf > 50.0);
	double zipf_mild = top10_share(SB_DIST_ZIPF, 0.8);
	CU_ASSERT_TRUE(zipf_mild > 25.0 && zipf_mild < zipf);
	CU_ASSERT_TRUE(top10_share(SB_DIST_PARETO, 0.2) > 50.0);
	CU_ASSERT_TRUE(top10_share(SB_DIST_NORMAL, 5.0) > 50.0);
	double uniform = top10_share(SB_DIST_RANDOM, 0); /* map on: exact 10% */
	CU_ASSERT_TRUE(uniform < 15.0);
}

static void test_fsync_every_n(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned writes = 0, syncs = 0, since = 0, bad = 0;
	s.rw = SB_RW_WRITE;
	s.fsync = 4;
	set_files(1, 0, 100 * 4096);
	sb_spec_derive(&s); /* as the parser does */
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 1), 0);
	while (sb_iogen_next(&g, &io)) {
		if (io.ddir == SB_DDIR_SYNC) {
			bad += since != 4;
			since = 0;
			syncs++;
		} else {
			writes++;
			since++;
		}
	}
	CU_ASSERT_EQUAL(writes, 100);
	CU_ASSERT_EQUAL(syncs, 24); /* fio 3.33: none after the job's last write */
	CU_ASSERT_EQUAL(bad, 0);
	sb_iogen_free(&g);
}

static void test_seed_repeat(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	CU_ASSERT_EQUAL(sb_iogen_seed(&s, 0), sb_iogen_seed(&s, 0));
	CU_ASSERT_NOT_EQUAL(sb_iogen_seed(&s, 0), sb_iogen_seed(&s, 1));
	s.randrepeat = false;
	uint64_t a = sb_iogen_seed(&s, 0);
	struct timespec ts = { 0, 2000 };
	nanosleep(&ts, NULL);
	CU_ASSERT_NOT_EQUAL(a, sb_iogen_seed(&s, 0));
}

static CU_TestInfo tests[] = {
	{ "sequential offsets cover the region exactly once", test_seq_covers_once },
	{ "sequential loops and several files", test_seq_loops_and_files },
	{ "random map touches every block once per pass", test_random_map },
	{ "norandommap stays in range and aligned", test_norandommap_range },
	{ "rwmixread=70 gives 70% reads +-1%", test_rwmixread },
	{ "bssplit shares within 2%", test_bssplit_shares },
	{ "bsrange sizes in range and aligned", test_bsrange },
	{ "zipf/pareto/normal are skewed", test_distributions_skewed },
	{ "fsync=4 syncs after every 4 writes", test_fsync_every_n },
	{ "randrepeat seeds", test_seed_repeat },
	CU_TEST_INFO_NULL,
};
SB_SUITE(iogen, tests)
