/* dircreate.c: the dircreate engine (fio 3.33's): each file of the job is one folder made (mkdir), through the
 * writer gate and marked; a folder already there is an error (EEXIST), as
 * fio's.  Nothing is laid out before. */

#include "engines/fileop.h"

static int mkdir_one(struct sb_engine_td *td, struct sb_file *f)
{
	return td->job->fs->create(f->path, true, td->job->job);
}

static int dircreate_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, false);
}

static enum sb_q_status dircreate_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, mkdir_one);
}

const struct sb_engine_ops sb_engine_dircreate = {
	.name = "dircreate",
	.description = "an I/O per file: makes it a folder (mkdir); the file's other I/Os complete at once",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP | SB_ENGINE_NODISKIO,
	.init = dircreate_init,
	.cleanup = sb_fileop_cleanup,
	.queue = dircreate_queue,
};
