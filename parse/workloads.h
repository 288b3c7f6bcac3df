/* workloads.h: the workloads the parser knows, handed in by the layer above
 * (storbench.c, tests and fuzz harnesses: sb_workloads_hand_down in
 * ml/registry.h), as the engines are (parse/options.h): parse/ calls no
 * workload code but through these rows.  A workload brings its option rows
 * (a segment of the option table after parse's own) and its cross-option
 * check, which parse/check_wl.c calls for the jobs of that workload after
 * the generic checks.  Its rows' offsets are into its own options struct
 * (opts_size bytes), which lives in the spec's wl_opts area as an engine's
 * does in engine_opts (sb_spec_wl_opts); or, with opts_size 0, into
 * struct sb_jobspec itself (the workloads that predate the area).  An
 * option of a workload set for a job of another is refused with its
 * file:line.  workload=io is parse's own and always there. */
#ifndef SB_PARSE_WORKLOADS_H
#define SB_PARSE_WORKLOADS_H
#include <stddef.h>

#include "lib/option.h"

struct sb_jobctx;

struct sb_parse_workload {
	unsigned id;                    /* enum sb_workload: its workload= value */
	const char *name;               /* workload= NAME */
	const char *help;               /* one line for --help and HOWTO */
	const struct sb_option *rows;   /* its option rows, may be NULL */
	unsigned nrows;
	size_t opts_size;               /* bytes of its options struct; 0: rows into the spec */
	/* its checks and the defaults that depend on other options; reports
	 * each error with file:line and returns their count */
	unsigned (*check)(struct sb_jobctx *c);
};

#define SB_PARSE_WORKLOADS_MAX 8
#define SB_WL_ROWS_MAX 256 /* rows of all workloads with an options struct */
/* Copies the list (not the rows, which must outlive parsing; rows into an
 * options struct are copied, their offsets moved into the spec); -EINVAL
 * when there are too many, an id or a name repeats or is io's, a name is missing, or
 * options structs do not fit (SB_WL_OPTS_MAX) or use a type other than
 * bool, int, unsigned, u64, size, time or enum. */
int sb_parse_set_workloads(const struct sb_parse_workload *w, unsigned n);
/* The handed-in workload of id, or NULL (io, or none handed in). */
const struct sb_parse_workload *sb_parse_workload_find(unsigned id);
/* Handed-in workload i, NULL past the last. */
const struct sb_parse_workload *sb_parse_workload_at(unsigned i);
/* The options struct of the spec's workload (NULL when it has none). */
struct sb_jobspec;
const void *sb_spec_wl_opts(const struct sb_jobspec *s);
/* The handed-in workload whose rows include o (NULL: parse's own row). */
const struct sb_parse_workload *sb_parse_workload_of_row(const struct sb_option *o);
/* workload='s values: io, then the handed-in ones; the row's enums */
extern struct sb_opt_enum sb_parse_workload_vals[];
#endif
