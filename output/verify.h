/* verify.h: a job's "verify" object in JSON and its verify lines in the
 * normal output (stats/verify.h is the model). */
#ifndef SB_OUTPUT_VERIFY_H
#define SB_OUTPUT_VERIFY_H
#include <stdio.h>

#include "output/jsonw.h"
#include "stats/verify.h"

void sb_json_verify(struct sb_jw *w, const struct sb_verify_result *v);
void sb_normal_verify(FILE *f, const struct sb_verify_result *v);
#endif
