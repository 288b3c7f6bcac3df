/* run.h: run parsed jobs and produce the results model. */
#ifndef SB_RUN_H
#define SB_RUN_H
#include "parse/jobspec.h"
#include "stats/results.h"

/* Run every job of jl (groups in order, stonewall/wait_for honoured), then
 * fill res.  Returns 0, or a negative errno when setup failed before any I/O
 * (the reason has been reported with sb_err).  I/O errors during the run are
 * not a failure here: they are in res->jobs[i].error. */
int sb_run(const struct sb_joblist *jl, struct sb_results *res);
/* Ask a running sb_run to stop (async-signal-safe). */
void sb_run_request_stop(void);
#endif
