/* eachloop.h: unlink_each_loop=1.  With loops=N the job's files that
 * storbench created are removed after each loop but the last and laid out
 * again (with data, for a job that reads) before the next one, as fio
 * removes and re-creates them.  A file that was there before the run is
 * never removed: the next loop uses it as it is.  time_based jobs have a
 * single loop (fio's too), so nothing is removed during them. */
#ifndef SB_EACHLOOP_H
#define SB_EACHLOOP_H
#include "run/ioloop.h"

/* sb_ioloop_run, loop by loop when the job has unlink_each_loop=1 */
void sb_eachloop_run(struct sb_thread *t, struct sb_loopstate *ls);
#endif
