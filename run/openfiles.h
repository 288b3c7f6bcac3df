/* openfiles.h: openfiles=N below the job's file count (fio's "number of
 * files to keep open at the same time").  A thread opens its first N files
 * at setup (run/thread.c); its engine's queue() is wrapped (only for such
 * jobs: the others' per-I/O path is unchanged) so that an I/O to a closed
 * file first closes the least recently used open file with no I/O in
 * flight and opens this one.  When every open file has I/O in flight the
 * I/O waits (SB_Q_BUSY: the loop reaps a completion and queues it again).
 * fio 3.33 instead works through the open files and opens the next when one
 * is done (filesetup.c, io_u.c get_next_file); both keep at most N open. */
#ifndef SB_RUN_OPENFILES_H
#define SB_RUN_OPENFILES_H
#include <stdbool.h>

#include "run/thread.h"

/* files a thread opens at setup: all, or openfiles= when it is fewer */
unsigned sb_openfiles_initial(const struct sb_jobspec *s, unsigned nfiles);
/* wrap the threads' engines where openfiles= is below their file count;
 * 0 or -ENOMEM */
int sb_openfiles_setup(struct sb_thread *threads, unsigned nthreads);
/* the real engine back; before the threads' teardown */
void sb_openfiles_free(struct sb_thread *threads, unsigned nthreads);
#endif
