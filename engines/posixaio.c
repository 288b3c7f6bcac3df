/* posixaio.c: the POSIX asynchronous I/O engine (aio_read/aio_write,
 * aio_error/aio_return, aio_suspend), as fio's posixaio.  glibc runs each
 * request on a helper thread of its own pool, so this is the portable
 * asynchronous engine, not the fast one: prefer io_uring or libaio on Linux.
 *
 * queue() hands the request to aio_read/aio_write at once (there is no
 * commit step, as in fio: fio's t0017 checks slat + clat = lat without one);
 * a request refused there completes with that error at the next getevents
 * (EAGAIN with requests in flight is BUSY: retried after completions).
 * getevents() collects finished requests with aio_error/aio_return and waits
 * with aio_suspend only for those still missing.  fsync/fdatasync, trims and
 * sync_file_range run synchronously once nothing is in flight (BUSY until
 * then), as in the libaio engine.  Everything is allocated in init(): the I/O
 * path allocates nothing of its own (glibc's request pool is glibc's). */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/trim.h"

struct pa_data {
	struct aiocb *cbs;          /* one per io unit, by io->index */
	struct sb_io_u **fl;        /* in flight, in no particular order */
	unsigned nfl;
	const struct aiocb **wait;  /* aio_suspend's list */
	struct sb_io_u **done;      /* what event(i) returns */
	struct sb_io_u **local;     /* refused at submission: completed here */
	unsigned nlocal;
	unsigned nios;
};

static void pa_free(struct pa_data *pd)
{
	free(pd->cbs);
	free(pd->fl);
	free(pd->wait);
	free(pd->done);
	free(pd->local);
	free(pd);
}

static int pa_init(struct sb_engine_td *td)
{
	unsigned n = td->nios ? td->nios : 1;
	struct pa_data *pd = calloc(1, sizeof(*pd));
	if (!pd)
		return -ENOMEM;
	pd->cbs = calloc(n, sizeof(*pd->cbs));
	pd->fl = calloc(n, sizeof(*pd->fl));
	pd->wait = calloc(n, sizeof(*pd->wait));
	pd->done = calloc(n, sizeof(*pd->done));
	pd->local = calloc(n, sizeof(*pd->local));
	if (!pd->cbs || !pd->fl || !pd->wait || !pd->done || !pd->local) {
		pa_free(pd);
		return -ENOMEM;
	}
	pd->nios = n;
	for (unsigned i = 0; i < td->nios; i++)
		td->ios[i].engine_priv = &pd->cbs[i];
	td->data = pd;
	return 0;
}

/* wait for everything in flight (cancelled first): the buffers may be freed
 * once this returns */
static void pa_drain(struct pa_data *pd)
{
	for (unsigned i = 0; i < pd->nfl; i++) {
		struct aiocb *cb = pd->fl[i]->engine_priv;
		aio_cancel(cb->aio_fildes, cb);
	}
	for (;;) {
		unsigned n = 0;
		for (unsigned i = 0; i < pd->nfl; i++) {
			struct aiocb *cb = pd->fl[i]->engine_priv;
			if (aio_error(cb) == EINPROGRESS) {
				pd->fl[n] = pd->fl[i];
				pd->wait[n++] = cb;
			} else {
				aio_return(cb);
			}
		}
		pd->nfl = n;
		if (!n)
			return;
		aio_suspend(pd->wait, (int)n, NULL);
	}
}

static void pa_cleanup(struct sb_engine_td *td)
{
	struct pa_data *pd = td->data;
	if (!pd)
		return;
	pa_drain(pd);
	pa_free(pd);
	td->data = NULL;
}

/* the operations POSIX AIO has no asynchronous form of here: run now, once
 * the requests before them are done */
static enum sb_q_status pa_sync_now(struct sb_engine_td *td, struct pa_data *pd,
				    struct sb_io_u *io)
{
	if (pd->nfl || pd->nlocal)
		return SB_Q_BUSY;
	int fd = io->file->fd, r;
	switch (io->ddir) {
	case SB_DDIR_SYNC:
		r = fsync(fd);
		break;
	case SB_DDIR_DATASYNC:
		r = fdatasync(fd);
		break;
	case SB_DDIR_TRIM:
		io->result = sb_trim(fd, io->file->is_bdev, io->offset, io->len);
		return SB_Q_COMPLETED;
	case SB_DDIR_SYNCRANGE:
		io->result = sb_sync_range(fd, io->offset, io->len, td->job ? td->job->sfr_flags : 0);
		return SB_Q_COMPLETED;
	default:
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	io->result = r ? -errno : 0;
	return SB_Q_COMPLETED;
}

static enum sb_q_status pa_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct pa_data *pd = td->data;
	struct aiocb *cb = io->engine_priv;
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)
		return pa_sync_now(td, pd, io);
	if (pd->nfl + pd->nlocal >= pd->nios)
		return SB_Q_BUSY;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = io->file->fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	int r = io->ddir == SB_DDIR_READ ? aio_read(cb) : aio_write(cb);
	if (r && errno == EAGAIN && pd->nfl)
		return SB_Q_BUSY; /* glibc out of requests: retry after completions, as fio */
	if (r) { /* refused: a completion with the error, at the next getevents */
		io->result = -errno;
		pd->local[pd->nlocal++] = io;
		return SB_Q_QUEUED;
	}
	pd->fl[pd->nfl++] = io;
	return SB_Q_QUEUED;
}

/* move finished requests from fl to done[got..], at most max in all */
static unsigned pa_collect(struct pa_data *pd, unsigned got, unsigned max)
{
	for (unsigned i = 0; i < pd->nfl && got < max;) {
		struct sb_io_u *io = pd->fl[i];
		struct aiocb *cb = io->engine_priv;
		int e = aio_error(cb);
		if (e == EINPROGRESS) {
			i++;
			continue;
		}
		ssize_t r = aio_return(cb);
		io->result = e ? -(int64_t)e : (int64_t)r;
		pd->done[got++] = io;
		pd->fl[i] = pd->fl[--pd->nfl];
	}
	return got;
}

static int pa_getevents(struct sb_engine_td *td, unsigned min, unsigned max,
			const struct timespec *timeout)
{
	struct pa_data *pd = td->data;
	unsigned got = 0;
	if (max > pd->nios)
		max = pd->nios;
	while (pd->nlocal && got < max)
		pd->done[got++] = pd->local[--pd->nlocal];
	if (min > got + pd->nfl)
		min = got + pd->nfl; /* never wait for what was not submitted */
	for (;;) {
		got = pa_collect(pd, got, max);
		if (got >= min || got >= max || !pd->nfl)
			return (int)got;
		for (unsigned i = 0; i < pd->nfl; i++)
			pd->wait[i] = pd->fl[i]->engine_priv;
		if (aio_suspend(pd->wait, (int)pd->nfl, timeout)) {
			if (errno == EAGAIN || errno == EINTR) /* timeout or signal */
				return (int)pa_collect(pd, got, max);
			return got ? (int)got : -errno;
		}
	}
}

static struct sb_io_u *pa_event(struct sb_engine_td *td, unsigned i)
{
	struct pa_data *pd = td->data;
	return pd->done[i];
}

const struct sb_engine_ops sb_engine_posixaio = {
	.name = "posixaio",
	.description = "POSIX asynchronous I/O (aio_read/aio_write, aio_suspend; glibc's thread pool)",
	.flags = 0,
	.init = pa_init,
	.cleanup = pa_cleanup,
	.queue = pa_queue,
	.getevents = pa_getevents,
	.event = pa_event,
};
