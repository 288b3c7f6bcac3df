/* stop.h: the one stop flag of the process.  main's SIGINT/SIGTERM/SIGHUP/
 * SIGUSR2 handler (installed before the job files are read) sets it; the parser,
 * the runner, sweeps, workloads and --cleanup read it and stop at their
 * next step: an I/O thread at its next I/O, a parse at its next job or
 * sweep point.  It lives in lib/ (not run/) because parse/ reads it too and
 * may include only lib/.  Setting it is async-signal-safe. */
#ifndef SB_LIB_STOP_H
#define SB_LIB_STOP_H
#include <stdatomic.h>
#include <stdbool.h>

extern atomic_int sb_stop_flag;

/* ask everything running to stop (a signal handler may call it) */
void sb_stop_request(void);
/* the request stands until this: a Ctrl-C that lands between two runs of a
 * sweep stops the next one too, until the sweep clears it on purpose */
void sb_stop_clear(void);
static inline bool sb_stopping(void)
{
	return atomic_load_explicit(&sb_stop_flag, memory_order_relaxed) != 0;
}

/* SIGUSR1's request for a status report (fio's: the run goes on): main's
 * handler sets it, the stats thread takes it at its next tick and prints
 * the interim results.  Async-signal-safe. */
extern atomic_int sb_status_flag;
void sb_status_request(void);
/* true once per request (clears it) */
bool sb_status_take(void);
#endif
