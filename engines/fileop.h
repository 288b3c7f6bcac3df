/* fileop.h: what the file and folder operation engines share (fio 3.33's
 * filecreate, filestat, filedelete, dircreate, dirstat, dirdelete).  Each
 * file of the job is one operation, done on the first I/O that reaches the
 * file and timed as that I/O (its latency is the operation's); the file's
 * other I/Os complete at once with their full length, so total_ios and
 * io_bytes count filesize/bs I/Os per file as fio's do.  Creation and
 * removal go through td->job->fs (run/ gives it: the writer gate, and
 * removal of this run's own files only). */
#ifndef SB_ENGINES_FILEOP_H
#define SB_ENGINES_FILEOP_H
#include "engines/engine.h"

/* one operation on file f: 0 or -errno */
typedef int (*sb_fileop_fn)(struct sb_engine_td *td, struct sb_file *f);

/* per-thread state: which files had their operation; mkdirs: make each
 * file's folder first (dirstat, dirdelete: fio's setup_dirs, an existing
 * folder is fine).  0 or -errno (td->errmsg says why). */
int sb_fileop_init(struct sb_engine_td *td, bool mkdirs);
void sb_fileop_cleanup(struct sb_engine_td *td);
/* the I/O: op on the file's first I/O, the rest complete at once; sync
 * units complete at once (there is no descriptor to sync) */
enum sb_q_status sb_fileop_queue(struct sb_engine_td *td, struct sb_io_u *io, sb_fileop_fn op);
/* the stat engines: stat_type=stat|lstat|statx (fio's), stat_type's rows */
int sb_fileop_stat(struct sb_engine_td *td, struct sb_file *f);
extern const struct sb_engine_options sb_fileop_stat_optset;
#endif
