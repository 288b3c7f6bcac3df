/* test_timeutil.c: the I/O path's clock (lib/timeutil.h): the TSC where fio
 * reads it (an invariant TSC), on the CLOCK_MONOTONIC time line when used,
 * and the drift guard that turns it off. */
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

/* fixture /proc/cpuinfo text: the flags line of this project's KVM guests,
 * with and without the invariant-TSC pair */
#define CPU_HEAD "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu tsc msr "
#define CPU_INV CPU_HEAD "rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid tsc_known_freq\n"

/* The decision.  fio 3.33 reads the TSC by default when CPUID says it is
 * invariant (arch/arch-x86-common.h:35-37 Intel, 55-56 AMD: CPUID
 * 0x80000007 EDX bit 8, which Linux shows as constant_tsc + nonstop_tsc;
 * gettime.c:424-426 then picks CS_CPUCLOCK unless clocksource= was set),
 * whatever the kernel's own clocksource: so under kvm-clock too.  storbench
 * differs only where the kernel has fallen back to a timer that is not the
 * TSC (hpet, acpi_pm, ...: its watchdog found the TSC unstable). */
static void test_decision(void)
{
	static const struct {
		const char *cpuinfo, *cs;
		bool use;
		enum sb_clock_why why;
	} c[] = {
		{ CPU_INV, "kvm-clock\n", true, SB_CLK_TSC_INVARIANT },
		{ CPU_INV, "tsc\n", true, SB_CLK_TSC_KERNEL },
		{ CPU_INV, "tsc", true, SB_CLK_TSC_KERNEL },
		{ CPU_INV, "hyperv_clocksource_tsc_page\n", true, SB_CLK_TSC_INVARIANT },
		{ CPU_INV, "xen\n", true, SB_CLK_TSC_INVARIANT },
		{ CPU_INV, NULL, true, SB_CLK_TSC_INVARIANT }, /* no /sys: fio's rule alone */
		{ CPU_INV, "tsc-early\n", true, SB_CLK_TSC_INVARIANT },
		{ CPU_INV, "hpet\n", false, SB_CLK_KERNEL_DISTRUSTS },
		{ CPU_INV, "acpi_pm\n", false, SB_CLK_KERNEL_DISTRUSTS },
		{ CPU_INV, "refined-jiffies\n", false, SB_CLK_KERNEL_DISTRUSTS },
		{ CPU_HEAD "constant_tsc\n", "tsc\n", false, SB_CLK_NOT_INVARIANT },
		{ CPU_HEAD "nonstop_tsc\n", "kvm-clock\n", false, SB_CLK_NOT_INVARIANT },
		{ CPU_HEAD "constant_tsc_x nonstop_tsc\n", "tsc\n", false, SB_CLK_NOT_INVARIANT },
		{ CPU_HEAD "xconstant_tsc nonstop_tscx\n", "tsc\n", false, SB_CLK_NOT_INVARIANT },
		{ CPU_HEAD "constant_tsc\tnonstop_tsc\n", "kvm-clock\n", true, SB_CLK_TSC_INVARIANT },
		{ "", "tsc\n", false, SB_CLK_NOT_INVARIANT },
		{ NULL, "tsc\n", false, SB_CLK_NOT_INVARIANT },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		enum sb_clock_why why = (enum sb_clock_why)99;
		bool use = sb_clock_tsc_usable(c[i].cpuinfo, c[i].cs, &why);
		if (use != c[i].use || why != c[i].why)
			fprintf(stderr, "case %zu (%s): use %d why %d\n", i, c[i].cs ? c[i].cs : "-",
				use, (int)why);
		CU_ASSERT_EQUAL(use, c[i].use);
		CU_ASSERT_EQUAL(why, c[i].why);
	}
}

/* sb_clock_init reads the two files under its root: kvm-clock with an
 * invariant TSC uses the TSC (x86-64); hpet, or a CPU without nonstop_tsc,
 * the vDSO clock */
