/* rules.h: the MLPerf Storage rules of a checkpoint run (ml/checkpoint/
 * rules.c), in the shared rule report (ml/rules.h): the guidelines' 2.2
 * (model, ranks or subset, 10 writes and reads, fsync, the cache drop,
 * unscaled files) and config.py's LLM_MODELS and LLM_SUBSET_PROCS. */
#ifndef SB_ML_CKPT_RULES_H
#define SB_ML_CKPT_RULES_H
#include <stdbool.h>
#include <stdint.h>

#include "ml/rules.h"

#define SB_ML_CKPT_COUNT 10u         /* guidelines Table 3: num-checkpoints-write/read */
#define SB_ML_SUBSET_PROCS 8u        /* config.py LLM_SUBSET_PROCS */

struct sb_ml_ckpt_facts {
	const char *model;        /* built-in name or NULL/"" for explicit */
	bool shape_changed;       /* model='s shape changed (layers=, hidden=, tp=, ...; not dp) */
	unsigned ranks, world;    /* ranks run, tp*pp*dp of the shape used */
	unsigned tp, pp;          /* of the shape used */
	bool subset;
	unsigned want_writes, want_reads; /* num_checkpoints_write / _read asked */
	unsigned writes, reads;   /* checkpoints written and read */
	bool fsync;
	bool caches_dropped;      /* before the reads, and able to evict them */
	double scale;             /* checkpoint_scale */
	bool io_known, nodiskio;  /* known: the I/O facts are there; the engine
				   * touched no storage; bytes moved */
	uint64_t io_bytes;
	bool content_unique;      /* checkpoint_content=unique: not DLIO's bytes (OPEN) */
};

/* Fill rep; 0, or -EINVAL when the model name is unknown. */
int sb_ml_rules_ckpt(const struct sb_ml_ckpt_facts *f, struct sb_ml_rule_report *rep);

#endif
