/* filecreate.c: the filecreate engine (fio 3.33's): each file is one create (open O_CREAT), made through the
 * writer gate and marked; a file already there is looked up (stat), in place of
 * fio's open of it, and left as it is: storbench opens a user's file only
 * through the one reader (os/infile.c), which engines do not reach.  Nothing
 * is laid out before. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/fileop.h"

static int create_one(struct sb_engine_td *td, struct sb_file *f)
{
	int r = td->job->fs->create(f->path, false, td->job->job);
	if (r != -EEXIST)
		return r;
	struct stat st; /* fio opens what is there: its metadata lookup, without the open */
	return stat(f->path, &st) ? -errno : 0;
}

static int filecreate_init(struct sb_engine_td *td)
{
	return sb_fileop_init(td, false);
}

static enum sb_q_status filecreate_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	return sb_fileop_queue(td, io, create_one);
}

const struct sb_engine_ops sb_engine_filecreate = {
	.name = "filecreate",
	.description = "an I/O per file: creates it (empty; one there already is looked up, untouched); the file's other I/Os complete at once",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA | SB_ENGINE_FILEOP | SB_ENGINE_NODISKIO,
	.init = filecreate_init,
	.cleanup = sb_fileop_cleanup,
	.queue = filecreate_queue,
};
