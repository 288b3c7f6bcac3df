/* figures.h: the writers of each ML workload's result (its folder's
 * figures.c), reached by the writers in output/ only through the result's
 * figures row (stats/results.h struct sb_wl_figures, ml/figures.c). */
#ifndef SB_ML_FIGURES_H
#define SB_ML_FIGURES_H
#include <stdio.h>

#include "output/jsonw.h"
#include "ml/result.h"

struct sb_kv_result;
void sb_ml_ckpt_json(struct sb_jw *w, const struct sb_ml_ckpt_result *c);
void sb_ml_ckpt_normal(FILE *f, const struct sb_ml_ckpt_result *c);
void sb_ml_train_json(struct sb_jw *w, const struct sb_ml_train_result *t);
void sb_ml_train_normal(FILE *f, const struct sb_ml_train_result *t);
void sb_ml_kv_json(struct sb_jw *w, const struct sb_kv_result *kv);
void sb_ml_kv_normal(FILE *f, const struct sb_kv_result *kv);
#endif
