/* parse.h: job files (and command-line jobs) -> struct sb_joblist.
 * Every error is reported with sb_err() as "file:line: ..." naming the option,
 * the bad value and what is accepted; the functions then return -EINVAL.
 * Parsing touches no file other than the job files and includes it reads
 * (and the read_iolog= logs they name, read only). */
#ifndef SB_PARSE_H
#define SB_PARSE_H
#include <stdbool.h>
#include <stdio.h>

#include "lib/dio.h"
#include "parse/jobspec.h"

/* Parse job files in order into one job list (several files: their jobs are
 * appended; each file's [global] applies to its own jobs only, as in fio). */
int sb_parse_files(const char *const *paths, int npaths, struct sb_joblist *jl);
/* Parse job-file text held in memory; name is used in messages. */
int sb_parse_text(const char *name, const char *text, struct sb_joblist *jl);
/* Jobs given as command-line options, fio style: options before the first
 * --name act as [global]; each --name=X starts a job.  args are the
 * "--key=value" / "--key" words, already separated from storbench's own
 * options by the caller.  Messages say "<cmdline>" instead of file:line. */
int sb_parse_cmdline_jobs(char *const *args, int nargs, struct sb_joblist *jl);
/* A whole command line's jobs (parse/cmdline.c), combined as fio 3.33 does:
 * args' options before the first --name are global for every job (a job
 * file's own [global] wins over them); --name=X starts a command-line job;
 * command-line jobs come first, then each file's; a file "-" is standard
 * input (once); sections (--section=NAME), if any, are the only job
 * sections that become jobs, and each must name one.  Messages say
 * "<cmdline>" for the command line's options. */
/* Under MPI (storbench.c): rank 0 reads each job file and hands its
 * pre-passed text (options with file:line, ${VAR} expanded, includes
 * resolved) to keep(); every other rank parses what take() gives instead of
 * reading the file, so "-" and ${VAR} mean rank 0's everywhere. */
struct sb_parse_relay {
	int (*keep)(void *arg, const char *buf, size_t len);
	int (*take)(void *arg, const char **buf, size_t *len);
	void *arg;
};
struct sb_parse_req {
	const struct sb_parse_relay *relay; /* NULL: read the files */
	const char *const *files;
	int nfiles;
	char *const *args;          /* "--key=value" / "--key" words */
	int nargs;
	const char *const *sections;
	int nsections;
	/* --parse-only: options on the command line with no --name and no job
	 * file define no job, which is not an error (fio 3.33: nothing to
	 * print, exit 0) */
	bool no_job_ok;
};
int sb_parse_request(const struct sb_parse_req *req, struct sb_joblist *jl);
/* Cross-job checks after everything is parsed: wait_for names a job that
 * exists and comes earlier, group ids are assigned, etc. */
int sb_joblist_finish(struct sb_joblist *jl);
void sb_joblist_free(struct sb_joblist *jl);
/* --allow-exec: jobs may run exec_prerun/exec_postrun commands; without it
 * a job that has one is an error (parse/check_replay.c).  Call before
 * parsing. */
void sb_parse_allow_exec(bool on);
/* --parse-only: false checks each job, not this machine: CPUs, NUMA nodes,
 * memory and privileges are checked against what storbench supports, not
 * what this machine has (fio 3.33 --parse-only accepts numa_cpu_nodes=0-1
 * on one node); the run checks them (parse/check_place.c, check_io.c).
 * Default true.  Call before parsing. */
void sb_parse_machine_checks(bool on);
bool sb_parse_machine(void);
/* while a sweep's points are parsed (parse/job.c): a GPU job whose library
 * is absent is marked skipped (jobspec gpu_skip) instead of refused */
void sb_parse_gpu_skips(bool on);
bool sb_parse_gpu_skipping(void);
/* The fix-up pass, run on every job once its options are set: fills the
 * fields jobspec.h marks as derived (block-size bounds, bs_lo/bs_hi,
 * iodepth_batch_complete_max's default, engine_sync and iodepth_eff from the
 * engine list handed in by sb_parse_set_engines).  Idempotent; tests that build a
 * spec by hand call it as the parser does. */
void sb_spec_derive(struct sb_jobspec *s);
/* the value a bare write_bw_log/_iops_log/_lat_log/_hist_log holds until
 * sb_spec_derive puts the job's name there (fio names such logs so) */
#define SB_LOG_JOBNAME "$jobname"
/* The block sizes direction d of s issues, for checks that hold for every
 * I/O (direct-I/O alignment): bssplit's sizes; else bsrange's lower bound
 * (a range issues its multiples); else bs.  Writes at most max, returns how
 * many (0 for a direction the job does not do).  Needs sb_spec_derive. */
unsigned sb_spec_bs_set(const struct sb_jobspec *s, enum sb_ddir d, uint64_t *bs, unsigned max);
/* direct=1's alignment (lib/dio.h: from os/dio.h for a file or device, or
 * SB_DIO_ALIGN_MIN, which every device needs) checked against s: offset=,
 * blockalign= and the block-size set of each direction; with buf_align
 * (bytes, 0: not checked) also the I/O buffers.  of names the file or device
 * (NULL: "every device").  Reports the first problem with sb_err at the
 * option's file:line (the option, its value, the alignment, the fix) and
 * returns -EINVAL; 0 when s->direct is off or everything is aligned. */
int sb_spec_check_direct(const struct sb_jobspec *s, const struct sb_dio_align *a, const char *of,
			 unsigned buf_align);

