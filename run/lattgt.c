/* lattgt.c: fio's latency_target queue-depth search (see lattgt.h).  Runs
 * on the I/O thread, at window ends and on late I/Os only. */
#include <string.h>

#include "run/lattgt.h"
#include "run/ioloop.h"
#include "run/thread.h"

void sb_lat_init(struct sb_lattgt *l, const struct sb_jobspec *s, unsigned iodepth, uint64_t now)
{
	*l = (struct sb_lattgt){ 0 };
	if (!s->latency_target_us)
		return;
	l->on = true;
	l->qd = l->lo = 1;
	l->hi = l->max = iodepth ? iodepth : 1;
	l->pct = s->latency_percentile;
	l->target_ns = s->latency_target_us * 1000;
	l->window_ns = s->latency_window_us * 1000;
	l->win_end = now + l->window_ns;
}

static uint64_t ios_done(const struct sb_thread *t)
{
	uint64_t n = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		n += t->st->total_ios[d];
	return n;
}

static void new_cycle(struct sb_thread *t, uint64_t now)
{
	struct sb_lattgt *l = &t->lt;
	l->win_end = now + l->window_ns;
	l->ios0 = ios_done(t);
	l->failed = 0;
}

/* a missed window: back towards the last good depth; false at depth 1 */
static bool ramp_down(struct sb_thread *t, uint64_t now)
{
	struct sb_lattgt *l = &t->lt;
	if (l->qd == 1)
		return false;
	l->hi = l->qd;
	if (l->qd == l->lo)
		l->lo--;
	l->qd = (l->qd + l->lo) / 2;
	l->quiesce = true; /* the loop drains, then calls new_cycle */
	new_cycle(t, now);
	return true;
}

/* the depth is found: as fio, the statistics start again for the final
 * window(s), nothing in flight.  Only what the I/O thread owns is reset; the
 * stats thread restarts its bw/iops windows when the live counters go back
 * (stats/statsthread.c), its samples so far stay. */
static void reset_stats(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_tstats *st = t->st;
	if (!ls->counting)
		return; /* still in ramp_time: nothing counted yet */
	for (int d = 0; d < SB_DDIR_N; d++) {
		st->io_bytes[d] = st->total_ios[d] = st->short_ios[d] = st->drop_ios[d] = 0;
		atomic_store_explicit(&st->live_bytes[d], 0, memory_order_relaxed);
		atomic_store_explicit(&st->live_ios[d], 0, memory_order_relaxed);
		sb_stat_init(&st->slat[d]);
		sb_stat_init(&st->clat[d]);
		sb_stat_init(&st->lat[d]);
		memset(&st->live_h->slat_h[d], 0, sizeof(st->live_h->slat_h[d]));
		memset(&st->live_h->clat_h[d], 0, sizeof(st->live_h->clat_h[d]));
		memset(&st->live_h->lat_h[d], 0, sizeof(st->live_h->lat_h[d]));
	}
	for (int d = 0; d < SB_PRIO_DIRS; d++)
		for (unsigned i = 0; i < st->nprio[d]; i++) {
			sb_stat_init(&st->prio[d][i].s);
			memset(&st->live_h->prio_h[d][i], 0, sizeof(st->live_h->prio_h[d][i]));
		}
	sb_stat_init(&st->sync_lat);
	memset(&st->live_h->sync_h, 0, sizeof(st->live_h->sync_h));
	memset(st->iodepth_level, 0, sizeof(st->iodepth_level));
	memset(st->iodepth_submit, 0, sizeof(st->iodepth_submit));
	memset(st->iodepth_complete, 0, sizeof(st->iodepth_complete));
	sb_ioloop_begin_counting(t, ls, ls->now); /* job_runtime, CPU from here */
}

/* a good window: double until the first miss, then bisect */
static void ramp_up(struct sb_thread *t, struct sb_loopstate *ls)
{
	uint64_t now = ls->now;
	struct sb_lattgt *l = &t->lt;
	unsigned old = l->qd;
	l->lo = l->qd;
	if (l->hi != l->max)
		l->qd = (l->qd + l->hi) / 2;
	else
		l->qd *= 2;
	if (l->qd > l->max)
		l->qd = l->max;
	if (l->qd == old && !t->spec->latency_run) {
		if (l->end_run) {
			l->done = true;
		} else if (ls->inflight) { /* async: sb_lat_depth resets after the drain */
			l->quiesce = l->reset = true;
		} else {
			reset_stats(t, ls);
		}
		l->end_run = true;
	}
	new_cycle(t, now);
}

bool sb_lat_late(struct sb_thread *t, uint64_t lat, uint64_t now, const char **why)
{
	struct sb_lattgt *l = &t->lt;
	uint64_t max = t->spec->max_latency_us * 1000;
	if (max && lat > max)
		return true; /* max_latency's own error */
	if (lat <= l->target_ns)
		return false;
	if (l->pct < 100.0) {
		l->failed++;
		return false;
	}
	if (l->quiesce || ramp_down(t, now))
		return false;
	*why = "latency_target missed at queue depth 1";
	return true;
}

unsigned sb_lat_depth(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_lattgt *l = &t->lt;
	if (l->quiesce) { /* drained: the next window starts now */
		l->quiesce = false;
		if (l->reset)
			reset_stats(t, ls);
		l->reset = false;
		new_cycle(t, ls->now);
		ls->wake = ls->now; /* sb_ctl_tick sets the next wake with it */
	}
	return l->qd;
}

bool sb_lat_tick(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_lattgt *l = &t->lt;
	if (l->quiesce || ls->now < l->win_end)
		return !l->done;
	uint64_t ios = ios_done(t) - l->ios0;
	if (!ios) {
		new_cycle(t, ls->now);
		return true;
	}
	double met = 100.0 - (double)l->failed * 100.0 / (double)ios;
	if (met >= l->pct)
		ramp_up(t, ls);
	else if (!ramp_down(t, ls->now))
		new_cycle(t, ls->now); /* depth 1 misses: stay there (fio) */
	return !l->done;
}
