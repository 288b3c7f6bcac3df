/* libaio.c: the Linux native AIO engine (io_setup/io_submit/io_getevents)
 * through libaio.  queue() only prepares an iocb; commit() hands all prepared
 * iocbs to io_submit; getevents() first takes the completions already in the
 * ring the kernel maps into the process, without a syscall, and waits with
 * io_getevents only for the rest.  fio reads that ring only with
 * userspace_reap=1 and min 0; storbench always does, so the option is
 * accepted for compatibility and changes nothing.  Everything is allocated in
 * init(): the I/O path allocates nothing.
 *
 * Linux AIO has no usable fsync, so fsync/fdatasync units run synchronously,
 * once nothing is in flight (BUSY until then).  An iocb the kernel refuses at
 * submission (io_submit's error for that iocb, e.g. EBADF) becomes a completion
 * with that error, delivered by the next getevents(), so one bad request never
 * stalls the queue behind it. */
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "engines/engine.h"
#include "lib/trim.h"

/* libaio's job options, declared in every build (see io_uring.c) */
struct aio_opts {
	bool userspace_reap;    /* reap completions from the ring without a syscall (always done) */
};

static const struct sb_option aio_options[] = {
	{ .name = "userspace_reap", .type = SB_OT_BOOL, .off = offsetof(struct aio_opts, userspace_reap),
	  .def = "0", .category = SB_CAT_ENG,
	  .help = "libaio: accepted for fio; ready completions are always reaped from the user-mapped ring" },
};
const struct sb_engine_options sb_libaio_optset = {
	aio_options, sizeof(aio_options) / sizeof(aio_options[0]), sizeof(struct aio_opts),
};

#ifdef CONFIG_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/tsan.h"

/* The completion ring the kernel maps at the io_context_t address (the
 * layout of fs/aio.c, stable since 2.6). */
struct sb_aio_ring {
	unsigned id;
	unsigned nr;            /* number of io_events */
	unsigned head;          /* consumer: us (or the kernel in io_getevents) */
	unsigned tail;          /* producer: the kernel */
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};
#define SB_AIO_RING_MAGIC 0xa10a10a1u
#ifndef IOCB_FLAG_IOPRIO /* linux/aio_abi.h, which libaio.h does not include */
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio_data {
	io_context_t ctx;
	struct iocb *iocbs;        /* one per io unit, by io->index */
	struct iocb **pending;     /* queued, not yet submitted */
	unsigned npending;
	struct io_event *events;   /* io_getevents target */
	struct sb_io_u **done;     /* what event(i) returns */
	struct sb_io_u **local;    /* completed without the kernel (refused at submit) */
	unsigned nlocal;
	unsigned inflight;         /* submitted and not yet reaped */
	unsigned nios;
};

static void aio_free(struct aio_data *ad)
{
	free(ad->iocbs);
	free(ad->pending);
	free(ad->events);
	free(ad->done);
	free(ad->local);
	free(ad);
}

static int aio_setup_err(struct sb_engine_td *td, int r)
{
	if (r == -EAGAIN) {
		unsigned long max = 0;
		FILE *fp = fopen("/proc/sys/fs/aio-max-nr", "r");
		if (fp) {
			if (fscanf(fp, "%lu", &max) != 1)
				max = 0;
			fclose(fp);
		}
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "io_setup(%u): the system-wide AIO limit is reached (fs.aio-max-nr = %lu): "
			 "lower iodepth or numjobs, or raise fs.aio-max-nr", td->iodepth, max);
	} else if (r == -ENOSYS) {
		snprintf(td->errmsg, sizeof(td->errmsg),
			 "the kernel has no native AIO (io_setup: ENOSYS): use ioengine=psync or io_uring");
	} else {
		snprintf(td->errmsg, sizeof(td->errmsg), "io_setup(%u): %s", td->iodepth, strerror(-r));
	}
	return r;
}

