/* ioerr.c: the I/O loop's cold paths (see ioerr.h): whether a failed I/O
 * may pass (continue_on_error, ignore_error) and its accounting when it
 * does; the first error's facts; max_latency. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "run/ioerr.h"
#include "run/thread.h"
#include "run/fill.h"
#include "run/lattgt.h"

/* continue_on_error / ignore_error: whether the failed I/O io may pass */
bool sb_ioerr_may_pass(const struct sb_thread *t, const struct sb_io_u *io)
{
	const struct sb_jobspec *s = t->spec;
	if (!io->file || io->ddir >= SB_DDIR_TRIM || io->result >= 0)
		return false;
	int e = (int)-io->result;
	if (s->continue_on_error & (io->ddir == SB_DDIR_READ ? SB_COE_READ : SB_COE_WRITE))
		return true;
	for (unsigned i = 0; i < s->ignore_err_n[io->ddir]; i++)
		if (s->ignore_err[io->ddir][i] == e)
			return true;
	return false;
}

/* an error let pass: counted (fio's total_err, first_error), the I/O too
 * (in total_ios, not in io_bytes), recorded for error_dump */
void sb_ioerr_pass(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io)
{
	struct sb_tstats *st = t->st;
	int e = (int)-io->result;
	st->total_err++;
	if (!st->first_error)
		st->first_error = e;
	if (ls->counting)
		st->total_ios[io->ddir]++;
	if (t->spec->error_dump && st->ndump < SB_ERRDUMP_MAX)
		st->dump[st->ndump++] = (struct sb_errdump){ .error = e, .ddir = (unsigned char)io->ddir,
							      .file = io->file->index,
							      .offset = io->offset, .len = io->len };
}

/* the first error's raw facts; sb_ioloop_error_path and the writers make
 * the text later, off the I/O path */
void sb_ioloop_error(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io)
{
	struct sb_errinfo *ei = &t->st->err;
	if (sb_fill_full(t, io)) { /* fill_device: the file system is full, the job is done */
		t->st->total_ios[io->ddir] += ls->counting;
		ls->stop = true;
		return;
	}
	if ((t->spec->continue_on_error || t->spec->ignore_error) && sb_ioerr_may_pass(t, io)) {
		sb_ioerr_pass(t, ls, io);
		return;
	}
	ls->stop = true;
	if (t->st->error)
		return;
	t->st->error = io->result < 0 ? (int)-io->result : EIO;
	ei->op = io->file ? sb_ddir_name[io->ddir] : "getevents"; /* no file: the engine's reap failed */
	ei->at = io->file && io->ddir < SB_DDIR_N;
	ei->eof = io->result >= 0 && io->ddir != SB_DDIR_WRITE;
	if (io->ddir == SB_DDIR_WRITE && io->result >= 0)
		ei->op = "short write"; /* fewer bytes than asked: EIO */
	ei->file = io->file ? io->file->index : UINT_MAX;
	ei->offset = io->offset;
	ei->len = io->len;
	ei->path[0] = 0;
	snprintf(ei->detail, sizeof(ei->detail), "%.255s", t->etd.errmsg); /* an engine's words (s3) */
}

/* max_latency=: the job ends with ETIMEDOUT, as fio's; latency_target
 * (run/lattgt.c) shares the threshold: lat is over the lower of the two */
void sb_ioloop_late(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io,
		    uint64_t lat)
{
	const char *why = NULL;
	if (t->lt.on && !sb_lat_late(t, lat, ls->now, &why))
		return;
	static const char *const what[] = { "read slower than max_latency",
					    "write slower than max_latency",
					    "trim slower than max_latency",
					    "fsync slower than max_latency",
					    "fdatasync slower than max_latency",
					    "sync_file_range slower than max_latency" };
	struct sb_io_u late = *io;
	late.result = -ETIMEDOUT;
	sb_ioloop_error(t, ls, &late);
	if (t->st->err.op == sb_ddir_name[io->ddir])
		t->st->err.op = why ? why : what[io->ddir];
}
