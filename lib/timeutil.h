/* timeutil.h: the clock used on the I/O path.  CLOCK_MONOTONIC through the
 * vDSO: no syscall, ~20 ns. */
#ifndef SB_TIMEUTIL_H
#define SB_TIMEUTIL_H
#include <stdint.h>
#include <time.h>

static inline uint64_t sb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
#endif
