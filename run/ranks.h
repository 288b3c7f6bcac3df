/* ranks.h: one job file on many ranks (MPI, dist/dist.h): rank 0's job text
 * for everyone, and the ranks' results merged into one at rank 0.  With one
 * rank every function is a plain pass-through. */
#ifndef SB_RANKS_H
#define SB_RANKS_H
#include <stdbool.h>

#include "parse/parse.h"
#include "stats/results.h"

/* Starts the distributed layer; under MPI with several ranks every message
 * then names its rank and host. */
int sb_ranks_start(int *argc, char ***argv);
void sb_ranks_finish(void);
int sb_ranks_rank(void);
int sb_ranks_size(void);

/* Parse the jobs on every rank from rank 0's text: load(arg, relay) parses
 * (sb_parse_request with relay).  Rank 0 reads and reports; the others take
 * rank 0's text and stay silent.  Returns load's result on rank 0 and on
 * the others when rank 0 succeeded; -ECANCELED when rank 0 failed (it has
 * reported why). */
int sb_ranks_load(int (*load)(void *arg, const struct sb_parse_relay *relay), void *arg);

/* Collective, after the run: rank 0's res becomes the merge of every rank's
 * (jobs of the same index merged as group_reporting merges threads; groups
 * recomputed; res->mpi filled); the other ranks' res is unchanged.
 * signalled: this rank got SIGINT/SIGTERM; res->interrupted becomes "some
 * rank did" (a stop for another rank's error is not an interrupt). */
int sb_ranks_merge(struct sb_results *res, bool signalled);
/* The exit status of the whole run: the highest of every rank's (130 >
 * 3 > 2 > 1 > 0), on every rank. */
int sb_ranks_status(int status);
#endif
