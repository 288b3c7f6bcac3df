/* files.h: the files of a run.  sb_files_plan works out every job thread's
 * files (names, regions, sizes) and checks the whole run before anything is
 * created: free space, block devices in use (direct-I/O alignment:
 * run/precheck.c).
 * sb_files_create then creates or extends what is missing. */
#ifndef SB_FILES_H
#define SB_FILES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engines/engine.h"
#include "os/scratch.h"
#include "parse/jobspec.h"

/* One distinct file of the run, shared by every thread that uses it. */
struct sb_layout_file {
	char *path;
	uint64_t need;        /* bytes it must have: the largest region end */
	uint64_t have;        /* bytes before the run (0 when missing) */
	dev_t dev;            /* st_dev of the file, or of its directory */
	dev_t rdev;           /* block devices: st_rdev */
	ino_t ino;
	bool exists, regular, is_bdev;
	bool fill;            /* a job reads it: write real data when laying out */
	bool written;         /* a job writes it */
	bool is_dir;          /* exists and is a directory (refused by the plan) */
	bool is_pipe;         /* exists and is a FIFO or a socket (refused: open
			       * would block for a peer, and there is no size) */
	bool user;            /* the user's: it exists and this run did not make it
			       * (sb_scratch_made_here); never extended, truncated
			       * or filled unless a job writes its data */
	bool writes_data;     /* a job writes or trims its data (verify_only and
			       * create_only jobs do not) */
	const struct sb_jobspec *grower; /* first job whose region ends past have */
	const struct sb_jobspec *verifier; /* first verify_only (or verify= read) job on it */
	bool unlink;          /* a job asked for unlink=1 */
	bool allow_mounted;   /* every job writing it allows mounted writes */
	bool created;         /* sb_files_create made it */
	bool mkparents;       /* its folder is missing: lay-out makes it first */
	int claim_fd;         /* block devices written: the O_EXCL descriptor held for
			       * the run (nothing can mount it meanwhile); -1: none */
	struct sb_scratch_id own; /* created: the inode made (removed only if still there) */
	const struct sb_jobspec *spec; /* first job using it (fallocate mode, messages) */
	const struct sb_jobspec *writer; /* first job writing it (messages) */
};

/* The files of one job: nthreads x nfiles templates, thread-major. */
struct sb_jobfiles {
	unsigned nthreads, nfiles;
	struct sb_file *tmpl;  /* path (owned by the layout), size, region, is_bdev */
	size_t *lf;            /* index of each template in sb_layout.files; SIZE_MAX: none */
};

struct sb_layout {
	struct sb_layout_file *files;
	size_t n, cap;
	struct sb_jobfiles *jobs; /* one per job of the joblist */
	size_t njobs;
	size_t failed;            /* sb_files_create failed on files[failed] */
	const char *sysroot;      /* env's: root of /proc and /sys for the block-device check */
	bool defer_keep;          /* env's: created files are not marked kept (a sweep) */
	struct sb_flock *flocks;  /* run/flock.c: per file, for lockfile/unlink_each_loop; else NULL */
	bool *flocks_up;          /* flocks[i] initialised */
};

struct sb_run_env;
/* Plan and check.  nodiskio[j] is true when job j's engine touches no files;
 * env (run/run.h; NULL: the defaults) gives the root of the /proc and /sys
 * lookups of the block-device safety check (tests point it at a fixture
 * tree) and whether a sweep defers marking created files kept.  Creates
 * nothing.  Errors are reported with sb_err; returns -errno. */
int sb_files_plan(const struct sb_joblist *jl, const bool *nodiskio,
		  const struct sb_run_env *env, struct sb_layout *lay);
/* run/filecheck.c: the plan's refusals (each reports file:line, the job and
 * the fix; 0 or -errno).  check_kind: lf as job s names it is a directory,
 * a FIFO or socket, or missing under no_file_create; check_user: the user's
 * files are never extended unless a job writes them, verify_only needs its
 * file; check_space: each file system has room for what the plan adds. */
int sb_files_check_kind(const struct sb_layout_file *lf, const struct sb_jobspec *s);
int sb_files_check_user(const struct sb_layout *lay);
int sb_files_check_space(const struct sb_layout *lay);
/* path's folder ("." for a bare name, "/" for one at the root) */
void sb_files_dir_of(const char *path, char *dir, size_t len);
/* path's folder (run/filedirs.c): 0 it is there (a folder), 1 it is missing
 * but its nearest existing ancestor is a folder (lay-out makes the rest),
 * or -errno (-ENOTDIR: a file is in the way); *dev: that folder's device */
