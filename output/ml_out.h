/* ml_out.h: the ML workload sections of the writers: a job's "checkpoint",
 * "train" and "rules" objects in JSON, and a short readable section plus the
 * rule report in the normal output. */
#ifndef SB_ML_OUT_H
#define SB_ML_OUT_H
#include <stdio.h>

#include "output/jsonw.h"
#include "stats/mlres.h"

void sb_json_ml(struct sb_jw *w, const struct sb_ml_result *m);
void sb_normal_ml(FILE *f, const struct sb_ml_result *m);
/* workload=kvcache: the job's "kvcache" object and its normal-output block
 * (output/kv_out.c) */
struct sb_kv_result;
void sb_json_kv(struct sb_jw *w, const struct sb_kv_result *kv);
void sb_normal_kv(FILE *f, const struct sb_kv_result *kv);
/* tiered checkpoints (ml_tier.c), inside the checkpoint sections */
void sb_json_ml_tier(struct sb_jw *w, const struct sb_ml_tier_result *t,
		     const struct sb_ml_ckpt_phase *reads);
void sb_normal_ml_tier(FILE *f, const struct sb_ml_tier_result *t);
#endif
