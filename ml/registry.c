/* registry.c: the workload table (see registry.h): one row per workload. */
#include <stddef.h>

#include "ml/registry.h"

extern const struct sb_workload_ops sb_workload_checkpoint; /* ml/checkpoint/checkpoint.c */
extern const struct sb_workload_ops sb_workload_train;      /* ml/train/trainrun.c */
extern const struct sb_workload_ops sb_workload_kvcache;    /* ml/kvcache/kvcache.c */

const struct sb_workload_ops *const sb_workload_table[] = {
	&sb_workload_io,
	&sb_workload_checkpoint,
	&sb_workload_train,
	&sb_workload_kvcache,
	NULL,
};
