/* thread.h: one I/O thread of a job: its files, io units, buffers, engine
 * state, statistics, and the loop that drives the engine.  run.c creates,
 * starts and joins them; the stats thread (stats/statsthread.h) samples
 * their live counters through a view (stats/tview.h: sb_thread_view). */
#ifndef SB_THREAD_H
#define SB_THREAD_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "run/files.h"
#include "run/flowctl.h"
#include "run/iogen.h"
#include "run/rate.h"
#include "engines/engine.h"
#include "stats/ilat.h"
#include "run/lattgt.h"
#include "os/scratch.h"
#include "stats/iolog.h"
#include "stats/trace.h"
#include "stats/tstats.h"
#include "stats/tview.h"
#include "stats/verify.h"
#include "lib/stop.h"

/* every I/O buffer is aligned to at least this many bytes (setup_buffers in
 * thread.c: a 4 KiB- or 2 MiB-aligned allocation, buf_per_io a multiple of
 * 4 KiB), which direct I/O's memory alignment is checked against */
#define SB_IOBUF_ALIGN 4096u

/* the stop flag (SIGINT/SIGTERM): lib/stop.h; every thread stops at its
 * next I/O */

/* wait_for and "job finished" bookkeeping shared by a run's threads */
struct sb_runsync {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned *left;               /* per job: threads still to finish */
};

struct sb_thread {
	const struct sb_jobspec *spec;
	const struct sb_engine_ops *ops;
	struct sb_runsync *sync;
	size_t job;                   /* index in the joblist */
	unsigned sub;                 /* thread number inside the job */
	long wait_job;                /* wait_for: job index, -1 = none */
	unsigned dg_peer, dg_peers;   /* dedupe_global: this writer's number among the
				       * run's sharing writers, their count (0: none) */
	struct sb_engine_td etd;
	struct sb_engine_job ejob;      /* what etd.job points at: the engine's view of spec */
	struct sb_file *files;
	struct sb_iogen gen;
	struct sb_rate rate;
	struct sb_tstats *st;
	struct sb_io_u **freel;       /* free io units (async loop) */
	struct sb_io_u *carry;        /* an io made but not yet queued when a pause
				       * (verify_backlog, trim_backlog) stopped the loop:
				       * the next loop queues it first (its offset is
				       * taken: dropped, it would leave a hole) */
	struct sb_io_u **uncommitted; /* queued since the last commit */
	struct sb_io_u **requeue;     /* short transfers' rests to queue again (async loop,
				       * run/resid.h) */
	unsigned char *lvl_bucket;    /* iodepth_level bucket per depth 0..iodepth */
	unsigned char batch1_bucket;  /* submit/complete bucket of a batch of one */
	bool engine_up, files_open;
	bool started;
	pthread_t tid;
	struct rusage ru0;            /* at the start of the counted phase */
	_Atomic int phase;            /* enum sb_phase (stats/tview.h) */
	_Atomic uint64_t count_start_ns;
	uint64_t start_ns, end_ns;    /* the thread's own start and end */
	/* per-interval accumulators (always) and the per-I/O log ring
	 * (only with a log and log_avg_msec=0), written by the I/O thread and
	 * read by the stats thread (stats/ilat.h, stats/iolog.h) */
	struct sb_ilat *ilat;
	struct sb_iolog_ring *logring;
	const char **paths;           /* write_iolog: its files' paths, by index; else NULL */
	/* the thread's kernel tid, stored as it starts; on_start (if set) is
	 * then called on the thread itself, before any I/O (perf counters) */
	_Atomic int os_tid;
	void (*on_start)(void *arg, int os_tid);
	void *on_start_arg;
	/* what this thread's verify pass found (stats/verify.h),
	 * NULL when the job does not verify; owned, merged by run/collect.c */
	struct sb_verify_result *verify;
	/* data-content hooks of the I/O loop, NULL when unused (a
	 * NULL test per I/O is all they cost then).  io_prep fills a write's
	 * buffer (io->buf, io->len bytes for io->file at io->offset) before
	 * the I/O is timed and queued; io_check checks a completed read's
	 * buffer (io->result bytes) and returns false to stop the loop.
	 * Neither may lock, allocate or make a system call on success. */
	void (*io_prep)(struct sb_thread *t, struct sb_io_u *io);
	bool (*io_check)(struct sb_thread *t, const struct sb_io_u *io);
	void *content;                /* the hooks' state, owned by whoever set them */
	/* frees content and clears the hooks at teardown (NULL: run/contents.c's or
	 * verify's, which teardown knows); set by a workload's content (ml/content.c) */
	void (*content_free)(struct sb_thread *t);
	bool check_writes;            /* io_check also gets completed writes (verify=) */
	bool check_eof;               /* a read at end of file (0 bytes) goes to io_check, not
				       * the error path: a job verifying what others wrote
				       * reports the missing blocks (verify=, run/verify.c) */
	/* flow, rate_min, steady state, exitall (run/flowctl.h) */
	struct sb_ctl ctl;
	bool stats_lite;              /* a disable_* option is on: account() takes its slow path */
	/* bytes mapped for etd.buf_base (iomem=mmap*, shm*; run/place.c) */
	size_t buf_maplen;
	/* iomem=mmap*:FILE (run/place.c): the file made (removed at
	 * the end only while it is still that file) and its descriptor */
	struct sb_scratch_id buf_file_id;
	int buf_file_fd;
	/* max_latency= in ns; UINT64_MAX when unset (run/ioloop.c) */
	uint64_t max_lat_ns;
	/* write_trace= ring (stats/trace.h), owned by the trace
	 * writer; NULL when the job writes no trace */
	struct sb_trace_ring *trace;
	/* latency_target's depth search (run/lattgt.h); .on false when unset */
	struct sb_lattgt lt;
	/* lockfile, unlink_each_loop (run/flock.h); NULL when unused */
	struct sb_flock_thread *flk;
	/* iomem=cudamalloc's GPU twin of the buffers and
	 * the hooks it wraps (run/gpu.h); NULL otherwise */
	struct sb_gpu *gpu;
	/* while the async loop runs, its count of I/Os
	 * in flight (read by run/gpu.c's copies: overlap); NULL otherwise */
	const unsigned *inflight;
	/* --debug=io,file,verify's wrappers of ops and
	 * the verify hooks (run/iodebug.h); NULL without those categories */
	struct sb_iodbg *dbg;
	/* openfiles= below the file count (run/openfiles.h);
	 * NULL otherwise */
	struct sb_ofl *ofl;
};

