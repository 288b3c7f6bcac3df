/* ioerr.h: the I/O loop's cold paths (run/ioloop.c): continue_on_error /
 * ignore_error, the first error, max_latency; out of ioloop.c to keep it under
 * 600 lines. */
#ifndef SB_IOERR_H
#define SB_IOERR_H
#include <stdbool.h>
#include <stdint.h>

#include "run/ioloop.h"

struct sb_thread;
struct sb_io_u;
/* whether the failed I/O io may pass (continue_on_error, ignore_error) */
bool sb_ioerr_may_pass(const struct sb_thread *t, const struct sb_io_u *io);
/* an error let pass: counted (fio's total_err, first_error), the I/O too
 * (in total_ios, not in io_bytes), recorded for error_dump */
void sb_ioerr_pass(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io);
/* the first error's raw facts (struct sb_errinfo), or fill_device's end,
 * or an error continue_on_error/ignore_error lets pass; the text is made
 * after the loop (sb_ioloop_error_path) */
void sb_ioloop_error(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io)
	__attribute__((cold));
/* an I/O that took lat ns, over max_latency= (or latency_target's limit):
 * the job ends with ETIMEDOUT, as fio's */
void sb_ioloop_late(struct sb_thread *t, struct sb_loopstate *ls, const struct sb_io_u *io,
		    uint64_t lat) __attribute__((cold));
#endif
