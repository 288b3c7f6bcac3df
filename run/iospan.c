/* iospan.c: the I/O loop's entry points around sb_ioloop_run (ioloop.h):
 * end_fsync, a span of one file (sb_ioloop_span), and the failed file's path
 * for the error message; out of ioloop.c to keep it under 600 lines. */
#include <errno.h>
#include <stdio.h>

#include "run/ioloop.h"
#include "lib/timeutil.h"

/* fsync one file through the engine, timed into sync_lat */
static void sync_file(struct sb_thread *t, struct sb_loopstate *ls, struct sb_file *f)
{
	struct sb_io_u *io = &t->etd.ios[0];
	io->ddir = SB_DDIR_SYNC;
	io->file = f;
	io->offset = 0;
	io->len = 0;
	io->start_ns = sb_now_ns();
	enum sb_q_status s = t->ops->queue(&t->etd, io);
	if (s == SB_Q_QUEUED) {
		int r = t->ops->commit ? t->ops->commit(&t->etd) : 0;
		if (r >= 0)
			r = t->ops->getevents(&t->etd, 1, 1, NULL);
		if (r < 0)
			io->result = r;
	} else if (s == SB_Q_BUSY) {
		io->result = -EBUSY;
	}
	ls->now = sb_now_ns();
	sb_ioloop_done(t, ls, io); /* a sync unit: timed into sync_lat */
}

void sb_ioloop_end_fsync(struct sb_thread *t, struct sb_loopstate *ls)
{
	if (!t->spec->end_fsync || !(t->spec->rw & SB_RW_WRITE) || (t->ops->flags & SB_ENGINE_NODISKIO))
		return;
	for (unsigned i = 0; i < t->etd.nfiles && !ls->stop; i++)
		sync_file(t, ls, &t->files[i]);
}

void sb_ioloop_error_path(struct sb_thread *t)
{
	struct sb_errinfo *ei = &t->st->err;
	for (unsigned i = 0; i < t->st->ndump; i++) { /* error_dump's records */
		struct sb_errdump *dp = &t->st->dump[i];
		if (!dp->path[0] && dp->file < t->etd.nfiles && t->files[dp->file].path)
			snprintf(dp->path, sizeof(dp->path), "%s", t->files[dp->file].path);
	}
	if (!t->st->error || ei->path[0] || ei->file >= t->etd.nfiles || !t->files[ei->file].path)
		return;
	snprintf(ei->path, sizeof(ei->path), "%s", t->files[ei->file].path);
}

int sb_ioloop_span(struct sb_thread *t, struct sb_file *f, int ddir, uint64_t offset, uint64_t len,
		   bool fsync_after)
{
	int d = ddir == SB_DDIR_WRITE ? SB_DDIR_WRITE : SB_DDIR_READ;
	return sb_ioloop_span_bs(t, f, d, offset, len, t->spec->bs[d], fsync_after);
}

int sb_ioloop_span_bs(struct sb_thread *t, struct sb_file *f, int ddir, uint64_t offset, uint64_t len,
		      uint64_t bs, bool fsync_after)
{
	struct sb_loopstate ls = { .deadline = UINT64_MAX, .wake = UINT64_MAX, .counting = true };
	int d = ddir == SB_DDIR_WRITE ? SB_DDIR_WRITE : SB_DDIR_READ;
	sb_iogen_init_span(&t->gen, t->spec, f, d, offset, len, bs);
	ls.now = sb_now_ns();
	sb_ioloop_run(t, &ls);
	if (fsync_after && !ls.stop && !(t->ops->flags & SB_ENGINE_NODISKIO))
		sync_file(t, &ls, f);
	sb_ioloop_error_path(t);
	if (t->st->error)
		return -t->st->error;
	return sb_stopping() ? -EINTR : 0;
}
