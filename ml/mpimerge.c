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

void sb_ml_ckpt_local(unsigned ranks, unsigned *r0, unsigned *n)
{
	uint64_t p = (uint64_t)sb_dist_rank(), np = (uint64_t)sb_dist_size();
	*r0 = (unsigned)(ranks * p / np);
	*n = (unsigned)(ranks * (p + 1) / np) - *r0;
}

int sb_ml_ckpt_enough(const struct sb_jobspec *s, unsigned ranks)
{
	if (s->checkpoint_cache_folder && sb_dist_size() > 1) { /* ml/checkpoint/tiered.c: one process's ranks */
		if (sb_dist_rank() == 0) {
			char w[512];
			if (s->line && s->file)
				snprintf(w, sizeof(w), "%s:%u: job %s", s->file, s->line, s->name);
			else
				snprintf(w, sizeof(w), "<cmdline>: job %s", s->name);
			sb_err(w, "%s=%s: tiered checkpoints run in one process, not under %d MPI "
			       "processes: run it without mpirun (ranks= are threads), or remove %s=",
			       SB_OPT(checkpoint_cache_folder)->name, s->checkpoint_cache_folder,
			       sb_dist_size(), SB_OPT(checkpoint_cache_folder)->name);
		}
		return -EINVAL;
	}
	if (ranks >= (unsigned)sb_dist_size())
		return 0;
	if (sb_dist_rank() == 0)
		sb_err(s->name, "%s=%u ranks for %d MPI processes: every process runs at least one rank; "
		       "start at most %u processes (mpirun -np %u), or raise %s (with subset)",
		       SB_OPT(ranks)->name, ranks, sb_dist_size(), ranks, ranks, SB_OPT(ranks)->name);
	return -EINVAL;
}

void sb_ml_ckpt_wall(uint64_t first, uint64_t last, uint64_t wall[2])
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t now = sb_now_ns(), w = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	wall[0] = first <= now ? w - (now - first) : w;
	wall[1] = last <= now ? w - (now - last) : w;
}

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
