/* stop.h: the one stop flag of the process and the process's signal
 * handlers.  The stop handler (SIGINT, SIGTERM, SIGHUP, SIGUSR2; installed
 * by main before the job files are read) sets the flag; the parser, the
 * runner, sweeps, workloads and --cleanup read it and stop at their next
 * step: an I/O thread at its next I/O, a parse at its next job or sweep
 * point, every wait (arrivals, rate sleeps, barriers, exec_prerun, a FIFO's
 * other end) at once; main then writes the partial results and exits 130.
 * SIGHUP is an ssh session or its terminal going away: the run stops as on
 * Ctrl-C instead of dying with its files left behind.  SIGUSR2 is there
 * for mpirun, which forwards it (and SIGUSR1) to every rank (HOWTO section
 * 14).  SIGUSR1 asks for the status, as fio's: the stats thread prints the
 * interim results at its next tick and the run goes on.  It lives in lib/
 * (not run/) because parse/ reads it too and may include only lib/.
 * Setting the flags is async-signal-safe. */
#ifndef SB_LIB_STOP_H
#define SB_LIB_STOP_H
#include <stdatomic.h>
#include <stdbool.h>

extern atomic_int sb_stop_flag;

/* ask everything running to stop (a signal handler may call it) */
void sb_stop_request(void);
/* how many stop requests came so far: a wait that must end on a stop that
 * comes while it waits, not on one that came before (exec_postrun after an
 * interrupt runs), compares it */
unsigned sb_stop_count(void);
/* the request stands until this: a Ctrl-C that lands between two runs of a
 * sweep stops the next one too, until the sweep clears it on purpose */
void sb_stop_clear(void);
static inline bool sb_stopping(void)
{
	return atomic_load_explicit(&sb_stop_flag, memory_order_relaxed) != 0;
}

/* SIGUSR1's request for a status report: the stats thread takes it at its
 * next tick (sb_status_take: true once per request, and clears it) */
extern atomic_int sb_status_flag;
void sb_status_request(void);
bool sb_status_take(void);

/* Install the handlers (from main's thread, before any other thread and
 * before anything is read or made; a SIGHUP ignored from the start, as
 * under nohup, stays ignored): the stop handler without SA_RESTART,
 * so a blocked open or read returns EINTR (and reaches main's thread when
 * another thread took the signal); SIGUSR1's with SA_RESTART, so a status
 * request ends no wait. */
void sb_stop_install(void);
/* whether a stop signal came (MPI: an interrupt, not another rank's error) */
bool sb_stop_signalled(void);
#endif
