/* ml/train/trainst.h: workload=train's state, shared by its files: ml/train/trainrun.c
 * (prepare, the epoch loop, results), ml/train/trainpipe.c (one phase: the reader
 * pools, the accelerators, the step barrier) and ml/train/trainckpt.c (the
 * in-training checkpoint).  Internal to ml/. */
#ifndef SB_ML_TRAINST_H
#define SB_ML_TRAINST_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/option.h"
#include "ml/train/au.h"
#include "ml/train/opts.h"
#include "ml/run.h"
#include "ml/train/result.h"
#include "ml/train/train.h"
#include "os/scratch.h"

#define SB_ML_TRAIN_PATH 1024

/* what a phase reads and how long a step computes */
struct sb_ml_phase {
	const struct sb_ml_dataset *ds;
	const char *dir;                /* the data directory */
	unsigned batch_size;
	struct sb_ml_compute compute;
};

struct sb_ml_made {
	char path[SB_ML_TRAIN_PATH];
	struct sb_scratch_id id;
	bool dir;
};

struct sb_ml_trainst {
	struct sb_ml_dataset ds, eval_ds;   /* train/ and valid/ (do_eval) */
	struct sb_ml_phase train_ph, eval_ph;
	unsigned eval_missing;
	char dir[SB_ML_TRAIN_PATH - 256];
	unsigned nmissing;
	unsigned rt;                /* read_threads per accelerator (0: it reads) */
	unsigned readers, consumers; /* readers = consumers * rt */
	unsigned prefetch;          /* batches per reader: ceil(prefetch / rt) */
	const struct sb_ml_phase *ph; /* the running phase */
	/* one phase's pipeline, under mu */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct sb_ml_plan *plan;    /* per consumer (its rank's shard) */
	size_t *requested;          /* per consumer: batches claimed */
	bool **ready;               /* per consumer, per batch: read */
	bool stop;
	unsigned bar_active, bar_arrived, bar_gen; /* the step barrier */
	/* MPI: the accelerators are ranks [a0, a0 + consumers) of all; the
	 * step barrier spans the processes: one cross-process barrier per
	 * local one (bar_done), nsync per phase on every process */
	unsigned a0, all;
	size_t bar_done, nsync;
	struct sb_ml_step **steps;  /* per consumer */
	size_t *nsteps;
	struct sb_ml_rng *crng;     /* per consumer: computation-time draws */
	unsigned slow_acc;          /* test hook: this accelerator computes */
	double slow_extra_s;        /* this much longer per step */
	/* in-training checkpoint: written by worker ckpt_worker; what it
	 * created (files and folders), removed at the end unless kept */
	char ckpt_dir[SB_ML_TRAIN_PATH - 256];
	unsigned ckpt_worker;
	struct sb_ml_made *made;
	unsigned nmade;
	struct sb_ml_fmtrd *fmtrd;  /* per worker: its format reader's state (ml/train/formats.h) */
};

/* One phase (a training epoch or an eval pass) on new threads: per
 * accelerator c its plan (rank c of consumers), its rt readers, then join.
 * 0 or -errno; the steps are in tr->steps / tr->nsteps. */
int sb_ml_train_phase(struct sb_wl_job *j, const struct sb_ml_phase *ph, unsigned epoch,
		      size_t max_steps);
/* Write the training checkpoint of (epoch, step): <ckpt_dir>/
 * global_epoch<E>_step<S>/model_states-0.pt, model_size bytes, fsync'ed
 * when checkpoint_fsync; its time and bytes go to the train results. */
int sb_ml_train_ckpt(struct sb_wl_job *j, unsigned epoch, uint64_t step);
/* remove what sb_ml_train_ckpt wrote (unless keep_checkpoints) */
void sb_ml_train_ckpt_cleanup(struct sb_wl_job *j);
/* the workload's row (trainrun.c), its option rows (opts.c) and its
 * parse-time check (check.c), listed by ml/registry.c */
/* rules=mlperf of a train job from its spec and its result, judged on the
 * world (hosts, memory per host: the largest of the processes';
 * ml/train/merge.c) */
void sb_ml_train_rules(const struct sb_jobspec *s, struct sb_train_job_result *m, unsigned hosts,
		       uint64_t host_mem_bytes);
/* its ranks_merge hook (run/workload.h): rank 0's result becomes the
 * whole run's */
int sb_train_ranks_merge(struct sb_job_result *jr);
extern const struct sb_workload_ops sb_workload_train;
/* what the conformance suite runs of it (conform.c) */
extern const struct sb_wl_conformance sb_train_conformance;
struct sb_jobctx;
extern const struct sb_option sb_train_rows[];
extern const unsigned sb_train_rows_n;
unsigned sb_ml_check_train(struct sb_jobctx *c);
/* train_destination's row when it is gpu, else NULL (the gpu_mem hook) */
const struct sb_option *sb_ml_train_gpu_option(const struct sb_jobspec *s);
#endif
