/* exec.h: a job's exec_prerun/exec_postrun shell commands (allowed by the
 * parser only with --allow-exec).  As fio: the command runs through
 * /bin/sh -c in the current directory, with its standard output and error
 * in JOBNAME.prerun.txt / JOBNAME.postrun.txt (created or overwritten), once
 * per thread of the job (numjobs=4: four times). */
#ifndef SB_RUN_EXEC_H
#define SB_RUN_EXEC_H
#include "parse/jobspec.h"

/* Runs cmd for job s; mode is "prerun" or "postrun".  Returns 0 when the
 * command exited with status 0, else reports with sb_err and returns
 * -ECANCELED (status not 0) or -errno (could not run it); -EINTR when a
 * stop (a signal) that came while the command ran ended the wait: the command got SIGTERM, nothing is
 * reported (the run stops with 130). */
int sb_exec_hook(const struct sb_jobspec *s, const char *cmd, const char *mode);
#endif
