/* result.h: the results of one workload=train job (ml/train/ fills them,
 * ml/train/figures.c writes them), in its struct sb_train_job_result after
 * the shared struct sb_ml_result (ml/result.h).  Units in the field names; MB = 1e6 bytes. */
#ifndef SB_ML_TRAIN_RESULT_H
#define SB_ML_TRAIN_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/gpucopy.h"
#include "ml/result.h"

struct sb_job_result;
struct sb_wl_job;

struct sb_ml_epoch_result {
	unsigned epoch;           /* 1-based */
	size_t steps;             /* steps of all accelerators */
	double duration_s;
	double au_pct, samples_per_s, mb_per_s;
	/* mean step period (compute end to compute end) of the fastest and the
	 * slowest accelerator: equal under the step barrier */
	double step_s_min, step_s_max;
	size_t eval_steps;        /* eval phase after this epoch (0: none) */
	double eval_duration_s;
};

/* a checkpoint written during training */
struct sb_ml_train_ckpt {
	unsigned epoch;
	uint64_t step;            /* DLIO's step number in its folder name */
	uint64_t bytes;
	double duration_s;        /* create + write + fsync + close */
	char path[256];
};

struct sb_ml_train_result {
	double au_pct, samples_per_s, mb_per_s; /* mean of the epochs */
	double au_target_pct;
	bool au_met;
	struct sb_ml_epoch_result *epochs;
	unsigned nepochs;
	uint64_t dataset_bytes;
	unsigned dataset_files;
	bool dataset_created;     /* storbench generated it for this run */
	size_t steps_per_epoch;   /* per accelerator */
	char data_dir[256];
	/* the pipeline: accelerators x read_threads readers, each prefetching
	 * prefetch_per_reader batches; readers_did_io counts the reader threads
	 * whose statistics show read bytes */
	unsigned accelerators, read_threads, readers, readers_did_io, prefetch_per_reader;
	struct sb_ml_train_ckpt *ckpts;
	unsigned nckpts;
	struct sb_ml_gpu_copy gpu;     /* train_destination=gpu (checkpoint_source=gpu) */
};

/* a train job's result: the shared part, then its own */
struct sb_train_job_result {
	struct sb_ml_result ml;
	struct sb_ml_train_result train;
};
extern const struct sb_ml_figures sb_train_figures; /* ml/train/figures.c */
/* The train result of a job's result, or NULL when it is not a train
 * job's. */
const struct sb_ml_train_result *sb_train_result_of(const struct sb_job_result *jr);
/* The result of a running train job (its j->res; NULL before its prepare
 * made it). */
struct sb_train_job_result *sb_train_res(const struct sb_wl_job *j);
#endif
