/* mlfigures.h: kv_profile=mlperf's figures (mlfigures.c), called by figures.c */
#ifndef SB_ML_KV_MLFIGURES_H
#define SB_ML_KV_MLFIGURES_H
#include <stdio.h>

struct sb_jw;
struct sb_kv_mlres;
void sb_ml_kv_mlperf_json(struct sb_jw *w, const struct sb_kv_mlres *m);
void sb_ml_kv_mlperf_normal(FILE *f, const struct sb_kv_mlres *m);
#endif
