/* timeutil.h: the clock used on the I/O path.  CLOCK_MONOTONIC through the
 * vDSO (~20 ns), or, once sb_clock_init has found a TSC the kernel itself
 * trusts (its clocksource is "tsc", the CPU has constant_tsc and
 * nonstop_tsc), the TSC read directly and scaled to ns (fio's default
 * clocksource=cpu does the same): the null engine takes two timestamps per
 * I/O and the vDSO's bookkeeping around rdtsc was half its cycles.  Both
 * give ns on the CLOCK_MONOTONIC time line (the TSC scale is anchored to it),
 * so values taken before and after sb_clock_init, and clock_nanosleep to an
 * absolute CLOCK_MONOTONIC time, stay comparable. */
#ifndef SB_TIMEUTIL_H
#define SB_TIMEUTIL_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* the TSC scale, written once by sb_clock_init before any I/O thread starts */
struct sb_tsc_scale {
	bool on;
	bool gtod;                   /* clocksource=gettimeofday: gettimeofday() instead of
				      * CLOCK_MONOTONIC (when on is false) */
	int64_t gtod_off_ns;         /* added to gettimeofday's ns: the CLOCK_MONOTONIC line */
	uint64_t base_tsc, base_ns;
	uint64_t mult;               /* ns = base_ns + ((tsc - base_tsc) * mult) >> 32 */
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
	if (__builtin_expect(sb_tsc.on, 1)) {
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
	return sb_mono_ns();
}

/* Choose the clock: the TSC when allow_tsc and it is trusted (above), else
 * CLOCK_MONOTONIC.  Calibrates against CLOCK_MONOTONIC for about 2 ms the
 * first time the TSC is chosen.  Call before starting threads.  Returns
 * whether the TSC is in use.  root: "/" (tests point it at a fixture tree). */
bool sb_clock_init(bool allow_tsc, const char *root);
/* clocksource=gettimeofday (fio's): with the TSC off, sb_now_ns reads
 * gettimeofday() (microseconds), moved onto the CLOCK_MONOTONIC time line
 * once here, so sleeps to absolute times still work; false: back to
 * CLOCK_MONOTONIC.  Call before starting threads. */
void sb_clock_gtod(bool on);
#endif
