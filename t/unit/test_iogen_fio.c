/* test_iogen_fio.c: the offsets run/iogen.c produces for fio's offset
 * options: rw=...:N with rw_sequencer, one sequential position
 * per direction, percentage_random, zoned distributions, the LFSR of
 * random_generator=lfsr, number_ios and io_size=N%; and how the parser
 * takes their values.  Expected sequences are fio 3.33's where its offsets
 * do not depend on its random generator (fio --write_iolog). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/value.h"
#include "run/iogen.h"
#include "run/lfsr.h"

struct sb_jobspec sb_test_default_spec(void);

#define KB 1024ull

static struct sb_file files[2];

static void one_file(uint64_t len)
{
	memset(files, 0, sizeof(files));
	files[0].path = (char *)"f";
	files[0].region_len = len;
	files[0].size = len;
}

/* the spec after setting each "name=value" of opts through the option table */
static struct sb_jobspec spec_with(const char *const *opts)
{
	struct sb_jobspec s;
	char err[SB_VERR_LEN];
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	for (; *opts; opts++) {
		char k[64];
		const char *eq = strchr(*opts, '=');
		snprintf(k, sizeof(k), "%.*s", (int)(eq - *opts), *opts);
		const struct sb_option *o = sb_option_find(k);
		CU_ASSERT_PTR_NOT_NULL_FATAL(o);
		CU_ASSERT_EQUAL_FATAL(sb_option_set(o, &s, eq + 1, false, err), 0);
	}
	sb_spec_derive(&s);
	/* the zones (owned by the spec, out of line) move to static storage: the
	 * copy returned owns nothing; each call reuses it */
	static struct sb_zone zkeep[SB_DDIR_N][SB_ZONES_MAX];
	unsigned zn[SB_DDIR_N];
	for (unsigned d = 0; d < SB_DDIR_N; d++)
		if ((zn[d] = s.zone_n[d]))
			memcpy(zkeep[d], s.zones[d], zn[d] * sizeof(zkeep[d][0]));
	sb_spec_release(&s); /* its strings (iogen reads none) and zones */
	for (unsigned d = 0; d < SB_DDIR_N; d++) {
		s.zone_n[d] = zn[d];
		s.zones[d] = zn[d] ? zkeep[d] : NULL;
	}
	return s;
}

/* offsets in KiB ('r'/'w' prefix dropped) of up to max I/Os */
static unsigned offsets(struct sb_jobspec *s, uint64_t len, uint64_t *out, int *dir, unsigned max)
{
	struct sb_iogen g;
	struct sb_io_u io;
	unsigned n = 0;
	one_file(len);
	CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, s, files, 1, 1), 0);
	while (n < max && sb_iogen_next(&g, &io)) {
		out[n] = io.offset / KB;
		if (dir)
			dir[n] = io.ddir;
		n++;
	}
	sb_iogen_free(&g);
	return n;
}

static void expect_seq(const char *const *opts, uint64_t len, const uint64_t *want, unsigned nwant)
{
	struct sb_jobspec s = spec_with(opts);
	uint64_t got[256];
	unsigned n = offsets(&s, len, got, NULL, 256);
	CU_ASSERT_EQUAL(n, nwant);
	for (unsigned i = 0; i < n && i < nwant; i++)
		CU_ASSERT_EQUAL(got[i], want[i]);
}

