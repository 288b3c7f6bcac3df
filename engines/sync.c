/* sync.c: the sync engine: lseek(2) then read(2)/write(2), as fio's "sync";
 * the lseek is skipped when the file position is already the offset.
 * fsync(2)/fdatasync(2) for sync units.  Completes inside queue(); a short
 * transfer is reported as it is and run/ queues the rest (run/resid.h) at
 * the file position it left. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/sysio.h"
#include "lib/trim.h"

/* td->data: the file position of each of td->files, UINT64_MAX = unknown */
static int sync_init(struct sb_engine_td *td)
{
	uint64_t *pos = malloc((td->nfiles ? td->nfiles : 1) * sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	for (unsigned i = 0; i < (td->nfiles ? td->nfiles : 1); i++)
		pos[i] = UINT64_MAX;
	td->data = pos;
	return 0;
}

static void sync_cleanup(struct sb_engine_td *td)
{
	free(td->data);
	td->data = NULL;
}

/* A file slot may get another file (the ML workloads open each file of a
 * dataset or checkpoint in slot 0) or the same file anew: its position is
 * the new descriptor's, not the one remembered */
static int sync_open_file(struct sb_engine_td *td, struct sb_file *f)
{
	if (f->index < (td->nfiles ? td->nfiles : 1))
		((uint64_t *)td->data)[f->index] = UINT64_MAX;
	return 0;
}

static ssize_t sync_rw(struct sb_engine_td *td, struct sb_io_u *io)
{
	uint64_t *pos = &((uint64_t *)td->data)[io->file->index];
	int fd = io->file->fd;
	if (*pos != io->offset && lseek(fd, (off_t)io->offset, SEEK_SET) < 0) {
		*pos = UINT64_MAX;
		return -1;
	}
	ssize_t r = io->ddir == SB_DDIR_WRITE ? sb_write(fd, io->buf, io->len) : sb_read(fd, io->buf, io->len);
	*pos = r < 0 ? UINT64_MAX : io->offset + (uint64_t)r;
	return r;
}

static enum sb_q_status sync_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	ssize_t r;
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE:
		r = sync_rw(td, io);
		break;
	case SB_DDIR_SYNC:
		r = fsync(io->file->fd);
		break;
	case SB_DDIR_SYNCRANGE:
		io->result = sb_sync_range(io->file->fd, io->offset, io->len,
					   td->job ? td->job->sfr_flags : 0);
		return SB_Q_COMPLETED;
	case SB_DDIR_TRIM: /* positional: leaves the file position alone */
		io->result = sb_trim(io->file->fd, io->file->is_bdev, io->offset, io->len);
		return SB_Q_COMPLETED;
	case SB_DDIR_DATASYNC:
		r = fdatasync(io->file->fd);
		break;
	default:
		r = -1;
		errno = EOPNOTSUPP;
		break;
	}
	io->result = r < 0 ? -errno : r;
	return SB_Q_COMPLETED;
}

const struct sb_engine_ops sb_engine_sync = {
	.name = "sync",
	.description = "lseek then read/write, one I/O at a time (iodepth is 1)",
	.flags = SB_ENGINE_SYNC,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.open_file = sync_open_file,
	.queue = sync_queue,
};
