/* registry.h: the workload table (run/workload.h), which main hands to
 * run/ with sb_workloads_set.  Adding a workload: its folder, one row here. */
#ifndef SB_ML_REGISTRY_H
#define SB_ML_REGISTRY_H
#include "run/workload.h"

/* NULL-terminated, in enum sb_workload order */
extern const struct sb_workload_ops *const sb_workload_table[];
/* Hands the table to run/ (sb_workloads_set) and the rows and checks to
 * parse/ (sb_parse_set_workloads); storbench.c, the unit tests and the fuzz
 * harnesses call it first.  0, or -EINVAL when the parser refuses them. */
int sb_workloads_hand_down(void);

/* what each workload folder gives its row (ml/<workload>/opts.c, check.c) */
struct sb_option;
struct sb_jobctx;
extern const struct sb_option sb_ckpt_rows[], sb_train_rows[], sb_kv_rows[];
extern const unsigned sb_ckpt_rows_n, sb_train_rows_n, sb_kv_rows_n;
unsigned sb_ml_check_ckpt(struct sb_jobctx *c);
unsigned sb_ml_check_tier(struct sb_jobctx *c); /* checkpoint_cache_folder= (checktier.c) */
unsigned sb_ml_check_train(struct sb_jobctx *c);
unsigned sb_ml_check_kv(struct sb_jobctx *c);
/* the rows (ml/checkpoint/checkpoint.c, ml/train/trainrun.c, ml/kvcache/kvcache.c) */
extern const struct sb_workload_ops sb_workload_checkpoint, sb_workload_train, sb_workload_kvcache;
#endif