/* --readonly: refuses (sb_err at file:line, -EINVAL) every job that would
 * write, trim or create data: rw= with a write or trim direction,
 * checkpoints written, train jobs (they create a missing dataset), --datagen.
 * parse/readonly.c */
int sb_joblist_check_readonly(const struct sb_joblist *jl);
/* --max-jobs=max (0: no limit): the jobs' threads (numjobs counted) are at
 * most max, else says so; 0 or -EINVAL */
int sb_joblist_check_max_jobs(const struct sb_joblist *jl, unsigned max);
/* --showcmd: each job file as the command line that defines the same jobs
 * ("storbench --global=opt ... --name=job --opt=value ..."), one line per
 * file on f; a [global] after a job becomes --name=global.  "-" reads
 * standard input.  0, or -EINVAL after reporting an unreadable file.
 * parse/showcmd.c */
int sb_showcmd(FILE *f, const char *const *paths, int npaths);
/* storbench's own command-line flags, as main lists them (storbench.c), for
 * the texts parse/manpage.c writes from them and the option table: arg is
 * NULL (no value), "NAME" (--flag=NAME) or "[NAME]" (value optional). */
struct sb_cli_flag {
	const char *name;   /* "--output" */
	const char *arg;
	const char *help;   /* one sentence, wrapped by the writers */
};
/* main's flags: row i of sb_cli_flags is id i + 1 (sb_cli_flag_id; the unit
 * test cli/flag ids checks each id's name) */
enum sb_cli_id {
	SB_CLI_NONE = 0, SB_CLI_OUTPUT_FORMAT, SB_CLI_OUTPUT, SB_CLI_EXPORT, SB_CLI_MINIMAL,
	SB_CLI_TERSE_VERSION, SB_CLI_PARSE_ONLY, SB_CLI_SHOWCMD, SB_CLI_SECTION, SB_CLI_READONLY,
	SB_CLI_MAX_JOBS, SB_CLI_WARNINGS_FATAL, SB_CLI_DATAGEN, SB_CLI_ALLOW_EXEC,
	SB_CLI_STATUS_INTERVAL, SB_CLI_ETA, SB_CLI_ETA_INTERVAL, SB_CLI_ETA_NEWLINE, SB_CLI_CLEANUP,
	SB_CLI_DRY_RUN, SB_CLI_DEBUG, SB_CLI_BANDWIDTH_LOG, SB_CLI_AUX_PATH, SB_CLI_INFLATE_LOG, SB_CLI_CMDHELP, SB_CLI_CMDHELP_MARKDOWN, SB_CLI_ENGHELP, SB_CLI_MAN_PAGE,
	SB_CLI_WORKLOAD_CONFORMANCE, SB_CLI_DOC_WORKLOADS,
	SB_CLI_BASH_COMPLETION, SB_CLI_VERSION, SB_CLI_HELP,
};
/* The row of sb_cli_flags that command-line word arg names, or NULL: a row
 * with no arg matches its name only; one with an arg its name or name=VALUE
 * (*val: VALUE, or NULL for the bare name). */
const struct sb_cli_flag *sb_cli_flag_match(const char *arg, const char **val);
/* the enum sb_cli_id of a row of sb_cli_flags */
unsigned sb_cli_flag_id(const struct sb_cli_flag *f);
/* the flags main implements (parse/cliflags.c), in --help's order */
extern const struct sb_cli_flag sb_cli_flags[];
extern const unsigned sb_cli_nflags;
/* --help's list of the flags, wrapped at 80 columns */
void sb_cli_flags_usage(FILE *f, const struct sb_cli_flag *flags, unsigned n);
/* --man-page: the manual page storbench.1 (flags, the commands - name, args,
 * help - then every job option by category, exit status); the same text on
 * every machine */
void sb_cli_manpage(FILE *f, const char *version, const struct sb_cli_flag *flags, unsigned n,
		    const struct sb_cli_flag *cmds, unsigned ncmds);
/* A subcommand (storbench NAME ...) and its own flags, the table its --help
 * prints (tools/): main hands them down, parse/ may not include tools/.
 * A flag's arg "a|b|c" is the set of values it takes (completed); any other
 * arg completes to file names.  A flag named without "--" (datasize's
 * model=) is a KEY=VALUE word. */
struct sb_cli_cmd {
	const char *name;
	const struct sb_cli_flag *flags;
	unsigned nflags;
};
/* --bash-completion: the bash completion script (the subcommands as the
 * first word, each one's flags and their values; storbench's flags, job
 * options, the values of enum options and engines, file names) */
/* formats: the --output-format values, blank-separated (main hands down
 * output/'s writer table: parse/ may not include output/) */
void sb_cli_bash_completion(FILE *f, const struct sb_cli_flag *flags, unsigned n,
			    const char *formats, const struct sb_cli_cmd *cmds, unsigned ncmds);
/* --cmdhelp: every option (opt == NULL), or one option in full. Returns
 * -ENOENT (with "did you mean") for an unknown option. */
int sb_cmdhelp(FILE *f, const char *opt);
/* --parse-only: print the expanded jobs, one block per job, every option
 * with its resolved value. */
void sb_joblist_print(FILE *f, const struct sb_joblist *jl);
/* The built-in quick job (storbench with no arguments): mixed 4k random
 * I/O, then 1M sequential I/O, on a scratch file of the current directory
 * that does not exist yet, removed afterwards; its text into buf.  0, or
 * -ENOSPC / -EEXIST (reported). */
int sb_quick_job_text(char *buf, size_t len);
#endif
