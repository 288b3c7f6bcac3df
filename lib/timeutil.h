/* timeutil.h: the clock used on the I/O path.  CLOCK_MONOTONIC through the
 * vDSO (~20 ns), or, once sb_clock_init has found an invariant TSC
 * (constant_tsc and nonstop_tsc in /proc/cpuinfo: where fio 3.33's default
 * reads it, whatever the kernel's own clocksource), the TSC read directly and
 * scaled to ns: the null engine takes two timestamps per I/O and the vDSO's
 * bookkeeping around rdtsc was half its cycles.  Both give ns on the
 * CLOCK_MONOTONIC time line (the TSC scale is anchored to it), so values
 * taken before and after sb_clock_init, and clock_nanosleep to an absolute
 * CLOCK_MONOTONIC time, stay comparable.  sb_clock_guard (the stats thread,
 * every tick) compares the two and turns the TSC off for good when they
 * drift apart beyond SB_CLOCK_TOL_*. */
#ifndef SB_TIMEUTIL_H
#define SB_TIMEUTIL_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* why the clock is what it is (sb_clock_why_text names them) */
enum sb_clock_why {
	SB_CLK_TSC_KERNEL = 0,   /* TSC: invariant, and the kernel's clocksource is tsc too */
	SB_CLK_TSC_INVARIANT,    /* TSC: invariant under a paravirt clocksource (kvm-clock, ...): fio's rule */
	SB_CLK_OPTION,           /* clocksource=clock_gettime|gettimeofday */
	SB_CLK_NOT_INVARIANT,    /* constant_tsc or nonstop_tsc missing (or no /proc/cpuinfo) */
	SB_CLK_KERNEL_DISTRUSTS, /* the kernel keeps time with a non-TSC timer (hpet, acpi_pm, ...) */
	SB_CLK_NO_TSC,           /* not x86-64 */
	SB_CLK_CALIBRATION,      /* the calibration against CLOCK_MONOTONIC failed */
	SB_CLK_DRIFT,            /* the TSC drifted from CLOCK_MONOTONIC beyond tolerance (guard) */
};

/* the drift guard's tolerance: |TSC ns - CLOCK_MONOTONIC ns| above
 * SB_CLOCK_TOL_ABS_NS + SB_CLOCK_TOL_PPM millionths of the time since
 * calibration turns the TSC off (100 us + 0.1%: a runtime or latency off by
 * more than 0.1% is not kept) */
#define SB_CLOCK_TOL_ABS_NS 100000ull
#define SB_CLOCK_TOL_PPM 1000ull

/* the TSC scale, written once by sb_clock_init before any I/O thread starts;
 * on and mono_off_ns change later only in sb_clock_guard */
struct sb_tsc_scale {
	bool on;                     /* read with acquire: mono_off_ns is set before it clears */
	bool gtod;                   /* clocksource=gettimeofday: gettimeofday() instead of
				      * CLOCK_MONOTONIC (when on is false) */
	int64_t gtod_off_ns;         /* added to gettimeofday's ns: the CLOCK_MONOTONIC line */
	uint64_t base_tsc, base_ns;
	uint64_t mult;               /* ns = base_ns + ((tsc - base_tsc) * mult) >> 32 */
	uint64_t mono_off_ns;        /* after a fallback: added to CLOCK_MONOTONIC, so the clock
				      * never steps back (0 otherwise) */
	enum sb_clock_why why;       /* of the last sb_clock_init / the fallback */
	bool fell_back;              /* the guard turned the TSC off (sticky for the process) */
	int64_t max_drift_ns;        /* guard: largest |TSC - CLOCK_MONOTONIC| seen, signed */
	int64_t fallback_drift_ns;   /* the drift that turned it off */
	uint64_t fallback_ns;        /* CLOCK_MONOTONIC when it did */
	unsigned checks;             /* guard comparisons this run */
};
extern struct sb_tsc_scale sb_tsc;

static inline uint64_t sb_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t sb_now_ns(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(__atomic_load_n(&sb_tsc.on, __ATOMIC_ACQUIRE), 1)) {
		uint64_t d = __rdtsc() - sb_tsc.base_tsc;
		return sb_tsc.base_ns + (uint64_t)(((unsigned __int128)d * sb_tsc.mult) >> 32);
	}
#endif
	if (__builtin_expect(sb_tsc.gtod, 0)) { /* clocksource=gettimeofday: us resolution */
		struct timeval tv;
		gettimeofday(&tv, NULL);
		return (uint64_t)((int64_t)tv.tv_sec * 1000000000ll + (int64_t)tv.tv_usec * 1000 +
				  sb_tsc.gtod_off_ns);
	}
	return sb_mono_ns() + sb_tsc.mono_off_ns;
}

/* The decision alone, on the text of /proc/cpuinfo and of
 * /sys/devices/system/clocksource/clocksource0/current_clocksource (either
 * NULL: absent): true with SB_CLK_TSC_* when the TSC may be used, else false
 * with the reason. */
bool sb_clock_tsc_usable(const char *cpuinfo, const char *clocksource, enum sb_clock_why *why);
/* Choose the clock: the TSC when allow_tsc and sb_clock_tsc_usable on root's
 * files, else CLOCK_MONOTONIC.  Calibrates against CLOCK_MONOTONIC for about
 * 2 ms the first time the TSC is chosen.  Call before starting threads.
 * Returns whether the TSC is in use; sb_tsc.why says why.  root: "/" (tests
 * point it at a fixture tree).  After a fallback the TSC stays off. */
bool sb_clock_init(bool allow_tsc, const char *root);
/* The drift guard, off the I/O path (the stats thread, each tick): compare
 * the TSC clock with CLOCK_MONOTONIC; beyond the tolerance above, fall back
 * to CLOCK_MONOTONIC for the rest of the process (continuing from the TSC's
 * value when that was ahead, so no timestamp goes back).  Returns true when
 * this call fell back. */
bool sb_clock_guard(void);
/* Test hook: scale the calibrated TSC rate by (1 + ppm / 1e6) (an injected
 * drift).  Call before starting threads. */
void sb_clock_skew_ppm(long ppm);
const char *sb_clock_why_text(enum sb_clock_why why);
/* clocksource=gettimeofday (fio's): with the TSC off, sb_now_ns reads
 * gettimeofday() (microseconds), moved onto the CLOCK_MONOTONIC time line
 * once here, so sleeps to absolute times still work; false: back to
 * CLOCK_MONOTONIC.  Call before starting threads. */
void sb_clock_gtod(bool on);
#endif
