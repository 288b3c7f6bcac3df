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
 * file:line.  A row flagged SB_OF_SPEC keeps its offset into struct
 * sb_jobspec (an option other workloads read too) and is checked as parse's
 * own rows are.  workload=io is parse's own and always there. */
#ifndef SB_PARSE_WORKLOADS_H
#define SB_PARSE_WORKLOADS_H
#include <stdbool.h>
#include <stddef.h>

#include "lib/option.h"
#include "parse/jobspec.h"

struct sb_jobctx;
struct sb_jobspec;

/* what a workload does, for the generic checks (flags of struct
 * sb_parse_workload) */
#define SB_PWL_MAKES_DATA 0x1u  /* may create its data set (--readonly refuses the job) */

struct sb_parse_workload {
	unsigned id;                    /* its workload= value: its position in main's table
					 * (io, parse's own, is 0) */
	const char *name;               /* workload= NAME */
	const char *help;               /* one line for --help and HOWTO */
	const struct sb_option *rows;   /* its option rows, may be NULL */
	unsigned nrows;
	size_t opts_size;               /* bytes of its options struct; 0: rows into the spec */
	unsigned category;              /* SB_CAT_* of its rows into the spec (0: none): an
					 * option of that category is its own */
	const char *const *also;        /* NULL-terminated names of options of parse or of
					 * another workload its jobs take too; may be NULL */
	unsigned flags;                 /* SB_PWL_* */
	/* its checks and the defaults that depend on other options; reports
	 * each error with file:line and returns their count */
	unsigned (*check)(struct sb_jobctx *c);
	/* --readonly (parse/readonly.c): the option that makes job s write
	 * data, with why ("writes checkpoints") and the fix; NULL when it
	 * writes nothing (a NULL hook: nothing to say) */
	const struct sb_option *(*writes)(const struct sb_jobspec *s, const char **why,
					  const char **fix);
	/* the option that puts job s's data in GPU memory (parse/check_gpu.c
	 * then checks the driver and the device), or NULL */
	const struct sb_option *(*gpu_mem)(const struct sb_jobspec *s);
};

#define SB_PARSE_WORKLOADS_MAX 8
/* Copies the list (not the rows, which must outlive parsing; rows into an
 * options struct are copied, their offsets moved into the spec, flagged
 * SB_OF_ML); -EINVAL
 * when there are too many, an id or a name repeats or is io's, a name is missing, or
 * options structs do not fit (SB_SPEC_WLOPTS_MAX), a row's offsets fall outside
 * its struct, or a row is engine=- or bssplit=-typed (sb_opt_wl_type_ok):
 * strings (owned by the spec, copied and freed with it), floats, lists,
 * sizes, times and the rest are a workload's own. */
int sb_parse_set_workloads(const struct sb_parse_workload *w, unsigned n);
/* The handed-in workload of id, or NULL (io, or none handed in). */
const struct sb_parse_workload *sb_parse_workload_find(unsigned id);
/* Handed-in workload i, NULL past the last. */
const struct sb_parse_workload *sb_parse_workload_at(unsigned i);
/* The options struct of the spec's workload (NULL when it has none). */
const void *sb_spec_wl_opts(const struct sb_jobspec *s);
/* A workload's typed accessor: the options struct of the spec's workload
 * when that workload's rows, as handed in, are rows (the caller's own), else
 * NULL, so a workload never reads another's struct as its own; _mut for its
 * check, which resolves defaults into it. */
const void *sb_spec_wl_opts_own(const struct sb_jobspec *s, const struct sb_option *rows);
void *sb_spec_wl_opts_own_mut(struct sb_jobspec *s, const struct sb_option *rows);
/* The parser's copy of the row, among a workload's rows as handed in, whose
 * field is at offset off of the workload's own struct (for sb_job_isset,
 * sb_job_where and the row's name); NULL when rows were not handed down or
 * no such row is there. */
const struct sb_option *sb_parse_wl_row(const struct sb_option *rows, size_t off);
/* The handed-in workload whose rows include o (NULL: parse's own row). */
const struct sb_parse_workload *sb_parse_workload_of_row(const struct sb_option *o);
/* The spec's workload is io (parse's own, id 0). */
static inline bool sb_spec_is_io(const struct sb_jobspec *s)
{
	return s->workload == 0;
}
/* The handed-in workload of the spec, or NULL (io). */
const struct sb_parse_workload *sb_spec_workload(const struct sb_jobspec *s);
/* Whether the spec's workload has flag (SB_PWL_*). */
bool sb_spec_wl_flag(const struct sb_jobspec *s, unsigned flag);
/* The workload whose option o is (its rows, its category, else the first
 * that takes it: struct sb_parse_workload also), or NULL: any job's. */
const struct sb_parse_workload *sb_parse_workload_owner(const struct sb_option *o);
/* Whether workload w (NULL: io) takes option o: o is no workload's, w's
 * own, or in w's also list. */
bool sb_parse_workload_takes(const struct sb_parse_workload *w, const struct sb_option *o);
/* workload='s values: io, then the handed-in ones; the row's enums */
extern struct sb_opt_enum sb_parse_workload_vals[];
#endif
