/* registry.h: the workload table (run/workload.h), which main hands to
 * run/ with sb_workloads_set.  Adding a workload: its folder, one row here. */
#ifndef SB_ML_REGISTRY_H
#define SB_ML_REGISTRY_H
#include "run/workload.h"

/* NULL-terminated, in enum sb_workload order */
extern const struct sb_workload_ops *const sb_workload_table[];
#endif
