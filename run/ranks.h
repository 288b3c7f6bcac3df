/* ranks.h: one job file on many ranks (MPI, dist/dist.h): rank 0's job text
 * for everyone, and the ranks' results merged into one at rank 0.  With one
 * rank every function is a plain pass-through. */
#ifndef SB_RANKS_H
#define SB_RANKS_H
#include <stdbool.h>
#include <stdio.h>

#include "parse/parse.h"
#include "stats/results.h"

/* Starts the distributed layer; under MPI with several ranks every message
 * then names its rank and host. */
int sb_ranks_start(int *argc, char ***argv);
void sb_ranks_finish(void);
int sb_ranks_rank(void);

/* Every rank parses rank 0's job text: rank 0 parses the files, handing
 * the text to the relay text_begin gives it, then text_end(its result)
 * sends the text (or the failure) to the others; on the others text_begin
 * waits for it and returns -ECANCELED when rank 0 failed (it has reported
 * why: the caller exits 1 without a word), else a relay that gives the
 * text, and text_end(result) returns the result.  One rank: a NULL relay. */
int sb_ranks_text_begin(const struct sb_parse_relay **relay);
int sb_ranks_text_end(int rc);

/* mpi_rank_results=1 (any job of jl), several ranks: this rank's own
 * results, before the merge, in formats to OUTPUT.rankR (output NULL:
 * storbench.out.rankR) by write (output/output.h's sb_output_write) */
void sb_ranks_own_results(const struct sb_joblist *jl, const struct sb_results *res, const char *output,
			  int (*write)(FILE *f, const struct sb_results *res, unsigned formats), unsigned formats);

/* Collective, after the run: rank 0's res becomes the merge of every rank's
 * (jobs of the same index merged as group_reporting merges threads; groups
 * recomputed; res->mpi filled); the other ranks' res is unchanged.
 * signalled: this rank got SIGINT/SIGTERM; res->interrupted becomes "some
 * rank did" (a stop for another rank's error is not an interrupt). */
int sb_ranks_merge(struct sb_results *res, bool signalled);
/* Collective, part of sb_ranks_merge: every host's counters (one
 * collector per host) and their sum in rank 0's res->hosts and cluster
 * (run/rankhosts.c) */
int sb_ranks_hosts(struct sb_results *res);
/* The exit status of the whole run: the highest of every rank's (130 >
 * 3 > 2 > 1 > 0), on every rank. */
int sb_ranks_status(int status);
#endif
