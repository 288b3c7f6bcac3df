/* ioerr.h: continue_on_error / ignore_error on the I/O loop's error path
 * (run/ioloop.c): moved out of ioloop.c to keep it under 600 lines. */
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
#endif
