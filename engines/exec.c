/* exec.c: fio's exec engine, as fio 3.33 defines it (engines/exec.c): moves
 * no data and touches no storage; the job's first I/O starts program= with
 * arguments= (split at spaces, no shell; %r is runtime= in seconds, %n the
 * job's name) in the background, and every I/O after it waits 50 ms (then
 * run/ thinks 50 ms more, as fio's engine sets thinktime=50000).  Once the
 * job's runtime= has passed, the program gets SIGTERM and grace_time
 * seconds to end (when the job ends, if no I/O saw runtime= pass), then
 * SIGKILL if it has not.  With
 * std_redirect=1 (the default) its stdout and stderr go to JOB.stdout and
 * JOB.stderr in the current folder, through storbench's writer gate (run/
 * opens them: a temporary renamed into place when the job ends); with 0 it
 * shares storbench's.  Its I/Os are counted without bytes or time
 * (SB_ENGINE_NOIO: fio's FIO_NOIO). */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/timeutil.h"

extern char **environ;

#define EXEC_POLL_NS 50000000ull /* fio's 50 ms, in queue() and as think time */
#define EXEC_ARGV_MAX 256

struct exec_opts {
	char *program;
	char *arguments;
	unsigned grace_s;   /* grace_time */
	bool redirect;      /* std_redirect */
};

#define OO(f) offsetof(struct exec_opts, f)
static const struct sb_option exec_options[] = {
	{ .name = "program", .type = SB_OT_STR, .off = OO(program), .category = SB_CAT_ENG,
	  .help = "exec: the program to run (needed; found in PATH when it has no '/'; only with --allow-exec)" },
	{ .name = "arguments", .type = SB_OT_STR, .off = OO(arguments), .category = SB_CAT_ENG,
	  .help = "exec: its arguments, split at spaces (no quoting); %r: runtime in s, %n: the job's name" },
	{ .name = "grace_time", .type = SB_OT_UINT, .off = OO(grace_s), .def = "1", .max = 3600, .unit = "s",
	  .category = SB_CAT_ENG, .help = "exec: seconds between SIGTERM at the end of runtime= and SIGKILL" },
	{ .name = "std_redirect", .type = SB_OT_BOOL, .off = OO(redirect), .def = "1", .category = SB_CAT_ENG,
	  .help = "exec: 1: the program's stdout and stderr to JOB.stdout and JOB.stderr; 0: storbench's" },
};
const struct sb_engine_options sb_exec_optset = {
	exec_options, sizeof(exec_options) / sizeof(exec_options[0]), sizeof(struct exec_opts),
};

struct exec_td {
	const struct exec_opts *o;
	const struct sb_engine_job *job;
	pid_t pid;            /* 0: not started; -1: reaped */
	uint64_t start_ns;    /* when it started */
	bool termed;          /* SIGTERM sent */
	void *out[2];         /* JOB.stdout, JOB.stderr (run/'s handles) */
	int fd[2];
	char *cmd;            /* "program arguments", expanded, split in place */
	char *argv[EXEC_ARGV_MAX + 1];
};

