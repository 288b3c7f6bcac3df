/* rate.c: rate limits, sleeping and think time (see rate.h). */
#include <errno.h>
#include <math.h>
#include <time.h>

#include "run/ioloop.h"
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
		if (sb_stopping())
			return false;
		uint64_t now = sb_now_ns();
		if (now >= due_ns)
			return true;
		uint64_t until = due_ns - now > 100000000ull ? now + 100000000ull : due_ns;
		struct timespec ts = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
		int r;
		do
			r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (r == EINTR && !sb_stopping());
	}
}

void sb_think(const struct sb_jobspec *s, uint64_t now_ns)
{
	uint64_t spin = s->thinktime_spin_us * 1000ull, total = s->thinktime_us * 1000ull;
	if (spin > total)
		spin = total;
	if (spin)
		while (sb_now_ns() < now_ns + spin && !sb_stopping())
			;
	if (total > spin)
		sb_sleep_until(now_ns + total);
}

/* fio's thinktime: think when thinktime_blocks I/Os (completed, or issued
 * with thinktime_blocks_type=issue: completed plus the change in flight)
 * were done since the last think, or when thinktime_iotime + thinktime
 * passed since the last think began (the first: since the job's first
 * completion), whichever comes first; thinktime_iotime alone thinks on time
 * only.  rate_ignore_thinktime moves the rate schedule by the time spent
 * thinking, so the job does not catch up afterwards. */
void sb_think_after(struct sb_thread *t, struct sb_loopstate *ls, unsigned n)
{
	const struct sb_jobspec *s = t->spec;
	bool stall = false;
	ls->think_n += n;
	if (s->thinktime_iotime_us) {
		if (!ls->think_last)
			ls->think_last = ls->now;
		if (ls->now - ls->think_last >= (s->thinktime_iotime_us + s->thinktime_us) * 1000ull)
			stall = true;
		else if (s->think_time_only)
			return;
	}
	uint64_t done = ls->think_n;
	if (s->thinktime_blocks_type)
		done = done + ls->inflight - ls->think_inflight;
	if (done >= s->thinktime_blocks)
		stall = true;
	if (!stall)
		return;
	uint64_t t0 = ls->now;
	sb_think(s, t0);
	ls->now = sb_now_ns();
	if (s->rate_ignore_thinktime && t->rate.on)
		for (int d = 0; d < SB_DDIR_N; d++)
			t->rate.due[d] += (double)(ls->now - t0);
	ls->think_n = 0;
	ls->think_inflight = ls->inflight;
	ls->think_last = t0;
}
