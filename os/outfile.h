/* outfile.h: the one gate through which every file storbench writes is
 * opened (HOWTO "7. Safety").  Its rules, for every output:
 *  - a block device, a folder, a socket: refused;
 *  - a character device: refused, except /dev/null (a sink, known by its
 *    device number, so another node of it is one too);
 *  - a FIFO: refused unless the option documents a FIFO mode (SB_OUT_FIFO:
 *    --output);
 *  - a file the run reads (os/inputs.h, by device and inode): refused;
 *  - results, logs, reports, traces: written to a temporary beside the
 *    target and renamed over it once every byte reached the disk, so a
 *    failed write (ENOSPC, EIO) leaves what was there as it was;
 *  - data files (checkpoints, datasets, KV files) and folders: created
 *    exclusively and marked at once (os/scratch.h);
 *  - nothing is ever unlinked but the gate's own temporary (removal of what
 *    the run made goes by identity: sb_scratch_unlink).
 * Every refusal is printed here (sb_err): the option, the file:line of the
 * job file that set it, what is wrong, and the fix. */
#ifndef SB_OS_OUTFILE_H
#define SB_OS_OUTFILE_H
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct sb_scratch_id;

/* who names an output, for the messages */
struct sb_outname {
	const char *opt;   /* "--output", "write_bw_log", "report -o" */
	const char *where; /* file:line of the job file that set it; NULL: opt */
	const char *what;  /* "the results", "the log", "the report" */
};

#define SB_OUT_FIFO   1u /* the option documents a FIFO mode: a FIFO is written */
#define SB_OUT_APPEND 2u /* append to the file (a log shared by threads), no temporary */
#define SB_OUT_TRUNC  4u /* write in place, emptied first (a log shared by threads) */
#define SB_OUT_NEW    8u /* a new file only (a results tree's): -EEXIST if the name is taken */

/* 0 when path may be written as n's output (it need not exist yet); else
 * the refusal is printed and -EPERM (-EISDIR: a folder) returned. */
int sb_outfile_check(const char *path, const struct sb_outname *n, unsigned flags);

/* A file written whole or not at all. */
struct sb_outfile {
	FILE *f;      /* where to write; NULL when closed */
	char *path;   /* the target */
	char *tmp;    /* the temporary beside it; NULL: written in place */
	struct sb_outfile_io *io; /* under f: the descriptor and the first write errno */
	unsigned flags;
};
/* Check (as sb_outfile_check), then open: a regular file or a new name
 * through a temporary (".NAME.XXXXXX", the target's mode), /dev/null or an
 * allowed FIFO in place (a FIFO's open waits for its reader).  0, or -errno
 * with the reason printed. */
int sb_outfile_open(struct sb_outfile *o, const char *path, const struct sb_outname *n,
		    unsigned flags);
/* Flush, fsync, close and rename into place.  0 or -errno (the temporary is
 * removed, the target left as it was).  Nothing printed. */
int sb_outfile_commit(struct sb_outfile *o);
/* From here on, what is written to o goes to the file in chunks of chunk
 * bytes, each compressed as its own zlib stream, the last at the commit
 * (log_store_compressed: a .fz log, read back by --inflate-log as fio's
 * are).  0 or -ENOMEM. */
int sb_outfile_compress(struct sb_outfile *o, size_t chunk);
/* The same, and id receives the identity of the file now under its name
 * (unmarked), for a removal by identity later (os/outtree.h). */
int sb_outfile_commit_id(struct sb_outfile *o, struct sb_scratch_id *id);
/* Close and remove the temporary; the target is left as it was. */
void sb_outfile_abort(struct sb_outfile *o);
/* The first write error of the stream (an errno), 0: none yet. */
int sb_outfile_error(const struct sb_outfile *o);
/* The descriptor under o->f (for writers that use write(2); flush f first). */
int sb_outfile_fd(const struct sb_outfile *o);

/* A data file: created exclusively (O_CREAT | O_EXCL | O_CLOEXEC, plus
 * oflags: O_WRONLY or O_RDWR, O_DIRECT...) and marked at once for job (id,
 * when given, receives its identity).  The fd or -errno (-EEXIST: something
 * is there; nothing printed). */
int sb_outfile_create(const char *path, int oflags, mode_t mode, const char *job,
		      struct sb_scratch_id *id);
/* The same, but no kill can leave the file without its mark: made unnamed
 * (O_TMPFILE), marked, then linked under path, where the file system and
 * xattrs allow (else as sb_outfile_create, whose O_EXCL open and mark are
 * two calls).  For files made and removed all run long, where a SIGKILL
 * lands between the two often enough (kv_profile=mlperf's .npy entries):
 * its creation is openat(O_TMPFILE) + linkat, not one openat(O_CREAT). */
int sb_outfile_create_unkillable(const char *path, int oflags, mode_t mode, const char *job,
				 struct sb_scratch_id *id);
/* A folder: made, and marked for job when id is given (a scratch folder the
 * run removes); with id and no job: its identity taken, unmarked (a results
 * tree's, removed only if the tree cannot be completed); without id: a
 * folder kept on purpose (a dataset's, an export's).  0, -EEXIST (it was
 * there: not ours, left alone), or -errno. */
int sb_outfile_mkdir(const char *path, mode_t mode, const char *job, struct sb_scratch_id *id);
/* An existing data file a job writes (filename=, run/files.c; the plan has
 * judged it, a block device included): opened with oflags (O_CREAT only for
 * create_on_open=1); a file the run reads as input (a job file, a trace) is
 * refused (-EPERM).  The fd or -errno. */
int sb_outfile_open_data(const char *path, int oflags, mode_t mode);
/* A kernel setting (/proc/sys, /sys, cgroupfs) opened for writing (never
 * created or emptied): a file on procfs, sysfs or cgroupfs, or an existing
 * regular file that is no input of the run (a test's stand-in).  The fd or
 * -errno (-EPERM: a device, a FIFO, an input). */
int sb_outfile_kernel(const char *path);
/* A cgroup folder made (0, -errno; -EPERM: its parent is not on cgroupfs)
 * and removed (once its threads ended; only on cgroupfs). */
int sb_outfile_kernel_mkdir(const char *path, mode_t mode);
int sb_outfile_kernel_rmdir(const char *path);
/* A file in memory (memfd_create), no name anywhere: a stream to write
 * (close it when written) and *fd, a descriptor of its own to read it back
 * (lseek to 0 first).  NULL with errno set. */
FILE *sb_outfile_memory(const char *name, int *fd);
#endif
