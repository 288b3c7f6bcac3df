/* run.h: run parsed jobs and produce the results model. */
#ifndef SB_RUN_H
#define SB_RUN_H
#include <stdio.h>

#include "parse/jobspec.h"
#include "stats/results.h"

/* Run every job of jl (groups in order, stonewall/wait_for honoured), then
 * fill res.  Returns 0, or a negative errno when setup failed before any I/O
 * (the reason has been reported with sb_err).  I/O errors during the run are
 * not a failure here: they are in res->jobs[i].error. */
int sb_run(const struct sb_joblist *jl, struct sb_results *res);
/* The checks sb_run makes before its first I/O (engines, log files, ML
 * jobs, file plan: free space, devices, O_DIRECT alignment; I/O regions,
 * engine start-up), and nothing else: no file is created.  0, or -errno
 * with the reason reported.  A sweep runs it for every point first. */
int sb_run_check(const struct sb_joblist *jl);
/* What a run shows while it goes on (set once by main; applies to every
 * later sb_run).  Defaults: no interim results, progress line automatic. */
struct sb_run_opts {
	unsigned status_interval_ms;  /* --status-interval: interim results; 0 = off */
	FILE *interim_out;            /* normal-format interim results go here; NULL = none */
	bool interim_json;            /* keep interim snapshots in sb_results.interim */
	int progress;                 /* status line on stderr: -1 auto (a terminal), 0, 1 */
};
void sb_run_set_opts(const struct sb_run_opts *o);

/* Ask a running sb_run to stop (async-signal-safe).  The request stands
 * until sb_run_clear_stop(): a Ctrl-C that lands between two runs of a sweep
 * stops the next one too. */
void sb_run_request_stop(void);
void sb_run_clear_stop(void);
#endif
