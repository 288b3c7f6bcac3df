/* run.h: run parsed jobs and produce the results model. */
#ifndef SB_RUN_H
#define SB_RUN_H
#include <stdio.h>

#include "lib/stop.h"
#include "parse/jobspec.h"
#include "stats/monitor.h"
#include "stats/results.h"

/* The process state a run reads, owned by main and passed down (there are
 * no setters or globals for it).  NULL for an env means the defaults: the
 * system's own /sys and /proc, no interim results, progress line automatic. */
struct sb_run_env {
	const char *sysroot;          /* fixture root prefixed to /sys, /proc paths; NULL or "" = none */
	const char *drop_caches;      /* written "1" to drop the page cache; NULL = /proc/sys/vm/drop_caches */
	struct sb_mon_opts opts;      /* what the run shows as it goes (stats/monitor.h) */
	/* a sweep decides at its end what stays: until then, files its runs
	 * create keep the mark of a run in progress (a killed sweep's files are
	 * leftovers for --cleanup).  Set by sweep/ on its runs, never by main. */
	bool defer_keep;
	/* --output=FILE (NULL: stdout): the plan refuses it when it names a
	 * data file of the run (run/outpaths.c) */
	const char *output;
};
/* env's drop-caches path (the default when env or the path is NULL) */
const char *sb_run_drop_path(const struct sb_run_env *env);

/* Run every job of jl (groups in order, stonewall/wait_for honoured), then
 * fill res.  Returns 0, or a negative errno when setup failed before any I/O
 * (the reason has been reported with sb_err).  I/O errors during the run are
 * not a failure here: they are in res->jobs[i].error.  SIGINT/SIGTERM are
 * main's: its handler calls sb_stop_request. */
int sb_run(const struct sb_joblist *jl, const struct sb_run_env *env, struct sb_results *res);
/* The checks sb_run makes before its first I/O (engines, log files, ML
 * jobs, file plan: free space, devices, O_DIRECT alignment; I/O regions,
 * engine start-up), and nothing else: no file is created.  0, or -errno
 * with the reason reported.  A sweep runs it for every point first. */
int sb_run_check(const struct sb_joblist *jl, const struct sb_run_env *env);
/* fio's note, on stderr, for each job whose engine caps its iodepth (a
 * synchronous engine runs one I/O at a time); rank 0 only, none for a sweep */
void sb_run_depth_notes(const struct sb_joblist *jl);

/* the stop flag: lib/stop.h (sb_stop_request, sb_stopping, sb_stop_clear) */
#endif
