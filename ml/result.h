/* result.h: the result of one ML workload job (checkpoint, train, kvcache):
 * its workload's own part (ml/checkpoint/result.h, ml/train/result.h,
 * ml/kvcache/result.h) and the MLPerf rule report they share.  It is the
 * job's struct sb_wl_result (stats/results.h): stats/ and output/ see only
 * that head, and write it through its figures (ml/figures.c). */
#ifndef SB_ML_RESULT_H
#define SB_ML_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/assert.h"
#include "stats/results.h"
#include "ml/checkpoint/result.h"
#include "ml/train/result.h"

struct sb_kv_result;
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

struct sb_ml_result {
	struct sb_wl_result head; /* first: the job's jr->wl points here */
	unsigned workload;        /* enum sb_workload */
	struct sb_ml_ckpt_result ckpt;
	struct sb_ml_train_result train;
	bool has_rules;           /* rules=mlperf */
	bool nodiskio;            /* the engine touches no storage (ioengine=null) */
	uint64_t io_bytes;        /* bytes the job's workers moved (this process) */
	struct sb_ml_rule_report rules;
	struct sb_kv_result *kv;  /* workload=kvcache (ml/kvcache/result.h); else NULL */
};

/* A new, empty result of workload (its figures: ml/figures.c); NULL: no memory */
struct sb_ml_result *sb_ml_result_new(unsigned workload);
/* r was made by sb_ml_result_new (its figures are the ML ones) */
bool sb_ml_owns(const struct sb_wl_result *r);
/* the ML result of a job's result / of a running job (NULL: none) */
static inline struct sb_ml_result *sb_ml_of(const struct sb_wl_result *r)
{
	SB_ASSERT(!r || sb_ml_owns(r)); /* the cast below holds for ML results only */
	return (struct sb_ml_result *)(uintptr_t)r;
}
#endif
