/* timeseries.h: the JSON pieces for the time series and --status-interval
 * snapshots, called from json.c.  Private to output/. */
#ifndef SB_OUT_TIMESERIES_H
#define SB_OUT_TIMESERIES_H
#include "output/jsonw.h"
#include "stats/results.h"

/* "timeseries": [ {"t_ms", "dur_ms", "read": {...}, "write": {...}}, ... ]
 * inside a job object (written even when empty). */
void sb_json_timeseries(struct sb_jw *w, const struct sb_job_result *j);
/* Series columns (JSON and CSV): direction d, or d == SB_DDIR_N for
 * unified_rw_reporting's "mixed" (alone under =mixed, after the others
 * under =both); sb_out_ts_at gives the sample and index holding column *d
 * (the mixed one is made in *mix, stats/mixed.h's sb_ts_mix). */
bool sb_out_ts_col(const struct sb_job_result *j, int d);
const struct sb_ts_sample *sb_out_ts_at(const struct sb_ts_sample *s, int *d,
					struct sb_ts_sample *mix);
/* "interim": [ {"t_ms", "jobs": [...]}, ... ] at the top level; nothing
 * when the run kept no snapshot. */
void sb_json_interim(struct sb_jw *w, const struct sb_results *r);
#endif
