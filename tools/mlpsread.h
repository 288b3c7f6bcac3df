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
#include "ml/checkpoint/rules.h"
#include "ml/train/rules.h"

/* The parameters of the run in dir (meta: its *_metadata.json, sum: its
 * summary.json) as a JSON object parsed into out.  bench is "training" or
 * "checkpointing".  0, or -EINVAL when the metadata has neither
 * combined_params nor args (not mlpstorage's), -ENOMEM. */
int sb_mlps_read_params(const char *dir, const char *bench, const struct sb_jval *meta,
			const struct sb_jval *sum, struct sb_json *out);

/* The overrides of a run folder's dlio_config/overrides.yaml (tools/
 * mlpsov.c): ov[0..n) every "++workload.<param>=<value>" line but those
 * storbench judges by a rule of its own from the metadata's values
 * (batch_size, epochs, ...), each with the job option that sets it (the
 * parameter's name where no option does); those with a rule of their own
 * sit at the end, ov[MAX-nown..MAX). */
struct sb_mlps_overrides {
	struct sb_ml_override ov[SB_ML_OVERRIDES_MAX];
	char param[SB_ML_OVERRIDES_MAX][64];
	size_t n, nown;
};

/* 0 (n 0 when the folder has no overrides.yaml: an older tree), or -errno
 * when the file cannot be read. */
int sb_mlps_read_overrides(const char *dir, struct sb_mlps_overrides *out);

/* rules.py:548 makes any override outside its two lists INVALID, even one
 * that restates the yaml's value (--param reader.batch_size=7 for unet3d),
 * which the own rule passes: appends to ov[0..n) each own-rule override
 * that is not CLOSED-allowed and whose rule passed in rep; how many (judge
 * again when > 0). */
size_t sb_mlps_restated_overrides(struct sb_mlps_overrides *o, const struct sb_ml_rule_report *rep);

#endif
