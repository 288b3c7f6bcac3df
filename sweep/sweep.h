/* sweep.h: running a job file's sweep (parse/sweep.h): every point's jobs
 * through sb_run, each point repeated loops= times, with a sync (and with
 * drop_caches=1 a page-cache drop) before each repetition.  Files are laid
 * out once and reused by later points; the ones the sweep created are
 * removed at the end when the jobs asked for unlink=1. */
#ifndef SB_SWEEP_SWEEP_H
#define SB_SWEEP_SWEEP_H
#include <stdbool.h>

#include "run/run.h"
#include "parse/jobspec.h"
#include "stats/results.h"

/* Run jl->sweep's points into sr and fill res as the run's results model
 * (res->sweep = sr, no jobs of its own); env is main's (run/run.h; NULL: the
 * defaults) and each point's runs get it.  A stop request (main's
 * SIGINT/SIGTERM handler: sb_stop_request) stops the sweep: the
 * finished points stay in sr, res->interrupted is set.  Returns 0, or a
 * negative errno when a point could not be set up (reported with sb_err);
 * the points finished before it are still in sr. */
int sb_sweep_run(const struct sb_joblist *jl, const struct sb_run_env *env,
		 struct sb_sweep_results *sr, struct sb_results *res);
void sb_sweep_results_free(struct sb_sweep_results *sr);
/* What sb_sweep_run checks before its first point, and nothing else
 * (sb_run_check of every point: files, devices, space, engines, logs):
 * --parse-only's check of a sweep.  0 or -errno, reported. */
int sb_sweep_check(const struct sb_joblist *jl, const struct sb_run_env *env);
/* --parse-only: what the run would refuse before its first I/O, refused now
 * (the same file:line and fix), creating nothing: the file plan (what a
 * path is, a folder or an input file not there, free space, devices in
 * use), engines, logs, ML jobs; quiet when the jobs pass, as fio 3.33's
 * --parse-only.  job_mode (=job): what this machine lacks is a warning
 * (fio's --parse-only looks at no file), an error with warnings_fatal.
 * verbose: every job printed.  output: --output's file.  0 or -EINVAL. */
int sb_parse_only(const struct sb_joblist *jl, const char *output, bool job_mode, bool warnings_fatal,
		  bool verbose);
/* A job of some point ended with an I/O error. */
bool sb_sweep_had_errors(const struct sb_sweep_results *sr);

/* A finished repetition rep of pr (after its sb_run, with its timings set):
 * its summary goes into rep (dirs, error, dir[]), its jobs are merged into
 * pr->merged (the first repetition's become them) and its results are
 * released; pr->merged's groups are recomputed.  0 or -ENOMEM. */
int sb_sweep_fold_rep(struct sb_sweep_point_result *pr, struct sb_sweep_rep *rep);
/* From pr's folded repetitions and merged jobs: per-direction bw/IOPS
 * mean/min/max and clat p50/p99, dirs, error, time sums and score (by
 * metric). */
void sb_sweep_summarize(struct sb_sweep_point_result *pr, unsigned metric);
/* sr->best[d]: the error-free point with the best value of direction d by
 * sr->metric (bw, iops: highest; clat_p99: lowest); -1 if none moved d. */
void sb_sweep_pick_best(struct sb_sweep_results *sr);
#endif
