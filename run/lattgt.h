/* lattgt.h: fio's latency_target search (latency_target, latency_window,
 * latency_percentile, latency_run).  The job starts at queue depth 1 and
 * doubles it after each window in which latency_percentile % of the I/Os
 * met latency_target; a missed window halves the way back to the last good
 * depth (and drains what is in flight), after which it bisects.  When a
 * window repeats the depth before it, the depth is found: the statistics
 * start again (fio's reset), one more good window and the job ends
 * (latency_run=1: it goes on adjusting, the statistics cover the run).  With
 * latency_percentile=100 one late I/O is a miss at once, and at depth 1 it
 * ends the job with ETIMEDOUT, as in fio; below 100 a missed window at
 * depth 1 keeps depth 1 (fio 3.33 too).  Windows are judged after
 * ramp_time (I/Os during it are not counted).
 *
 * Cost.  Off, nothing: the late-I/O test is account()'s max_latency compare
 * (the threshold is the lower of the two), the window ends through the I/O
 * loop's wake time (run/flowctl.h) and the async loop reads the depth once
 * per fill/reap round. */
#ifndef SB_LATTGT_H
#define SB_LATTGT_H
#include <stdbool.h>
#include <stdint.h>

struct sb_lattgt {
	bool on;
	bool end_run;       /* the depth repeated: this window confirms it */
	bool quiesce;       /* ramped down: drain, then a new window */
	bool reset;         /* with quiesce: the statistics start again after the drain */
	bool done;          /* confirmed: the job ends */
	unsigned qd;        /* the depth in use */
	unsigned lo, hi, max;
	double pct;
	uint64_t target_ns, window_ns, win_end;
	uint64_t ios0, failed;  /* the window's start count, its late I/Os */
};

struct sb_thread;
struct sb_loopstate;
struct sb_jobspec;
/* at the loop's start: off unless latency_target is set */
void sb_lat_init(struct sb_lattgt *l, const struct sb_jobspec *s, unsigned iodepth, uint64_t now);
/* an I/O took lat ns, over the lower of latency_target and max_latency:
 * true when the job must end with ETIMEDOUT (*why: the reason for
 * latency_target, left alone for max_latency) */
bool sb_lat_late(struct sb_thread *t, uint64_t lat, uint64_t now, const char **why);
/* the async loop, once per round (after a ramp-down's drain): the depth */
unsigned sb_lat_depth(struct sb_thread *t, struct sb_loopstate *ls);
/* ls->now >= win_end: judge the window; false when the job ends here */
bool sb_lat_tick(struct sb_thread *t, struct sb_loopstate *ls);
#endif
