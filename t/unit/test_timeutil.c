/* test_timeutil.c: the I/O path's clock (lib/timeutil.h): the TSC only where
 * the kernel trusts it, and on the CLOCK_MONOTONIC time line when used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "lib/timeutil.h"

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(dir, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* a kernel on another clocksource, or a CPU without an invariant TSC: the
 * vDSO clock */
static void test_untrusted_tsc_not_used(void)
{
	char root[] = "/tmp/sbclk.XXXXXX";
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
	put(root, "/proc/cpuinfo", "flags\t\t: fpu tsc constant_tsc nonstop_tsc\n");
	CU_ASSERT_FALSE(sb_clock_init(true, root));
	CU_ASSERT_FALSE(sb_tsc.on);
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put(root, "/proc/cpuinfo", "flags\t\t: fpu tsc constant_tsc\n");
	CU_ASSERT_FALSE(sb_clock_init(true, root));
	put(root, "/proc/cpuinfo", "flags\t\t: fpu tsc constant_tsc_x nonstop_tsc\n");
	CU_ASSERT_FALSE(sb_clock_init(true, root));
	CU_ASSERT_FALSE(sb_clock_init(false, "/"));
	uint64_t a = sb_mono_ns(), b = sb_now_ns(), c = sb_mono_ns();
	CU_ASSERT_TRUE(a <= b && b <= c);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* where the TSC is used, its ns stay on CLOCK_MONOTONIC's line: within
 * 0.1% over 50 ms, and never behind a CLOCK_MONOTONIC read before it by more
 * than the calibration's error */
static void test_tsc_tracks_monotonic(void)
{
	if (!sb_clock_init(true, "/")) {
		sb_clock_init(false, "/");
		return; /* no trusted TSC here: nothing to compare */
	}
	uint64_t m0 = sb_mono_ns(), t0 = sb_now_ns();
	usleep(50000);
	uint64_t m1 = sb_mono_ns(), t1 = sb_now_ns();
	double dm = (double)(m1 - m0), dt = (double)(t1 - t0);
	CU_ASSERT_TRUE(dt > dm * 0.999 - 2000 && dt < dm * 1.001 + 2000);
	CU_ASSERT_TRUE(t0 + 100000 > m0 && t0 < m0 + 100000);
	uint64_t prev = sb_now_ns();
	for (int i = 0; i < 100000; i++) { /* monotonic on one CPU */
		uint64_t n = sb_now_ns();
		CU_ASSERT_TRUE_FATAL(n >= prev);
		prev = n;
	}
}

/* clocksource=gettimeofday: whole microseconds apart, on CLOCK_MONOTONIC's
 * line (within 1 ms of it), and off again with sb_clock_gtod(false) */
static void test_gtod_on_monotonic_line(void)
{
	sb_clock_init(false, "/");
	sb_clock_gtod(true);
	uint64_t a = sb_now_ns(), m = sb_mono_ns();
	usleep(2000);
	uint64_t b = sb_now_ns();
	CU_ASSERT_EQUAL((b - a) % 1000, 0);
	CU_ASSERT_TRUE(b > a);
	CU_ASSERT_TRUE(a + 1000000 > m && a < m + 1000000);
	sb_clock_gtod(false);
	CU_ASSERT_FALSE(sb_tsc.gtod);
}

static CU_TestInfo tests[] = {
	{ "clocksource=gettimeofday", test_gtod_on_monotonic_line },
	{ "untrusted TSC: CLOCK_MONOTONIC", test_untrusted_tsc_not_used },
	{ "TSC ns track CLOCK_MONOTONIC", test_tsc_tracks_monotonic },
	CU_TEST_INFO_NULL,
};
SB_SUITE(timeutil, tests)
