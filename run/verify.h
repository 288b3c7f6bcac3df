/* verify.h: verify= for I/O jobs (fio's options and meanings): every write
 * carries headers (run/vblock.h) and is tracked per interval; after the
 * write phase (do_verify=1), at backlog points (verify_backlog=N), or
 * instead of writing (verify_only=1) the thread reads the blocks back
 * through its own engine and checks the last generation of each one.
 * Failures go to t->verify (stats/verify.h), one line each on stderr
 * (capped), and the job's error becomes EILSEQ (84), as fio's.
 *
 * The write tracker is one 32-bit generation per interval of each file's
 * I/O region (calloc: only pages of intervals written are touched), so
 * random writes and overwrites verify what was written last; verify_state
 * saves it beside the files (format in HOWTO.md, "verify state"). */
#ifndef SB_RUN_VERIFY_H
#define SB_RUN_VERIFY_H
#include "run/ioloop.h"
#include "run/thread.h"

/* For a job with verify=: the tracker, the hooks (t->io_prep, io_check,
 * content) and t->verify.  Reports with sb_err; -errno. */
int sb_verify_setup(struct sb_thread *t);
/* The thread's work in place of sb_ioloop_run + end_fsync: the write
 * phase with its backlog checks, the state save, then the verify phase;
 * or, with verify_only, the verify phase alone; true.  A job that does not
 * write (a reader) only loads the writers' saved states: false, and the
 * caller runs the job's own loop, whose reads io_check checks. */
bool sb_verify_run(struct sb_thread *t, struct sb_loopstate *ls);
/* After the job's work: a verify that checked 0 blocks is an error (exit
 * 3), with the reason on stderr */
void sb_verify_end(struct sb_thread *t);
/* After the run: a job that does not read itself reports the verify
 * phase's time as its read runtime, and the rest as its write runtime (as
 * fio splits them) */
void sb_verify_runtimes(struct sb_thread *t);
/* Release what setup made (t->verify stays for collect) */
void sb_verify_teardown(struct sb_thread *t);
#endif
