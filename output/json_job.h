/* json_job.h: one job's JSON object (json_job.c), for the document writer
 * (json.c) and a sweep's points (sweep.c). */
#ifndef SB_OUTPUT_JSON_JOB_H
#define SB_OUTPUT_JSON_JOB_H
#include <stdbool.h>

#include "output/jsonw.h"
#include "stats/results.h"

/* the job object of j (its JSON+ bins with plus); -ENOMEM or 0 */
int sb_json_job(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		int plus);
/* the same for a sweep's point (1-based) whose values are "rw=read bs=4k":
 * jobname "NAME (VALUES)", then "sweep_point" and "sweep_values" */
int sb_json_job_at(struct sb_jw *w, const struct sb_results *r, const struct sb_job_result *j,
		   int plus, size_t point, const char *values);
/* an options echo: "key": {"name": "value", ...} */
void sb_json_opts(struct sb_jw *w, const char *key, const struct sb_opt_echo *o, unsigned n);
#endif
