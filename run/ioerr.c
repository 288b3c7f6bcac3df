/* ioerr.c: the I/O loop's cold paths (see ioerr.h): whether a failed I/O
 * may pass (continue_on_error, ignore_error) and its accounting when it
 * does; the rest of a short async completion. */
#include <errno.h>

#include "run/ioerr.h"
#include "run/thread.h"
#include "lib/fullio.h"

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


void sb_io_finish_short(struct sb_io_u *io)
{
	uint64_t done = (uint64_t)io->result;
	bool wr = io->ddir == SB_DDIR_WRITE;
	ssize_t r = sb_pio_full(io->file->fd, wr, (char *)io->buf + done, io->len - done,
				(off_t)(io->offset + done));
	io->result = r < 0 ? -(int64_t)errno : (int64_t)(done + (uint64_t)r);
}
