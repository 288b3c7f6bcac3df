/* flowctl.c: flow, rate_min, steady state and exitall (see flowctl.h). */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/flowctl.h"
#include "run/lattgt.h"
#include "run/ioloop.h"
#include "run/thread.h"
#include "lib/timeutil.h"

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull
#define RM_SETTLE_NS (2 * NS_PER_S)     /* fio: no rate_min check in the first 2 s */
#define EXITALL_POLL_NS (10 * NS_PER_MS)

int sb_runctl_setup(struct sb_runctl *rc, struct sb_thread *th, unsigned n)
{
	memset(rc, 0, sizeof(*rc));
	atomic_init(&rc->exitall, 0);
	atomic_init(&rc->exit_rest, 0);
	unsigned nflow = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct sb_jobspec *s = th[i].spec;
		rc->exitall_used |= s->exitall || s->exitall_on_error;
		nflow += s->flow != 0;
	}
	if (nflow) {
		rc->flows = calloc(nflow, sizeof(*rc->flows));
		if (!rc->flows)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		struct sb_thread *t = &th[i];
		const struct sb_jobspec *s = t->spec;
		t->ctl.run = rc;
		if (!s->flow)
			continue;
		unsigned f = 0;
		while (f < rc->nflows && rc->flows[f].id != s->flow_id)
			f++;
		if (f == rc->nflows) {
			rc->flows[f].id = s->flow_id;
			atomic_init(&rc->flows[f].ios, 0);
			atomic_init(&rc->flows[f].total_weight, 0);
			rc->nflows++;
		}
		atomic_fetch_add_explicit(&rc->flows[f].total_weight, s->flow, memory_order_relaxed);
		t->ctl.flow = &rc->flows[f];
	}
	return 0;
}

void sb_runctl_free(struct sb_runctl *rc)
{
	free(rc->flows);
	rc->flows = NULL;
	rc->nflows = 0;
}

int sb_ctl_setup(struct sb_thread *t)
{
	const struct sb_jobspec *s = t->spec;
	struct sb_ctl *c = &t->ctl;
	for (int d = 0; d < SB_DDIR_N; d++)
		c->rm_on |= s->rate_min[d] || s->rate_iops_min[d];
	if (!s->ss_dur_us)
		return 0;
	c->ss = malloc(sizeof(*c->ss));
	if (!c->ss || sb_steady_init(c->ss, s->ss_kind, s->ss_pct, s->ss_limit,
				     (unsigned)(s->ss_dur_us / 1000000ull))) {
		free(c->ss);
		c->ss = NULL;
		return -ENOMEM;
	}
	return 0;
}

