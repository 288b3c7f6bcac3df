/* log.h: the one error reporter.  Everything user-facing that goes wrong is
 * printed as "storbench: <where>: <what>" on stderr.  <where> is "file:line"
 * for job-file errors, an option or a job name otherwise. */
#ifndef SB_LOG_H
#define SB_LOG_H
#include <limits.h>
#include <stdarg.h>

/* the one size of a "where" buffer (sb_err's first argument: "file:line",
 * "file:line: job NAME", a path): a path and a job name fit */
#define SB_WHERE_MAX (PATH_MAX + 256)

void sb_err(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_warn(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_verr(const char *kind, const char *where, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* A refusal that says what this machine lacks, not what the job file gets
 * wrong: a folder or an input file that is not there, free space.  An error
 * (as sb_err) unless sb_log_machine_as_warnings is on (--parse-only, which
 * checks the job, not the machine: fio 3.33's --parse-only does not look at
 * files), then a warning counted by sb_log_machine_warnings. */
void sb_err_machine(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_log_machine_as_warnings(int on);
unsigned sb_log_machine_warnings(void);
/* How many errors sb_err has printed so far */
unsigned sb_log_errors(void);
/* How many warnings sb_warn has printed so far (--warnings-fatal) */
unsigned sb_log_warnings(void);
/* Tests redirect the reporter into a buffer: every message is appended,
 * newline-terminated.  NULL restores stderr. */
void sb_log_capture(char *buf, unsigned len);
/* Under MPI (several ranks): every message names its rank and host,
 * "storbench: rank 2 (node7): <where>: <what>" (prefix "rank 2 (node7): ";
 * NULL: none); quiet drops messages (ranks other than 0 while they parse the
 * job text rank 0 already checked and reported on). */
void sb_log_set_prefix(const char *prefix);
void sb_log_set_quiet(int quiet);

/* Exit codes (DESIGN.md) */
enum {
	SB_EXIT_OK = 0,
	SB_EXIT_JOBFILE = 1,   /* bad job file or options */
	SB_EXIT_CMDLINE = 2,   /* bad command line */
	SB_EXIT_IOERR = 3,     /* I/O errors during the run */
	SB_EXIT_INTR = 130,    /* interrupted; partial results printed */
};
#endif
