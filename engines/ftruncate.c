/* ftruncate.c: the ftruncate engine (fio's): each write I/O is one
 * ftruncate(2) of the file to the I/O's offset (bytes), no data moves; a
 * sync unit fsyncs/fdatasyncs; reads and trims fail with EINVAL, as fio's.
 * An I/O that succeeds counts its full length, as fio's.  Truncating
 * destroys data, so open_file refuses a file this run did not create
 * (f->created): the user's files are never cut. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "engines/engine.h"

/* nothing to prepare beyond the io units the runner allocated */
static int ftrunc_init(struct sb_engine_td *td)
{
	return td->ios && td->nios ? 0 : -EINVAL;
}

static int ftrunc_open(struct sb_engine_td *td, struct sb_file *f)
{
	if (f->created)
		return 0;
	snprintf(td->errmsg, sizeof(td->errmsg),
		 "ioengine=ftruncate truncates only files this run creates, and %s existed "
		 "before it: name a file that does not exist yet (or remove it yourself)", f->path);
	return -EPERM;
}

static enum sb_q_status ftrunc_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	int fd = io->file->fd, r;
	(void)td;
	switch (io->ddir) {
	case SB_DDIR_WRITE:
		r = io->file->created ? ftruncate(fd, (off_t)io->offset) : (errno = EPERM, -1);
		io->result = r ? -errno : (int64_t)io->len;
		break;
	case SB_DDIR_SYNC:
		io->result = fsync(fd) ? -errno : 0;
		break;
	case SB_DDIR_DATASYNC:
	case SB_DDIR_SYNCRANGE:
		io->result = fdatasync(fd) ? -errno : 0;
		break;
	default:
		io->result = -EINVAL; /* fio's: only writes truncate */
		break;
	}
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_ftruncate = {
	.name = "ftruncate",
	.description = "a write I/O is one ftruncate(2) of the file to the I/O's offset "
		       "(files this run created only); reads fail with EINVAL",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA,
	.init = ftrunc_init,
	.open_file = ftrunc_open,
	.queue = ftrunc_queue,
};
