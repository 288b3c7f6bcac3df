/* falloc.c: the falloc engine (fio's): each I/O is one fallocate(2) over
 * the I/O's range instead of a data transfer.  A write allocates and extends
 * the file (mode 0), a read allocates without changing the size
 * (FALLOC_FL_KEEP_SIZE), a trim punches a hole (FALLOC_FL_PUNCH_HOLE |
 * KEEP_SIZE); sync units fsync/fdatasync.  An I/O that succeeds counts its
 * full length, as fio's.  Punching a hole destroys data, so a trim acts only
 * on a file this run created (f->created); on the user's file it fails with
 * EPERM and the file is left as it was. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "engines/engine.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif

/* nothing to prepare beyond the io units the runner allocated */
static int falloc_init(struct sb_engine_td *td)
{
	return td->ios && td->nios ? 0 : -EINVAL;
}

static enum sb_q_status falloc_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	int fd = io->file->fd, mode, r;
	(void)td;
	switch (io->ddir) {
	case SB_DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case SB_DDIR_WRITE:
		mode = 0;
		break;
	case SB_DDIR_TRIM:
		if (!io->file->created) { /* never the user's data */
			io->result = -EPERM;
			return SB_Q_COMPLETED;
		}
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	case SB_DDIR_SYNC:
		io->result = fsync(fd) ? -errno : 0;
		return SB_Q_COMPLETED;
	case SB_DDIR_DATASYNC:
	case SB_DDIR_SYNCRANGE:
		io->result = fdatasync(fd) ? -errno : 0;
		return SB_Q_COMPLETED;
	default:
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	r = fallocate(fd, mode, (off_t)io->offset, (off_t)io->len);
	io->result = r ? -errno : (int64_t)io->len;
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_falloc = {
	.name = "falloc",
	.description = "an I/O is one fallocate(2) of its range: write allocates and extends, "
		       "read allocates (KEEP_SIZE), trim punches a hole (files this run created only)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODATA,
	.init = falloc_init,
	.queue = falloc_queue,
};
