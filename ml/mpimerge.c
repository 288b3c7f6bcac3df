/* mpimerge.c: the ML workloads across MPI processes (dist/dist.h): where
 * each process's share lies, and the start of every workload's merge (its
 * ranks_merge hook: ml/checkpoint/merge.c, ml/train/merge.c).
 *
 * Checkpoint: the ranks= ranks are split in contiguous blocks over the
 * processes (process p of P runs ranks [R*p/P, R*(p+1)/P) as threads, each
 * writing and reading exactly its DLIO files); every checkpoint starts on all
 * processes after one barrier; after the run a checkpoint's slowest time is
 * the first start to the last end over all processes (wall clock), rank 0's
 * time is global rank 0's, and per_rank lists every process's ranks (their
 * offsets from that first start).
 *
 * Train: process p's accelerators are the global ranks [p*A, (p+1)*A) of
 * P*A, so the dataset is sharded over all of them as DLIO shards it
 * (ml/train/train.h's plan); the step barrier spans the processes.  After the run
 * an epoch's AU is the mean over the processes (each the mean over its
 * accelerators: the mean over all), samples/s and MB/s the sums, steps the
 * sum, durations the longest; rules=mlperf judges the world (hosts, the
 * largest memory of a host). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist/dist.h"
#include "lib/log.h"
#include "lib/timeutil.h"
#include "ml/run.h"
#include "parse/mlshape.h"
#include "parse/options.h"

void sb_ml_train_world(unsigned n, unsigned *a0, unsigned *all)
{
	*a0 = n * (unsigned)sb_dist_rank();
	*all = n * (unsigned)sb_dist_size();
}

int sb_ml_ranks_begin(struct sb_job_result *jr)
{
	if (sb_dist_size() == 1 || !jr->spec)
		return 0;
	uint64_t have = jr->wl != NULL;
	if (sb_dist_reduce_u64(&have, 1, SB_DIST_MIN, true))
		return -EIO;
	return have ? 1 : 0;
}