static int aio_init(struct sb_engine_td *td)
{
	unsigned n = td->nios ? td->nios : 1;
	struct aio_data *ad = calloc(1, sizeof(*ad));
	if (!ad)
		return -ENOMEM;
	ad->iocbs = calloc(n, sizeof(*ad->iocbs));
	ad->pending = calloc(n, sizeof(*ad->pending));
	ad->events = calloc(n, sizeof(*ad->events));
	ad->done = calloc(n, sizeof(*ad->done));
	ad->local = calloc(n, sizeof(*ad->local));
	if (!ad->iocbs || !ad->pending || !ad->events || !ad->done || !ad->local) {
		aio_free(ad);
		return -ENOMEM;
	}
	ad->nios = n;
	int r = io_setup((int)n, &ad->ctx);
	if (r < 0) {
		aio_free(ad);
		return aio_setup_err(td, r);
	}
	sb_tsan_ring_new();
	for (unsigned i = 0; i < td->nios; i++) {
		td->ios[i].engine_priv = &ad->iocbs[i];
		ad->iocbs[i].data = &td->ios[i];
	}
	td->data = ad;
	return 0;
}

static void *destroy_main(void *arg)
{
	io_destroy((io_context_t)arg);
	return NULL;
}

/* io_destroy() waits for an RCU grace period (tens of ms) even when nothing
 * is in flight.  With nothing in flight no buffer can still be written by the
 * kernel, so the wait is handed to a detached thread and the run goes on (a
 * sweep tears down hundreds of contexts).  With I/O in flight (an interrupted
 * run) it stays synchronous: io_destroy waits for that I/O, and only then may
 * the buffers be freed. */
static void aio_cleanup(struct sb_engine_td *td)
{
	struct aio_data *ad = td->data;
	if (!ad)
		return;
	pthread_t tid;
	pthread_attr_t attr;
	bool deferred = false;
	sb_tsan_ring_released();
	if (!ad->inflight && !pthread_attr_init(&attr)) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		deferred = !pthread_create(&tid, &attr, destroy_main, (void *)ad->ctx);
		pthread_attr_destroy(&attr);
	}
	if (!deferred)
		io_destroy(ad->ctx);  /* waits for anything still in flight */
	aio_free(ad);
	td->data = NULL;
}

/* fsync/fdatasync: Linux AIO cannot do them, so they run here. */
static enum sb_q_status aio_sync_now(struct aio_data *ad, struct sb_io_u *io)
{
	if (ad->inflight || ad->npending || ad->nlocal)
		return SB_Q_BUSY;  /* a sync must follow the writes before it */
	int r = io->ddir == SB_DDIR_SYNC ? fsync(io->file->fd) : fdatasync(io->file->fd);
	io->result = r ? -errno : 0;
	return SB_Q_COMPLETED;
}

static enum sb_q_status aio_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct aio_data *ad = td->data;
	struct iocb *cb = io->engine_priv;

	switch (io->ddir) {
	case SB_DDIR_READ:
		io_prep_pread(cb, io->file->fd, io->buf, io->len, (long long)io->offset);
		break;
	case SB_DDIR_WRITE:
		io_prep_pwrite(cb, io->file->fd, io->buf, io->len, (long long)io->offset);
		break;
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		return aio_sync_now(ad, io);
	case SB_DDIR_SYNCRANGE: /* not an AIO operation: here, as fio */
		io->result = sb_sync_range(io->file->fd, io->offset, io->len,
					   td->job ? td->job->sfr_flags : 0);
		return SB_Q_COMPLETED;
	case SB_DDIR_TRIM: /* not an AIO operation: here, as fio */
		io->result = sb_trim(io->file->fd, io->file->is_bdev, io->offset, io->len);
		return SB_Q_COMPLETED;
	default:
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	if (io->ioprio) { /* cmdprio_*: this I/O's own priority */
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
		cb->aio_reqprio = (short)io->ioprio;
	}
	if (ad->npending + ad->inflight + ad->nlocal >= ad->nios)
		return SB_Q_BUSY;
	cb->data = io;
	ad->pending[ad->npending++] = cb;
	return SB_Q_QUEUED;
}

/* Drop the first n entries of the pending array. */
static void aio_pending_drop(struct aio_data *ad, unsigned n)
{
	ad->npending -= n;
	if (ad->npending)
		memmove(ad->pending, ad->pending + n, ad->npending * sizeof(*ad->pending));
}