int sb_files_parent(const char *path, dev_t *dev);
/* sb_files_parent for the plan of job s's file path, saying why at the
 * option's file:line when it refuses (also a directory= that is not there,
 * as fio): 0, 1 (folders to make), or -errno */
int sb_files_plan_parent(const char *path, const struct sb_jobspec *s, dev_t *dev);
/* make each missing folder of path's (fio's create_work_dirs, 0700),
 * through the writer gate, marked as job's and kept: 0 or -errno (said) */
int sb_files_make_parents(const char *path, const char *job);
/* run/outpaths.c: write_iolog=, write_trace= and --output (NULL: stdout)
 * name none of lay's data files (same inode, or the same canonical path for
 * one not made yet).  0, or -EINVAL with the reason reported (file:line). */
int sb_files_check_outputs(const struct sb_joblist *jl, const struct sb_layout *lay,
			   const char *output);
/* Create missing files and extend short ones (fallocate, then data for read
 * workloads).  On failure removes the files it created and returns -errno
 * with lay->failed naming the file; it prints nothing (the run reports it
 * as an I/O error of the job that uses the file). */
int sb_files_create(struct sb_layout *lay);
/* Create (O_EXCL) or extend lf and lay it out as sb_files_create does: fill
 * for a file a job reads, else preallocate; sets lf->created and lf->own for
 * a file it made (run/eachloop.c re-creates with it).  0 or -errno. */
int sb_files_lay_out(struct sb_layout_file *lf);
/* Remove created files whose jobs asked for unlink=1 (all created files when
 * remove_all_created), mark the others kept on purpose (sb_scratch_keep),
 * then free the layout. */
void sb_files_cleanup(struct sb_layout *lay, bool remove_all_created);
/* Open f for a job thread (O_DIRECT, read-only or read-write as the job
 * needs); sets f->fd.  -errno on failure. */
int sb_files_open(struct sb_file *f, const struct sb_jobspec *spec);
/* fadvise_hint, write_hint, pre_read and fsync_on_close on f, open
 * (fileopts.c; sb_files_open calls it); 0 or -errno */
int sb_files_hints(struct sb_file *f, const struct sb_jobspec *spec);
/* fio's opendir: the regular files under s->opendir, sorted by path */
struct sb_dirlist {
	char **paths;
	size_t n, cap;
};
/* fills dl (reporting with file:line when the folder is missing or holds no
 * file); 0 or -errno */
int sb_files_opendir(const struct sb_jobspec *s, struct sb_dirlist *dl);
void sb_dirlist_free(struct sb_dirlist *dl);
/* fio's filename_format: $jobname, $jobnum (the clone, numjobs), $filenum
 * and $clientuid (empty: no client/server mode) expanded into out */
/* file i of thread t of a job without filename=: filename_format, or
 * $jobname.$jobnum.$filenum (under MPI .rank$rank too: no two ranks
 * collide, unless unique_filename=0) */
void sb_files_gen_name(const struct sb_jobspec *s, unsigned t, unsigned i, char *out, size_t len);
/* thread t's number for offset_increment: threads go on across MPI ranks */
uint64_t sb_files_thread_number(const struct sb_jobspec *s, unsigned t);
void sb_files_format_name(const char *fmt, const char *job, unsigned jobnum, unsigned filenum,
			  char *out, size_t len);
void sb_files_close(struct sb_file *f);
/* sync= (O_SYNC, O_DSYNC) and create_on_open (O_CREAT) for the job's opens
 * (fileopts.c) */
int sb_files_open_flags(const struct sb_jobspec *s);
/* create_on_open=1: a missing file is not laid out; the job's open makes it
 * (empty, as fio's) */
bool sb_files_on_open(const struct sb_layout_file *lf);
/* uid=/gid=: a file lf's layout just created gets the job's owner, as fio's
 * job creates it under those ids; 0, or -1 with errno (fileopts.c) */
int sb_files_chown(int fd, const struct sb_layout_file *lf);
/* Whole-disk kernel names under the layout's files (for disk_util), at most
 * max, no duplicates.  Returns the count. */
size_t sb_files_disks(const struct sb_layout *lay, char (*names)[64], size_t max);
/* fill_device=1 (run/fill.c): the region length (bytes) of a fill_device job's regular file without
 * size=: its data past start plus the file system's free space, rounded up
 * to the largest block, plus one block; 0 when the job does not fill, the
 * file is a device, or the free space cannot be read */
uint64_t sb_files_fill_len(const struct sb_jobspec *s, const struct sb_layout_file *lf,
			   uint64_t have, uint64_t start);
/* lf is a missing file of a fill_device job: the layout creates it empty */
bool sb_files_fill_new(const struct sb_layout_file *lf);
#endif
