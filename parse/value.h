/* value.h: parsers for option values with fio's semantics (sizes with
 * k/m/g/t/p suffixes and kb_base, times, ints, bools, ranges, per-direction
 * splits, bssplit, float lists, random distributions).  Each returns 0 or
 * -EINVAL; on error err (SB_VERR_LEN bytes) holds a human message saying what
 * is wrong and what is accepted.  No function here prints. */
#ifndef SB_VALUE_H
#define SB_VALUE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/jobspec.h"

#define SB_VERR_LEN 256
#define SB_US_PER_SEC 1000000ull

/* "4k", "1m", "4KiB", "0x1000", "1.5g".  kb_base 1024 (fio's default): k=1024,
 * ki/kib=1000; kb_base 1000: k=1000, ki/kib=1024.  'b' suffix optional. */
int sb_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err);
/* "10", "10s", "500ms", "2m", "1h", "1d", "100us"; no suffix: unit_us
 * microseconds per unit (SB_US_PER_SEC for seconds, 1 for microseconds). */
int sb_parse_time(const char *s, uint64_t unit_us, uint64_t *out_us, char *err);
/* decimal or 0x hex integer within [min, max] */
int sb_parse_int(const char *s, int64_t min, int64_t max, int64_t *out, char *err);
/* 0/1, true/false, yes/no, on/off (any case) */
int sb_parse_bool(const char *s, bool *out, char *err);
/* a percentage 0..100 (fractions allowed) */
int sb_parse_pct(const char *s, double *out, char *err);
/* "4k-64k" or "4k:64k" or a single size; swapped if lower > upper (fio) */
int sb_parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi, char *err);

/* Split "read,write,trim" the fio way: empty fields keep the default, a last
 * value not followed by a comma applies to the remaining directions.  On
 * success part[d] points into buf (NULL: keep the default). */
int sb_split_ddir(const char *s, char *buf, size_t buflen, const char *part[SB_DDIR_N], char *err);

/* "4k/50:8k/30:64k/" for one direction; empty percentages share the rest */
int sb_parse_bssplit_one(const char *s, unsigned kb_base, struct sb_bssplit *out, unsigned *n,
			 char *err);
/* "1:5:99.9": colon separated floats in (0, 100], sorted ascending */
int sb_parse_pctl_list(const char *s, double *out, unsigned max, unsigned *n, char *err);
/* random | zipf[:theta] | pareto[:h] | normal[:sigma] with fio's defaults
 * (zipf 1.1, pareto 0.2, normal 0) and bounds */
int sb_parse_distribution(const char *s, enum sb_dist *dist, double *param, char *err);
/* "random", "zipf", "pareto", "normal"; NULL for no such value */
const char *sb_dist_name(enum sb_dist d);
/* random_distribution=zoned:A/S:...[,...] or zoned_abs:A/BYTES:...[,...]:
 * zones per direction (a direction left out repeats the one before it, as
 * sb_split_ddir); access percentages sum to 100, zoned sizes to at most 100. */
int sb_parse_zones(const char *s, unsigned kb, enum sb_dist *dist,
		   struct sb_zone zones[SB_DDIR_N][SB_ZONES_MAX], unsigned n[SB_DDIR_N], char *err);

/* human form of a byte count: "4 KiB", "1.5 MiB", "512 B" */
void sb_size_str(uint64_t bytes, char *buf, size_t len);
/* human form of a duration: "10 s", "500 ms", "100 us" */
void sb_fmt_time(uint64_t us, char *buf, size_t len);
#endif
