/* tools/mlps.h: mlpstorage's results tree (results_dir=), written after a
 * run and read back by `storbench validate`.
 *
 * Layout (mlpstorage's generate_output_location, its layout without
 * --closed/--open prefixes):
 *   <results_dir>/training/<model>/run/<YYYYmmdd_HHMMSS>/
 *   <results_dir>/checkpointing/<model>/<YYYYmmdd_HHMMSS>/
 * each holding summary.json (DLIO's StatsCounter keys, "metric" with DLIO's
 * metric names) and <benchmark>_<datetime>_metadata.json (the run's
 * parameters as the rules see them, the job options, the host inventory
 * and the run's own rule verdict, and mlpstorage's own metadata keys), and
 * what DLIO leaves there (tools/mlpsdlio.h, tools/mlpsfiles.c):
 * dlio_config/{config.yaml,overrides.yaml,hydra.yaml}, 0_per_epoch_stats.json,
 * 0_output.json, dlio.log, <benchmark>_run.stdout.log/.stderr.log.  A second
 * run in the same second takes the next free second: nothing is ever
 * overwritten. */
#ifndef SB_TOOLS_MLPS_H
#define SB_TOOLS_MLPS_H

#include <stddef.h>

#include "stats/results.h"

#define SB_MLPS_SUMMARY "summary.json"
#define SB_MLPS_METADATA_SUFFIX "_metadata.json"

/* Write the tree of every ML job of res that set results_dir=; the run
 * folder written last goes to stderr ("results: PATH").  0, or -errno
 * after an sb_err naming the path. */
int sb_mlps_write(const struct sb_results *res);

#endif