/* fio 3.33, size=64k bs=4k: the offsets of --write_iolog */
static void test_seq_modifiers(void)
{
	static const uint64_t r4k[] = { 0, 8, 16, 24, 32, 40, 48, 56, 0, 8, 16, 24, 32, 40, 48, 56 };
	static const uint64_t r6k[] = { 0, 10, 20, 30, 40, 50, 60 };
	static const uint64_t r12k[] = { 0, 16, 32, 48, 0, 16, 32, 48, 0, 16, 32, 48, 0, 16, 32, 48 };
	static const uint64_t back[] = { 0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0 };
	static const char *const o4[] = { "rw=read:4k", NULL };
	static const char *const o4i[] = { "rw=read:4k", "rw_sequencer=identical", NULL };
	static const char *const o6[] = { "rw=read:6k", NULL };
	static const char *const o12[] = { "rw=read:12k", NULL };
	static const char *const ob[] = { "rw=read:-8k", NULL };
	static const char *const o6io[] = { "rw=read:6k", "io_size=128k", NULL };
	expect_seq(o4, 64 * KB, r4k, 16);
	expect_seq(o4i, 64 * KB, r4k, 16); /* identical changes nothing for sequential jobs */
	expect_seq(o6, 64 * KB, r6k, 7);   /* past the end: fio ends the loop */
	expect_seq(o12, 64 * KB, r12k, 16);
	expect_seq(ob, 64 * KB, back, 16);
	struct sb_jobspec s = spec_with(o6io);
	uint64_t got[64];
	CU_ASSERT_EQUAL(offsets(&s, 64 * KB, got, NULL, 64), 32); /* io_size: wraps to 128k */
	CU_ASSERT_EQUAL(got[7], 0);
	CU_ASSERT_EQUAL(got[8], 10);
}

/* fio keeps one position per direction: reads and writes each go 0, 4k, ... */
static void test_mixed_positions(void)
{
	static const char *const o[] = { "rw=rw", NULL };
	struct sb_jobspec s = spec_with(o);
	uint64_t got[64], next[SB_DDIR_N] = { 0 };
	int dir[64];
	unsigned n = offsets(&s, 64 * KB, got, dir, 64);
	CU_ASSERT_EQUAL(n, 16); /* size=64k moved in all, as fio */
	unsigned nd[SB_DDIR_N] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(got[i], next[dir[i]]);
		next[dir[i]] += 4;
		nd[dir[i]]++;
	}
	CU_ASSERT(nd[SB_DDIR_READ] > 0 && nd[SB_DDIR_WRITE] > 0);
}

/* randread:4: a random offset, then 3 I/Os that follow it (sequential) or
 * repeat it (identical) */
static void test_random_groups(void)
{
	/* no map: a pass that ends when the map is full restarts the groups */
	static const char *const seq[] = { "rw=randread:4", "norandommap=1", NULL };
	static const char *const ident[] = { "rw=randread:4", "rw_sequencer=identical", NULL };
	static const char *const zero[] = { "rw=randread:0", NULL };
	uint64_t got[256];
	struct sb_jobspec s = spec_with(seq);
	CU_ASSERT_EQUAL(s.rw_seq_nr, 4);
	unsigned n = offsets(&s, 1024 * KB, got, NULL, 256);
	CU_ASSERT_EQUAL(n, 256);
	unsigned breaks = 0;
	for (unsigned i = 1; i < n; i++) {
		if (i % 4) {
			CU_ASSERT(got[i] == got[i - 1] + 4 || got[i - 1] + 4 >= 1024);
		} else {
			breaks += got[i] != got[i - 1] + 4;
		}
	}
	CU_ASSERT(breaks > 50); /* the group starts are random */
	s = spec_with(ident);
	n = offsets(&s, 1024 * KB, got, NULL, 64);
	for (unsigned i = 1; i < n; i++)
		if (i % 4) {
			CU_ASSERT_EQUAL(got[i], got[i - 1]);
		}
	s = spec_with(zero); /* fio: randread:0 never takes a random offset */
	n = offsets(&s, 64 * KB, got, NULL, 64);
	CU_ASSERT_EQUAL(n, 16);
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(got[i], 4 * i);
}

