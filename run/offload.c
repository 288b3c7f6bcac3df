/* offload.c: io_submit_mode=offload's submission workers (see offload.h).
 *
 * fio's facts this follows (fio-3.33 source):
 * - rate-submit.c:302 workqueue_init(..., td->o.iodepth, ...): iodepth
 *   workers per job;
 * - rate-submit.c:154-169: each worker duplicates the job's files, loads its
 *   own engine and runs it at iodepth=1;
 * - rate-submit.c:66-99: a worker queues the I/O and, when the engine
 *   queued it, waits for its completion;
 * - backend.c:1076-1093: the job thread hands each I/O over
 *   (workqueue_enqueue) and charges the rate at that moment;
 * - backend.c:1151: at the end the job thread waits for the workers
 *   (workqueue_flush). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "run/offload.h"
#include "run/ioloop.h"
#include "run/files.h"
#include "run/resid.h"
#include "lib/log.h"
#include "lib/timeutil.h"

enum { W_FREE, W_GO, W_DONE };

struct offw {
	struct sb_offpool *p;
	struct sb_io_u *pio;       /* the job thread's io unit it runs */
	struct sb_engine_td etd;   /* its engine instance, iodepth 1 */
	struct sb_io_u io;         /* its one io unit (index 0) */
	struct sb_file *files;     /* its copies of the job's files */
	pthread_t tid;
	pthread_cond_t cv;
	int state;
	uint64_t done_ns;
	bool files_open, up, started;
};

struct sb_offpool {
	struct sb_thread *t;
	pthread_mutex_t mu;
	pthread_cond_t done_cv;    /* a worker finished an I/O or its start */
	unsigned n, ready;
	bool quit;
	int err;                   /* the first worker's start failure */
	struct offw w[];
};

static int worker_open(struct offw *w)
{
	struct sb_thread *t = w->p->t;
	w->etd = t->etd;
	w->etd.iodepth = 1;
	w->etd.ios = &w->io;
	w->etd.nios = 1;
	w->etd.buf_base = w->pio->buf;
	w->etd.buf_len = t->etd.buf_per_io;
	w->etd.data = NULL;
	w->etd.errmsg[0] = 0;
	w->io = (struct sb_io_u){ .buf = w->pio->buf };
	w->etd.files = w->files;
	int r = t->ops->init ? t->ops->init(&w->etd) : 0;
	if (r)
		return r;
	w->up = true;
	if (t->ops->flags & SB_ENGINE_NODISKIO)
		return 0;
	for (unsigned i = 0; i < w->etd.nfiles; i++) {
		struct sb_file *f = &w->files[i];
		f->engine_data = NULL;
		f->fsync_on_close = false; /* the job thread's descriptor does that */
		f->created = false;
		if ((r = sb_files_open(f, t->spec)))
			return r;
		w->files_open = true;
		if (t->ops->open_file && (r = t->ops->open_file(&w->etd, f)))
			return r;
	}
	return 0;
}

static void worker_close(struct offw *w)
{
	const struct sb_engine_ops *ops = w->p->t->ops;
	for (unsigned i = 0; w->files_open && i < w->etd.nfiles; i++) {
		if (w->up && ops->close_file && w->files[i].fd >= 0)
			ops->close_file(&w->etd, &w->files[i]);
		sb_files_close(&w->files[i]);
	}
	if (w->up && ops->cleanup)
		ops->cleanup(&w->etd);
	w->up = false;
}

/* one part of an I/O at depth 1: queue, and if the engine queued it, commit
 * and wait; issue: when it was submitted */
static void worker_part(const struct sb_engine_ops *ops, struct offw *w, uint64_t *issue)
{
	struct sb_io_u *io = &w->io;
	enum sb_q_status q = ops->queue(&w->etd, io);
	if (q == SB_Q_BUSY) {
		io->result = -EBUSY; /* nothing else is in flight on this instance */
	} else if (q == SB_Q_QUEUED) {
		int r = ops->commit ? ops->commit(&w->etd) : 0;
		*issue = sb_now_ns();
		if (r < 0) {
			io->result = r;
		} else {
			int n;
			do
				n = ops->getevents(&w->etd, 1, 1, NULL);
			while (n == 0);
			if (n < 0)
				io->result = n;
			else
				io->result = ops->event(&w->etd, 0)->result;
		}
	}
}

