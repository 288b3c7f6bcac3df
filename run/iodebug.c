/* iodebug.c: --debug=io, file and verify wrappers of an I/O thread's
 * engine ops and verify hooks (see iodebug.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/debug.h"
#include "run/iodebug.h"

struct sb_iodbg {
	struct sb_engine_ops ops;            /* the wrapped copy t->ops points to */
	const struct sb_engine_ops *real;
	void (*prep)(struct sb_thread *t, struct sb_io_u *io);
	bool (*check)(struct sb_thread *t, const struct sb_io_u *io);
};

static struct sb_thread *thread_of(struct sb_engine_td *td)
{
	return (struct sb_thread *)(void *)((char *)td - offsetof(struct sb_thread, etd));
}

static void io_line(const char *what, const struct sb_io_u *io)
{
	sb_dbg(SB_DBG_IO, "%s: io_u %p: off=0x%llx,len=0x%llx,ddir=%d,file=%s", what,
	       (const void *)io, (unsigned long long)io->offset, (unsigned long long)io->len,
	       io->ddir, io->file && io->file->path ? io->file->path : "");
}

static enum sb_q_status dbg_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct sb_iodbg *d = thread_of(td)->dbg;
	if (sb_dbg_on(SB_DBG_IO))
		io_line("queue", io);
	enum sb_q_status q = d->real->queue(td, io);
	if (q == SB_Q_COMPLETED && sb_dbg_on(SB_DBG_IO))
		io_line("complete", io);
	else if (q == SB_Q_BUSY && sb_dbg_on(SB_DBG_IO))
		io_line("busy", io);
	return q;
}

static struct sb_io_u *dbg_event(struct sb_engine_td *td, unsigned i)
{
	struct sb_io_u *io = thread_of(td)->dbg->real->event(td, i);
	if (io && sb_dbg_on(SB_DBG_IO))
		io_line("complete", io);
	return io;
}

static int dbg_open(struct sb_engine_td *td, struct sb_file *f)
{
	int r = thread_of(td)->dbg->real->open_file(td, f);
	sb_dbg(SB_DBG_FILE, "fd open %s: %s%d", f->path, r ? "error " : "fd ", r ? -r : f->fd);
	return r;
}

static int dbg_close(struct sb_engine_td *td, struct sb_file *f)
{
	sb_dbg(SB_DBG_FILE, "fd close %s", f->path);
	return thread_of(td)->dbg->real->close_file(td, f);
}

static void dbg_prep(struct sb_thread *t, struct sb_io_u *io)
{
	t->dbg->prep(t, io);
	sb_dbg(SB_DBG_VERIFY, "fill io_u %p: off=0x%llx,len=0x%llx,file=%s (job %s)",
	       (void *)io, (unsigned long long)io->offset, (unsigned long long)io->len,
	       io->file ? io->file->path : "", t->spec->name);
}

static bool dbg_check(struct sb_thread *t, const struct sb_io_u *io)
{
	bool ok = t->dbg->check(t, io);
	sb_dbg(SB_DBG_VERIFY, "%s io_u %p: off=0x%llx,len=0x%llx,ddir=%d,file=%s: %s",
	       io->ddir == SB_DDIR_READ ? "verify" : "check", (const void *)io,
	       (unsigned long long)io->offset, (unsigned long long)io->len, io->ddir,
	       io->file ? io->file->path : "", ok ? "ok" : "failed (see the error above)");
	return ok;
}

static int setup_one(struct sb_thread *t)
{
	if (!t->ops || !t->spec) /* a workload thread without an engine */
		return 0;
	bool io = sb_dbg_on(SB_DBG_IO), file = sb_dbg_on(SB_DBG_FILE);
	bool ver = sb_dbg_on(SB_DBG_VERIFY) && (t->io_prep || t->io_check);
	for (unsigned i = 0; file && i < t->etd.nfiles; i++) {
		const struct sb_file *f = &t->files[i];
		sb_dbg(SB_DBG_FILE, "job %s thread %u: file %s, fd %d, size %llu, region "
		       "%llu+%llu", t->spec->name, t->sub, f->path ? f->path : "(none)", f->fd,
		       (unsigned long long)f->size, (unsigned long long)f->region_start,
		       (unsigned long long)f->region_len);
	}
	if (t->spec->io_submit_mode) { /* offload: the workers have their own engine data */
		sb_dbg(io ? SB_DBG_IO : SB_DBG_FILE, "job %s: io_submit_mode=offload: no per-I/O "
		       "debug lines", t->spec->name);
		io = file = false;
	}
	if (!io && !file && !ver)
		return 0;
	struct sb_iodbg *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->real = t->ops;
	d->ops = *t->ops;
	if (io) {
		d->ops.queue = dbg_queue;
		if (d->real->event)
			d->ops.event = dbg_event;
	}
	if (file && d->real->open_file)
		d->ops.open_file = dbg_open;
	if (file && d->real->close_file)
		d->ops.close_file = dbg_close;
	if (ver && t->io_prep) {
		d->prep = t->io_prep;
		t->io_prep = dbg_prep;
	}
	if (ver && t->io_check) {
		d->check = t->io_check;
		t->io_check = dbg_check;
	}
	t->dbg = d;
	t->ops = &d->ops;
	return 0;
}

int sb_iodebug_setup(struct sb_thread *threads, unsigned nthreads)
{
	if (!sb_dbg_on(SB_DBG_IO) && !sb_dbg_on(SB_DBG_FILE) && !sb_dbg_on(SB_DBG_VERIFY))
		return 0;
	for (unsigned i = 0; i < nthreads; i++) {
		int e = setup_one(&threads[i]);
		if (e)
			return e;
	}
	return 0;
}

void sb_iodebug_free(struct sb_thread *threads, unsigned nthreads)
{
	for (unsigned i = 0; threads && i < nthreads; i++) {
		struct sb_thread *t = &threads[i];
		struct sb_iodbg *d = t->dbg;
		if (!d)
			continue;
		t->ops = d->real;
		if (d->prep)
			t->io_prep = d->prep;
		if (d->check)
			t->io_check = d->check;
		free(d);
		t->dbg = NULL;
	}
}