static void test_percentage_random(void)
{
	static const char *const p0[] = { "rw=randread", "percentage_random=0", NULL };
	static const char *const p30[] = { "rw=randread", "percentage_random=30", "norandommap=1", NULL };
	uint64_t *got = calloc(20000, sizeof(*got));
	struct sb_jobspec s = spec_with(p0);
	unsigned n = offsets(&s, 64 * KB, got, NULL, 64);
	CU_ASSERT_EQUAL(n, 16); /* fio: 0 is fully sequential */
	for (unsigned i = 0; i < n; i++)
		CU_ASSERT_EQUAL(got[i], 4 * i);
	s = spec_with(p30);
	CU_ASSERT_EQUAL(s.percentage_random[0], 30);
	s.io_size = 20000 * 4096;
	n = offsets(&s, 64 * 1024 * KB, got, NULL, 20000);
	unsigned follow = 0;
	for (unsigned i = 1; i < n; i++)
		follow += got[i] == got[i - 1] + 4;
	double share = 100.0 * follow / (n - 1);
	CU_ASSERT(share > 68.0 && share < 72.0); /* 70% continue the I/O before */
	free(got);
}

static double zone_share(uint64_t *got, unsigned n, uint64_t lo_kb, uint64_t hi_kb)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		k += got[i] >= lo_kb && got[i] < hi_kb;
	return 100.0 * k / n;
}

/* random_distribution=zoned: each zone's share of the I/Os within 1% */
static void test_zoned_shares(void)
{
	static const char *const z[] = { "rw=randread", "random_distribution=zoned:60/10:30/20:10/70",
					 NULL };
	static const char *const za[] = { "rw=randread", "random_distribution=zoned_abs:50/64k:50/1m",
					  NULL };
	static const char *const zd[] = { "rw=randrw",
					  "random_distribution=zoned:100/10,0/50:100/50", NULL };
	enum { N = 50000 };
	uint64_t *got = calloc(N, sizeof(*got));
	int *dir = calloc(N, sizeof(*dir));
	uint64_t mb = 1024;
	struct sb_jobspec s = spec_with(z);
	CU_ASSERT_EQUAL(s.random_distribution, SB_DIST_ZONED);
	s.io_size = (uint64_t)N * 4096;
	unsigned n = offsets(&s, 1024 * KB * 10, got, NULL, N);
	CU_ASSERT_EQUAL(n, N);
	CU_ASSERT_DOUBLE_EQUAL(zone_share(got, n, 0, mb), 60.0, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(zone_share(got, n, mb, 3 * mb), 30.0, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(zone_share(got, n, 3 * mb, 10 * mb), 10.0, 1.0);
	s = spec_with(za);
	s.io_size = (uint64_t)N * 4096;
	n = offsets(&s, 1024 * KB * 10, got, NULL, N);
	CU_ASSERT_DOUBLE_EQUAL(zone_share(got, n, 0, 64), 50.0, 1.0);
	CU_ASSERT_DOUBLE_EQUAL(zone_share(got, n, 64, 64 + 1024), 50.0, 1.0);
	/* per direction: reads in the first 10%, writes in the second half */
	s = spec_with(zd);
	s.io_size = (uint64_t)N * 4096;
	n = offsets(&s, 1024 * KB * 10, got, dir, N);
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		bad += dir[i] == SB_DDIR_READ ? got[i] >= mb : got[i] < 5 * mb;
	CU_ASSERT_EQUAL(bad, 0);
	free(got);
	free(dir);
}

/* the register runs through all 2^w - 1 states for w = 2..22 */
static void test_lfsr_period(void)
{
	for (unsigned w = 2; w <= 22; w++) {
		uint64_t m = sb_lfsr_mask(w), s = 1, p = 0, full = (1ull << w) - 1;
		do {
			s = (s >> 1) ^ ((0 - (s & 1)) & m);
			p++;
		} while (s != 1 && p <= full);
		CU_ASSERT_EQUAL(p, full);
	}
}

/* random_generator=lfsr: every block exactly once per pass, without a map */
static void test_lfsr_covers_once(void)
{
	static const char *const o[] = { "rw=randwrite", "random_generator=lfsr", "loops=2", NULL };
	static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 4097 };
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t nb = sizes[k];
		struct sb_jobspec s = spec_with(o);
		struct sb_iogen g;
		struct sb_io_u io;
		unsigned *hits = calloc(nb, sizeof(*hits));
		one_file(nb * 4096);
		CU_ASSERT_EQUAL_FATAL(sb_iogen_init(&g, &s, files, 1, 7), 0);
		CU_ASSERT_PTR_NULL(g.gf[0].map);
		uint64_t n = 0, ordered = 0, prev = 0;
		while (sb_iogen_next(&g, &io) && n < 3 * nb) {
			hits[io.offset / 4096]++;
			ordered += n % nb && io.offset == prev + 4096;
			prev = io.offset;
			n++;
		}
		CU_ASSERT_EQUAL(n, 2 * nb);
		for (uint64_t b = 0; b < nb; b++)
			CU_ASSERT_EQUAL(hits[b], 2);
		if (nb >= 1000) {
			CU_ASSERT(ordered < nb / 4); /* not a sequential walk */
		}
		sb_iogen_free(&g);
		free(hits);
	}
}

