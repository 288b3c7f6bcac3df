/* psync.c: the psync engine: pread(2)/pwrite(2) at the io unit's offset,
 * fsync(2)/fdatasync(2) for sync units.  Completes inside queue(); a short
 * transfer is reported as it is and run/ queues the rest (run/resid.h). */
#include <errno.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/sysio.h"
#include "lib/trim.h"

/* nothing to prepare beyond the io units the runner allocated */
static int psync_init(struct sb_engine_td *td)
{
	return td->ios && td->nios ? 0 : -EINVAL;
}

static enum sb_q_status psync_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	int fd = io->file->fd;
	ssize_t r;
	switch (io->ddir) {
	case SB_DDIR_READ:
		r = sb_pread(fd, io->buf, io->len, (off_t)io->offset);
		break;
	case SB_DDIR_WRITE:
		r = sb_pwrite(fd, io->buf, io->len, (off_t)io->offset);
		break;
	case SB_DDIR_SYNC:
		r = fsync(fd);
		break;
	case SB_DDIR_TRIM:
		io->result = sb_trim(fd, io->file->is_bdev, io->offset, io->len);
		return SB_Q_COMPLETED;
	case SB_DDIR_SYNCRANGE:
		io->result = sb_sync_range(fd, io->offset, io->len, td->job ? td->job->sfr_flags : 0);
		return SB_Q_COMPLETED;
	case SB_DDIR_DATASYNC:
		r = fdatasync(fd);
		break;
	default:
		r = -1;
		errno = EOPNOTSUPP;
		break;
	}
	io->result = r < 0 ? -errno : r;
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_psync = {
	.name = "psync",
	.description = "pread/pwrite at the I/O offset, one I/O at a time (iodepth is 1)",
	.flags = SB_ENGINE_SYNC,
	.init = psync_init,
	.queue = psync_queue,
};
