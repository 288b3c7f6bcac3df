/* exec.c: exec_prerun/exec_postrun (see exec.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "os/outfile.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "run/exec.h"

extern char **environ;

int sb_exec_hook(const struct sb_jobspec *s, const char *cmd, const char *mode)
{
	char out[sizeof(s->name) + 16];
	snprintf(out, sizeof(out), "%s.%s.txt", s->name, mode);
	char opt[32];
	struct sb_outfile of;
	snprintf(opt, sizeof(opt), "exec_%s's output", mode); /* JOB.MODE.txt */
	int e = sb_outfile_open(&of, out, &(struct sb_outname){ opt, s->name, "the command's output" },
				0); /* written to a temporary, renamed into place when it ends */
	if (e)
		return e; /* the gate said why */
	int fd = sb_outfile_fd(&of);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		sb_outfile_abort(&of);
		sb_err(s->name, "exec_%s=%s: cannot start /bin/sh: %s", mode, cmd, strerror(rc));
		return -rc;
	}
	/* polled, not a blocking waitpid: the stop signal may go to another
	 * thread; a stop that comes while the command runs ends the wait, and
	 * the command with SIGTERM (exec_postrun after an interrupt runs) */
	int st;
	bool stopped = false;
	unsigned stops = sb_stop_count();
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			sb_outfile_abort(&of);
			return -errno;
		}
		if (sb_stop_count() != stops && !stopped) {
			kill(pid, SIGTERM);
			stopped = true;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	if ((e = sb_outfile_commit(&of)))
		sb_warn(s->name, "exec_%s: cannot keep the command's output in %s: %s", mode, out,
			strerror(-e));
	if (stopped)
		return -EINTR; /* the run stops (130); the command's output is in its file */
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (WIFEXITED(st))
		sb_err(s->name, "exec_%s=%s: the command exited with status %d (its output is in %s)%s",
		       mode, cmd, WEXITSTATUS(st), out,
		       mode[1] == 'r' ? ": the job does no I/O" : "");
	else
		sb_err(s->name, "exec_%s=%s: the command was killed by signal %d (its output is in %s)%s",
		       mode, cmd, WTERMSIG(st), out, mode[1] == 'r' ? ": the job does no I/O" : "");
	return -ECANCELED;
}
