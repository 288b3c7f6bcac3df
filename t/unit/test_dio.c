/* test_dio.c: the one direct-I/O alignment check (sb_spec_check_direct,
 * parse/dio.c) over a table of jobs and alignments: what it refuses, where it
 * says so (the option's file:line, else the job's section), the value, the
 * alignment and its source, the fix; and the alignment os/dio.c reads for a
 * real file and for tmpfs, which the check then applies. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "harness.h"
#include "lib/log.h"
#include "os/dio.h"
#include "parse/options.h"
#include "parse/parse.h"

struct sb_jobspec sb_test_default_spec(void);

#define K 1024ull

struct dio_case {
	const char *label;
	unsigned rw;
	uint64_t bs[SB_DDIR_N];       /* 0: the default 4k */
	uint64_t range[2];            /* bsrange, for every direction; 0: none */
	uint64_t split[2];            /* two bssplit sizes at 50% each, reads; 0: none */
	uint64_t blockalign, offset;
	bool direct_off;
	struct sb_dio_align a;
	const char *of;               /* the file or device; NULL: parse time */
	unsigned buf_align;
	bool bs_set_at_line7;         /* loc of bs: unit.ini:7, else unset */
	int want;
	const char *say[4];           /* substrings of the message */
	unsigned kb_base;             /* 0: the default 1024 */
	const char *nosay;            /* not in the message */
};

#define A512 { 512, 512, false, "statx" }
#define A4K { 4096, 4096, false, "statx" }
#define EVERY { SB_DIO_ALIGN_MIN, 0, false, NULL }

