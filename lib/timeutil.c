/* timeutil.c: choosing and calibrating the I/O path's clock (see timeutil.h). */
#include <stdio.h>
#include <string.h>

#include "lib/timeutil.h"

struct sb_tsc_scale sb_tsc;

/* a file's text (up to 64 KiB: the flags of the first CPUs are enough); NULL
 * when it cannot be read */
static char *slurp(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s%s", strcmp(root, "/") ? root : "", rel);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* word as a whole word of a "flags" line of /proc/cpuinfo text */
static bool has_flag(const char *text, const char *word)
{
	size_t w = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p += w) {
		bool before = p > text && (p[-1] == ' ' || p[-1] == '\t');
		bool after = !p[w] || p[w] == ' ' || p[w] == '\n' || p[w] == '\t';
		if (before && after)
			return true;
	}
	return false;
}

/* The kernel's clocksources that do not read the TSC: when the kernel
 * keeps time with one of these although the TSC is there, its clocksource
 * watchdog has usually found the TSC unstable ("Marking clocksource 'tsc' as
 * unstable"): storbench then does not use it (fio 3.33 would: its test is
 * CPUID alone, arch/arch-x86-common.h:35-37, 55-56).  The paravirtual
 * clocks (kvm-clock, hyperv_clocksource_tsc_page, xen) read the TSC
 * themselves and leave it usable. */
static const char *const non_tsc_clocks[] = { "hpet", "acpi_pm", "jiffies", "refined-jiffies",
					      "pit" };

bool sb_clock_tsc_usable(const char *cpuinfo, const char *clocksource, enum sb_clock_why *why)
{
	enum sb_clock_why w = SB_CLK_TSC_INVARIANT;
	/* fio 3.33 trusts the TSC when CPUID 0x80000007 EDX bit 8 (invariant
	 * TSC) is set (arch/arch-x86-common.h:35-37, 55-56; gettime.c:424-426);
	 * Linux shows that bit as both constant_tsc and nonstop_tsc */
	if (!cpuinfo || !has_flag(cpuinfo, "constant_tsc") || !has_flag(cpuinfo, "nonstop_tsc"))
		w = SB_CLK_NOT_INVARIANT;
	else if (clocksource) {
		size_t n = strcspn(clocksource, " \t\n");
		if (n == 3 && !strncmp(clocksource, "tsc", 3))
			w = SB_CLK_TSC_KERNEL;
		for (size_t i = 0; i < sizeof(non_tsc_clocks) / sizeof(non_tsc_clocks[0]); i++)
			if (strlen(non_tsc_clocks[i]) == n && !strncmp(clocksource, non_tsc_clocks[i], n))
				w = SB_CLK_KERNEL_DISTRUSTS;
	}
	if (why)
		*why = w;
	return w == SB_CLK_TSC_KERNEL || w == SB_CLK_TSC_INVARIANT;
}

const char *sb_clock_why_text(enum sb_clock_why why)
{
	switch (why) {
	case SB_CLK_TSC_KERNEL:
		return "invariant TSC (constant_tsc, nonstop_tsc); the kernel's clocksource is tsc";
	case SB_CLK_TSC_INVARIANT:
		return "invariant TSC (constant_tsc, nonstop_tsc), as fio's clocksource=cpu";
	case SB_CLK_OPTION:
		return "clocksource= option";
	case SB_CLK_NOT_INVARIANT:
		return "no invariant TSC (constant_tsc and nonstop_tsc not both in /proc/cpuinfo)";
	case SB_CLK_KERNEL_DISTRUSTS:
		return "the kernel keeps time without the TSC (current_clocksource is not TSC-based)";
	case SB_CLK_NO_TSC:
		return "no TSC on this architecture";
	case SB_CLK_CALIBRATION:
		return "the TSC calibration against CLOCK_MONOTONIC failed";
	case SB_CLK_DRIFT:
		return "the TSC drifted from CLOCK_MONOTONIC beyond tolerance: fell back to clock_gettime";
	}
	return "?";
}

#if defined(__x86_64__)
/* one (tsc, ns) pair: the TSC read on both sides of the clock read, the
 * midpoint kept; the narrowest of a few tries (a preemption widens one) */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 5; i++) {
		uint64_t a = __rdtsc(), n = sb_mono_ns(), b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}
#endif

