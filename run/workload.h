/* workload.h: the workload interface (workload= of a job).  A workload is a
 * const struct of hooks, as an engine is (engines/engine.h); run/ drives it
 * and never looks inside.  One folder per workload (ml/<workload>/), one row
 * in ml/registry.c's table, which main hands down; the name is the
 * workload= value (parse/workloads.h makes the values from the rows), the
 * row's position in the table its id (the spec's workload; io is 0).
 *
 * For the parser (copied into parse/workloads.h's rows at hand-down): its
 * help line, option rows and options struct, its check (check.c), and the
 * properties the generic checks ask instead of naming a workload: the
 * option category that is its own, the other options its jobs take too
 * (also), and parse_flags (SB_PWL_*: creates its data set, writes
 * num_checkpoints_write= checkpoints, moves checkpoints through GPU memory).
 *
 * Two kinds:
 *   SB_WL_THREADS (io): run/ itself lays out the job's files
 *     (run/files.c), checks it with validate before any file is created,
 *     and runs it as its I/O threads, started with its group and joined at
 *     the group's end.  The per-job hooks below are NULL.
 *   the others (checkpoint, train, kvcache): run/ hands each job to the hooks as a
 *     struct sb_wl_job (run/wljob.h), whose workers are bare I/O threads:
 *       prepare(j)      before any I/O (also for sb_run_check, so it creates
 *                       nothing): checks (file system, space, engine) and
 *                       sets up j->workers and j->priv; -errno, reported
 *       run(j)          at its group's turn, in the run's own thread while the
 *                       group's I/O threads run (a group's jobs one after the
 *                       other, in job-file order); returns when done or
 *                       stopped (sb_stopping)
 *       datagen(j)      --datagen, instead of run: create the job's data set
 *                       (NULL: the workload has none; the job only reports)
 *       results(j, jr)  fill the job's result from its workers and j->res
 *                       (the workload's own result: a struct that starts
 *                       with struct sb_wl_result, whose figures row writes
 *                       it; ML ones read through typed accessors that
 *                       check the result's maker, ml/result.h)
 *       release(j)      remove what it created and does not keep, free priv
 *                       (also after a failed prepare)
 *       ranks_merge(jr) MPI, collective on every process after the run:
 *                       make rank 0's jr the whole run's (NULL: nothing
 *                       to merge beyond the I/O statistics)
 * folders(s, dirs, max) for either kind: the folders the system inventory
 * describes for a job (stats/sysinv.h): up to max ':'-separated lists in
 * dirs, their count returned (io: directory; a workload: the folders its
 * files go to); NULL: none.
 * validate may be set for either kind: checks of one job that need its
 * engine and its planned files (jf: NULL for workloads that lay out their
 * own), before any file is created; -errno, reported.
 *
 * The table is main's (ml/registry.c), handed down with sb_workloads_set
 * as the engine table is: run/ never names a workload of ml/. */
#ifndef SB_WORKLOAD_H
#define SB_WORKLOAD_H
#include "engines/engine.h"
#include "parse/jobspec.h"
#include "parse/workloads.h"
#include "stats/results.h"

struct sb_wl_job;
struct sb_jobfiles;
struct sb_job_result;
struct sb_jobctx;
struct sb_option;

#define SB_WL_THREADS 1u /* run as run/'s I/O threads over run/'s file layout */

/* What the workload conformance suite (t/integration/test_workloads.py,
 * t/unit/test_workload.c; HOWTO section 11) needs to run a workload without
 * naming it; `storbench --workload-conformance` prints it for every row.
 * Job-file lines are "option=value" lines joined by '\n', written after
 * the suite's own [section], workload=, ioengine= and directory= (a fresh
 * folder: everything the job makes must be under it). */
struct sb_wl_conformance {
	const char *quick;      /* a run of well under a second, on any engine */
	const char *endless;    /* added to quick: runs for minutes unless stopped
				 * (the suite adds runtime=, or sends SIGINT) */
	const char *keep;       /* added to quick: keeps what it made (NULL: it
				 * keeps nothing whatever it is told) */
	const char *tidy;       /* added to every run: what makes it remove all it
				 * made (NULL: it does by default) */
	const char *kept;       /* what it keeps on purpose unasked, marked kept (a
				 * path pattern under the folder: train's dataset;
				 * NULL: nothing) */
	const char *sweep_opt;  /* one of its options, and two values for */
	const char *sweep_a;    /* sweep.OPTION = A | B */
	const char *sweep_b;
	const char *json_key;   /* its member of the job's JSON object */
	const char *normal;     /* text that starts its block of normal output */
};

struct sb_workload_ops {
	const char *name;         /* workload= value; its id (the spec's workload) is
				   * its position in main's table (sb_workload_id) */
	unsigned flags;           /* SB_WL_THREADS or 0 */
	/* for the parser (handed down as parse/workloads.h rows): a line of
	 * help, its option rows and its parse-time check (NULL for io, whose
	 * rows and checks are parse's own) */
	const char *help;
	const struct sb_option *rows;
	const unsigned *nrows;
	size_t opts_size;         /* bytes of its own options struct, the rows' offsets
				   * into it (sb_spec_wl_opts); 0: rows into the spec */
	unsigned category;        /* SB_CAT_* of its rows into the spec (0: none) */
	const char *const *also;  /* options of parse's or another workload's it takes
				   * too (NULL-terminated names) */
	unsigned parse_flags;     /* what the generic checks ask of it: SB_PWL_* */
	unsigned (*check)(struct sb_jobctx *c);
	unsigned (*folders)(const struct sb_jobspec *s, const char **dirs, unsigned max);
	/* --readonly: the option that makes a job write, why and the fix;
	 * the option that puts its data in GPU memory (parse/workloads.h) */
	const struct sb_option *(*writes)(const struct sb_jobspec *s, const char **why,
					  const char **fix);
	const struct sb_option *(*gpu_mem)(const struct sb_jobspec *s);
	int (*validate)(const struct sb_jobspec *s, const struct sb_engine_ops *ops,
			const struct sb_jobfiles *jf);
	int (*prepare)(struct sb_wl_job *j);
	void (*run)(struct sb_wl_job *j);
	int (*datagen)(struct sb_wl_job *j);
	void (*results)(struct sb_wl_job *j, struct sb_job_result *jr);
	void (*release)(struct sb_wl_job *j);
	int (*ranks_merge)(struct sb_job_result *jr);
	const struct sb_wl_conformance *conformance; /* required: what the suite runs */
};

/* the io row (run/precheck.c): run/'s own, first in every table */
extern const struct sb_workload_ops sb_workload_io;
/* main hands the table down (NULL-terminated, the io row first; a row's
 * position is its id); before it does, or with NULL, the table is empty
 * and nothing may run (every entry point hands it down first) */
void sb_workloads_set(const struct sb_workload_ops *const *table);
const struct sb_workload_ops *const *sb_workloads_get(void);
/* The row of workload id, or NULL. */
const struct sb_workload_ops *sb_workload_find(unsigned id);
/* The id of row w (its position in the table), or UINT_MAX when w is not
 * in it. */
unsigned sb_workload_id(const struct sb_workload_ops *w);
/* The row of s's workload (parsing accepted only listed ones; else the
 * table's first, io). */
const struct sb_workload_ops *sb_workload_of(const struct sb_jobspec *s);
#endif
