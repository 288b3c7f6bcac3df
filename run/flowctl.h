/* flowctl.h: the job controls that are judged off the per-I/O path: fio's
 * flow (a token counter shared by the jobs of one flow_id), rate_min and
 * rate_iops_min, steady state (steadystate/ss_dur/ss_ramp) and exitall.
 *
 * Cost.  The I/O loop's keep-going test compares the latest timestamp with
 * ls->wake, as it compared it with the runtime deadline before; wake is the
 * deadline unless a control needs a look sooner, and sb_ctl_tick (cold)
 * runs only when wake has passed.  flow is checked where rate limits wait
 * (only when a rate or flow is set).  So a job without these options runs
 * exactly the loop it ran before. */
#ifndef SB_FLOWCTL_H
#define SB_FLOWCTL_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "parse/jobspec.h"
#include "stats/steady.h"

/* one flow_id's shared counter: the I/Os of all its jobs.  Updated with a
 * relaxed atomic add, no lock (fio: the count may be a little stale) */
struct sb_flow {
	unsigned id;
	_Atomic unsigned total_weight; /* sum of the flow= weights of its running threads */
	_Atomic uint64_t ios;
};

/* what a run's threads share (one per run, in run.c's struct run) */
struct sb_runctl {
	_Atomic int exitall;          /* a job with exitall ended: stop the group's others */
	bool exitall_used;            /* some job of the run has exitall or exitall_on_error */
	_Atomic int exit_rest;        /* exit_what=all: run no later group */
	struct sb_flow *flows;
	unsigned nflows;
};

/* per thread */
struct sb_ctl {
	struct sb_runctl *run;
	struct sb_flow *flow;         /* NULL: flow=0 */
	uint64_t flow_ios;            /* this thread's I/Os counted in the flow */
	/* rate_min / rate_iops_min: fio's check, every rate_cycle after a 2 s
	 * settling time */
	bool rm_on, rm_armed;
	uint64_t rm_settle_ns, rm_last_ns;
	uint64_t rm_bytes[SB_DDIR_N], rm_ios[SB_DDIR_N];
	/* steady state */
	struct sb_steady *ss;         /* NULL: off */
	uint64_t ss_next_ns, ss_last_ns, ss_ios, ss_bytes;
	bool ss_started;
	bool ss_stop;                 /* attained: the job ended there */
	char msg[160];                /* why a control failed the job (formatted once) */
};

/* Run-wide: flows for the threads' flow_ids and the exitall flag.  0 or
 * -ENOMEM. */
struct sb_thread;
int sb_runctl_setup(struct sb_runctl *rc, struct sb_thread *th, unsigned n);
void sb_runctl_free(struct sb_runctl *rc);
/* Per thread (after its spec is set): steady-state window; 0 or -ENOMEM */
int sb_ctl_setup(struct sb_thread *t);
void sb_ctl_free(struct sb_ctl *c);

struct sb_loopstate;
/* At the start of the I/O loop (ls->deadline set): the first wake time. */
void sb_ctl_arm(struct sb_thread *t, struct sb_loopstate *ls);
/* ls->now >= ls->wake: the deadline, exitall, rate_min and steady state.
 * Returns false when the job is to stop; sets the next ls->wake. */
bool sb_ctl_tick(struct sb_thread *t, struct sb_loopstate *ls);
/* The thread is ahead of its flow share: wait (flow_sleep, or yield) and
 * return false; else count the I/O in the flow and return true. */
bool sb_ctl_flow_ok(struct sb_thread *t);
/* The thread has ended: exitall / exitall_on_error. */
void sb_ctl_thread_done(struct sb_thread *t);
#endif
