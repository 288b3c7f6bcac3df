/* filedelete.c: the filedelete engine (fio 3.33's): each file is one removal (unlink).  The files are laid out by
 * the run first; only a file this run made is removed (run/engfs.c): a
 * file that was there before fails with EPERM and is left as it is. */

#include "engines/fileop.h"

static int unlink_one(struct sb_engine_td *td, struct sb_file *f)
{
	return td->job->fs->remove(f->path, false);
}

static int filedelete_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, false);
}

static enum sb_q_status filedelete_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, unlink_one);
}

const struct sb_engine_ops sb_engine_filedelete = {
	.name = "filedelete",
	.description = "an I/O per file: removes it (unlink; only files this run laid out, others fail with EPERM)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP,
	.init = filedelete_init,
	.cleanup = sb_fileop_cleanup,
	.queue = filedelete_queue,
};