/* one I/O, whole: a short transfer's rest is queued again (run/resid.h) */
static void worker_io(struct offw *w)
{
	const struct sb_engine_ops *ops = w->p->t->ops;
	struct sb_io_u *io = &w->io, *pio = w->pio;
	io->ddir = pio->ddir;
	io->file = pio->file ? &w->files[pio->file->index] : NULL;
	io->len = pio->len;
	io->offset = pio->offset;
	io->ioprio = pio->ioprio;
	io->start_ns = pio->start_ns;
	io->result = 0;
	uint64_t issue = io->start_ns, later = 0;
	worker_part(ops, w, &issue);
	while (sb_resid_next(io))
		worker_part(ops, w, &later);
	sb_resid_end(io);
	pio->result = io->result;
	pio->issue_ns = issue;
}

static void *worker_main(void *arg)
{
	struct offw *w = arg;
	struct sb_offpool *p = w->p;
	int r = worker_open(w);
	pthread_mutex_lock(&p->mu);
	if (r && !p->err) {
		p->err = r;
		sb_err(p->t->spec->name, "io_submit_mode=offload: ioengine=%s in a submission worker: %s%s%s",
		       p->t->ops->name, strerror(-r), w->etd.errmsg[0] ? ": " : "", w->etd.errmsg);
	}
	p->ready++;
	pthread_cond_broadcast(&p->done_cv);
	for (;;) {
		while (w->state != W_GO && !p->quit)
			pthread_cond_wait(&w->cv, &p->mu);
		if (w->state != W_GO)
			break;
		pthread_mutex_unlock(&p->mu);
		if (r)
			w->pio->result = r;
		else
			worker_io(w);
		uint64_t now = sb_now_ns();
		pthread_mutex_lock(&p->mu);
		w->done_ns = now;
		w->state = W_DONE;
		pthread_cond_signal(&p->done_cv);
	}
	pthread_mutex_unlock(&p->mu);
	worker_close(w);
	return NULL;
}

int sb_offload_start(struct sb_thread *t, struct sb_offpool **pp)
{
	unsigned n = t->etd.nios;
	struct sb_offpool *p = calloc(1, sizeof(*p) + n * sizeof(p->w[0]));
	if (!p)
		return -ENOMEM;
	p->t = t;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->done_cv, NULL);
	*pp = p;
	for (unsigned k = 0; k < n; k++) {
		struct offw *w = &p->w[k];
		w->p = p;
		w->pio = &t->etd.ios[k];
		pthread_cond_init(&w->cv, NULL);
		w->files = calloc(t->etd.nfiles ? t->etd.nfiles : 1, sizeof(*w->files));
		if (!w->files) {
			p->err = -ENOMEM;
			break;
		}
		for (unsigned i = 0; i < t->etd.nfiles; i++) {
			w->files[i] = t->files[i];
			w->files[i].fd = -1;
		}
		w->etd.nfiles = t->etd.nfiles;
		int r = pthread_create(&w->tid, NULL, worker_main, w);
		if (r) {
			p->err = -r;
			break;
		}
		w->started = true;
		p->n++;
	}
	pthread_mutex_lock(&p->mu);
	while (p->ready < p->n)
		pthread_cond_wait(&p->done_cv, &p->mu);
	int err = p->err;
	pthread_mutex_unlock(&p->mu);
	if (err == -ENOMEM || (err && p->n < n))
		sb_err(t->spec->name, "io_submit_mode=offload: cannot start %u submission workers: %s",
		       n, strerror(-err));
	return err;
}

void sb_offload_submit(struct sb_offpool *p, const struct sb_io_u *io)
{
	struct offw *w = &p->w[io->index];
	pthread_mutex_lock(&p->mu);
	w->state = W_GO;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&p->mu);
}

