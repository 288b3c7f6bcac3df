/* jobparse.h: private to parse/: the per-job bookkeeping shared by job.c
 * (sections -> specs) and check.c (validation), i.e. where each option was
 * set so that cross-option errors name the right file:line. */
#ifndef SB_JOBPARSE_H
#define SB_JOBPARSE_H
#include "parse/jobspec.h"
#include "parse/options.h"

struct sb_optsrc {
	const char *file;  /* NULL: not set (default) */
	unsigned line;
	const char *raw;   /* the value as written (valid while parsing) */
};

struct sb_jobctx {
	struct sb_jobspec spec;
	struct sb_optsrc src[SB_OPT_MAX];
};

/* Cross-option checks of one job; reports each error, returns their count.
 * Then resolves the defaults that depend on other options. */
unsigned sb_job_validate(struct sb_jobctx *c);
/* jobs[j].wait_for names an earlier job; else reports at where, returns 1 */
unsigned sb_job_check_wait_for(const struct sb_joblist *jl, size_t j, const char *where);
/* the sections of one pre-passed file -> jobs appended to jl (job.c);
 * returns the number of errors reported */
struct sb_ini;
unsigned sb_job_convert(struct sb_joblist *jl, struct sb_ini *ini, const char *what);
/* where option o (a row of the table: SB_OPT(field)) was set */
const struct sb_optsrc *sb_job_src(const struct sb_jobctx *c, const struct sb_option *o);
/* The ML workload options (check_ml.c): resolves model=/train_model= into
 * the spec, reports each error, returns their count. */
unsigned sb_job_validate_ml(struct sb_jobctx *c);
/* buffer contents and ML verification (check_buf.c); decodes buffer_pattern */
unsigned sb_job_validate_buf(struct sb_jobctx *c);
/* placement, priorities and file options (check_place.c); derives the CPU
 * set, the memory policy and ioprio_on */
unsigned sb_job_validate_place(struct sb_jobctx *c);
#endif
