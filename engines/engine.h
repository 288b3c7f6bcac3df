/* engine.h: the I/O engine interface.  An engine is a const struct of
 * function pointers; run/ drives it and never looks inside.  One file per
 * engine under engines/, listed in engines/registry.c.
 *
 * Life of one I/O thread:
 *   init(td)                       once, after td->ios/files are set up
 *   open_file(td, f)               per file, after run/ opened f->fd
 *                                  (not for SB_ENGINE_NODISKIO engines)
 *   loop:  queue(td, io)           -> COMPLETED: io->result is final
 *                                  -> QUEUED:    commit() later sends it
 *                                  -> BUSY:      reap events, then retry
 *          commit(td)              submit what was queued (NULL: nothing to do)
 *          getevents(td,min,max,t) wait for >= min completions, at most max;
 *                                  returns the count or -errno
 *          event(td, i)            the i-th completed io unit (0 <= i < count),
 *                                  with io->result set
 *   close_file(td, f)              before run/ closes f->fd
 *   cleanup(td)
 *
 * One thread per instance: init (and open_file before the first commit) may
 * run on the thread that sets the job up, but from the first queue/commit
 * on, every call up to cleanup comes from one and the same thread (an
 * io_uring ring is created SINGLE_ISSUER: any other task gets EEXIST).  A
 * caller that drives I/O from a new thread (ML workloads start threads per
 * checkpoint or epoch) releases the instance and inits a new one on that
 * thread (sb_thread_engine_start/stop in run/thread.h).  cleanup may run on
 * any thread once the I/O thread is done with the instance.
 *
 * io->result: bytes transferred (>= 0; less than io->len is a short I/O) or
 * -errno.  An engine reports a short transfer as it is (one system call, one
 * cuFile call, one aio_return) and never completes it itself: run/ queues the
 * rest again through the same engine (run/resid.h), as fio re-queues the
 * residual, so every engine completes short transfers the same way.  Engines do not time, count or print: run/ does.  On failure init
 * and open_file return -errno and may explain in td->errmsg (e.g. which
 * option to drop). */
#ifndef SB_ENGINE_H
#define SB_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "lib/ddir.h"
#include "lib/option.h"

struct sb_file {
	char *path;
	int fd;                 /* -1 when closed, or for NODISKIO engines */
	uint64_t size;          /* bytes of the file storbench uses (region end) */
	uint64_t region_start;  /* bytes; offset= */
	uint64_t region_len;    /* bytes in the I/O region */
	unsigned index;         /* position in td->files (registered-file slot) */
	bool is_bdev;
	bool created;           /* storbench created it (so it may unlink it) */
	void *engine_data;      /* the engine's, e.g. an mmap base */
	bool fsync_on_close;    /* fsync before close (fsync_on_close=1 on a writer) */
	uint64_t real_size;     /* bytes the file holds, at least size (0: size); set for
				 * rw=read:N, whose holes wrap at the file's end as in fio */
};

struct sb_io_u {
	int ddir;               /* enum sb_ddir: READ, WRITE, TRIM, SYNC or DATASYNC */
	struct sb_file *file;
	void *buf;              /* iodepth buffers of max bs each, aligned as the engine asks */
	uint64_t len;           /* bytes requested */
	uint64_t offset;        /* byte offset in the file */
	int64_t result;         /* set by the engine at completion */
	uint64_t start_ns;      /* set by run/ when the I/O is queued */
	uint64_t issue_ns;      /* set by run/ when it was submitted (slat end) */
	unsigned index;         /* slot in td->ios */
	void *engine_priv;      /* the engine's per-io data (iocb, sqe bookkeeping) */
	unsigned ioprio;        /* this I/O's priority, (class << 13) | level, for
				 * engines that send one per I/O (libaio, io_uring:
				 * cmdprio_*); 0: none, the thread's own applies */
	uint64_t xfer_done;     /* bytes of this I/O moved by earlier parts of a
				 * short transfer; buf, offset and len then describe the
				 * rest (run/resid.h: set and undone by run/, 0 otherwise) */
};

enum sb_q_status {
	SB_Q_COMPLETED = 0,
	SB_Q_QUEUED = 1,
	SB_Q_BUSY = 2,
};

/* Creating and removing by path, for the FILEOP engines: run/ gives them
 * these, which go through storbench's writer gate (os/outfile.c) and remove
 * only what this run made (os/scratch.c), so that no engine ever creates or
 * deletes a path itself. */
