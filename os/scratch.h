/* scratch.h: the files and folders storbench creates.  Each is known by the
 * inode it made (device + inode number, taken when it was made) and is
 * removed only while its path still names that inode (never a file put in
 * its place, never through a symlink).  Each also carries a mark, the
 * extended attribute user.storbench, saying which process made it (host,
 * boot, PID namespace, pid and start time), so a later run can recognise
 * the leftovers of a run that was killed and `storbench --cleanup DIR` can
 * remove them and nothing else.  Where the file system keeps no user
 * extended attributes, the mark goes into the folder's record file
 * .storbench-owner instead (os/scratchside.c). */
#ifndef SB_OS_SCRATCH_H
#define SB_OS_SCRATCH_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SB_SCRATCH_XATTR "user.storbench"

/* An inode number alone is not enough: a file deleted and another created
 * in its place often get the same number.  So the birth time (statx, where
 * the file system keeps one) and the mark (this process's) must match too. */
struct sb_scratch_id {
	dev_t dev;
	ino_t ino;          /* 0: storbench made nothing there */
	long long btime_s;  /* birth time; btime_s = btime_ns = 0: not kept */
	unsigned btime_ns;
	bool marked;        /* it carries this process's mark */
	int mark_err;       /* else why not (ENOTSUP: no user xattrs there) */
	bool side;          /* the mark is in the folder's .storbench-owner */
};

/* The identity (device, inode, birth time) of the file open on fd (fd >= 0)
 * or of path (not followed), unmarked: ->marked false.  0 or -errno. */
int sb_scratch_identify(int fd, const char *path, struct sb_scratch_id *id);
/* Storbench just made the file open on fd (or the folder at path, not
 * followed if a symlink): take its identity and mark it (job: the job's
 * name, for the mark).  0 or -errno. */
int sb_scratch_made_fd(int fd, const char *job, struct sb_scratch_id *id);
int sb_scratch_made_path(const char *path, const char *job, struct sb_scratch_id *id);
/* Remove path (a file; a folder for rmdir) only if it still names id's
 * inode (same device, inode number, birth time and mark).  0: removed;
 * -ESTALE: something else is there now (left alone);
 * -ENOENT: gone already; other -errno from unlink/rmdir (ENOTEMPTY: a
 * folder someone put files in). */
int sb_scratch_unlink(const char *path, const struct sb_scratch_id *id);
int sb_scratch_rmdir(const char *path, const struct sb_scratch_id *id);

/* The run ends and keeps what it made (unlink=0, keep_checkpoints=1, a
 * finished dataset file): if path is still id's, its mark says state=kept,
 * so a later run and --cleanup know it was kept on purpose.  0 or -errno
 * (-ESTALE: not ours any more, left alone). */
int sb_scratch_keep(const char *path, const struct sb_scratch_id *id);

/* Files made in this process by run/files.c, by path, so that a sweep can
 * remove at its end only what a point made (one entry per path). */
void sb_scratch_remember(const char *path, const struct sb_scratch_id *id);
bool sb_scratch_recall(const char *path, struct sb_scratch_id *id);
/* path is a file this process made (remembered) and still that inode: the
 * rest of "is this file the user's" (run/files.c): an existing file for
 * which this is false is the user's, never extended, truncated or filled
 * unless a job writes it */
bool sb_scratch_made_here(const char *path);

/* The mark: "storbench 2 pid=P start=T boot=B host=H pidns=N dev=D ino=I
 * state=S job=J" (D, I: st_dev and st_ino of the file or folder it was put
 * on; T: the process's start time in clock ticks since boot,
 * /proc/self/stat field 22; B: /proc/sys/kernel/random/boot_id; N: the
 * inode of /proc/self/ns/pid, the PID namespace P is a pid of), so that a
 * reused pid, a reboot or a pid of another namespace (a container) is not
 * taken for the creator.  Marks of version 1 (no pidns=) are still read
 * and judged as before.  Setting it is best effort: 0, or -errno; where
 * the file system has no user xattrs (ENOTSUP) the mark goes into the
 * folder's .storbench-owner record instead (0 then). */
int sb_scratch_mark_path(const char *path, const char *job);

