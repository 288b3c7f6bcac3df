/* opts.h: workload=train's own options struct.  Its rows (ml/train/opts.c)
 * fill it in the spec's wl_opts area (parse/workloads.h); its check
 * (ml/train/check.c) resolves train_model= into it, explicit options
 * winning, and scales sizes and times by train_scale.  Everything else
 * reads it through sb_train_opts(), which is NULL for a job of another
 * workload. */
#ifndef SB_ML_TRAIN_OPTS_H
#define SB_ML_TRAIN_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/workloads.h"

struct sb_jobspec;
struct sb_option;
struct sb_train_preset; /* parse/catalog.h */

#define SB_TRAIN_SEED_DEFAULT 123 /* seed='s default: DLIO's train.seed (utils/config.py:80) */

struct sb_train_opts {
	/* the dataset */
	char *train_model;          /* unet3d|resnet50|cosmoflow: DLIO shape defaults */
	const struct sb_train_preset *train_preset; /* resolved: its catalog row; NULL: custom */
	unsigned dataset_files, samples_per_file, subfolders;
	double record_length, record_length_stdev; /* bytes per sample */
	char *data_dir;             /* NULL: <directory>/data */
	unsigned dataset_format;    /* enum sb_dsfmt; default: train_model's, raw without one */
	bool dataset_verify;        /* check every byte training reads */
	/* the training loop */
	unsigned epochs, batch_size, read_threads, prefetch, accelerators;
	unsigned shuffle;           /* SB_SHUFFLE_FILE | SB_SHUFFLE_SAMPLE */
	uint64_t ml_seed;           /* shuffle seed (DLIO's 123) */
	unsigned read_order;        /* enum sb_read_order: dlio (default) or reshuffle */
	unsigned train_destination; /* enum sb_ml_mem: where training reads land */
	/* the accelerators' compute time per step */
	unsigned accelerator;       /* enum sb_accel: picks the train_model's computation_time */
	uint64_t computation_time_us, computation_time_stdev_us;
	unsigned computation_time_type;     /* enum sb_ctime: normal|uniform|gamma */
	uint64_t computation_time_min_us, computation_time_max_us; /* uniform */
	double computation_time_shape;      /* gamma shape k */
	uint64_t computation_time_scale_us; /* gamma scale theta */
	double au_target_pct;       /* resolved: train_model's threshold, else 90 */
	double train_scale;         /* applied by the check to record_length(_stdev), the
				     * computation times and model_size; default 1 */
	/* the in-training model checkpoint (DLIO's model.model_size) */
	unsigned checkpoint_after_epoch;     /* 0: none (unet3d: 5) */
	unsigned epochs_between_checkpoints; /* default 1 (unet3d: 2) */
	unsigned steps_between_checkpoints;  /* 0: by epochs */
	uint64_t model_size;                 /* bytes of the checkpoint's model file */
	/* the eval phase */
	bool do_eval;
	unsigned num_files_eval, batch_size_eval, eval_after_epoch, epochs_between_evals;
	uint64_t eval_time_us, eval_time_stdev_us; /* per eval step */
};

/* s's train options; NULL when s is not a train job */
extern const struct sb_option sb_train_rows[]; /* its rows (opts.c) */
static inline const struct sb_train_opts *sb_train_opts(const struct sb_jobspec *s)
{
	return (const struct sb_train_opts *)sb_spec_wl_opts_own(s, sb_train_rows);
}
/* the same, writable: for the check, which resolves defaults */
static inline struct sb_train_opts *sb_train_opts_mut(struct sb_jobspec *s)
{
	return (struct sb_train_opts *)sb_spec_wl_opts_own_mut(s, sb_train_rows);
}

/* The option table's row of field f of struct sb_train_opts (as the parser
 * holds it: for sb_job_isset, sb_job_where and the row's name); NULL when
 * the rows were not handed down. */
const struct sb_option *sb_train_opt(size_t off);
#define SB_TRAIN_OPT(f) sb_train_opt(offsetof(struct sb_train_opts, f))
#endif
