/* timeseries.h: the JSON pieces for the time series and --status-interval
 * snapshots, called from json.c.  Private to output/. */
#ifndef SB_OUT_TIMESERIES_H
#define SB_OUT_TIMESERIES_H
#include "output/jsonw.h"
#include "stats/results.h"

/* "timeseries": [ {"t_ms", "dur_ms", "read": {...}, "write": {...}}, ... ]
 * inside a job object (written even when empty). */
void sb_json_timeseries(struct sb_jw *w, const struct sb_job_result *j);
/* "interim": [ {"t_ms", "jobs": [...]}, ... ] at the top level; nothing
 * when the run kept no snapshot. */
void sb_json_interim(struct sb_jw *w, const struct sb_results *r);
#endif
