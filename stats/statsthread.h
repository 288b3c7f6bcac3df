/* statsthread.h: the stats thread.  Every bwavgtime (bandwidth) and
 * iopsavgtime (IOPS) ms of the job (fio's names; default 500 ms), rounded up
 * to its wakeups, it reads each running job thread's live counters (relaxed
 * loads) and records a bandwidth (KiB/s) and an IOPS sample per direction
 * into the thread's bw_samples / iops_samples.  It sees the threads only through their
 * stats-facing views (stats/tview.h) and only reads I/O-thread state.
 *
 * Extension point: tick(), if set, is called on the stats thread at every
 * wakeup (every tick_ms, default SB_STATS_TICK_MS) with the current CLOCK_MONOTONIC time, after
 * the samples of that wakeup were taken: time series and host counters hang
 * there. */
#ifndef SB_STATSTHREAD_H
#define SB_STATSTHREAD_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/tview.h"

#define SB_STATS_SAMPLE_MS 500
#define SB_STATS_TICK_MS 50

struct sb_statsthread {
	struct sb_tview *threads;
	unsigned nthreads;
	void (*tick)(void *arg, uint64_t now_ns);  /* may be NULL */
	void *tick_arg;
	atomic_bool quit;
	pthread_mutex_t lock;  /* with wake: stop() interrupts the sleep at once */
	pthread_cond_t wake;
	pthread_t tid;
	bool running;
	unsigned tick_ms;             /* wakeup period; 0 = SB_STATS_TICK_MS */
};

/* Start sampling threads[0..n).  Returns 0 or -errno. */
int sb_statsthread_start(struct sb_statsthread *s, struct sb_tview *threads, unsigned n);
/* Stop and join; after it returns the samples are final. */
void sb_statsthread_stop(struct sb_statsthread *s);
/* One sampling pass at now_ns (what the thread does each tick; tests call it
 * directly). */
void sb_statsthread_sample(struct sb_statsthread *s, uint64_t now_ns);
#endif
