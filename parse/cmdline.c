/* cmdline.c: the jobs a command line defines, combined with its job files as
 * fio 3.33 combines them (HOWTO.md "Command line"):
 *  - job options before the first --name (or after --name=global) are global:
 *    they set the defaults of the command-line jobs and of every job file's
 *    jobs, under each file's own [global] sections (a file's [global] wins);
 *  - --name=x starts a command-line job; command-line jobs come first, then
 *    the job files' jobs in order;
 *  - "-" as a job file reads the job text from standard input (once);
 *  - --section=NAME keeps only the job sections of those names (in job files
 *    and command-line jobs alike); global sections always apply.
 * Errors name "<cmdline>" (or the file:line where a file's option is bad). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/options.h"
#include "parse/parse.h"

bool sb_job_selected(const struct sb_joblist *jl, const char *name)
{
	if (!jl->nsections)
		return true;
	for (unsigned i = 0; i < jl->nsections; i++)
		if (!strcmp(jl->sections[i], name))
			return true;
	return false;
}

/* "--key=value" / "--key" words -> sections of a pseudo file "<cmdline>":
 * a global section first, then one per --name (--name=global: global again) */
static int cmdline_ini(char *const *args, int nargs, struct sb_ini *ini)
{
	const char *file = sb_ini_intern(ini, "<cmdline>");
	struct sb_ini_section *sec = sb_ini_add_section(ini, "global", "<cmdline>", 0);
	int nerr = 0;
	if (!file || !sec)
		return -ENOMEM;
	for (int i = 0; i < nargs; i++) {
		const char *a = args[i];
		if (strncmp(a, "--", 2) || !a[2] || a[2] == '=') {
			sb_err("<cmdline>", "'%s': expected a job option as --option=value", a);
			nerr++;
			continue;
		}
		char key[256];
		const char *eq = strchr(a, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - a - 2 : (long)strlen(a + 2)), a + 2);
		if (!strcmp(key, SB_OPT(name)->name)) {
			if (!eq || !eq[1]) {
				sb_err("<cmdline>", "--name needs a job name: --name=jobname");
				nerr++;
				continue;
			}
			if (!(sec = sb_ini_add_section(ini, eq + 1, "<cmdline>", 0)))
				return -ENOMEM;
			/* fio 3.33 lists --name first in the job's "job options"
			 * (t/steadystate_tests.py reads it there) */
			if (!sec->global && sb_ini_set(sec, key, eq + 1, file, 0))
				return -ENOMEM;
			continue;
		}
		if (sb_ini_set(sec, key, eq ? eq + 1 : NULL, file, 0))
			return -ENOMEM;
	}
	/* a global section with nothing in it is just the starting point */
	return nerr ? -EINVAL : 0;
}

int sb_parse_cmdline_jobs(char *const *args, int nargs, struct sb_joblist *jl)
{
	struct sb_parse_req req = { .args = args, .nargs = nargs };
	return nargs > 0 ? sb_parse_request(&req, jl) : 0;
}

/* the command line's global sections, copied to the front of a file's ini
 * (before its own sections are read, so that the file's [global] wins) */
static int copy_globals(struct sb_ini *dst, const struct sb_ini *cmd)
{
	for (unsigned i = 0; cmd && i < cmd->nsec; i++) {
		const struct sb_ini_section *s = &cmd->sec[i];
		if (!s->global || !s->nkv)
			continue;
		struct sb_ini_section *d = sb_ini_add_section(dst, "global", "<cmdline>", 0);
		const char *file = sb_ini_intern(dst, "<cmdline>");
		if (!d || !file)
			return -ENOMEM;
		for (unsigned k = 0; k < s->nkv; k++)
			if (sb_ini_set(d, s->kv[k].key, s->kv[k].bare ? NULL : s->kv[k].value, file, 0))
				return -ENOMEM;
	}
	return 0;
}