bool sb_clock_init(bool allow_tsc, const char *root)
{
	sb_tsc.checks = 0;
	sb_tsc.max_drift_ns = 0;
#if defined(__x86_64__)
	if (sb_tsc.fell_back) { /* the guard saw it drift: not again in this process */
		sb_tsc.on = false;
		sb_tsc.why = SB_CLK_DRIFT;
		return false;
	}
	static char cpuinfo[65536];
	char cs[256];
	root = root && *root ? root : "/";
	if (!allow_tsc) {
		sb_tsc.why = SB_CLK_OPTION;
		sb_tsc.on = false;
		return false;
	}
	if (!sb_clock_tsc_usable(slurp(root, "/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)),
				 slurp(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
				       cs, sizeof(cs)),
				 &sb_tsc.why)) {
		sb_tsc.on = false;
		return false;
	}
	if (sb_tsc.mult) {
		sb_tsc.on = true;
		return true;
	}
	/* one 2 ms window, its ends the narrowest of 5 bracketed reads (fio
	 * 3.33 instead averages 50 windows of 1.28 ms, gettime.c:238-257,
	 * 268-307): about 30 ppm here, well inside the guard's 1000 */
	uint64_t t0, n0, t1, n1;
	pair(&t0, &n0);
	do
		pair(&t1, &n1);
	while (n1 - n0 < 2000000 && t1 > t0);
	if (t1 <= t0 || n1 <= n0) {
		sb_tsc.why = SB_CLK_CALIBRATION;
		return false;
	}
	sb_tsc.mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
	sb_tsc.base_tsc = t1;
	sb_tsc.base_ns = n1;
	sb_tsc.on = sb_tsc.mult != 0;
	if (!sb_tsc.on)
		sb_tsc.why = SB_CLK_CALIBRATION;
	return sb_tsc.on;
#else
	(void)allow_tsc;
	(void)root;
	sb_tsc.why = allow_tsc ? SB_CLK_NO_TSC : SB_CLK_OPTION;
	return false;
#endif
}

bool sb_clock_guard(void)
{
#if defined(__x86_64__)
	if (!__atomic_load_n(&sb_tsc.on, __ATOMIC_RELAXED))
		return false;
	uint64_t t, m;
	pair(&t, &m);
	uint64_t tn = sb_tsc.base_ns +
		      (uint64_t)(((unsigned __int128)(t - sb_tsc.base_tsc) * sb_tsc.mult) >> 32);
	int64_t drift = (int64_t)(tn - m);
	uint64_t mag = drift < 0 ? (uint64_t)-drift : (uint64_t)drift;
	uint64_t since = m > sb_tsc.base_ns ? m - sb_tsc.base_ns : 0;
	uint64_t tol = SB_CLOCK_TOL_ABS_NS +
		       (uint64_t)((unsigned __int128)since * SB_CLOCK_TOL_PPM / 1000000u);
	sb_tsc.checks++;
	uint64_t prev = sb_tsc.max_drift_ns < 0 ? (uint64_t)-sb_tsc.max_drift_ns
						: (uint64_t)sb_tsc.max_drift_ns;
	if (mag > prev)
		sb_tsc.max_drift_ns = drift;
	if (mag <= tol)
		return false;
	/* continue from the TSC's reading when it ran ahead: the I/O threads'
	 * next timestamps are never before their last */
	sb_tsc.mono_off_ns = drift > 0 ? (uint64_t)drift : 0;
	sb_tsc.fallback_drift_ns = drift;
	sb_tsc.fallback_ns = m;
	sb_tsc.fell_back = true;
	sb_tsc.why = SB_CLK_DRIFT;
	__atomic_store_n(&sb_tsc.on, false, __ATOMIC_RELEASE);
	return true;
#else
	return false;
#endif
}

void sb_clock_skew_ppm(long ppm)
{
	sb_tsc.mult = (uint64_t)((unsigned __int128)sb_tsc.mult * (uint64_t)(1000000 + ppm) / 1000000u);
}

void sb_clock_gtod(bool on)
{
	sb_tsc.gtod = on;
	if (!on)
		return;
	struct timeval tv;
	uint64_t m = sb_mono_ns();
	gettimeofday(&tv, NULL);
	sb_tsc.gtod_off_ns = (int64_t)m - ((int64_t)tv.tv_sec * 1000000000ll + (int64_t)tv.tv_usec * 1000);
}