static void test_number_ios_and_io_size_pct(void)
{
	static const char *const o[] = { "rw=randread", "number_ios=5", NULL };
	static const char *const p[] = { "rw=read", "io_size=50%", NULL };
	uint64_t got[64];
	struct sb_jobspec s = spec_with(o);
	CU_ASSERT_EQUAL(offsets(&s, 64 * KB, got, NULL, 64), 5);
	s = spec_with(p); /* fio: a share of the I/O region */
	CU_ASSERT_DOUBLE_EQUAL(s.io_size_pct, 50.0, 1e-9);
	CU_ASSERT_EQUAL(offsets(&s, 64 * KB, got, NULL, 64), 8);
}

/* allrandrepeat=1 repeats the sequence even with randrepeat=0 */
static void test_allrandrepeat(void)
{
	struct sb_jobspec s = sb_test_default_spec();
	s.randrepeat = false;
	s.allrandrepeat = true;
	CU_ASSERT_EQUAL(sb_iogen_seed(&s, 3), sb_iogen_seed(&s, 3));
	struct sb_jobspec r = sb_test_default_spec();
	CU_ASSERT_EQUAL(sb_iogen_seed(&s, 3), sb_iogen_seed(&r, 3));
}

/* values the parser takes and refuses */
static void test_values(void)
{
	struct sb_jobspec s;
	char err[SB_VERR_LEN];
	CU_ASSERT_EQUAL_FATAL(sb_spec_defaults(&s), 0);
	CU_ASSERT_EQUAL(s.rw_seq_nr, 1);
	CU_ASSERT_EQUAL(s.percentage_random[2], 100);
	CU_ASSERT_FALSE(s.allrandrepeat);
	const struct sb_option *rw = sb_option_find("rw"), *size = sb_option_find("size");
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "write:64k", false, err), 0);
	CU_ASSERT(s.rw == SB_RW_WRITE && s.rw_seq_add == 65536 && s.rw_seq_nr == 1);
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "randrw:16", false, err), 0);
	CU_ASSERT(s.rw_seq_nr == 16 && s.rw_seq_add == 0);
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "read", false, err), 0);
	CU_ASSERT(s.rw_seq_nr == 1 && s.rw_seq_add == 0); /* reset by a later rw= */
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "read:bad", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "read:4k"));
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "randread:-2", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "sideways:4k", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(size, &s, "50%", false, err), 0);
	CU_ASSERT(s.size == 0 && s.size_pct == 50.0);
	CU_ASSERT_EQUAL(sb_option_set(size, &s, "1g", false, err), 0);
	CU_ASSERT(s.size == 1ull << 30 && s.size_pct == 0);
	CU_ASSERT_EQUAL(sb_option_set(size, &s, "150%", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "150%"));
	CU_ASSERT_EQUAL(sb_option_set(size, &s, "0%", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("offset"), &s, "0%", false, err), 0);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("offset_increment"), &s, "25%", false, err), 0);
	CU_ASSERT_DOUBLE_EQUAL(s.offset_increment_pct, 25.0, 1e-9);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("percentage_random"), &s, "101", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("percentage_random"), &s, "10,20", false, err), 0);
	CU_ASSERT(s.percentage_random[0] == 10 && s.percentage_random[1] == 20 && s.percentage_random[2] == 20);
	const struct sb_option *rd = sb_option_find("random_distribution");
	CU_ASSERT_EQUAL(sb_option_set(rd, &s, "zoned:60/10:30/20", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "add up to 90, not 100"));
	CU_ASSERT_EQUAL(sb_option_set(rd, &s, "zoned:60/50:40/60", false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than 100%"));
	CU_ASSERT_EQUAL(sb_option_set(rd, &s, "zoned:abc", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(rd, &s, "zoned_abs:60/20x:40/1g", false, err), -EINVAL);
	CU_ASSERT_EQUAL(sb_option_set(rd, &s, "zoned_abs:60/20g:40/1g", false, err), 0);
	CU_ASSERT(s.random_distribution == SB_DIST_ZONED_ABS && s.zone_n[2] == 2 &&
		  s.zones[2][0].size == 20ull << 30);
	char txt[256];
	sb_option_text(rd, &s, txt, sizeof(txt));
	CU_ASSERT_STRING_EQUAL(txt, "zoned_abs:60/20g:40/1g");
	sb_option_text(size, &s, txt, sizeof(txt));
	CU_ASSERT_STRING_EQUAL(txt, "1g");
	CU_ASSERT_EQUAL(sb_option_set(rw, &s, "read:-8k", false, err), 0);
	sb_option_text(rw, &s, txt, sizeof(txt));
	CU_ASSERT_STRING_EQUAL(txt, "read:-8k");
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("random_generator"), &s, "lfsr", false, err), 0);
	CU_ASSERT_EQUAL(s.random_generator, SB_RANDGEN_LFSR);
	CU_ASSERT_EQUAL(sb_option_set(sb_option_find("random_generator"), &s, "mt", false, err), -EINVAL);
	sb_spec_release(&s);
}

