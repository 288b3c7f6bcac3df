/* sweep.h: the sweep part of the reports (private to output/): the point
 * table and best configurations in normal output, the "sweep" object in
 * JSON.  Both read r->sweep only. */
#ifndef SB_OUTPUT_SWEEP_H
#define SB_OUTPUT_SWEEP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "output/jsonw.h"
#include "stats/results.h"

/* Normal output: every finished point sorted by the sweep metric, then the
 * best point per direction as a job-file fragment. */
void sb_normal_sweep(FILE *f, const struct sb_results *r);
/* JSON: "sweep": { "metric", "points": [...], "best": {...} } */
void sb_json_sweep(struct sb_jw *w, const struct sb_results *r, bool plus);
/* every finished point's jobs, merged over its repetitions, as members of
 * the top-level "jobs" array, each labelled with its point
 * (sb_json_job_at), so fio's tools read a sweep; -ENOMEM or 0 */
int sb_json_sweep_jobs(struct sb_jw *w, const struct sb_results *r, bool plus);
/* The table's row order: indexes into sr->points, best score first (ties:
 * run order).  order has sr->ndone entries. */
void sb_sweep_order(const struct sb_sweep_results *sr, size_t *order);
#endif
