/* wljob.h: the jobs of the workloads with per-job hooks (run/workload.h:
 * checkpoint, train, kvcache) inside sb_run.  run.c calls these, each of
 * which dispatches to the job's workload row: sb_wl_prepare before any I/O
 * (checks the file system, sets up the engines), sb_wl_run_group at each
 * group's turn, sb_wl_collect after sb_collect (fills the jobs' results),
 * sb_wl_release.  run/ knows a workload only through its row. */
#ifndef SB_RUN_WLJOB_H
#define SB_RUN_WLJOB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"
#include "run/thread.h"
#include "run/workload.h"
#include "parse/jobspec.h"
#include "stats/results.h"

struct sb_trace_ring;

#define SB_WLJOB_RINGS 257     /* the job's thread + up to 256 consumers */

struct sb_wl_job {
	const struct sb_jobspec *spec;
	const struct sb_workload_ops *wl;  /* its workload's row */
	const struct sb_run_env *env;      /* main's (drop-caches path) */
	struct sb_jobspec wspec;          /* the workers' spec (shallow copy) */
	const struct sb_engine_ops *ops;
	size_t job;                       /* index in the joblist */
	bool nodiskio;                    /* ioengine=null: no files at all */
	bool objects;                     /* ioengine=s3: objects, no local files */
	struct sb_thread *workers;        /* ranks (checkpoint), readers (train) */
	unsigned nworkers;
	struct sb_wl_result *res;         /* the workload's result (made by its prepare),
					   * moved into the job's result */
	uint64_t start_ns, end_ns;
	bool ran;
	void *priv;                       /* the workload's own state */
	/* write_trace= rings of application events (stats/trace.h),
	 * made on first use: [0] the job's own thread (epochs), [1 + c]
	 * consumer c (training steps) */
	struct sb_trace_ring *trace[SB_WLJOB_RINGS];
	uint64_t worker_bs;               /* nonzero: the workers' bs, both directions
					   * (checkpoint_io=torch: the largest request) */
	uint64_t deadline_ns;             /* runtime=: the job's end (sb_now_ns; set
					   * before run, 0: none), see sb_wl_expired */
};

/* the job touches no local files: no storage (null) or objects (s3): no
 * folders made, no free space or page cache of a local file system */
static inline bool sb_wl_nofiles(const struct sb_wl_job *j)
{
	return j->nodiskio || j->objects;
}

struct sb_wl_runs {
	struct sb_wl_job *jobs;
	size_t n;
};

/* run.c's calls.  prepare: NULL *out when there is no ML job; errors are
 * reported (file system, engine) and returned as -errno before any I/O. */
int sb_wl_prepare(const struct sb_joblist *jl, const struct sb_run_env *env,
		  const struct sb_engine_ops *const *ops, struct sb_wl_runs **out);
void sb_wl_run_group(struct sb_wl_runs *r, unsigned groupid);
/* runtime= of a workload job: its deadline has passed; a workload's run
 * looks at each of its boundaries (a checkpoint, an epoch) and stops
 * there, as at a stop request, but with its results whole */
bool sb_wl_expired(const struct sb_wl_job *j);
int sb_wl_collect(struct sb_wl_runs *r, struct sb_results *res);
void sb_wl_release(struct sb_wl_runs *r, bool failed);
/* --datagen: create the datasets of the train jobs, run nothing else; res
 * holds a result per train job (dataset figures only). */
int sb_wl_datagen(const struct sb_joblist *jl, const struct sb_run_env *env,
		  struct sb_results *res);

#endif
