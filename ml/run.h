/* ml/run.h: what the ML workloads (checkpoint, train, kvcache) share: the
 * workers' setup, file open/close for the engine, errors, CPU time, cache
 * dropping, trace events, and their MPI merges.  run/wljob.h drives their
 * jobs (struct sb_wl_job) through their rows (run/workload.h).
 *
 * The I/O is done by "workers": struct sb_thread set up bare
 * (sb_thread_setup_bare) and driven with sb_ioloop_span, so the job's
 * engine, bs, iodepth, direct, rate and statistics apply exactly as for an
 * io job.  A rate= cap is the job's total: each of the n workers gets 1/n. */
#ifndef SB_ML_RUN_H
#define SB_ML_RUN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/ioloop.h"
#include "run/run.h"
#include "run/thread.h"
#include "run/workload.h"
#include "run/wljob.h"
#include "parse/jobspec.h"
#include "ml/result.h"
#include "stats/results.h"

/* ---- MPI (ml/mpimerge.c): the ML workloads across processes ---- */

/* Collective, every process, job by job after the run, first in each ML
 * workload's ranks_merge hook: 1 when the job's results are to be merged
 * (more than one process, and every process has its result), 0 when there
 * is nothing to merge, -EIO. */
int sb_ml_ranks_begin(struct sb_job_result *jr);
/* train: this process's accelerators are global ranks [*a0, *a0 + n) of *all */
void sb_ml_train_world(unsigned n, unsigned *a0, unsigned *all);

/* ---- shared by ml_ckpt.c and ml_trainrun.c ---- */

/* write_trace: an application event (cat "storbench") on j's ring k (see
 * struct sb_wl_job), from t0 to t1 (sb_now_ns); nothing without a trace. */
void sb_ml_trace_app(struct sb_wl_job *j, unsigned k, const char *name, const char *argname,
		     uint64_t arg, uint64_t t0, uint64_t t1);

/* Set up j->nworkers workers with one file slot each. */
int sb_ml_workers_setup(struct sb_wl_job *j, unsigned n);
/* Each phase (a checkpoint, an epoch) runs on new threads, and an engine
 * instance belongs to the one thread that drives it (engines/engine.h): the
 * thread that does worker t's I/O calls sb_ml_engine_start before it and
 * sb_thread_engine_stop after it.  start records a failure in t->st. */
int sb_ml_engine_start(struct sb_thread *t);
/* Open path for worker t's I/O (slot 0), region [0, size): read-only,
 * created (O_EXCL) read-write, or an existing file read-write.  On failure
 * the error is in t->st. */
enum sb_ml_open_mode { SB_ML_READ = 0, SB_ML_CREATE = 1, SB_ML_RDWR = 2 };
int sb_ml_open(struct sb_thread *t, const char *path, uint64_t size, enum sb_ml_open_mode mode,
	       struct sb_file **out);
void sb_ml_close(struct sb_thread *t, struct sb_file *f);
/* The whole of f's bytes written (fsync'ed after when asked), or bytes
 * [off, off + len) of f (size bytes) read, through the engine.  direct=1
 * (O_DIRECT) takes only offsets and lengths that are multiples of the
 * file's alignment, which ML files rarely are: a write covers the last
 * block whole, then cuts the file to its size (fsync after the cut); a
 * read widens to whole blocks and takes what lies in the file's last
 * partial block through a descriptor without O_DIRECT.  HOWTO section 9. */
int sb_ml_write_file(struct sb_thread *t, struct sb_file *f, uint64_t bytes, bool fsync_after);
int sb_ml_read_span(struct sb_thread *t, struct sb_file *f, uint64_t size, uint64_t off, uint64_t len);
/* Record an error in t->st (first one wins); returns -e. */
int sb_ml_fail(struct sb_thread *t, int e, const char *what, const char *path);
/* CPU time of the calling thread, to charge to a worker */
void sb_ml_cpu_begin(struct rusage *ru);
void sb_ml_cpu_end(struct sb_thread *t, const struct rusage *ru0);
/* sync, then drop the page cache by writing "1" to path (env's,
 * sb_run_drop_path); false, why set (and a warning, once) when that is not
 * permitted or cannot evict data (a file or folder on tmpfs: see
 * os/cachedrop.h). */
bool sb_ml_drop_caches(const char *job, const char *path, const char *data, char *why, size_t len);
/* j->res: a new, empty result made by own (its workload's figures,
 * ml/result.h), first thing in each ML row's prepare; -ENOMEM */
int sb_ml_res_make(struct sb_wl_job *j, const struct sb_ml_figures *own);
/* the shared part of j's result (its workload's own part: its typed
 * accessor, e.g. sb_ckpt_res) */
static inline struct sb_ml_result *sb_ml_res(const struct sb_wl_job *j)
{
	return sb_ml_result_mine(j->res, NULL);
}

/* checkpoint_source=gpu, train_destination=gpu: workers [k0, k1) move
 * their data through GPU memory (run/gpu.c; after their content hooks);
 * 0 or -errno, reported */
int sb_ml_gpu_attach(struct sb_wl_job *j, unsigned k0, unsigned k1, const char *what);
/* Records in the job's result whether its engine touched storage and the
 * bytes its workers moved (the rules' storage_io check, ml/rules.c). */
void sb_ml_note_io(struct sb_wl_job *j);
/* The results hook shared by the ML rows: the workers' statistics and, when
 * the job ran, its j->res. */
void sb_ml_job_results(struct sb_wl_job *j, struct sb_job_result *jr);
/* buf = "a/b" (b alone when a is NULL), or "s" when fmt is "%s"; false when
 * it did not fit (truncated) */
bool sb_ml_join(char *buf, size_t len, const char *a, const char *b);
/* The folders hook's common part (run/workload.h): copies the n folder
 * lists f into dirs, up to max; returns how many it copied. */
unsigned sb_ml_folders(const char **dirs, unsigned max, const char *const *f, unsigned n);
/* <directory>/<leaf> (first directory of a ':' list), or leaf */
void sb_ml_default_dir(const struct sb_jobspec *s, const char *leaf, char *buf, size_t len);

#endif
