/* jsonw.h: a small streaming JSON emitter laid out like fio's JSON output
 * ("key" : value, two-space indent, doubles with six decimals).  Private to
 * output/. */
#ifndef SB_JSONW_H
#define SB_JSONW_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SB_JW_MAX_DEPTH 32

struct sb_jw {
	FILE *f;
	int depth;
	bool has_items[SB_JW_MAX_DEPTH]; /* the open container has an element */
};

void sb_jw_init(struct sb_jw *w, FILE *f);
/* key is NULL for array elements and the top-level value */
void sb_jw_obj_begin(struct sb_jw *w, const char *key);
void sb_jw_obj_end(struct sb_jw *w);
void sb_jw_arr_begin(struct sb_jw *w, const char *key);
void sb_jw_arr_end(struct sb_jw *w);
void sb_jw_str(struct sb_jw *w, const char *key, const char *s);
void sb_jw_u64(struct sb_jw *w, const char *key, uint64_t v);
void sb_jw_i64(struct sb_jw *w, const char *key, int64_t v);
/* snprintf(buf, len, "%f", v), byte for byte, mostly without printf (the
 * JSON of numjobs=4096 has 400,000 of them) */
int sb_jw_fmt_f(char *buf, size_t len, double v);
/* "%f"; a non-finite value is written as 0 to keep the document valid */
void sb_jw_dbl(struct sb_jw *w, const char *key, double v);
/* "%.9f": seconds to the nanosecond (checkpoint durations) */
void sb_jw_dbl9(struct sb_jw *w, const char *key, double v);
void sb_jw_null(struct sb_jw *w, const char *key);
/* an array of n numbers on one line, "%.2f" each, null for a non-finite
 * one: [12.50, 3.25, null] (the host series' per-CPU %) */
void sb_jw_row2(struct sb_jw *w, const char *key, const float *v, unsigned n);
void sb_jw_bool(struct sb_jw *w, const char *key, bool v);
/* a JSON string literal with quotes; invalid UTF-8 becomes U+FFFD */
void sb_jw_quote(FILE *f, const char *s);
#endif