/* Submit everything pending.  Returns 0, or -EAGAIN when the kernel took
 * nothing and nothing is in flight to make room. */
static int aio_commit(struct sb_engine_td *td)
{
	struct aio_data *ad = td->data;

	while (ad->npending) {
		int r = io_submit(ad->ctx, (long)ad->npending, ad->pending);
		if (r > 0) {
			ad->inflight += (unsigned)r;
			aio_pending_drop(ad, (unsigned)r);
		} else if (r == -EINTR) {
			continue;
		} else if (r == -EAGAIN || r == 0) {
			/* out of kernel resources: retry after some completions */
			return ad->inflight || ad->nlocal ? 0 : -EAGAIN;
		} else {
			/* the first pending iocb was refused: complete it with the error */
			struct sb_io_u *io = ad->pending[0]->data;
			io->result = r;
			ad->local[ad->nlocal++] = io;
			aio_pending_drop(ad, 1);
		}
	}
	return 0;
}

/* Read up to max completions from the user-mapped ring: no syscall. */
static int aio_ring_reap(struct aio_data *ad, struct io_event *ev, unsigned max)
{
	struct sb_aio_ring *ring = (struct sb_aio_ring *)ad->ctx;
	unsigned head = ring->head, n = 0;
	unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);

	while (n < max && head != tail) {
		ev[n++] = ring->events[head];
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static unsigned aio_take_events(struct aio_data *ad, unsigned at, int n)
{
	for (int i = 0; i < n; i++) {
		struct io_event *ev = &ad->events[at + (unsigned)i];
		struct sb_io_u *io = ev->obj->data;
		io->result = (int64_t)(long)ev->res;
		ad->done[at + (unsigned)i] = io;
	}
	ad->inflight -= (unsigned)n;
	return at + (unsigned)n;
}

static int aio_getevents(struct sb_engine_td *td, unsigned min, unsigned max,
			 const struct timespec *timeout)
{
	struct aio_data *ad = td->data;
	unsigned got = 0;

	if (ad->npending) {
		int r = aio_commit(td);
		if (r < 0 && !ad->inflight && !ad->nlocal)
			return r;
	}
	if (max > ad->nios)
		max = ad->nios;
	while (ad->nlocal && got < max)
		ad->done[got++] = ad->local[--ad->nlocal];
	if (min > got + ad->inflight)
		min = got + ad->inflight;  /* never wait for what was not submitted */

	/* Completions already in the user-mapped ring are taken without a
	 * syscall (what fio does only with userspace_reap=1 and min 0);
	 * io_getevents only waits for the rest. */
	if (((struct sb_aio_ring *)ad->ctx)->magic == SB_AIO_RING_MAGIC && got < max && ad->inflight) {
		int r = aio_ring_reap(ad, ad->events + got, max - got);
		if (r > 0)
			got = aio_take_events(ad, got, r);
	}
	while (got < min && got < max && ad->inflight) {
		struct timespec ts, *tp = NULL;
		if (timeout) {
			ts = *timeout;
			tp = &ts;
		}
		int r = io_getevents(ad->ctx, (long)(min - got), (long)(max - got), ad->events + got, tp);
		if (r > 0)
			got = aio_take_events(ad, got, r);
		else if (r == -EINTR || r == 0)
			break;  /* signal or timeout: return what we have */
		else if (r < 0)
			return got ? (int)got : r;
	}
	return (int)got;
}

static struct sb_io_u *aio_event(struct sb_engine_td *td, unsigned i)
{
	struct aio_data *ad = td->data;
	return ad->done[i];
}

const struct sb_engine_ops sb_engine_libaio = {
	.name = "libaio",
	.description = "Linux native asynchronous I/O (io_submit/io_getevents); use with direct=1",
	.flags = SB_ENGINE_ALIGNED,
	.options = &sb_libaio_optset,
	.init = aio_init,
	.cleanup = aio_cleanup,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
};
#endif /* CONFIG_LIBAIO */