static void test_init_on_fixture_tree(void)
{
	char root[] = "/tmp/sbclk.XXXXXX";
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
	put(root, "/proc/cpuinfo", CPU_INV);
#if defined(__x86_64__)
	CU_ASSERT_TRUE(sb_clock_init(true, root));
	CU_ASSERT_TRUE(sb_tsc.on);
	CU_ASSERT_EQUAL(sb_tsc.why, SB_CLK_TSC_INVARIANT);
#endif
	CU_ASSERT_FALSE(sb_clock_init(false, root)); /* clocksource=clock_gettime */
	CU_ASSERT_EQUAL(sb_tsc.why, SB_CLK_OPTION);
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	CU_ASSERT_FALSE(sb_clock_init(true, root));
	CU_ASSERT_FALSE(sb_tsc.on);
	put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put(root, "/proc/cpuinfo", CPU_HEAD "constant_tsc\n");
	CU_ASSERT_FALSE(sb_clock_init(true, root));
	CU_ASSERT_EQUAL(sb_tsc.why, SB_CLK_NOT_INVARIANT);
	uint64_t a = sb_mono_ns(), b = sb_now_ns(), c = sb_mono_ns();
	CU_ASSERT_TRUE(a <= b && b <= c);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* back to a fresh TSC calibration (the guard's fallback is sticky) */
static bool fresh_tsc(void)
{
	sb_tsc.fell_back = false;
	sb_tsc.mono_off_ns = 0;
	sb_tsc.mult = 0;
	return sb_clock_init(true, "/");
}

/* The drift guard with an injected drift: the calibrated rate skewed by
 * +2% (the TSC runs ahead), 30 ms later the guard falls back (30 ms * 2% =
 * 600 us > 100 us + 0.1%), the clock continues without going back, and the
 * TSC stays off; -2% (behind) falls back with no offset; +300 ppm stays
 * within tolerance.  Needs an invariant TSC here. */
static void test_drift_guard(void)
{
	if (!fresh_tsc()) {
		sb_clock_init(false, "/");
		return;
	}
	usleep(30000);
	CU_ASSERT_FALSE(sb_clock_guard()); /* calibrated: no drift */
	CU_ASSERT_EQUAL(sb_tsc.checks, 1);
	CU_ASSERT_TRUE(sb_tsc.max_drift_ns < 100000 && sb_tsc.max_drift_ns > -100000);
	sb_clock_skew_ppm(20000);
	usleep(30000);
	uint64_t before = sb_now_ns();
	CU_ASSERT_TRUE(sb_clock_guard());
	CU_ASSERT_FALSE(sb_tsc.on);
	CU_ASSERT_TRUE(sb_tsc.fell_back);
	CU_ASSERT_EQUAL(sb_tsc.why, SB_CLK_DRIFT);
	CU_ASSERT_TRUE(sb_tsc.fallback_drift_ns > 500000);
	CU_ASSERT_TRUE(sb_now_ns() >= before); /* continues from the TSC's reading */
	CU_ASSERT_EQUAL(sb_tsc.mono_off_ns, (uint64_t)sb_tsc.fallback_drift_ns);
	CU_ASSERT_FALSE(sb_clock_guard()); /* off: nothing more to compare */
	CU_ASSERT_FALSE(sb_clock_init(true, "/")); /* sticky for the process */
	CU_ASSERT_EQUAL(sb_tsc.why, SB_CLK_DRIFT);

	CU_ASSERT_TRUE_FATAL(fresh_tsc());
	sb_clock_skew_ppm(-20000);
	usleep(30000);
	CU_ASSERT_TRUE(sb_clock_guard());
	CU_ASSERT_TRUE(sb_tsc.fallback_drift_ns < -500000);
	CU_ASSERT_EQUAL(sb_tsc.mono_off_ns, 0);

	CU_ASSERT_TRUE_FATAL(fresh_tsc());
	sb_clock_skew_ppm(300);
	usleep(30000);
	CU_ASSERT_FALSE(sb_clock_guard());
	CU_ASSERT_TRUE(sb_tsc.on);
	fresh_tsc();
	sb_clock_init(false, "/");
}

/* a CLOCK_MONOTONIC and an sb_now_ns reading taken together: the now read
 * bracketed by two monotonic reads, the tightest bracket of a few tries
 * (a thread preempted between two reads on a loaded machine would put
 * the time it waited between them) */
static void mono_now_pair(uint64_t *mono, uint64_t *now)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 1000 && best > 2000; i++) {
		uint64_t a = sb_mono_ns(), n = sb_now_ns(), b = sb_mono_ns();
		if (b - a < best) {
			best = b - a;
			*mono = a + (b - a) / 2;
			*now = n;
		}
	}
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
	uint64_t m0, t0, m1, t1;
	mono_now_pair(&m0, &t0);
	usleep(50000);
	mono_now_pair(&m1, &t1);
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
	uint64_t a, m;
	mono_now_pair(&m, &a);
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
	{ "TSC decision on cpuinfo/clocksource text", test_decision },
	{ "sb_clock_init on a fixture tree", test_init_on_fixture_tree },
	{ "drift guard: injected drift falls back", test_drift_guard },
	{ "TSC ns track CLOCK_MONOTONIC", test_tsc_tracks_monotonic },
	CU_TEST_INFO_NULL,
};
SB_SUITE(timeutil, tests)
