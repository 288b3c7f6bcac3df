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
/* sb_job_convert, the sweep expansion and the cross-job pass over one
 * pre-passed file (freed); rc: the pre-pass's result.  0 or -EINVAL. */
int sb_job_finish_parse(struct sb_joblist *jl, struct sb_ini *ini, int rc, const char *what);
/* whether a job section of this name runs (the --section filter, cmdline.c) */
bool sb_job_selected(const struct sb_joblist *jl, const char *name);
/* the [global] sections of ini applied to the defaults alone (command-line
 * global options given with job files: checked once); returns the number of
 * errors reported and echoes the options into jl->global_opts */
unsigned sb_job_apply_globals(struct sb_joblist *jl, const struct sb_ini *ini, const char *what);
/* "-" as a job file: standard input, named SB_STDIN_NAME in messages.
 * Returns its text (malloc'ed), or NULL after reporting why (unreadable,
 * over SB_JOBFILE_MAX, a NUL byte).  cmdline.c */
#define SB_STDIN_NAME "<stdin>"
char *sb_job_read_stdin(void);
/* where option o (a row of the table: SB_OPT(field)) was set */
const struct sb_optsrc *sb_job_src(const struct sb_jobctx *c, const struct sb_option *o);
/* whether option o was set for the job (in a section or on the command line) */
bool sb_job_isset(const struct sb_jobctx *c, const struct sb_option *o);
/* "file:line" where o was set, else (o NULL or not set) the job's [section] line */
const char *sb_job_where(const struct sb_jobctx *c, const struct sb_option *o, char *buf,
			 unsigned len);
/* The workloads (check_wl.c): options of one workload given to a job of
 * another, then the job's workload check as handed in (parse/workloads.h);
 * reports each error, returns their count. */
unsigned sb_job_validate_wl(struct sb_jobctx *c);
/* for the workloads' checks: "opt=val: unknown WHAT; expected a, b or c
 * (did you mean 'b'?)" at opt's file:line */
void sb_job_unknown_name(const struct sb_jobctx *c, const struct sb_option *opt, const char *val,
			 const char *what, const char *const *names);
/* *field = v unless o was set for the job */
void sb_job_default_u(const struct sb_jobctx *c, const struct sb_option *o, unsigned *field,
		      unsigned v);
/* buffer contents and ML verification (check_buf.c); decodes buffer_pattern */
unsigned sb_job_validate_buf(struct sb_jobctx *c);
/* iomem=cudamalloc, gpu_dev_id(s): the driver loads, the GPUs exist (check_gpu.c) */
unsigned sb_job_validate_gpu(struct sb_jobctx *c);
/* verify= and its options (check_verify.c): parses verify_pattern into the
 * spec, reports each error, returns their count. */
unsigned sb_job_validate_verify(struct sb_jobctx *c);
/* exec_prerun/exec_postrun (--allow-exec) and fio's I/O logs
 * (check_replay.c); a read_iolog sets the job's files, rw, bs and size */
unsigned sb_job_validate_replay(struct sb_jobctx *c);
/* flow and control, stats and clocks (check_flow.c): decodes ignore_error
 * and steadystate, expands gtod_reduce */
unsigned sb_job_validate_flow(struct sb_jobctx *c);
/* placement, priorities and file options (check_place.c); derives the CPU
 * set, the memory policy and ioprio_on */
unsigned sb_job_validate_place(struct sb_jobctx *c);
/* cmdprio_* of libaio and io_uring; derives cmdprio_bs and cmdprio_on (check_cmdprio.c) */
unsigned sb_job_validate_cmdprio(struct sb_jobctx *c);
/* think time, sample windows, log tuning, profile= (check_stats.c);
 * derives think_time_only */
unsigned sb_job_validate_stats(struct sb_jobctx *c);
unsigned sb_job_validate_fill(struct sb_jobctx *c); /* check_fill.c */
/* fio's remaining I/O and file options (check_io.c); derives uid_on/gid_on */
unsigned sb_job_validate_io(struct sb_jobctx *c);
/* size=, io_size=, offset=, offset_increment=, filesize= and the end of the
 * last thread's region fit in a file offset (2^63-1), no wrap (check_range.c) */
unsigned sb_job_validate_range(struct sb_jobctx *c);
/* zonemode= and the zone options (check_zone.c); zonerange defaults to zonesize */
unsigned sb_job_validate_zone(struct sb_jobctx *c);
/* size= ... in zones (Nz) made bytes, before anything reads them */
unsigned sb_job_zone_units(struct sb_jobctx *c);
/* --debug=parse: one option as taken (parse/pdebug.c; call when on) */
void sb_parse_debug_opt(const struct sb_option *o, const char *key, const char *val,
			const char *where, unsigned kb_base);
#endif