static const struct dio_case cases[] = {
	{ "aligned", SB_RW_READ, { 4 * K }, .a = A4K, .of = "/dev/x", .want = 0 },
	{ "parse floor: bs=1000", SB_RW_WRITE, { 0, 1000 }, .a = EVERY, .bs_set_at_line7 = true,
	  .want = -EINVAL,
	  .say = { "unit.ini:7: job j: bs=1000 is not a multiple of 512, which direct=1 (O_DIRECT) "
		   "needs on every device: use bs=1024 or another multiple of 512, or direct=0" } },
	{ "4k device: bs=512", SB_RW_READ, { 512 }, .a = A4K, .of = "/dev/loop9",
	  .bs_set_at_line7 = true, .want = -EINVAL, .nosay = "kb_base",
	  .say = { "unit.ini:7: job j: bs=512 is not a multiple of 4096, the direct-I/O alignment "
		   "of /dev/loop9 (statx): use bs=4096 or another multiple of 4096, or direct=0" } },
	{ "default bs: the section's line", SB_RW_READ, { 4 * K }, .a = { 8192, 0, false, "x" },
	  .of = "f", .want = -EINVAL, .say = { "unit.ini:3: job j: bs=4096 is not a multiple of 8192" } },
	{ "offset", SB_RW_READ, { 4 * K }, .offset = 100, .a = A512, .of = "f", .want = -EINVAL,
	  .say = { "offset=100 is not a multiple of 512", "use offset=512 or another multiple" } },
	{ "bsrange issues multiples of its low end", SB_RW_READ, .range = { 4 * K, 10000 }, .a = A4K,
	  .of = "f", .want = 0 },
	{ "bsrange low end", SB_RW_READ, .range = { 1 * K, 8 * K }, .a = A4K, .of = "f",
	  .want = -EINVAL, .say = { "bsrange size 1024 is not a multiple of 4096",
				    "use sizes that are multiples of 4096" } },
	{ "bssplit entry", SB_RW_READ, .split = { 4 * K, 6 * K }, .a = A4K, .of = "f",
	  .want = -EINVAL, .say = { "bssplit size 6144 is not a multiple of 4096" } },
	{ "blockalign", SB_RW_READ, { 4 * K }, .blockalign = 2 * K, .a = A4K, .of = "f",
	  .want = -EINVAL, .say = { "blockalign=2048 is not a multiple of 4096" } },
	{ "two directions: named", SB_RW_READ | SB_RW_WRITE | SB_RW_RANDOM, { 4 * K, 2 * K }, .a = A4K,
	  .of = "f", .want = -EINVAL, .say = { "bs=2048 (write) is not a multiple of 4096" } },
	{ "a direction the job does not do", SB_RW_READ, { 4 * K, 1000 }, .a = A4K, .of = "f",
	  .want = 0 },
	{ "direct=0", SB_RW_READ, { 1000 }, .direct_off = true, .a = A4K, .of = "f", .want = 0 },
	{ "no direct I/O at all", SB_RW_READ, { 4 * K }, .a = { 512, 0, true, "statx" },
	  .of = "/mnt/j/f", .want = -EINVAL,
	  .say = { "direct=1: /mnt/j/f cannot do direct I/O (statx", "use direct=0" } },
	{ "buffers less aligned than the device needs", SB_RW_READ, { 8 * K },
	  .a = { 512, 8192, false, "statx" }, .of = "f", .buf_align = 4096, .want = -EINVAL,
	  .say = { "unit.ini:3: job j: direct=1: f needs I/O buffers aligned to 8192 bytes (statx), "
		   "and storbench aligns them to 4096: use direct=0" } },
	/* a multiple of 1000 says what unit prefix under kb_base made it */
	{ "bs=4KiB, kb_base=1024: 4000 bytes", SB_RW_READ, { 4000 }, .a = EVERY,
	  .bs_set_at_line7 = true, .want = -EINVAL,
	  .say = { "unit.ini:7: job j: bs=4000 is not a multiple of 512",
		   "; 4000 bytes is 4KiB with kb_base=1024 (the default: KiB, MiB, GiB count in 1000s",
		   "for 4096 bytes write bs=4k, or set kb_base=1000" } },
	{ "bs=4k, kb_base=1000: 4000 bytes", SB_RW_WRITE, { 0, 4000 }, .a = EVERY, .kb_base = 1000,
	  .want = -EINVAL,
	  .say = { "bs=4000 is not a multiple of 512", "4000 bytes is 4k with kb_base=1000",
		   "for 4096 bytes write bs=4KiB, or drop kb_base=1000" }, .nosay = "KiB, MiB, GiB count" },
	{ "bs=64KiB on a 4k device", SB_RW_READ, { 64000 }, .a = A4K, .of = "f", .want = -EINVAL,
	  .say = { "bs=64000 is not a multiple of 4096", "64000 bytes is 64KiB with kb_base=1024",
		   "for 65536 bytes write bs=64k" } },
	{ "bssplit 2MiB", SB_RW_READ, .split = { 4 * K, 2000000 }, .a = A4K, .of = "f",
	  .want = -EINVAL, .say = { "bssplit size 2000000 is not a multiple of 4096",
				    "2000000 bytes is 2MiB", "for 2097152 bytes write 2m," } },
	{ "offset=3k, kb_base=1000", SB_RW_READ, { 4 * K }, .offset = 3000, .a = A512, .of = "f",
	  .kb_base = 1000, .want = -EINVAL, .say = { "offset=3000", "3000 bytes is 3k with "
		   "kb_base=1000", "for 3072 bytes write offset=3KiB" } },
	{ "not a multiple of 1000: no note", SB_RW_READ, { 4 * K }, .offset = 100, .a = A512,
	  .of = "f", .want = -EINVAL, .nosay = "kb_base" },
	{ "buffers not checked at parse time", SB_RW_READ, { 8 * K },
	  .a = { 512, 8192, false, "statx" }, .want = 0 },
};