unsigned sb_offload_reap(struct sb_offpool *p, struct sb_io_u **out, uint64_t *when, bool wait)
{
	unsigned got = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		for (unsigned k = 0; k < p->n; k++) {
			struct offw *w = &p->w[k];
			if (w->state == W_DONE) {
				w->state = W_FREE;
				out[got] = w->pio;
				when[got++] = w->done_ns;
			}
		}
		if (got || !wait)
			break;
		pthread_cond_wait(&p->done_cv, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return got;
}

void sb_offload_stop(struct sb_offpool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = true;
	for (unsigned k = 0; k < p->n; k++)
		pthread_cond_signal(&p->w[k].cv);
	pthread_mutex_unlock(&p->mu);
	for (unsigned k = 0; k < p->n; k++)
		pthread_join(p->w[k].tid, NULL);
	for (unsigned k = 0; k < p->n + (p->n < p->t->etd.nios); k++) {
		free(p->w[k].files);
		pthread_cond_destroy(&p->w[k].cv);
	}
	pthread_cond_destroy(&p->done_cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

/* io_submit_mode=offload (run/offload.h): this thread generates, rate-limits
 * and accounts; worker k submits io unit k.  A sync point (fsync) or an
 * overlapping I/O with serialize_overlap waits for what is in flight. */
static bool off_blocked(const struct sb_thread *t, const struct sb_loopstate *ls,
			const unsigned char *busy, const struct sb_io_u *io)
{
	if (!ls->inflight)
		return false;
	if (io->ddir >= SB_DDIR_N)
		return true;
	for (unsigned i = 0; t->spec->serialize_overlap && i < t->etd.nios; i++) {
		const struct sb_io_u *o = &t->etd.ios[i];
		if (busy[i] && o->file == io->file && o->offset < io->offset + io->len &&
		    io->offset < o->offset + o->len)
			return true;
	}
	return false;
}

static void off_reap(struct sb_thread *t, struct sb_loopstate *ls, struct sb_offpool *p,
		     unsigned char *busy, unsigned *nfree, uint64_t *when, bool wait)
{
	unsigned n = sb_offload_reap(p, t->uncommitted, when, wait);
	for (unsigned i = 0; i < n; i++) {
		struct sb_io_u *io = t->uncommitted[i];
		ls->now = when[i];
		if (ls->counting)
			t->st->iodepth_complete[t->batch1_bucket]++;
		sb_ioloop_done(t, ls, io);
		busy[io->index] = 0;
		t->freel[(*nfree)++] = io;
		ls->inflight--;
	}
	if (n)
		sb_ioloop_after(t, ls, n);
}

void sb_offload_run(struct sb_thread *t, struct sb_loopstate *ls)
{
	struct sb_offpool *p = NULL;
	unsigned nfree = t->etd.nios;
	unsigned char *busy = calloc(t->etd.nios, 1);
	uint64_t *when = calloc(t->etd.nios, sizeof(*when));
	int r = busy && when ? sb_offload_start(t, &p) : -ENOMEM;
	struct sb_io_u *pending = NULL;
	bool more = !r;
	if (r) {
		sb_tstats_set_error(t->st, -r, "io_submit_mode=offload", NULL);
		ls->stop = true;
	}
	while (more || ls->inflight) {
		while (more && (pending || nfree)) {
			if (!sb_ioloop_go(t, ls)) {
				more = false;
				break;
			}
			struct sb_io_u *io = pending;
			if (!io) {
				io = t->freel[--nfree];
				if (!sb_iogen_next(&t->gen, io)) {
					t->freel[nfree++] = io;
					more = false;
					break;
				}
				if (t->io_prep && io->ddir == SB_DDIR_WRITE)
					t->io_prep(t, io);
				if (!sb_ioloop_rate(t, ls, io)) { /* fio charges the rate at hand-over */
					t->freel[nfree++] = io;
					more = false;
					break;
				}
			}
			pending = NULL;
			if (off_blocked(t, ls, busy, io)) {
				pending = io;
				break;
			}
			io->start_ns = sb_now_ns();
			busy[io->index] = 1;
			ls->inflight++;
			if (ls->counting) {
				t->st->iodepth_level[t->lvl_bucket[ls->inflight]]++;
				t->st->iodepth_submit[t->batch1_bucket]++;
			}
			sb_offload_submit(p, io);
		}
		if (!more && pending) {
			t->freel[nfree++] = pending;
			pending = NULL;
		}
		if (!ls->inflight)
			continue;
		off_reap(t, ls, p, busy, &nfree, when, !more || pending || !nfree);
	}
	sb_offload_stop(p);
	free(busy);
	free(when);
}