/* s with every "%r" and "%n" replaced (fio's expand_variables); NULL: no memory */
static char *expand(const char *s, const char *name, uint64_t runtime_us)
{
	char rt[24];
	snprintf(rt, sizeof(rt), "%llu", (unsigned long long)(runtime_us / 1000000u));
	size_t cap = strlen(s) + 1, n = 0;
	for (const char *p = s; (p = strchr(p, '%')); p++)
		cap += strlen(rt) + strlen(name);
	char *out = malloc(cap);
	if (!out)
		return NULL;
	for (const char *p = s; *p; p++) {
		const char *with = p[0] == '%' && p[1] == 'r' ? rt : p[0] == '%' && p[1] == 'n' ? name : NULL;
		if (with) {
			n += (size_t)sprintf(out + n, "%s", with);
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return out;
}

/* is path (with a '/') or a PATH entry + path an executable file */
static bool runnable(const char *prog)
{
	struct stat st;
	if (strchr(prog, '/'))
		return !stat(prog, &st) && S_ISREG(st.st_mode) && !access(prog, X_OK);
	const char *path = getenv("PATH");
	char buf[4096];
	for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
		const char *c = strchr(p, ':');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)l, l ? p : ".", prog);
		if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

static void exec_cleanup(struct sb_engine_td *td);
static int setup(struct sb_engine_td *td, struct exec_td *d);

static int exec_init(struct sb_engine_td *td)
{
	const struct sb_engine_job *job = td->job;
	const struct exec_opts *o = job ? job->opts : NULL;
	if (!o || !o->program || !*o->program) { /* the parser refuses it (exec_check) */
		snprintf(td->errmsg, sizeof(td->errmsg), "ioengine=exec needs program=");
		return -EINVAL;
	}
	struct exec_td *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->o = o;
	d->job = job;
	d->fd[0] = d->fd[1] = -1;
	td->data = d;
	int r = setup(td, d);
	if (r)
		exec_cleanup(td);
	return r;
}

/* the command line split into argv, and the output files */
static int setup(struct sb_engine_td *td, struct exec_td *d)
{
	const struct sb_engine_job *job = d->job;
	const struct exec_opts *o = d->o;
	char *joined = malloc(strlen(o->program) + (o->arguments ? strlen(o->arguments) : 0) + 2);
	if (!joined)
		return -ENOMEM;
	sprintf(joined, "%s%s%s", o->program, o->arguments ? " " : "", o->arguments ? o->arguments : "");
	d->cmd = expand(joined, job->job ? job->job : "", job->runtime_us);
	free(joined);
	if (!d->cmd)
		return -ENOMEM;
	unsigned n = 0; /* fio: split at spaces, no quoting */
	for (char *t = d->cmd, *save = NULL; (t = strtok_r(t, " ", &save)); t = NULL) {
		if (n == EXEC_ARGV_MAX) {
			snprintf(td->errmsg, sizeof(td->errmsg), "arguments=: more than %d words",
				 EXEC_ARGV_MAX);
			return -E2BIG;
		}
		d->argv[n++] = t;
	}
	d->argv[n] = NULL;
	if (!n || !runnable(d->argv[0])) {
		snprintf(td->errmsg, sizeof(td->errmsg), "program=%s: no such executable file%s",
			 n ? d->argv[0] : "", n && !strchr(d->argv[0], '/') ? " in PATH" : "");
		td->machine_lacks = n > 0; /* --parse-only=job: a warning */
		return -ENOENT;
	}
	if (o->redirect) {
		static const char *const sfx[2] = { "stdout", "stderr" };
		char path[512];
		if (!job->fs || !job->fs->out_open)
			return -EOPNOTSUPP;
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s.%s", job->job ? job->job : "exec", sfx[i]);
			int fd = job->fs->out_open(path, job->job, &d->out[i]);
			if (fd < 0) {
				snprintf(td->errmsg, sizeof(td->errmsg), "std_redirect=1: cannot write %.200s "
					 "(std_redirect=0 leaves the program's output on storbench's)", path);
				return fd;
			}
			d->fd[i] = fd;
		}
	}
	return 0;
}

static int start(struct sb_engine_td *td, struct exec_td *d)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (d->o->redirect) {
		posix_spawn_file_actions_adddup2(&fa, d->fd[0], STDOUT_FILENO);
		posix_spawn_file_actions_adddup2(&fa, d->fd[1], STDERR_FILENO);
	}
	pid_t pid;
	int rc = posix_spawnp(&pid, d->argv[0], &fa, NULL, d->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		snprintf(td->errmsg, sizeof(td->errmsg), "program=%s: %s", d->argv[0], strerror(rc));
		d->pid = -1;
		return -rc;
	}
	d->pid = pid;
	d->start_ns = sb_now_ns();
	return 0;
}

