/* sysinv.h: the system inventory's writers (output/sysinv.c), private to
 * output/: json.c and normal.c call them for sb_results.sys. */
#ifndef SB_OUTPUT_SYSINV_H
#define SB_OUTPUT_SYSINV_H
#include <stdio.h>

struct sb_jw;
struct sb_sysinv;

/* "system": { hostname, kernel, cpu..., filesystems[], devices[], gpu };
 * nothing when s is NULL. */
void sb_json_sysinv(struct sb_jw *w, const struct sb_sysinv *s);
/* The "System:" block of normal output; nothing when s is NULL. */
void sb_normal_sysinv(FILE *f, const struct sb_sysinv *s);
#endif
