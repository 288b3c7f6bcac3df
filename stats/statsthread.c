/* statsthread.c: periodic bandwidth/IOPS samples of the job threads (see
 * statsthread.h). */
#include <errno.h>
#include <time.h>

#include "stats/statsthread.h"
#include "lib/timeutil.h"

/* one window of the bw (KiB/s, bwavgtime) or the iops (iopsavgtime)
 * samples: the counters' change since *last over the time since */
static void sample_window(struct sb_tview *t, uint64_t now, bool iops)
{
	struct sb_tstats *st = t->st;
	uint64_t *last = iops ? &t->smp_iops_last_ns : &t->smp_last_ns;
	unsigned ms = iops ? t->spec->iopsavgtime_ms : t->spec->bwavgtime_ms;
	uint64_t dt = now - *last;
	if (!dt || dt < ms * 1000000ull) /* 0 ms: every wakeup */
		return;
	double sec = (double)dt / 1e9;
	for (int d = 0; d < SB_DDIR_N; d++) {
		_Atomic uint64_t *live = iops ? &st->live_ios[d] : &st->live_bytes[d];
		uint64_t *prev = iops ? &t->smp_ios[d] : &t->smp_bytes[d];
		uint64_t v = atomic_load_explicit(live, memory_order_relaxed);
		if (v < *prev) /* the counters started again (latency_target, run/lattgt.c) */
			*prev = 0;
		if (sb_spec_does(t->spec, (enum sb_ddir)d)) {
			double delta = (double)(v - *prev) / (iops ? 1.0 : 1024.0);
			sb_stat_add(iops ? &st->iops_samples[d] : &st->bw_samples[d],
				    (uint64_t)(delta / sec + 0.5));
		}
		*prev = v;
	}
	*last = now;
}

static void sample_one(struct sb_tview *t, uint64_t now)
{
	int ph = atomic_load_explicit(t->phase, memory_order_acquire);
	if (ph != SB_PH_RUN)
		return;
	if (!t->smp_started) { /* counters start at 0 when counting starts */
		t->smp_started = true;
		t->smp_last_ns = atomic_load_explicit(t->count_start_ns, memory_order_relaxed);
		t->smp_iops_last_ns = t->smp_last_ns;
		for (int d = 0; d < SB_DDIR_N; d++)
			t->smp_bytes[d] = t->smp_ios[d] = 0;
	}
	sample_window(t, now, false);
	sample_window(t, now, true);
}

void sb_statsthread_sample(struct sb_statsthread *s, uint64_t now_ns)
{
	for (unsigned i = 0; i < s->nthreads; i++)
		sample_one(&s->threads[i], now_ns);
}

static void *stats_main(void *arg)
{
	struct sb_statsthread *s = arg;
	uint64_t next = sb_now_ns();
	uint64_t period = (s->tick_ms ? s->tick_ms : SB_STATS_TICK_MS) * 1000000ull;
	for (;;) {
		next += period;
		struct timespec ts = { (time_t)(next / 1000000000ull), (long)(next % 1000000000ull) };
		pthread_mutex_lock(&s->lock);
		int r = 0;
		while (!atomic_load_explicit(&s->quit, memory_order_relaxed) && r != ETIMEDOUT)
			r = pthread_cond_timedwait(&s->wake, &s->lock, &ts);
		pthread_mutex_unlock(&s->lock);
		if (atomic_load_explicit(&s->quit, memory_order_relaxed))
			break;
		/* the TSC against CLOCK_MONOTONIC, off the I/O path: a drift
		 * beyond tolerance turns the TSC off (lib/timeutil.h) */
		(void)sb_clock_guard();
		uint64_t now = sb_now_ns();
		sb_statsthread_sample(s, now);
		if (s->tick)
			s->tick(s->tick_arg, now);
	}
	return NULL;
}

int sb_statsthread_start(struct sb_statsthread *s, struct sb_tview *threads, unsigned n)
{
	s->threads = threads;
	s->nthreads = n;
	atomic_store(&s->quit, false);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&s->lock, NULL);
	int r = pthread_create(&s->tid, NULL, stats_main, s);
	s->running = r == 0;
	if (!s->running) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
	}
	return -r;
}

void sb_statsthread_stop(struct sb_statsthread *s)
{
	if (!s->running)
		return;
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->quit, true);
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->tid, NULL);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	s->running = false;
}
