/* rate.c: rate limits, sleeping and think time (see rate.h). */
#include <errno.h>
#include <math.h>
#include <time.h>

#include "run/rate.h"
#include "run/thread.h"
#include "lib/timeutil.h"

void sb_rate_init(struct sb_rate *r, const struct sb_jobspec *s, uint64_t start_ns)
{
	r->on = false;
	for (int d = 0; d < SB_DDIR_N; d++) {
		r->ns_per_byte[d] = s->rate[d] ? 1e9 / (double)s->rate[d] : 0.0;
		r->ns_per_io[d] = s->rate_iops[d] ? 1e9 / (double)s->rate_iops[d] : 0.0;
		r->due[d] = (double)start_ns;
		r->on |= s->rate[d] || s->rate_iops[d];
	}
	r->poisson = s->rate_process == SB_RATE_PROC_POISSON;
	r->rng = (s->randseed ^ 0x9e3779b97f4a7c15ull) | 1;
}

double sb_rate_exp(struct sb_rate *r)
{
	uint64_t x = r->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	r->rng = x;
	double u = (double)((x >> 11) + 1) / 9007199254740992.0; /* (0, 1] */
	return -log(u);
}

bool sb_sleep_until(uint64_t due_ns)
{
	for (;;) {
		if (sb_run_stopping())
			return false;
		uint64_t now = sb_now_ns();
		if (now >= due_ns)
			return true;
		uint64_t until = due_ns - now > 100000000ull ? now + 100000000ull : due_ns;
		struct timespec ts = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
		int r;
		do
			r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (r == EINTR && !sb_run_stopping());
	}
}

void sb_think(const struct sb_jobspec *s, uint64_t now_ns)
{
	uint64_t spin = s->thinktime_spin_us * 1000ull, total = s->thinktime_us * 1000ull;
	if (spin > total)
		spin = total;
	if (spin)
		while (sb_now_ns() < now_ns + spin && !sb_run_stopping())
			;
	if (total > spin)
		sb_sleep_until(now_ns + total);
}
