/* ioerr.h: the I/O loop's cold paths (run/ioloop.c): continue_on_error /
 * ignore_error, and short completions; out of ioloop.c to keep it under
 * 600 lines. */
#ifndef SB_IOERR_H
#define SB_IOERR_H
#include <stdbool.h>

#include "run/ioloop.h"

struct sb_thread;
struct sb_io_u;
/* whether the failed I/O io may pass (continue_on_error, ignore_error) */
bool sb_ioerr_may_pass(const struct sb_thread *t, const struct sb_io_u *io);
/* an error let pass: counted (fio's total_err, first_error), the I/O too
 * (in total_ios, not in io_bytes), recorded for error_dump */
void sb_ioerr_pass(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io);
/* libaio or io_uring completed a read or write short (0 < result < len):
 * the rest is moved synchronously, as fio re-queues the residual (io_u.c,
 * io_u->resid) and as the sync engines do (lib/fullio.h).  A write whose
 * rest fails carries that error (ENOSPC, EFBIG), never a torn block taken
 * for a whole one; a read whose rest meets the end of the file stays short.
 * Rare, so the system call costs the per-I/O path nothing. */
void sb_io_finish_short(struct sb_io_u *io);
#endif
