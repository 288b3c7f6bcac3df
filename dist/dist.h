/* dist.h: the processes of one run across hosts (MPI), behind a small
 * interface.  dist/mpi.c implements it with MPI (the only file that includes
 * mpi.h); dist/none.c is the one-rank build (configure --disable-mpi).  A
 * process not started by mpirun/srun is one rank in either build: MPI is
 * initialized only when the launcher's environment says so.
 *
 * Collectives must be called by every rank in the same order, from one
 * thread at a time.  All functions return 0 or a negative errno. */
#ifndef SB_DIST_H
#define SB_DIST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_DIST_HOST_MAX 64

/* Starts the distributed layer (MPI_Init_thread when launched by an MPI
 * launcher); every later call works after it, also when it failed (one
 * rank).  finish ends it (MPI_Finalize). */
int sb_dist_start(int *argc, char ***argv);
void sb_dist_finish(void);
/* "Open MPI 4.1.4", "MPICH 4.0", or "none" (no MPI in this build/run) */
const char *sb_dist_library(void);

int sb_dist_rank(void);
int sb_dist_size(void);
const char *sb_dist_hostname(void);
/* the ranks on this rank's host: this one's index among them, their count */
int sb_dist_local_rank(void);
int sb_dist_local_size(void);
/* how many hosts the ranks run on */
int sb_dist_nhosts(void);

int sb_dist_barrier(void);
/* buf (len bytes) of rank root to every rank */
int sb_dist_bcast(void *buf, size_t len, int root);

enum sb_dist_op { SB_DIST_SUM, SB_DIST_MIN, SB_DIST_MAX };
/* v[0..n) combined element by element over all ranks, in place: at rank 0
 * only (all == false; other ranks' v is then unspecified) or on every rank
 * (all == true).  A tree reduction: O(log ranks) steps. */
int sb_dist_reduce_u64(uint64_t *v, size_t n, enum sb_dist_op op, bool all);
int sb_dist_reduce_double(double *v, size_t n, enum sb_dist_op op, bool all);
/* Record reduction: buf (len bytes) of every rank combined into rank 0's
 * buf by combine(inout, in), as a tree in any order: combine must be
 * commutative and associative, and keep no pointers into either.  The
 * records travel packed by zero runs (dist/pack.h): mostly empty ones
 * (histograms) cost little on the wire. */
typedef void (*sb_dist_combine_fn)(void *inout, const void *in, size_t len);
int sb_dist_reduce_rec(void *buf, size_t len, sb_dist_combine_fn combine);
/* Rank i's len bytes at all + i * len on rank 0 (all may be NULL elsewhere) */
int sb_dist_gather(const void *mine, size_t len, void *all);

/* Stops every rank at once with exit status code (MPI_Abort); returns only
 * in a one-rank run (it then exits). */
void sb_dist_abort(int code) __attribute__((noreturn));

/* Cross-rank stop while the run goes: watch_begin starts a listener that
 * calls on_stop() when another rank asks all to stop, and asks the others
 * itself (once) as soon as stopping(arg) is true on this rank (an I/O error,
 * a signal).  watch_end (every rank) ends it and returns in *nstopped how
 * many ranks asked.  Between the two, the only collective allowed is
 * sb_dist_sync. */
int sb_dist_watch_begin(void (*on_stop)(void), bool (*stopping)(void *), void *arg);
int sb_dist_watch_end(unsigned *nstopped);
/* wait_for across ranks, while watching: watch_jobs (before watch_begin)
 * sizes the counters for njobs jobs and names a function the listener
 * calls when news came; done(job) tells every other rank that this rank's
 * threads of job have all finished (any thread; a few messages, never on
 * the I/O path); done_count(job) is how many other ranks have said so. */
int sb_dist_watch_jobs(unsigned njobs, void (*on_done)(void *), void *arg);
int sb_dist_done(unsigned job);
unsigned sb_dist_done_count(unsigned job);
/* A barrier for the start of a group of jobs, callable while watching: it
 * waits for every rank without blocking the listener.  Returns the wall
 * clock (CLOCK_REALTIME, ns) at which it was passed. */
uint64_t sb_dist_sync(void);
/* sb_dist_sync that also takes a vote: *stop becomes true on every rank
 * when it was true on any (the ML workloads' per-checkpoint and per-step
 * barriers: every rank leaves a loop at the same iteration, so the ranks
 * call the same collectives in the same order also when one stops). */
uint64_t sb_dist_sync_vote(bool *stop);
/* sb_dist_sync_vote for the start of a group of jobs: the vote also agrees
 * on a start instant a few ms ahead (CLOCK_REALTIME), and every rank sleeps
 * until it (clock_nanosleep, TIMER_ABSTIME), so the ranks start within
 * their wake-up latency of each other, not within the time each takes to
 * be scheduled out of the barrier.  One clock on one host; across hosts
 * the start is as close as their clocks are (NTP/PTP); a rank never waits
 * longer than the largest margin (a host whose clock is ahead does not
 * hold the others back by its lead).  Returns the wall
 * clock when this rank woke: the start skew is measured, not assumed. */
uint64_t sb_dist_sync_start(bool *stop);
#endif