/* every fio alias of an option storbench has (fio 3.33 options.c .alias)
 * is accepted and is that option */
static void test_fio_aliases(void)
{
	static const char *const pairs[][2] = {
		{ "readwrite", "rw" }, { "iodepth_batch", "iodepth_batch_submit" },
		{ "iodepth_batch_complete", "iodepth_batch_complete_min" }, { "io_limit", "io_size" },
		{ "fileoffset", "offset" }, { "blocksize", "bs" }, { "blockalign", "ba" },
		{ "blocksize_range", "bsrange" }, { "nr_files", "nrfiles" }, { "timeout", "runtime" },
		{ "wait_for_previous", "stonewall" },
	};
	for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct sb_option *a = sb_option_find(pairs[i][0]), *b = sb_option_find(pairs[i][1]);
		CU_ASSERT_PTR_NOT_NULL(a);
		CU_ASSERT_PTR_EQUAL(a, b);
		CU_ASSERT_FALSE(sb_option_fio_only(pairs[i][0]));
	}
	/* allrandrepeat is an option of its own in fio, not randrepeat's alias */
	CU_ASSERT_PTR_NOT_EQUAL(sb_option_find("allrandrepeat"), sb_option_find("randrepeat"));
}

static CU_TestInfo tests[] = {
	{ "rw=read:N offsets as fio's", test_seq_modifiers },
	{ "mixed jobs: one sequential position per direction", test_mixed_positions },
	{ "rw=randread:N with rw_sequencer", test_random_groups },
	{ "percentage_random shares", test_percentage_random },
	{ "zoned and zoned_abs shares within 1%", test_zoned_shares },
	{ "LFSR full period, widths 2-22", test_lfsr_period },
	{ "random_generator=lfsr: each block once per pass", test_lfsr_covers_once },
	{ "number_ios and io_size=N%", test_number_ios_and_io_size_pct },
	{ "allrandrepeat", test_allrandrepeat },
	{ "values taken and refused", test_values },
	{ "fio's aliases", test_fio_aliases },
	CU_TEST_INFO_NULL,
};
SB_SUITE(iogen_fio, tests)
