/* iodebug.h: --debug=io, file and verify (lib/debug.h) for the I/O
 * threads: a separate code path, set up only when one of them is on.  The
 * thread's engine ops (t->ops) and its verify hooks (t->io_prep,
 * t->io_check) are wrapped by functions that print one line and call the
 * real ones, so the per-I/O path without --debug is the same code as
 * ever.  Lines as fio 3.33's io_u.c dprint_io_u ("queue: io_u 0x...:
 * off=0x...,len=0x...,ddir=D,file=PATH", "complete: ..."). */
#ifndef SB_RUN_IODEBUG_H
#define SB_RUN_IODEBUG_H
#include "run/thread.h"

/* after the threads' engines and locks are set up; 0 or -ENOMEM */
int sb_iodebug_setup(struct sb_thread *threads, unsigned nthreads);
/* the real hooks back (before the threads' teardown) and the wrappers freed */
void sb_iodebug_free(struct sb_thread *threads, unsigned nthreads);
#endif
