/* mlres.h: the results of one ML workload job (workload=checkpoint or
 * train), hung off its sb_job_result as ->ml.  ml/ fill it; the
 * writers in output/ only read it.  Units in the field names; GB = 1e9
 * bytes, GiB = 2^30 bytes. */
#ifndef SB_MLRES_H
#define SB_MLRES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/rules.h"

struct sb_ml_ckpt_point {
	unsigned index;           /* 0-based checkpoint number */
	double duration_s;        /* slowest rank: last end - first start */
	double gbps, gibps;       /* checkpoint bytes / duration */
};

struct sb_ml_ckpt_phase {
	struct sb_ml_ckpt_point *v; /* one per checkpoint written / read */
	unsigned n;
	double mean_duration_s, mean_gbps, mean_gibps;
};

struct sb_ml_ckpt_result {
	struct sb_ml_ckpt_phase write, read;
	uint64_t bytes_model;     /* per checkpoint, all ranks run, after scaling */
	uint64_t bytes_optimizer;
	unsigned files;           /* files per checkpoint */
	unsigned ranks;
	double fsync_s;           /* time in fsync, summed over ranks and files */
	bool caches_dropped;      /* the page cache was dropped before the reads */
	bool possibly_cached;     /* it could not be: reads may come from memory */
	char folder[256];
};

struct sb_ml_epoch_result {
	unsigned epoch;           /* 1-based */
	size_t steps;             /* steps of all accelerators */
	double duration_s;
	double au_pct, samples_per_s, mb_per_s;
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
};

struct sb_ml_result {
	unsigned workload;        /* enum sb_workload */
	struct sb_ml_ckpt_result ckpt;
	struct sb_ml_train_result train;
	bool has_rules;           /* rules=mlperf */
	struct sb_ml_rule_report rules;
};

void sb_ml_result_free(struct sb_ml_result *m);
#endif
