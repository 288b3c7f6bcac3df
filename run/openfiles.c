/* openfiles.c: openfiles=N below the job's file count (see openfiles.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"
#include "lib/log.h"
#include "run/files.h"
#include "run/openfiles.h"

struct sb_ofl {
	struct sb_engine_ops ops;     /* the wrapped copy t->ops points to */
	const struct sb_engine_ops *real;
	unsigned limit, nopen;
	uint64_t clock;
	uint64_t *used;               /* per file: the clock at its last I/O */
	unsigned *inflight;           /* per file: I/Os queued, not completed */
};

static struct sb_thread *thread_of(struct sb_engine_td *td)
{
	return (struct sb_thread *)(void *)((char *)td - offsetof(struct sb_thread, etd));
}

unsigned sb_openfiles_initial(const struct sb_jobspec *s, unsigned nfiles)
{
	return s->openfiles && s->openfiles < nfiles ? s->openfiles : nfiles;
}

static void close_one(struct sb_thread *t, struct sb_file *f)
{
	const struct sb_engine_ops *real = t->ofl->real;
	if (real->close_file)
		real->close_file(&t->etd, f);
	sb_files_close(f);
	t->ofl->nopen--;
	if (sb_dbg_on(SB_DBG_FILE))
		sb_dbg(SB_DBG_FILE, "openfiles=%u: closed %s", t->ofl->limit, f->path);
}

/* open f, closing the least recently used idle file first when the limit
 * is reached; -EBUSY when every open file has I/O in flight */
static int open_one(struct sb_thread *t, struct sb_file *f)
{
	struct sb_ofl *o = t->ofl;
	if (o->nopen >= o->limit) {
		unsigned best = UINT32_MAX;
		for (unsigned i = 0; i < t->etd.nfiles; i++)
			if (t->files[i].fd >= 0 && !o->inflight[i] &&
			    (best == UINT32_MAX || o->used[i] < o->used[best]))
				best = i;
		if (best == UINT32_MAX)
			return -EBUSY;
		close_one(t, &t->files[best]);
	}
	int r = sb_files_open(f, t->spec);
	if (!r && o->real->open_file && (r = o->real->open_file(&t->etd, f)) != 0)
		sb_files_close(f);
	if (r)
		return r;
	o->nopen++;
	if (sb_dbg_on(SB_DBG_FILE))
		sb_dbg(SB_DBG_FILE, "openfiles=%u: opened %s", o->limit, f->path);
	return 0;
}

static long file_index(const struct sb_thread *t, const struct sb_file *f)
{
	if (!f || f < t->files || f >= t->files + t->etd.nfiles)
		return -1;
	return f - t->files;
}

static enum sb_q_status ofl_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct sb_thread *t = thread_of(td);
	struct sb_ofl *o = t->ofl;
	long i = file_index(t, io->file);
	if (i < 0)
		return o->real->queue(td, io);
	if (io->file->fd < 0) {
		int r = open_one(t, io->file);
		if (r == -EBUSY)
			return SB_Q_BUSY;
		if (r) {
			io->result = r;
			return SB_Q_COMPLETED;
		}
	}
	o->used[i] = ++o->clock;
	o->inflight[i]++;
	enum sb_q_status q = o->real->queue(td, io);
	if (q != SB_Q_QUEUED)
		o->inflight[i]--;
	return q;
}

static struct sb_io_u *ofl_event(struct sb_engine_td *td, unsigned n)
{
	struct sb_thread *t = thread_of(td);
	struct sb_io_u *io = t->ofl->real->event(td, n);
	long i = io ? file_index(t, io->file) : -1;
	if (i >= 0 && t->ofl->inflight[i])
		t->ofl->inflight[i]--;
	return io;
}

static int setup_one(struct sb_thread *t)
{
	unsigned n = t->etd.nfiles;
	if (!t->ops || !t->spec) /* a workload thread without an engine */
		return 0;
	if (sb_openfiles_initial(t->spec, n) == n || (t->ops->flags & SB_ENGINE_NODISKIO))
		return 0;
	struct sb_ofl *o = calloc(1, sizeof(*o));
	if (!o || !(o->used = calloc(n, sizeof(*o->used))) ||
	    !(o->inflight = calloc(n, sizeof(*o->inflight)))) {
		if (o)
			free(o->used);
		free(o);
		return -ENOMEM;
	}
	o->limit = t->spec->openfiles;
	for (unsigned i = 0; i < n; i++)
		o->nopen += t->files[i].fd >= 0;
	o->real = t->ops;
	o->ops = *t->ops;
	o->ops.queue = ofl_queue;
	if (o->real->event)
		o->ops.event = ofl_event;
	t->ofl = o;
	t->ops = &o->ops;
	return 0;
}

int sb_openfiles_setup(struct sb_thread *threads, unsigned nthreads)
{
	for (unsigned i = 0; i < nthreads; i++) {
		int e = setup_one(&threads[i]);
		if (e) {
			sb_err(threads[i].spec->name, "out of memory setting up openfiles=");
			return e;
		}
	}
	return 0;
}

void sb_openfiles_free(struct sb_thread *threads, unsigned nthreads)
{
	for (unsigned i = 0; threads && i < nthreads; i++) {
		struct sb_thread *t = &threads[i];
		if (!t->ofl)
			continue;
		t->ops = t->ofl->real;
		free(t->ofl->used);
		free(t->ofl->inflight);
		free(t->ofl);
		t->ofl = NULL;
	}
}
