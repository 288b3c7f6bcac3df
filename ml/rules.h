/* ml_rules.h: MLPerf Storage rule checks for train and checkpoint runs.
 *
 * Each rule gives name, expected, actual, pass and how to fix it, and the
 * verdict a failure costs.  Verdict: INVALID if any INVALID-class rule
 * fails, else OPEN if any OPEN-class rule fails, else CLOSED.
 *
 * Classes (after the MLPerf Storage v2 submission guidelines and mlpstorage's
 * rules.py, which rejects a too-small dataset as invalid):
 *   INVALID - the numbers would not measure the storage the benchmark means:
 *     train: dataset < 5x host memory, < 500 steps per epoch, AU below the
 *     workload's threshold, batch size / computation time / record length
 *     differing from the named workload (the workload may not change);
 *     checkpoint: fewer than 10 writes or 10 reads, fsync off, caches not
 *     dropped between write and read, checkpoint_scale != 1.
 *   OPEN - allowed but not comparable: train read_threads > 32, a custom
 *     (unnamed) workload; checkpoint subset mode or a rank count other than
 *     the CLOSED count (scaling in multiples of tp*pp is OPEN), a custom
 *     model shape.
 * Not checked (one run cannot tell): 1 warm-up + 5 measured runs within 5%. */
#ifndef SB_ML_RULES_H
#define SB_ML_RULES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/mlres.h" /* the rule report: results data */

struct sb_ml_train_facts {
	const char *workload;     /* built-in name (unet3d, ...) or NULL/"" */
	const char *accel;        /* "h100" or "a100": which computation time */
	unsigned files, samples_per_file;
	double record_length;     /* nominal bytes per sample */
	unsigned batch_size, accelerators, read_threads;
	double computation_time_s;
	unsigned hosts;           /* client hosts (1 for one process) */
	uint64_t host_mem_bytes;  /* memory per host */
	bool au_measured;         /* false: no AU rule (e.g. --datagen) */
	double au_pct;
	double au_required_pct;   /* 0: the named workload's threshold */
};

struct sb_ml_ckpt_facts {
	const char *model;        /* built-in name or NULL/"" for explicit */
	unsigned ranks, world;    /* ranks run, tp*pp*dp of the shape used */
	unsigned tp, pp;          /* of the shape used */
	bool subset;
	unsigned writes, reads;   /* checkpoints written and read */
	bool fsync;
	bool caches_dropped;      /* between the write and read phases */
	double scale;             /* checkpoint_scale */
};

/* Minimum samples: max(500 * batch * accelerators,
 * ceil(hosts * mem * 5 / record_length)). */
uint64_t sb_ml_min_samples(unsigned batch, unsigned accelerators, unsigned hosts,
			   uint64_t host_mem_bytes, double record_length);

/* Fill rep; 0, or -EINVAL when facts are unusable (zero batch, record
 * length or accelerators; unknown workload/model name). */
int sb_ml_rules_train(const struct sb_ml_train_facts *f, struct sb_ml_rule_report *rep);
int sb_ml_rules_ckpt(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep);

#endif