static struct sb_jobspec case_spec(const struct dio_case *c)
{
	struct sb_jobspec s = sb_test_default_spec();
	snprintf(s.name, sizeof(s.name), "j");
	s.file = "unit.ini";
	s.line = 3;
	s.rw = c->rw;
	s.direct = !c->direct_off;
	s.offset = c->offset;
	s.kb_base = c->kb_base ? c->kb_base : 1024;
	for (int d = 0; d < SB_DDIR_N; d++) {
		s.bs[d] = c->bs[d] ? c->bs[d] : 4 * K;
		s.bs_min[d] = c->range[0];
		s.bs_max[d] = c->range[1];
		s.blockalign[d] = c->blockalign;
	}
	if (c->split[0]) {
		s.bssplit[SB_DDIR_READ][0] = (struct sb_bssplit){ c->split[0], 50 };
		s.bssplit[SB_DDIR_READ][1] = (struct sb_bssplit){ c->split[1], 50 };
		s.bssplit_n[SB_DDIR_READ] = 2;
	}
	if (c->bs_set_at_line7)
		sb_spec_set_loc(&s, sb_option_index(SB_OPT(bs)), "unit.ini", 7);
	sb_spec_derive(&s); /* as the parser does */
	return s;
}

static void test_table(void)
{
	char log[2048];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dio_case *c = &cases[i];
		struct sb_jobspec s = case_spec(c);
		log[0] = 0;
		sb_log_capture(log, sizeof(log));
		int r = sb_spec_check_direct(&s, &c->a, c->of, c->buf_align);
		sb_log_capture(NULL, 0);
		bool ok = r == c->want && (r != 0) == (log[0] != 0);
		for (int k = 0; k < 4 && c->say[k]; k++)
			ok = ok && strstr(log, c->say[k]);
		ok = ok && (!c->nosay || !strstr(log, c->nosay));
		if (!ok)
			printf("\n  dio case '%s': r=%d (want %d), message: %s", c->label, r, c->want, log);
		CU_ASSERT_TRUE(ok);
	}
}

/* os/dio.c on a file of the test directory (ext4 or whatever /tmp is): an
 * alignment of at least 512, stated; a size below it refused, one of it
 * accepted (what libaio and io_uring checked at open before) */
static void test_real_file(void)
{
	char path[PATH_MAX], log[1024];
	snprintf(path, sizeof(path), "%s/dio-file", sb_test_tmpdir());
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	struct sb_dio_align a;
	sb_os_dio_align(path, &a);
	CU_ASSERT(a.offset >= SB_DIO_ALIGN_MIN && (a.offset & (a.offset - 1)) == 0);
	CU_ASSERT_PTR_NOT_NULL(a.source);
	struct dio_case c = { .rw = SB_RW_READ, .bs = { 100 } };
	struct sb_jobspec s = case_spec(&c);
	sb_log_capture(log, sizeof(log));
	int r = a.unsupported ? -EINVAL : sb_spec_check_direct(&s, &a, path, 4096);
	sb_log_capture(NULL, 0);
	CU_ASSERT_EQUAL(r, -EINVAL);
	s.bs[SB_DDIR_READ] = a.offset;
	sb_spec_derive(&s);
	if (!a.unsupported)
		CU_ASSERT_EQUAL(sb_spec_check_direct(&s, &a, path, a.offset > 4096 ? a.offset : 4096), 0);
	/* a file not there yet: its directory's disk, and nothing is created */
	unlink(path);
	struct sb_dio_align b;
	sb_os_dio_align(path, &b);
	CU_ASSERT(b.offset >= SB_DIO_ALIGN_MIN);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* tmpfs states no alignment and has no disk: the smallest any device has */
static void test_tmpfs(void)
{
	struct statfs fs;
	struct sb_dio_align a;
	if (statfs("/dev/shm", &fs) != 0 || fs.f_type != 0x01021994 /* TMPFS_MAGIC */) {
		printf("\n  dio: /dev/shm is not tmpfs: skipped\n");
		return;
	}
	sb_os_dio_align("/dev/shm/sb-dio-not-there", &a);
	CU_ASSERT_EQUAL(a.offset, SB_DIO_ALIGN_MIN);
	CU_ASSERT_FALSE(a.unsupported);
	CU_ASSERT_STRING_EQUAL(a.source, "smallest any device has");
}

static CU_TestInfo tests[] = {
	{ "checker table", test_table },
	{ "alignment of a real file", test_real_file },
	{ "alignment on tmpfs", test_tmpfs },
	CU_TEST_INFO_NULL,
};
SB_SUITE(dio, tests)
