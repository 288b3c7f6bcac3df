/* opt_rows.h: private to the option table's row files.  THE option table is
 * one logical table in a fixed order, kept in segments: parse/opt_io.c, then
 * parse/opt_mid.c's first part, then each workload's rows as handed in
 * (ml/<workload>/opts.c, parse/workloads.h), then opt_mid.c's second part and
 * parse/opt_ctl.c (options.c joins them, in that
 * order, and serves sb_option_at and the lookups; the engines' rows join
 * after their category).  A new option is one row in the segment of its
 * subject: a workload's in its own opts.c. */
#ifndef SB_OPT_ROWS_H
#define SB_OPT_ROWS_H
#include <stddef.h>

#include "parse/options.h"
#include "parse/value.h"
#include "lib/csum.h"

#define OFF(f) offsetof(struct sb_jobspec, f)
#define SEC SB_US_PER_SEC
#define PCTL_DEFAULT "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"
#define C_DESC SB_CAT_DESC
#define C_FILE SB_CAT_FILE
#define C_IO SB_CAT_IO
#define C_BS SB_CAT_BS
#define C_ENG SB_CAT_ENG
#define C_TIME SB_CAT_TIME
#define C_GRP SB_CAT_GRP
#define C_RAND SB_CAT_RAND
#define C_RATE SB_CAT_RATE
#define C_STAT SB_CAT_STAT
#define C_SAFE SB_CAT_SAFE
#define C_ML SB_CAT_ML
#define C_CKPT SB_CAT_CKPT
#define C_TRAIN SB_CAT_TRAIN
#define C_KV SB_CAT_KV
#define C_LOG SB_CAT_LOG
#define C_SWEEP SB_CAT_SWEEP

extern const struct sb_option sb_opt_rows_io[], sb_opt_rows_mid[], sb_opt_rows_post[], sb_opt_rows_ctl[];
extern const unsigned sb_opt_rows_io_n, sb_opt_rows_mid_n, sb_opt_rows_post_n, sb_opt_rows_ctl_n;
#endif
