/* result.h: what the results of the ML workloads share: a job's struct
 * sb_ml_result (first in each workload's own result struct, which its
 * folder's result.h declares with its typed accessor) and the MLPerf rule
 * report any workload can fill.  It is the job's struct sb_wl_result
 * (stats/results.h): stats/ and output/ see only that head, and write it
 * through its figures (ml/figures.c prints the shared part, the workload's
 * struct sb_ml_figures its own). */
#ifndef SB_ML_RESULT_H
#define SB_ML_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/results.h"

struct sb_jw;
struct sb_wl_job;

/* ---- MLPerf rule reports (ml/rules.c fills them; the writers print them) */

enum sb_ml_verdict { SB_ML_CLOSED = 0, SB_ML_OPEN = 1, SB_ML_INVALID = 2 };

#define SB_ML_RULES_MAX 48

struct sb_ml_rule {
	char name[32];            /* "dataset_size", "au", ... */
	char expected[64];
	char actual[64];
	bool pass;
	enum sb_ml_verdict fail_as; /* what a failure costs in the guidelines verdict */
	enum sb_ml_verdict checker_as; /* what it costs in mlpstorage v2.0's checker
				    * (CLOSED: the checker does not check it) */
	char cite[80];            /* its source: "rules.py:548 (train.epochs); guidelines 10.1" */
	char fix[192];            /* empty when passed */
};

/* Two verdicts: verdict (the headline) is what mlcommons/storage v2.0's
 * checker (mlpstorage/rules.py) returns on the same run, guidelines is
 * storbench's stricter reading of the submission guidelines; HOWTO lists
 * where they differ. */
struct sb_ml_rule_report {
	enum sb_ml_verdict verdict;    /* the checker's: worst checker_as of the failed rules */
	enum sb_ml_verdict guidelines; /* worst fail_as of the failed rules */
	size_t n;
	struct sb_ml_rule rules[SB_ML_RULES_MAX];
};

const char *sb_ml_verdict_name(enum sb_ml_verdict v); /* "CLOSED", "OPEN", "INVALID" */
/* The rule named name, or NULL. */
const struct sb_ml_rule *sb_ml_rule_get(const struct sb_ml_rule_report *rep, const char *name);

struct sb_ml_result;

/* A workload's result, as its folder's figures.c makes, prints and frees
 * it; the row's address names the workload that made a result. */
struct sb_ml_figures {
	size_t size;              /* bytes of the workload's result struct, which starts
				   * with struct sb_ml_result */
	size_t gpu_off;           /* offset of its struct sb_ml_gpu_copy (ml/gpucopy.h) in
				   * it, where the workers' GPU copies are summed (0: none) */
	/* its JSON members and normal-output lines (the rule report follows, by
	 * ml/figures.c), and what its part owns freed (not m itself; NULL:
	 * nothing) */
	void (*json)(struct sb_jw *w, const struct sb_ml_result *m);
	void (*normal)(FILE *f, const struct sb_ml_result *m);
	void (*release)(struct sb_ml_result *m);
};

struct sb_ml_result {
	struct sb_wl_result head; /* first: the job's jr->wl points here */
	const struct sb_ml_figures *own; /* its workload's figures: who made it */
	bool has_rules;           /* rules=mlperf */
	bool nodiskio;            /* the engine touches no storage (ioengine=null) */
	uint64_t io_bytes;        /* bytes the job's workers moved (this process) */
	struct sb_ml_rule_report rules;
};

/* A new, empty result of own->size bytes (zeroed), made by own; NULL: no
 * memory */
struct sb_ml_result *sb_ml_result_new(const struct sb_ml_figures *own);
/* The ML result r is, when own made it (own NULL: any ML workload), else
 * NULL (r NULL, or the result of another workload). */
struct sb_ml_result *sb_ml_result_mine(const struct sb_wl_result *r, const struct sb_ml_figures *own);
/* The ML result of a job's result, or NULL (an io job, or another kind) */
const struct sb_ml_result *sb_ml_result_of(const struct sb_job_result *jr);
#endif
