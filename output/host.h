/* host.h: the host counters' writers (output/host.c), private to output/:
 * json.c and normal.c call them for sb_results.host. */
#ifndef SB_OUTPUT_HOST_H
#define SB_OUTPUT_HOST_H
#include <stdio.h>

#include "stats/host.h"

struct sb_jw;

/* The members of the "host" object (the caller opens and closes it): one
 * object per source with its summary fields, or "absent": true and
 * "reason"; then "series_intervals_per_sample" and "series": [ ... ]. */
void sb_out_host_json(struct sb_jw *w, const struct sb_host *h);
/* The short "host" section of normal output: one line per requested source. */
void sb_out_host_normal(FILE *f, const struct sb_host *h);
#endif