/* Prepare t (spec, ops, job, sub, sync, wait_job set by the caller) with
 * the files of template row jf: statistics, generator, buffers, open files,
 * engine.  Reports its errors with sb_err; returns -errno. */
int sb_thread_setup(struct sb_thread *t, const struct sb_jobfiles *jf);
/* Prepare t (spec, ops set by the caller) for I/O the caller drives file by
 * file with sb_ioloop_span (workloads that are not a fio job: checkpoints,
 * training reads): statistics, buffers for the largest bs, and nslots empty
 * file slots t->files[i] (fd -1, index i) that the caller opens, hands to
 * ops->open_file and closes again.  The engine is created once here to check
 * the job's engine options before any I/O, and released again: the thread
 * that does the I/O brackets it with sb_thread_engine_start/stop.  Reports
 * with sb_err; -errno. */
int sb_thread_setup_bare(struct sb_thread *t, unsigned nslots);
/* The same with the nslots files of tmpl (a job's planned files) in the
 * slots when its engine starts: the check before a run (run/precheck.c),
 * so an engine that looks at its objects before the first I/O (s3) does
 * so in --parse-only as in the run.  tmpl NULL: bare slots. */
int sb_thread_setup_check(struct sb_thread *t, unsigned nslots, const struct sb_file *tmpl);
/* An engine instance is driven by one thread (engine.h).  Workloads that run
 * each phase (a checkpoint, an epoch) on a new thread create the instance on
 * that thread with sb_thread_engine_start before its first I/O and release
 * it there with sb_thread_engine_stop after its last (files closed).  start
 * returns -errno with the reason in t->etd.errmsg. */
int sb_thread_engine_start(struct sb_thread *t);
void sb_thread_engine_stop(struct sb_thread *t);
/* Release everything setup acquired (safe on a partly set up thread). */
void sb_thread_teardown(struct sb_thread *t);
/* The stats-facing view of t (set up), for the stats thread and the
 * monitor. */
void sb_thread_view(struct sb_thread *t, struct sb_tview *v);
/* pthread entry point */
void *sb_thread_main(void *arg);
#endif
