/* tools/mlpsread.h: reading a run folder that mlpstorage + DLIO wrote (no
 * storbench "parameters" in its metadata) into the parameters `storbench
 * validate` judges, under the names tools/mlps.c writes (params_train,
 * params_ckpt).  Sources, mlcommons/storage caa90c9: benchmarks/base.py
 * :100-113 (the metadata: the benchmark's __dict__: args, params_dict,
 * yaml_params, combined_params, run_datetime, benchmark_type), benchmarks/
 * dlio.py:62-71 (combined_params = the workload yaml updated with the
 * --param overrides, whose values stay strings), :259-270 (checkpoint.mode,
 * model.parallelism.data); DLIO 392621b statscounter.py (summary.json,
 * <rank>_per_epoch_stats.json with save_ckpt<N>/load_ckpt<N> per checkpoint). */
#ifndef SB_TOOLS_MLPSREAD_H
#define SB_TOOLS_MLPSREAD_H

#include "lib/jsonr.h"

/* The parameters of the run in dir (meta: its *_metadata.json, sum: its
 * summary.json) as a JSON object parsed into out.  bench is "training" or
 * "checkpointing".  0, or -EINVAL when the metadata has neither
 * combined_params nor args (not mlpstorage's), -ENOMEM. */
int sb_mlps_read_params(const char *dir, const char *bench, const struct sb_jval *meta,
			const struct sb_jval *sum, struct sb_json *out);

#endif
