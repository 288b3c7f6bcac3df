/* offload.h: io_submit_mode=offload, fio's pool of submission threads
 * (fio-3.33 rate-submit.c, workqueue.c).  The job thread generates,
 * rate-limits and accounts its I/Os; iodepth workers, each with its own
 * engine instance at iodepth 1 and its own descriptors of the job's files,
 * queue them and wait for their completion.  Worker k runs io unit k of the
 * job thread (t->etd.ios[k]) and nothing else, so a free io unit is an idle
 * worker.  Locks and condition variables are used here: the inline loop
 * (run/ioloop.c) never calls into this file. */
#ifndef SB_OFFLOAD_H
#define SB_OFFLOAD_H
#include <stdbool.h>
#include <stdint.h>

#include "run/thread.h"

struct sb_offpool;

struct sb_loopstate;
/* The job thread's loop in offload mode (run/eachloop.c calls it in place of sb_ioloop_run). */
void sb_offload_run(struct sb_thread *t, struct sb_loopstate *ls);
/* Start one worker per io unit of t, each opening its copies of t's files
 * and starting its engine on its own thread; 0 or -errno (reported with
 * the job's name). */
int sb_offload_start(struct sb_thread *t, struct sb_offpool **pp);
/* Hand t->etd.ios[k] (free, filled, start_ns set) to worker k. */
void sb_offload_submit(struct sb_offpool *p, const struct sb_io_u *io);
/* Completed io units into out[] (result and issue_ns set), their
 * completion times into when[]; waits for one when wait.  The count. */
unsigned sb_offload_reap(struct sb_offpool *p, struct sb_io_u **out, uint64_t *when, bool wait);
/* Stop and join the workers (nothing may be in flight), release them. */
void sb_offload_stop(struct sb_offpool *p);
#endif
