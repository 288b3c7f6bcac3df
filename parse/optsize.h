/* optsize.h: a size option's other forms, for the option setter
 * (parse/optset.c): N% (SB_OF_PCT, a double at off2) and fio's zone
 * count Nz (SB_OF_ZONES, a count at off2, or off3 with SB_OF_PCT). */
#ifndef SB_PARSE_OPTSIZE_H
#define SB_PARSE_OPTSIZE_H
#include <stdbool.h>
#include <stddef.h>

#include "lib/option.h"
#include "parse/jobspec.h"

/* size=N%: 1-100 (0-100 for offsets): 0, or -EINVAL with err */
int sb_optsize_pct(const struct sb_option *o, struct sb_jobspec *s, const char *val, char *err);
/* where row o keeps a zone count */
size_t sb_optsize_zone_off(const struct sb_option *o);
/* val is Nz: stored (true); false when it is not one */
bool sb_optsize_zones(const struct sb_option *o, struct sb_jobspec *s, const char *val);
#endif
