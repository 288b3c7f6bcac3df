/* rules.h: the MLPerf Storage rules of a train run (ml/train/rules.c),
 * in the shared rule report (ml/rules.h).
 *
 * Every train option that sets a DLIO parameter is judged: by a rule of
 * its own or as an override (sb_ml_train_overrides, rules.py:513-555).
 *
 * Sources (mlcommons/storage, the v2.0 tree): mlpstorage/rules.py's
 * TrainingRulesChecker (check_num_files_train with
 * calculate_training_data_size, check_allowed_params, check_odirect_supported_model,
 * check_workflow_parameters), mlpstorage/config.py (LLM_ALLOWED_VALUES,
 * LLM_SUBSET_PROCS), configs/dlio/workload/<model>_<accelerator>.yaml, and
 * what Submission_guidelines.md states but the checker does not encode:
 * the minimum AU (section 4, Table 1), 10 checkpoint writes and reads or a
 * write-only/read-only run (2.2.2, Table 3), subset mode with 8 processes
 * (2.2.2; config.py's "CLOSED in [8 || N]"), fsync (2.2.2) and the cache
 * drop between writes and reads (2.2.2).  HOWTO.md lists every rule with its
 * source.  The checker's MAX_READ_THREADS_TRAINING (32) is defined but never
 * applied, and read_threads is a CLOSED parameter: no rule.
 * Not checked (one run cannot tell): 1 warm-up + 5 measured runs within 5%. */
#ifndef SB_ML_TRAIN_RULES_H
#define SB_ML_TRAIN_RULES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/rules.h"

#define SB_ML_MIN_STEPS 500u         /* config.py STEPS_PER_EPOCH */
#define SB_ML_MEM_MULTIPLIER 5u      /* config.py MOST_MEMORY_MULTIPLIER */

/* A job option that sets a DLIO parameter to something other than the
 * workload's yaml (configs/dlio/workload/<model>_<accel>.yaml): the
 * override mlpstorage records as "++workload.<param>=<value>". */
struct sb_ml_override {
	const char *option;       /* storbench's option name */
	const char *param;        /* DLIO's parameter: "dataset.format" */
	char value[40];
};

#define SB_ML_OVERRIDES_MAX 32

/* The class mlpstorage v2.0 gives an override of param
 * (rules.py:513-555 check_allowed_params): CLOSED (closed_allowed_params),
 * OPEN (open_allowed_params) or INVALID (any other); workflow.* params are
 * skipped there (CLOSED). */
enum sb_ml_verdict sb_ml_override_class(const char *param);
/* The same under storbench's guidelines reading (Submission_guidelines.md
 * 10.1 Table 2, 10.2): workflow.* is not in Table 2, so INVALID. */
enum sb_ml_verdict sb_ml_override_class_guidelines(const char *param);

struct sb_ml_train_facts {
	const char *workload;     /* built-in name (unet3d, ...) or NULL/"" */
	const char *accel;        /* "h100" or "a100": which computation time */
	unsigned files, samples_per_file;
	double record_length;     /* nominal bytes per sample */
	double record_stdev;      /* bytes */
	unsigned batch_size, accelerators, read_threads, epochs;
	bool file_shuffle, sample_shuffle;
	bool odirect;             /* O_DIRECT reads (direct=1) */
	/* the in-training model checkpoint: first epoch and every-N-steps (0: none) */
	unsigned ckpt_after_epoch, ckpt_every_steps;
	double computation_time_s;
	unsigned hosts;           /* client hosts (1 for one process) */
	uint64_t host_mem_bytes;  /* memory per host */
	bool au_measured;         /* false: no AU rule (e.g. --datagen) */
	double au_pct;
	double au_required_pct;   /* 0: the named workload's threshold */
	/* overrides judged by the table (those with a rule of their own, e.g.
	 * batch_size, are not in it) */
	const struct sb_ml_override *ov;
	size_t nov;
	bool io_known;            /* false: no I/O facts (validate of an old tree) */
	bool nodiskio;            /* ioengine=null */
	uint64_t io_bytes;        /* bytes moved */
	bool reshuffle;           /* read_order=reshuffle: not DLIO's order (OPEN) */
};

/* Minimum samples of the guidelines (section 7): max(500 * batch *
 * accelerators, ceil(hosts * mem * 5 / record_length)). */
uint64_t sb_ml_min_samples(unsigned batch, unsigned accelerators, unsigned hosts,
			   uint64_t host_mem_bytes, double record_length);

/* The file counts mlpstorage's calculate_training_data_size requires, with
 * its integer (floor) divisions: by memory floor(5 * hosts * mem /
 * (samples_per_file * record_length)), by steps floor(500 * accelerators *
 * batch / samples_per_file). */
uint64_t sb_ml_min_files_by_mem(unsigned hosts, uint64_t host_mem_bytes, unsigned samples_per_file,
				double record_length);
uint64_t sb_ml_min_files_by_steps(unsigned batch, unsigned accelerators, unsigned samples_per_file);

/* The facts of a train job spec on one host of host_mem_bytes (AU not
 * measured yet: au_measured false; no I/O facts; no overrides: give f->ov
 * from sb_ml_train_overrides). */
void sb_ml_train_facts_of(const struct sb_jobspec *s, uint64_t host_mem_bytes,
			  struct sb_ml_train_facts *f);
/* The overrides of a train job with train_model= (0 rows without one) */
size_t sb_ml_train_overrides(const struct sb_jobspec *s, struct sb_ml_override *ov, size_t max);

struct sb_jobspec;
/* Fill rep; 0, or -EINVAL when facts are unusable (zero batch, record
 * length or accelerators; unknown workload name). */
int sb_ml_rules_train(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep);

#endif