static void pause_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static enum sb_q_status exec_queue(struct sb_engine_td *td, struct sb_io_u *io)
{
	struct exec_td *d = td->data;
	io->result = (int64_t)io->len; /* counted, not its bytes (SB_ENGINE_NOIO) */
	if (!d->pid) {
		int e = start(td, d);
		if (e)
			io->result = e;
		return SB_Q_COMPLETED;
	}
	pause_ns(EXEC_POLL_NS);
	td->think_ns = EXEC_POLL_NS;
	uint64_t rt = d->job->runtime_us;
	if (d->pid > 0 && !d->termed && rt && sb_now_ns() - d->start_ns > rt * 1000u) {
		kill(d->pid, SIGTERM); /* fio: SIGTERM, then grace_time to end */
		d->termed = true;
		pause_ns((uint64_t)d->o->grace_s * 1000000000u);
	}
	return SB_Q_COMPLETED;
}

static void exec_cleanup(struct sb_engine_td *td)
{
	struct exec_td *d = td->data;
	if (!d)
		return;
	int st;
	if (d->pid > 0 && !d->termed && waitpid(d->pid, &st, WNOHANG) == 0) {
		/* the job ended before an I/O saw runtime= pass (fio's SIGTERM
		 * comes only then): SIGTERM now and up to grace_time to end */
		kill(d->pid, SIGTERM);
		d->termed = true;
		for (uint64_t t0 = sb_now_ns(); sb_now_ns() - t0 < (uint64_t)d->o->grace_s * 1000000000u;) {
			if (waitpid(d->pid, &st, WNOHANG) != 0) {
				d->pid = -1;
				break;
			}
			pause_ns(10000000u);
		}
	}
	if (d->pid > 0 && waitpid(d->pid, &st, WNOHANG) == 0) { /* still running: fio's SIGKILL */
		kill(d->pid, SIGKILL);
		while (waitpid(d->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	for (int i = 0; i < 2; i++) /* kept once the program ran; else nothing is written */
		if (d->out[i])
			(void)d->job->fs->out_close(d->out[i], d->start_ns != 0);
	free(d->cmd);
	free(d);
	td->data = NULL;
}

/* program= is needed (fio 3.33 exec.c fio_exec_init: "no program is
 * defined, it is mandatory to define one"); an ML workload has data to move */
static int exec_check(const void *opts, const char *filename, const char *directory, bool io_job,
		      const char **opt, char *why, size_t wlen)
{
	const struct exec_opts *o = opts;
	(void)filename, (void)directory;
	if (!io_job) {
		snprintf(why, wlen, "ioengine=exec moves no data (it runs a program beside the other "
			 "jobs), and an ML workload writes and reads data: use a data engine (psync, "
			 "libaio, io_uring)");
		return -EINVAL;
	}
	if (!o || !o->program || !*o->program) {
		snprintf(why, wlen, "ioengine=exec needs program= (the program to run), as fio: add "
			 "e.g. program=/usr/bin/vmstat and arguments=1 %%r");
		return -EINVAL;
	}
	if (!strchr(o->program, ' ') && !runnable(o->program)) {
		*opt = "program";
		snprintf(why, wlen, "program=%s: no such executable file%s: give the program's path",
			 o->program, strchr(o->program, '/') ? "" : " in PATH");
		return -ENOENT; /* this machine's: --parse-only=job warns */
	}
	return 0;
}

const struct sb_engine_ops sb_engine_exec = {
	.name = "exec",
	.description = "fio's exec: runs program= in the background for the job's runtime (a monitor beside other jobs)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NODISKIO | SB_ENGINE_NOIO,
	.init = exec_init,
	.cleanup = exec_cleanup,
	.options = &sb_exec_optset,
	.queue = exec_queue,
	.check = exec_check,
	.notes = "  the first I/O starts program= arguments= (split at spaces; %r: runtime in s, %n: the\n"
		 "    job's name); each later one waits 50 ms, then 50 ms of think time; after runtime=\n"
		 "    (at the latest when the job ends) the program gets SIGTERM, then grace_time s to\n"
		 "    end before SIGKILL\n"
		 "  std_redirect=1: its stdout and stderr in JOB.stdout and JOB.stderr (current folder),\n"
		 "    written when the job ends; its exit status is not reported (as fio)\n"
		 "  results: I/Os counted, no bytes, runtime 0 (as fio)\n",
};
