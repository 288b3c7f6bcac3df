/* flock.h: the per-file state jobs sharing a file need between threads:
 * lockfile=exclusive|readwrite (fio's: the jobs on a file take turns) and
 * the re-creation of unlink_each_loop (run/eachloop.c).
 *
 * Each file of the layout that a lockfile or unlink_each_loop job uses gets
 * one struct sb_flock, shared by every thread using it.  lockfile: the
 * thread's engine ops are replaced by a copy whose queue() takes the file's
 * lock, calls the engine's queue() and releases it, as fio holds its file
 * lock from an I/O's prep to the return of its queue: the whole I/O with a
 * synchronous engine (psync, sync, mmap), the submission only with libaio
 * and io_uring.  A job without lockfile keeps the engine's own ops, so the
 * I/O loop is unchanged and costs nothing more. */
#ifndef SB_FLOCK_H
#define SB_FLOCK_H
#include <pthread.h>
#include <stdbool.h>

#include "engines/engine.h"
#include "run/files.h"

struct sb_thread;

/* one file of the layout, shared by its threads */
struct sb_flock {
	pthread_rwlock_t rw;   /* lockfile: readers (readwrite reads) or one writer */
	pthread_mutex_t renew; /* unlink_each_loop: one thread re-creates the file at a time */
	struct sb_layout_file *lf;
};

/* one thread's view: its engine ops wrapped, the lock of each of its files */
struct sb_flock_thread {
	struct sb_engine_ops ops;            /* the engine's, queue() wrapped */
	const struct sb_engine_ops *real;    /* the engine's own */
	unsigned mode;                       /* enum sb_lockfile */
	unsigned nfiles;
	struct sb_flock **fl;                /* by file index; NULL: the file has none */
};

/* After the threads are set up: give every thread of a lockfile or
 * unlink_each_loop job its files' shared state (t->flk), and wrap the ops of
 * lockfile jobs.  Reports with sb_err; 0 or -errno. */
int sb_flock_setup(struct sb_thread *threads, unsigned nthreads, struct sb_layout *lay);
/* Release what sb_flock_setup made (before sb_files_cleanup and after the
 * threads are torn down). */
void sb_flock_free(struct sb_thread *threads, unsigned nthreads, struct sb_layout *lay);
#endif