/* standard input as job text: at most SB_JOBFILE_MAX bytes, no NUL byte */
char *sb_job_read_stdin(void)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = cap < SB_JOBFILE_MAX + 8192u ? realloc(buf, cap = cap ? 2 * cap : 8192) : NULL;
			if (!nb) {
				sb_err(SB_STDIN_NAME, "cannot read the job file from standard input: %s",
				       cap >= SB_JOBFILE_MAX ? "more than 16 MiB (is this a job file?)"
							     : strerror(ENOMEM));
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		ssize_t r = read(0, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sb_err(SB_STDIN_NAME, "cannot read the job file from standard input: %s",
			       strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		sb_err(SB_STDIN_NAME, "standard input holds a NUL byte: job files are text (is it a "
		       "binary file?); remove the NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

/* one job file ("-": standard input) after the command line's globals */
static int parse_one(const char *path, const struct sb_ini *cmd, struct sb_joblist *jl,
		     const struct sb_parse_relay *relay)
{
	struct sb_ini ini = { 0 };
	int rc = copy_globals(&ini, cmd);
	unsigned nglob = ini.nsec;
	if (rc) {
		sb_err("<cmdline>", "out of memory");
		sb_ini_free(&ini);
		return rc;
	}
	if (relay && relay->take) { /* rank 0's text (MPI) */
		const char *buf = NULL;
		size_t len = 0;
		rc = relay->take(relay->arg, &buf, &len) ? -EINVAL : sb_ini_unpack(&ini, buf, len);
		if (rc)
			sb_err(path, "the job text from rank 0 is damaged (%s)", strerror(-rc));
	} else if (!strcmp(path, "-")) {
		char *text = sb_job_read_stdin();
		rc = text ? sb_ini_parse_text(&ini, SB_STDIN_NAME, text) : -EINVAL;
		free(text);
	} else {
		rc = sb_ini_parse_file(&ini, path);
	}
	if (!rc && relay && relay->keep) { /* for the other ranks (MPI) */
		char *buf = NULL;
		size_t len = 0;
		rc = sb_ini_pack(&ini, nglob, &buf, &len);
		if (!rc)
			rc = relay->keep(relay->arg, buf, len);
		free(buf);
		if (rc)
			sb_err(path, "cannot keep the job text for the other ranks: %s", strerror(-rc));
	}
	if (rc && ini.nsec == nglob) { /* unreadable: nothing to convert */
		sb_ini_free(&ini);
		return -EINVAL;
	}
	return sb_job_finish_parse(jl, &ini, rc, !strcmp(path, "-") ? SB_STDIN_NAME : path);
}

/* every --section=NAME names a job somewhere (a typo must not run less) */
static int check_sections(const struct sb_parse_req *req, const struct sb_joblist *jl)
{
	int rc = 0;
	for (int i = 0; i < req->nsections; i++) {
		bool found = false;
		for (size_t j = 0; j < jl->njobs && !found; j++)
			found = !strcmp(jl->jobs[j].name, req->sections[i]);
		if (found)
			continue;
		sb_err("<cmdline>", "--section=%s: no job section of that name in %s: give the name "
		       "of a [section] of the job file (not global) or of a --name=",
		       req->sections[i], req->nfiles ? "the job files" : "the command line");
		rc = -EINVAL;
	}
	return rc;
}

int sb_parse_request(const struct sb_parse_req *req, struct sb_joblist *jl)
{
	struct sb_ini cmd = { 0 };
	bool stdin_seen = false;
	int rc = 0;
	jl->sections = req->sections;
	jl->nsections = req->nsections > 0 ? (unsigned)req->nsections : 0;
	if (req->nargs > 0) {
		struct sb_ini args = { 0 };
		rc = cmdline_ini(req->args, req->nargs, &args);
		if (rc != -ENOMEM && copy_globals(&cmd, &args)) /* kept for the job files */
			rc = -ENOMEM;
		if (rc == -ENOMEM)
			sb_err("<cmdline>", "out of memory");
		if (rc != -ENOMEM && args.nsec > 1) { /* command-line jobs: converted first */
			rc = sb_job_finish_parse(jl, &args, rc, "<cmdline>") ? -EINVAL : 0; /* frees args */
		} else {
			if (rc != -ENOMEM && sb_job_apply_globals(jl, &args, "<cmdline>"))
				rc = -EINVAL;
			sb_ini_free(&args);
		}
	}
	bool cmd_ok = !rc; /* a bad command line is reported once, not with every file */
	for (int i = 0; cmd_ok && i < req->nfiles; i++) {
		if (!strcmp(req->files[i], "-")) {
			if (stdin_seen) {
				sb_err("<cmdline>", "'-' given twice: standard input holds one job file; "
				       "give '-' once");
				rc = -EINVAL;
				continue;
			}
			stdin_seen = true;
		}
		if (parse_one(req->files[i], &cmd, jl, req->relay))
			rc = -EINVAL; /* the next files are still checked, as before */
	}
	if (!rc && jl->nsections)
		rc = check_sections(req, jl);
	/* fio 3.33 --parse-only with command-line options and no --name: nothing
	 * to print, exit 0 (t/steadystate_tests.py's parsing checks) */
	bool none_ok = req->no_job_ok && !req->nfiles;
	if (!rc && !jl->njobs && (req->nfiles || req->nargs) && !none_ok) {
		sb_err("<cmdline>", "no jobs defined: give a job file with a [jobname] section or "
		       "--name=jobname");
		rc = -EINVAL;
	}
	sb_ini_free(&cmd);
	jl->sections = NULL;
	jl->nsections = 0;
	return rc;
}
