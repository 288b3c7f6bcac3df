/* tview.h: the stats-facing view of one I/O thread: what the stats thread
 * and the monitor (stats/statsthread.h, stats/monitor.h) read of it, and
 * nothing of the runner's thread itself.  The runner fills one per thread
 * (run/thread.h: sb_thread_view) after setting the threads up; the pointers
 * stay valid until the threads are torn down.  The I/O thread writes what
 * they point to; the stats side only reads it (relaxed or acquire loads),
 * except smp_*, the stats thread's own sampling state. */
#ifndef SB_TVIEW_H
#define SB_TVIEW_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/jobspec.h"
#include "stats/ilat.h"
#include "stats/iolog.h"
#include "stats/tstats.h"

/* where an I/O thread is (its phase, stored with release order) */
enum sb_phase {
	SB_PH_IDLE = 0,   /* not started */
	SB_PH_RAMP,       /* running, not counted yet (ramp_time) */
	SB_PH_RUN,        /* counted */
	SB_PH_DONE,
};

struct sb_tview {
	const struct sb_jobspec *spec;
	size_t job;                        /* index in the joblist */
	struct sb_tstats *st;              /* live counters, samples */
	struct sb_ilat *ilat;              /* per-interval accumulators */
	struct sb_iolog_ring *logring;     /* per-I/O log ring, or NULL */
	const _Atomic int *phase;          /* enum sb_phase */
	const _Atomic uint64_t *count_start_ns;
	const uint64_t *start_ns, *end_ns; /* the thread's own start and end */
	uint64_t expect_bytes;             /* bytes it will move (0: unknown) */
	bool sync_engine;                  /* its engine completes at queue time */
	const char *const *paths;          /* its files' paths, by index (write_iolog) */
	unsigned npaths;
	/* the stats thread's private sampling state */
	uint64_t smp_last_ns;
	uint64_t smp_bytes[SB_DDIR_N], smp_ios[SB_DDIR_N];
	bool smp_started;
	uint64_t smp_iops_last_ns;         /* iops samples: their own window (iopsavgtime) */
};
#endif
