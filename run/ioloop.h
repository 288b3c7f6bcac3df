/* ioloop.h: the per-I/O path of a job thread: generate, rate-limit, queue,
 * commit, reap, time and count.  One loop for engines that complete in
 * queue() (sync, psync, null), one for engines that queue (libaio,
 * io_uring), both behind sb_ioloop_run. */
#ifndef SB_IOLOOP_H
#define SB_IOLOOP_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "run/thread.h"

struct sb_loopstate {
	uint64_t now;          /* the latest timestamp taken */
	uint64_t ramp_end;     /* counting starts at this time */
	uint64_t deadline;     /* runtime= end; UINT64_MAX = none */
	uint64_t wake;         /* deadline, or sooner when a control needs a look
				* (run/flowctl.h: sb_ctl_tick) */
	bool counting;
	bool stop;             /* an error: finish what is in flight and stop */
	unsigned inflight;
	unsigned think_n;      /* I/Os since the last think time */
	unsigned think_inflight; /* in flight when the last think time ended */
	uint64_t think_last;   /* when the last think time began (0: not yet) */
};
/* thinktime after n completions at ls->now (run/rate.c): thinktime_blocks
 * (of completed or issued I/Os), thinktime_iotime, rate_ignore_thinktime */
void sb_think_after(struct sb_thread *t, struct sb_loopstate *ls, unsigned n);

/* Run the workload until it is complete, runtime is over, an I/O failed or
 * the run is being stopped.  Leaves nothing in flight. */
void sb_ioloop_run(struct sb_thread *t, struct sb_loopstate *ls);
/* io_submit_mode=offload's job thread (run/offload.c): the loop's steps
 * (the deadline and controls, the rate wait, accounting a completion at
 * ls->now, what follows completions) */
bool sb_ioloop_go(struct sb_thread *t, struct sb_loopstate *ls);
bool sb_ioloop_rate(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io);
void sb_ioloop_done(struct sb_thread *t, struct sb_loopstate *ls, struct sb_io_u *io);
void sb_ioloop_after(struct sb_thread *t, struct sb_loopstate *ls, unsigned n);
/* end_fsync=1: fsync every file through the engine. */
void sb_ioloop_end_fsync(struct sb_thread *t, struct sb_loopstate *ls);
/* Move exactly the bytes [offset, offset + len) of f in direction ddir
 * (READ or WRITE) in order, t->spec's bs per I/O and a shorter last one,
 * through t's engine with its iodepth, rate and accounting (always
 * counted); then fsync f when fsync_after (timed as sync_lat).  f must be
 * open for the engine.  Returns 0, -EINTR when the run is being stopped, or
 * -errno of the first I/O error (also in t->st). */
int sb_ioloop_span(struct sb_thread *t, struct sb_file *f, int ddir, uint64_t offset, uint64_t len,
		   bool fsync_after);
/* The same with requests of bs bytes (bs <= the buffers' size, t->spec's
 * bs_hi): checkpoint_io=torch issues a file's writes one span each. */
int sb_ioloop_span_bs(struct sb_thread *t, struct sb_file *f, int ddir, uint64_t offset, uint64_t len,
		      uint64_t bs, bool fsync_after);
/* After the loop: copy the failed file's path into t->st->err (the loop
 * stores only its index). */
void sb_ioloop_error_path(struct sb_thread *t);
/* Switch to the counted phase at time now (end of ramp_time); inline so
 * that run/lattgt.c and the loop share it without a circle. */
static inline void sb_ioloop_begin_counting(struct sb_thread *t, struct sb_loopstate *ls, uint64_t now)
{
	ls->counting = true;
	getrusage(RUSAGE_THREAD, &t->ru0);
	atomic_store_explicit(&t->count_start_ns, now, memory_order_relaxed);
	atomic_store_explicit(&t->phase, SB_PH_RUN, memory_order_release);
}
#endif
