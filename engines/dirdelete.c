/* dirdelete.c: the dirdelete engine (fio 3.33's): each file of the job is one folder removed (rmdir).  The
 * folders are made at init (fio's setup_dirs); only a folder this run made
 * is removed (run/engfs.c): one that was there before fails with EPERM. */

#include "engines/fileop.h"

static int rmdir_one(struct sb_engine_td *td, struct sb_file *f)
{
	return td->job->fs->remove(f->path, true);
}

static int dirdelete_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, true);
}

static enum sb_q_status dirdelete_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, rmdir_one);
}

const struct sb_engine_ops sb_engine_dirdelete = {
	.name = "dirdelete",
	.description = "an I/O per file: removes its folder (rmdir; folders are made first; only folders this run made)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP | SB_ENGINE_NODISKIO,
	.init = dirdelete_init,
	.cleanup = sb_fileop_cleanup,
	.queue = dirdelete_queue,
};