struct sb_engine_fs {
	/* make path (dir: a folder) exclusively, marked as job's; 0, -EEXIST
	 * (something is there: left as it is) or -errno */
	int (*create)(const char *path, bool dir, const char *job);
	/* remove path (dir: a folder) only if this run made it and it is still
	 * that inode; -EPERM when this run did not make it (left as it is) */
	int (*remove)(const char *path, bool dir);
	/* the owner mark of what this run makes for job, as the files' mark
	 * (os/scratch.h) less the inode: objects carry it (s3) */
	void (*mark)(const char *job, char *buf, size_t len);
	/* the access key id, secret and session token ("" none) of the AWS
	 * profile (AWS_PROFILE, else "default") in AWS_SHARED_CREDENTIALS_FILE
	 * or ~/.aws/credentials, read through storbench's reader: 0, or -errno
	 * (-ENOENT: no such file or profile) */
	int (*read_cred)(char *keyid, size_t kl, char *key, size_t sl, char *token, size_t tl);
	/* an output the engine has another process fill (exec's std_redirect:
	 * a program's stdout and stderr), opened through the writer gate as
	 * job's: written to a temporary that out_close(keep) renames over
	 * path (keep false: removed, path left as it was); refused as any
	 * output (a device, an input of the run: the refusal is printed).
	 * out_open: the descriptor to write to, -errno; *h the handle */
	int (*out_open)(const char *path, const char *job, void **h);
	int (*out_close)(void *h, bool keep);
};

/* What an engine counts besides its I/Os' latencies, and where (run/ gives
 * it; engines never see stats/): its counters (struct
 * sb_engine_ops.counters, ncounters of them) and a time-to-first-byte
 * series, ns per direction (SB_DDIR_READ, SB_DDIR_WRITE), which run/ keeps
 * beside the latency histograms (after ramp_time).  Either may be NULL. */
struct sb_engine_sink {
	uint64_t *counters;
	void (*ttfb)(void *ctx, int ddir, uint64_t ns);
	void *ctx;
};

/* What an engine knows of its job, filled by run/ from the job spec
 * (sb_engine_job_fill in run/engtable.h): engines never see the spec. */
struct sb_engine_job {
	bool direct;            /* O_DIRECT (direct=1); its alignment was checked
				 * before the run (run/precheck.c), not by engines */
	bool random;            /* random offsets (rw=rand*) */
	const void *opts;       /* the engine's options struct (its option rows' offsets), or NULL */
	unsigned sfr_flags;     /* SYNC_FILE_RANGE_* of SB_DDIR_SYNCRANGE units */
	int gpu_dev;            /* this thread's GPU (gpu_dev_id(s)) */
	bool gpu_verify;        /* verify=: GPU engines copy the data
				 * to the host buffer too (libcufile, as fio) */
	const struct sb_engine_fs *fs; /* FILEOP engines' creates and removals */
	const char *job;        /* the job's name (for the marks) */
	uint64_t runtime_us;    /* runtime= (0: none): exec stops its program then */
	bool reads, writes, trims; /* what the job's I/Os do (rw=, verify reads
				 * back what it wrote): s3 checks and lays out
				 * its objects before the first I/O */
};

/* The engine's view of one I/O thread. */
struct sb_engine_td {
	const struct sb_engine_job *job;  /* may be NULL: no direct I/O, defaults for options */
	unsigned iodepth;
	struct sb_io_u *ios;    /* iodepth io units */
	unsigned nios;
	struct sb_file *files;
	unsigned nfiles;
	void *buf_base;         /* all io buffers, one allocation (for fixedbufs) */
	uint64_t buf_len;
	uint64_t buf_per_io;    /* bytes per io unit buffer */
	void *data;             /* engine private state */
	char errmsg[512];       /* why init/open failed, naming the option to change */
	/* how the engine reaches GPU memory, for the
	 * results ("p2p", "compat", "posix": libcufile); NULL: not a GPU engine */
	const char *gds_mode;
	/* init failed for what this machine lacks (a
	 * library, a GPU), not for the job: --parse-only warns (sb_err_machine) */
	bool machine_lacks;
	/* where the engine counts (its counters, zeroed by run/ and summed
	 * into the job's results, and its time to first byte) */
	struct sb_engine_sink sink;
	/* set by a sync engine's queue(): pause this long after the I/O,
	 * apart from its latency (cpuio's duty cycle, as fio's engine sets
	 * thinktime); run/ sleeps and clears it */
	uint64_t think_ns;
};

/* engine flags */
#define SB_ENGINE_SYNC 0x1u       /* queue() always completes */
#define SB_ENGINE_ALIGNED 0x2u    /* buffers must be aligned to the logical block size */
#define SB_ENGINE_NODISKIO 0x4u   /* touches no files (null): run/ lays none out */
#define SB_ENGINE_PAGECACHE 0x8u  /* its I/O goes through the page cache even with direct=1 (mmap) */
#define SB_ENGINE_NODATA 0x10u    /* moves no data: an I/O changes allocation or size
				   * (falloc, ftruncate); io->buf is neither read nor
				   * filled, so data checks (verify=) do not apply */
#define SB_ENGINE_FILEOP 0x20u    /* an I/O's work is a file or folder operation
				   * (filecreate, filestat, ...): engines/fileop.h */
#define SB_ENGINE_NOIO 0x80u      /* with NODISKIO: an I/O is work of another kind
				   * (cpuio: CPU); its I/Os are counted, not their
				   * bytes or time (runtime 0), as fio's FIO_NOIO; a
				   * job without size= runs for its runtime= */