void sb_ctl_free(struct sb_ctl *c)
{
	if (c->ss)
		sb_steady_free(c->ss);
	free(c->ss);
	c->ss = NULL;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t next_wake(const struct sb_thread *t, const struct sb_loopstate *ls)
{
	const struct sb_ctl *c = &t->ctl;
	uint64_t w = ls->deadline;
	if (c->run && c->run->exitall_used)
		w = earliest(w, ls->now + EXITALL_POLL_NS);
	if (c->rm_on)
		w = earliest(w, ls->counting ? (c->rm_armed ? c->rm_last_ns +
						     (uint64_t)t->spec->ratecycle_ms * NS_PER_MS
							    : c->rm_settle_ns)
					     : ls->now + EXITALL_POLL_NS);
	if (c->ss && !c->ss_stop)
		w = earliest(w, c->ss_started ? c->ss_next_ns : ls->now + EXITALL_POLL_NS);
	if (t->lt.on)
		w = earliest(w, t->lt.win_end);
	return w;
}

void sb_ctl_arm(struct sb_thread *t, struct sb_loopstate *ls)
{
	t->ctl.rm_settle_ns = t->start_ns + RM_SETTLE_NS;
	ls->wake = next_wake(t, ls);
}

/* fio's check_min_rate: false when a direction fell below its minimum over
 * the last rate_cycle */
static bool rate_min_ok(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_ctl *c = &t->ctl;
	const struct sb_jobspec *s = t->spec;
	const struct sb_tstats *st = t->st;
	if (ls->now < c->rm_settle_ns)
		return true;
	if (c->rm_armed) {
		uint64_t spent = ls->now - c->rm_last_ns;
		if (spent < (uint64_t)s->ratecycle_ms * NS_PER_MS)
			return true;
		for (int d = 0; d < SB_DDIR_N; d++) {
			if (!s->rate_min[d] && !s->rate_iops_min[d])
				continue;
			uint64_t db = st->io_bytes[d] - c->rm_bytes[d];
			uint64_t di = st->total_ios[d] - c->rm_ios[d];
			uint64_t bps = (uint64_t)((double)db * 1e9 / (double)spent);
			uint64_t iops = (uint64_t)((double)di * 1e9 / (double)spent);
			if (s->rate_min[d] && bps < s->rate_min[d]) {
				snprintf(c->msg, sizeof(c->msg), "rate_min=%" PRIu64 "B/s not met, got %" PRIu64 "B/s",
					 s->rate_min[d], bps);
				return false;
			}
			if (s->rate_iops_min[d] && iops < s->rate_iops_min[d]) {
				snprintf(c->msg, sizeof(c->msg), "rate_iops_min=%" PRIu64 " not met, got %" PRIu64 " IOPS",
					 s->rate_iops_min[d], iops);
				return false;
			}
		}
	}
	c->rm_armed = true;
	c->rm_last_ns = ls->now;
	memcpy(c->rm_bytes, st->io_bytes, sizeof(c->rm_bytes));
	memcpy(c->rm_ios, st->total_ios, sizeof(c->rm_ios));
	return true;
}

/* one steady-state sample per second once counting + ss_ramp have passed;
 * true when the window is steady */
static bool steady(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_ctl *c = &t->ctl;
	const struct sb_tstats *st = t->st;
	uint64_t ios = 0, bytes = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		ios += st->total_ios[d];
		bytes += st->io_bytes[d];
	}
	if (!c->ss_started) {
		uint64_t from = atomic_load_explicit(&t->count_start_ns, memory_order_relaxed) +
				t->spec->ss_ramp_us * 1000ull;
		if (ls->now < from)
			return false;
		c->ss_started = true;
		c->ss_last_ns = ls->now;
		c->ss_next_ns = ls->now + NS_PER_S;
		c->ss_ios = ios;
		c->ss_bytes = bytes;
		return false;
	}
	if (ls->now < c->ss_next_ns)
		return false;
	double dt = (double)(ls->now - c->ss_last_ns);
	uint64_t si = (uint64_t)((double)(ios - c->ss_ios) * 1e9 / dt + 0.5);
	uint64_t sbw = (uint64_t)((double)(bytes - c->ss_bytes) * 1e9 / dt + 0.5);
	c->ss_last_ns = ls->now;
	c->ss_next_ns += NS_PER_S;
	if (c->ss_next_ns <= ls->now)
		c->ss_next_ns = ls->now + NS_PER_S;
	c->ss_ios = ios;
	c->ss_bytes = bytes;
	return sb_steady_add(c->ss, si, sbw);
}

bool sb_ctl_tick(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_ctl *c = &t->ctl;
	if (ls->now >= ls->deadline)
		return false;
	if (c->run && c->run->exitall_used &&
	    atomic_load_explicit(&c->run->exitall, memory_order_relaxed))
		return false;
	if (c->rm_on && ls->counting && !rate_min_ok(t, ls)) {
		ls->stop = true;
		sb_tstats_set_error(t->st, EIO, "check_min_rate:", c->msg);
		return false;
	}
	if (c->ss && !c->ss_stop && ls->counting && steady(t, ls)) {
		c->ss_stop = true;
		return false;
	}
	if (t->lt.on && !sb_lat_tick(t, ls))
		return false; /* latency_target: the depth is found and confirmed */
	ls->wake = next_wake(t, ls);
	return !ls->stop && !sb_stopping();
}

bool sb_ctl_flow_ok(struct sb_thread *t)
{
	struct sb_ctl *c = &t->ctl;
	struct sb_flow *f = c->flow;
	uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed);
	unsigned total = atomic_load_explicit(&f->total_weight, memory_order_relaxed);
	/* fio's test: this thread's share of the flow's I/Os against its share
	 * of the weights (of the threads still running) */
	if (c->flow_ios && (double)c->flow_ios * (double)total > (double)all * (double)t->spec->flow) {
		if (t->spec->flow_sleep_us)
			sb_sleep_until(sb_now_ns() + t->spec->flow_sleep_us * 1000ull);
		else
			sched_yield();
		return false;
	}
	c->flow_ios++;
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
	return true;
}

void sb_ctl_thread_done(struct sb_thread *t)
{
	const struct sb_jobspec *s = t->spec;
	struct sb_runctl *rc = t->ctl.run;
	if (!rc)
		return;
	if (t->ctl.flow) /* the others no longer wait for this one's share */
		atomic_fetch_sub_explicit(&t->ctl.flow->total_weight, s->flow, memory_order_relaxed);
	if (s->exitall || (s->exitall_on_error && t->st->error)) {
		atomic_store_explicit(&rc->exitall, 1, memory_order_relaxed);
		if (s->exit_what == SB_EXIT_ALL) /* fio: later groups do not start */
			atomic_store_explicit(&rc->exit_rest, 1, memory_order_relaxed);
	}
}
