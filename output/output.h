/* output.h: writers of the results model.  They read sb_results only. */
#ifndef SB_OUTPUT_H
#define SB_OUTPUT_H
#include <stdio.h>

#include "stats/results.h"

#define SB_FMT_NORMAL 0x1u
#define SB_FMT_TERSE 0x2u
#define SB_FMT_JSON 0x4u
#define SB_FMT_JSONPLUS 0x8u

/* "normal,json" -> mask; -EINVAL on an unknown name */
int sb_output_parse_formats(const char *s, unsigned *mask);
/* every format in mask, in the order normal, terse, json/json+ (json and
 * json+ together: one json+ document) */
int sb_output_write(FILE *f, const struct sb_results *r, unsigned mask);
/* the formats' names from output.c's one table: the i-th, NULL past the
 * last; and all of them joined ("normal, terse, json or json+" with sep
 * ", " and last " or ") */
const char *sb_output_format_name(unsigned i);
void sb_output_format_list(char *buf, size_t len, const char *sep, const char *last);

int sb_write_normal(FILE *f, const struct sb_results *r);
int sb_write_terse(FILE *f, const struct sb_results *r);
int sb_write_json(FILE *f, const struct sb_results *r, bool plus);
/* --export=csv:DIR (output/csv.c, output/csvdir.c).  sb_csv_check, before
 * the run: DIR is a writable folder or can be made, and holds no *.csv file
 * storbench did not write; 0 or -errno with the reason reported.
 * sb_write_csv, after it: the files (created with DIR when missing). */
int sb_csv_check(const char *dir);
int sb_write_csv(const char *dir, const struct sb_results *r);
/* One --status-interval snapshot in normal format (printed during the run). */
int sb_write_interim_normal(FILE *f, const struct sb_interim *s);
#endif
