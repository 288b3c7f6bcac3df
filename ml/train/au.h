/* ml/train/au.h: accelerator utilization (AU) and throughput of a training run,
 * computed exactly as DLIO does, plus an analytic predictor and a pipeline
 * simulator that tests use to check measured AU against the rates.
 *
 * DLIO (utils/statscounter.py, compute_metrics_train), per rank and block of
 * steps: step i has load_start (the consumer starts waiting for batch i),
 * compute_start (batch i arrived) and compute_end.  proc_i = compute_end -
 * load_start; excluded steps are the first exclude_start (1 in DLIO) and the
 * last exclude_end (0 in DLIO).
 *   wall    = (block_end - block_start) - sum(proc of excluded steps)
 *   AU%     = 100 * sum(compute_end - compute_start of counted steps) / wall
 *   samples/s = (steps - 2) * batch_size / wall, as DLIO counts
 *   (statscounter.py:412 in dlio_benchmark 392621b: len(compute) - 2, the
 *   block's steps less two, whatever exclude_start/exclude_end say, not the
 *   steps after exclusion, n - 1).  Across ranks: AU is the
 * mean, samples/s the sum; MB/s = samples/s * nominal record length / 2^20.
 * Across epochs: the mean of the per-epoch figures. */
#ifndef SB_ML_AU_H
#define SB_ML_AU_H
#include <stdbool.h>
#include <stddef.h>

#define SB_ML_EXCLUDE_START 1u /* DLIO metric_exclude_start_steps */
#define SB_ML_EXCLUDE_END 0u   /* DLIO metric_exclude_end_steps */

struct sb_ml_step {
	double load_start, compute_start, compute_end; /* seconds, one clock */
};

struct sb_ml_au {
	double au_pct;
	double wall_s;        /* wall time of the counted steps */
	double compute_s;     /* compute time of the counted steps */
	double samples_per_s;
	size_t counted;       /* counted steps */
};

/* One rank, one block: block_start/block_end bound the block (pass
 * steps[0].load_start and steps[n-1].compute_end when there is nothing
 * else between steps).  0, or -ERANGE when no step is left to count or the
 * wall time is not positive (out zeroed). */
int sb_ml_au_block(const struct sb_ml_step *st, size_t n, double block_start,
		   double block_end, unsigned exclude_start, unsigned exclude_end,
		   unsigned batch_size, struct sb_ml_au *out);

struct sb_ml_train_metrics {
	double au_pct;        /* mean over ranks */
	double samples_per_s; /* sum over ranks */
	double mb_per_s;      /* samples_per_s * record_length / 2^20 */
};
/* Combine the per-rank results of one epoch. */
void sb_ml_au_combine(const struct sb_ml_au *ranks, size_t n, double record_length,
		      struct sb_ml_train_metrics *out);
/* Mean of per-epoch metrics. */
void sb_ml_au_epochs_mean(const struct sb_ml_train_metrics *ep, size_t n,
			  struct sb_ml_train_metrics *out);

/* Steady-state predictor.  Assumptions: constant compute time C and per-batch
 * read time R (one reader reading one batch alone); batches are read whole
 * by one of `readers` threads that feed `consumers` accelerators evenly;
 * storage delivers at most rate_Bps bytes/s shared by all readers (0: no
 * limit); read-ahead (prefetch >= 1) hides reads up to the readers' rate;
 * the run is long enough that the start-up transient (which the first-step
 * exclusion mostly removes) does not matter; no jitter (variance in R or C
 * lowers AU below the prediction).  The supply interval per consumer is
 *   R_eff = max(R * consumers / readers, consumers * batch_bytes / rate_Bps)
 * and AU% = 100 * C / max(C, R_eff) with prefetch >= 1, or
 * 100 * C / (C + R_eff) with prefetch == 0 or readers == 0 (no overlap;
 * with readers == 0 the consumer reads: R_eff = max(R, batch_bytes*consumers/rate)). */
struct sb_ml_au_model {
	double compute_s;
	double read_s;
	unsigned readers;
	unsigned consumers;   /* 0 counts as 1 */
	unsigned prefetch;    /* batches queued per reader */
	double batch_bytes;
	double rate_Bps;
};
double sb_ml_au_predict(const struct sb_ml_au_model *m);

/* Simulates one consumer fed by m->readers threads (torch-style: batch b is
 * read by reader b % readers, at most readers * prefetch batches issued
 * ahead of the consumer, prefetch 0 = a batch is requested when the
 * consumer asks for it), constant times, per-batch read time
 * max(read_s, readers * batch_bytes / rate_Bps) when a rate is set.  Fills
 * n steps from time 0.  0, -EINVAL (readers == 0 or n == 0) or -ENOMEM. */
int sb_ml_au_simulate(const struct sb_ml_au_model *m, struct sb_ml_step *out, size_t n);
#endif