#define SB_ENGINE_OBJECTS 0x40u   /* with NODISKIO: its I/O goes to an object store
				   * (s3): no local files, but storage is touched;
				   * whole objects through object_size/object_put */

/* An engine's own job options (fixedbufs, hipri, ...), as fio's engine option
 * tables: rows of lib/option.h with offsets into the engine's options struct
 * (size bytes), which the engine reads as td->job->opts.  The parser learns
 * them from the layer above (run/engtable.c); rows take bool/int types. */
struct sb_engine_options {
	const struct sb_option *rows;
	unsigned n;
	size_t size;
};

struct sb_engine_ops {
	const char *name;
	const char *description;  /* one line for --enghelp and HOWTO.md */
	unsigned flags;
	int (*init)(struct sb_engine_td *td);
	void (*cleanup)(struct sb_engine_td *td);
	const struct sb_engine_options *options;  /* NULL: none */
	int (*open_file)(struct sb_engine_td *td, struct sb_file *f);   /* may be NULL */
	int (*close_file)(struct sb_engine_td *td, struct sb_file *f);  /* may be NULL */
	enum sb_q_status (*queue)(struct sb_engine_td *td, struct sb_io_u *io);
	int (*commit)(struct sb_engine_td *td);                         /* may be NULL */
	int (*getevents)(struct sb_engine_td *td, unsigned min, unsigned max,
			 const struct timespec *timeout);                /* NULL for sync */
	struct sb_io_u *(*event)(struct sb_engine_td *td, unsigned i);  /* NULL for sync */
	/* names of the engine's counters (results: "engine" of the job, and
	 * HOWTO); an engine counts into td->sink.counters.  NULL: none */
	const char *const *counters;
	unsigned ncounters;
	/* SB_ENGINE_OBJECTS engines, outside the I/O threads (a training
	 * dataset made before the run): opts is the job's options struct
	 * (sb_engine_job.opts), fs run/'s (marks, credentials), sink where the
	 * requests are counted (NULL: not counted).  object_size:
	 * 0 and *size, -ENOENT when there is none, or -errno with err.
	 * object_put: the len bytes of fd (from offset 0; fd < 0: of buf)
	 * become the object at path, marked as job's; refused (-EPERM) over an object storbench did
	 * not make.  0 or -errno with err. */
	int (*object_size)(const void *opts, const struct sb_engine_fs *fs, const char *path, uint64_t *size,
			   char *err, size_t elen);
	int (*object_put)(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
			  const char *job, const char *path, int fd, const void *buf, uint64_t len, char *err,
			  size_t elen);
	/* the whole object at path into buf (at most cap bytes; *got: its
	 * bytes): 0, -ENOENT, -EFBIG (longer than cap), or -errno with err */
	int (*object_get)(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
			  const char *path, void *buf, uint64_t cap, uint64_t *got, char *err, size_t elen);
	/* the object at path removed if this process made it (its mark
	 * names this run): 0 (also when gone), -EPERM when it is not this
	 * run's (left as it is), or -errno with err */
	int (*object_delete)(const void *opts, const struct sb_engine_fs *fs, const struct sb_engine_sink *sink,
			     const char *path, char *err, size_t elen);
	/* the caller's objects made through object_put are done with and
	 * kept: the run records its end where it PUT them (s3: so that
	 * --cleanup tells them from a killed run's; path: one of them, whose
	 * bucket gets the record); 0 or -errno */
	int (*object_end)(const void *opts, const struct sb_engine_fs *fs, const char *path);
	/* more for --enghelp=NAME after the options (its figures, its
	 * failures), lines of text each ending in a newline; NULL: none */
	const char *notes;
	/* the engine's own checks of a job's options when the job file is
	 * parsed, before anything runs (NULL: none).  opts: its options
	 * struct; filename, directory: the job's (NULL: unset); io_job: the
	 * job is workload=io (an ML workload names its own folder).  0, or
	 * -EINVAL with why (naming the fix) and *opt the option whose
	 * file:line the message gets (NULL: ioengine=); -ENOENT: the same for
	 * what this machine lacks (a program): --parse-only=job warns */
	int (*check)(const void *opts, const char *filename, const char *directory, bool io_job,
		     const char **opt, char *why, size_t wlen);
};

/* registry.c */
const struct sb_engine_ops *sb_engine_find(const char *name);
/* The engines this build has, as "a, b, c" into buf. */
void sb_engine_names(char *buf, unsigned len);
/* Known to storbench but not built: the Debian package that would enable it
 * (e.g. "libaio-dev"); NULL for a name storbench does not know at all. */
const char *sb_engine_missing_package(const char *name);
/* All built engines, NULL-terminated (for conformance tests and --enghelp). */
extern const struct sb_engine_ops *const sb_engines[];
/* Engines storbench knows but this build lacks, with the package that
 * would enable them and their option rows (so job files using the options
 * parse the same in every build); NULL-terminated by name. */
struct sb_engine_missing {
	const char *name;
	const char *package;
	const struct sb_engine_options *options;
};
extern const struct sb_engine_missing sb_engines_missing[];
#endif