/* The mark of something this process makes that has no inode (an S3
 * object: its x-amz-meta-storbench-owner): the same fields less dev= and
 * ino=, in printable ASCII (anything else becomes '?').  Its length. */
int sb_scratch_mark_object(const char *job, char *buf, size_t len);
/* 1 and m when text is a mark (a file's or an object's), else 0 */
struct sb_scratch_mark;
int sb_scratch_parse_mark(const char *text, struct sb_scratch_mark *m);

struct sb_scratch_mark {
	long pid;
	unsigned long long start;
	char boot[40];
	char host[256];
	char job[256];
	bool kept;   /* state=kept: the run ended and kept it on purpose */
	bool has_ino;                /* the mark names its inode (dev=, ino=) */
	unsigned long long dev, ino; /* st_dev and st_ino it was put on */
	int version;                 /* 1: no pidns= (judged as before); 2 */
	unsigned long long pidns;    /* inode of the creator's PID namespace; 0: unknown */
	bool side;                   /* read from the folder's .storbench-owner */
};
struct stat;
/* The mark was put on the inode st describes: false for a copy that kept
 * the extended attribute (cp -a, rsync -X, tar --xattrs) and for a mark of
 * a storbench that did not record its inode (then nobody can tell). */
bool sb_scratch_mark_names(const struct sb_scratch_mark *m, const struct stat *st);
/* 1 and the mark when path (not followed if a symlink) carries one, 0 when
 * it does not, -errno when it cannot be read. */
int sb_scratch_read_mark(const char *path, struct sb_scratch_mark *m);
/* --cleanup (run/cleanup.c): remove name in the folder open on dfd, a
 * leftover whose mark m was read and judged dead, only if name still names
 * the inode m names (not followed if a symlink; a file put in its place
 * since is left alone: -ESTALE).  0 or -errno (ENOTEMPTY for a folder). */
int sb_scratch_remove_at(int dfd, const char *name, bool dir, const struct sb_scratch_mark *m);
enum sb_scratch_owner { SB_OWNER_DEAD, SB_OWNER_ALIVE, SB_OWNER_UNKNOWN };
/* Is the process that made it still running?  Version 2 marks: another
 * host -> UNKNOWN; same host, another boot -> DEAD; same boot, another PID
 * namespace (a container) -> UNKNOWN; same namespace -> ALIVE iff the pid
 * exists and its start time is the mark's (a recycled pid is not the
 * creator).  Whatever cannot be read (boot id, namespace, a /proc of
 * another namespace, a pid hidden by hidepid=) -> UNKNOWN.  why (may be
 * NULL): for UNKNOWN, the reason in words. */
enum sb_scratch_owner sb_scratch_owner(const struct sb_scratch_mark *m);
enum sb_scratch_owner sb_scratch_owner_why(const struct sb_scratch_mark *m, const char **why);
/* "pid 123 on host h, job j" for messages */
void sb_scratch_mark_str(const struct sb_scratch_mark *m, char *buf, size_t len);

/* What an existing path (not followed) is to storbench, for a run that
 * meets it where it would create something: NONE (no mark, or a mark that
 * names another inode: the user's), KEPT (a finished run kept it on
 * purpose), DEAD (a killed run's leftover), LIVE (a storbench run still
 * running made it), UNKNOWN (cannot tell: another host or namespace).
 * said: a phrase to put after the path in a refusal, naming the creator
 * and the fix (for DEAD: "storbench --cleanup DIR"; dir: the folder to
 * name there); "" for NONE. */
enum sb_scratch_whose { SB_WHOSE_NONE, SB_WHOSE_KEPT, SB_WHOSE_DEAD, SB_WHOSE_LIVE, SB_WHOSE_UNKNOWN };
enum sb_scratch_whose sb_scratch_whose(const char *path, const char *dir, char *said, size_t len);

/* For files made without keeping their sb_scratch_id (kv_profile=mlperf
 * .npy files): remove path, or mark it kept, only if it is a regular file
 * carrying this process's mark that names its inode.  0, -ESTALE (not
 * ours: left alone), -ENOENT or another -errno. */
int sb_scratch_unlink_mine(const char *path);
int sb_scratch_keep_mine(const char *path);
#endif
