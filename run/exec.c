/* exec.c: exec_prerun/exec_postrun (see exec.h). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/log.h"
#include "run/exec.h"

extern char **environ;

int sb_exec_hook(const struct sb_jobspec *s, const char *cmd, const char *mode)
{
	char out[sizeof(s->name) + 16];
	snprintf(out, sizeof(out), "%s.%s.txt", s->name, mode);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		int e = errno;
		sb_err(s->name, "exec_%s: cannot create %s for the command's output: %s", mode, out,
		       strerror(e));
		return -e;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	if (rc) {
		sb_err(s->name, "exec_%s=%s: cannot start /bin/sh: %s", mode, cmd, strerror(rc));
		return -rc;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
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
