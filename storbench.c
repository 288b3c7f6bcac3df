/* storbench.c: main.  Command line -> job files -> run -> report; nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/cleanup.h"
#include "run/engtable.h"
#include "run/ranks.h"
#include "run/run.h"
#include "run/vstate.h"
#include "sweep/sweep.h"
#include "engines/engine.h"
#include "lib/debug.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "ml/registry.h"
#include "output/output.h"
#include "output/resfile.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/sweep.h"
#include "parse/value.h"
#include "stats/iolog.h"
#include "tools/mlps.h"
#include "tools/tools.h"

struct cmdline {
	unsigned formats;
	const char *output;
	int parse_only;
	int parse_verbose;  /* --parse-only=verbose: print the expanded jobs */
	int parse_job;      /* --parse-only=job: the job, not this machine */
	int datagen;        /* --datagen: create the training datasets only */
	const char **jobfiles;
	int njobfiles;
	char **jobargs;     /* --key=value words that define command-line jobs */
	int njobargs;
	unsigned status_interval_ms; /* --status-interval: interim results; 0 = off */
	const char *cleanup;  /* --cleanup DIR: remove the leftovers of killed runs */
	const char *inflate;  /* --inflate-log FILE: print a .fz log's text */
	int dry_run;          /* --dry-run (with --cleanup): say, remove nothing */
	const char **sections; /* --section=NAME, in order */
	int nsections;
	int showcmd;          /* --showcmd: print the job files as command lines */
	int readonly;         /* --readonly: refuse jobs that write */
	int warnings_fatal;   /* --warnings-fatal */
	unsigned max_jobs;    /* --max-jobs=N: 0 = no limit */
	int eta;              /* --eta: -1 auto, 0 never, 1 always */
	unsigned eta_interval_ms, eta_newline_ms; /* 0: default (1 s), never */
	const char *export_csv; /* --export=csv:DIR: the folder; NULL = none */
	int bw_log;           /* --bandwidth-log: fio's agg-*_bw.log (stats/aggbw.h) */
};


static void usage(FILE *f)
{
	fprintf(f,
		"Usage: storbench [options] [jobfile...]\n"
		"       storbench COMMAND [args...]\n"
		"\n"
		"Runs the jobs described in fio-syntax job files (or on the command line) and\n"
		"reports latency, bandwidth and IOPS.  Without a job file, runs a built-in\n"
		"5-second quick job on a scratch file in the current directory.  A job file\n"
		"\"-\" is read from standard input.\n"
		"\n"
		"Options:\n");
	sb_cli_flags_usage(f, sb_cli_flags, sb_cli_nflags);
	fprintf(f,
		"\n"
		"Job options may also be given on the command line, fio style:\n"
		"  storbench --name=a --rw=randread --bs=4k --size=1g\n"
		"(options before the first --name apply to every job, also to the jobs of the\n"
		"job files; a job file's [global] wins over them).  See HOWTO.md.\n");
	sb_tools_usage(f);
}


static int is_prefix_opt(const char *arg, const char *name, const char **val)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n))
		return 0;
	if (arg[n] == '=') {
		*val = arg + n + 1;
		return 1;
	}
	if (arg[n] == '\0') {
		*val = NULL;
		return 1;
	}
	return 0;
}

/* --eta-interval / --eta-newline: a time of at least 250 ms, as fio wants */
static int cmd_time(const char *flag, const char *v, unsigned *ms)
{
	char err[256];
	uint64_t us = 0;
	if (!v || sb_parse_time(v, 1000000, &us, err) || us < 250000 || us > 86400000000ull) {
		sb_err("<cmdline>", "%s=%s: not a time of at least 250ms: use seconds (2) or a unit "
		       "(500ms, 1m)", flag, v ? v : "");
		return -EINVAL;
	}
	*ms = (unsigned)(us / 1000);
	return 0;
}

/* Returns -1 to go on, or an exit code. */
/* --output-format=V: not a format (the names from output/'s writer table) */
static int bad_format(const char *v)
{
	char names[128];
	sb_output_format_list(names, sizeof(names), ", ", " or ");
	sb_err("--output-format", "'%s' is not a format; use %s (a comma list prints several)",
	       v ? v : "", names);
	return SB_EXIT_CMDLINE;
}

/* --bash-completion: parse/ builds it; the format names come from output/ */
static int bash_completion(void)
{
	char formats[256];
	sb_output_format_list(formats, sizeof(formats), " ", " ");
	struct sb_cli_cmd cmds[32];
	unsigned ncmds = sb_tools_cmds(cmds, 32);
	sb_cli_bash_completion(stdout, sb_cli_flags, sb_cli_nflags, formats, cmds,
			       ncmds < 32 ? ncmds : 32);
	return SB_EXIT_OK;
}

/* the flags that print something and end (--help, --version, the help
 * texts); -1 for the others */
static int info_flag(unsigned id, const char *v)
{
	switch (id) {
	case SB_CLI_HELP:
		usage(stdout);
		return SB_EXIT_OK;
	case SB_CLI_VERSION:
		printf("storbench-%s\n", SB_VERSION);
		return SB_EXIT_OK;
	case SB_CLI_ENGHELP:
		return sb_run_enghelp(stdout, v) ? SB_EXIT_CMDLINE : SB_EXIT_OK;
	case SB_CLI_CMDHELP_MARKDOWN:
		sb_options_markdown(stdout);
		return SB_EXIT_OK;
	case SB_CLI_CMDHELP:
		return sb_cmdhelp(stdout, v && *v ? v : NULL) ? SB_EXIT_CMDLINE : SB_EXIT_OK;
	case SB_CLI_MAN_PAGE: {
		struct sb_cli_flag cmds[32];
		unsigned ncmds = sb_tools_rows(cmds, 32);
		sb_cli_manpage(stdout, SB_VERSION, sb_cli_flags, sb_cli_nflags, cmds, ncmds < 32 ? ncmds : 32);
		return SB_EXIT_OK;
	}
	case SB_CLI_BASH_COMPLETION:
		return bash_completion();
	case SB_CLI_WORKLOAD_CONFORMANCE:
		return sb_workloads_conformance_json(stdout), SB_EXIT_OK;
	case SB_CLI_DOC_WORKLOADS: /* the parser keeps only these; the flags go on */
		return sb_workloads_doc_only(v) ? SB_EXIT_CMDLINE : -1;
	}
	return -1;
}

/* --eta=, --terse-version=, --max-jobs=: -1 when v is taken */
static int choice_flag(struct cmdline *cl, unsigned id, const char *v)
{
	if (id == SB_CLI_ETA) {
		if (!v || (cl->eta = !strcmp(v, "always") ? 1 : !strcmp(v, "never") ? 0
				  : !strcmp(v, "auto") ? -1 : 2) == 2) {
			sb_err("<cmdline>", "--eta=%s: not a choice: use --eta=auto (when stderr "
			       "is a terminal), --eta=always or --eta=never", v ? v : "");
			return SB_EXIT_CMDLINE;
		}
	} else if (id == SB_CLI_TERSE_VERSION) {
		if (!v || strcmp(v, "3")) {
			bool fio_v = v && (!strcmp(v, "2") || !strcmp(v, "4") || !strcmp(v, "5"));
			sb_err("<cmdline>", "--terse-version=%s: %s: use --terse-version=3 (the "
			       "default)", v ? v : "", fio_v ? "fio's terse version 2, 4 and 5 "
			       "are not written by storbench, only version 3"
			       : "not a terse version (fio has 2, 3, 4 and 5; storbench writes 3)");
			return SB_EXIT_CMDLINE;
		}
	} else if (id == SB_CLI_MAX_JOBS) {
		char *end = NULL;
		unsigned long n = v ? strtoul(v, &end, 10) : 0;
		if (!v || !*v || *end || n < 1 || n > 1000000 || *v == '-') {
			sb_err("<cmdline>", "--max-jobs=%s: not a job count: give an integer from "
			       "1 to 1000000", v ? v : "");
			return SB_EXIT_CMDLINE;
		}
		cl->max_jobs = (unsigned)n;
	}
	return -1;
}

/* --parse-only[=MODE]: MODE a comma list of verbose and job; -1 when taken */
static int parse_only_mode(struct cmdline *cl, const char *v)
{
	cl->parse_only = 1;
	for (const char *w = v; w && *w; w += *w == ',') {
		size_t n = strcspn(w, ",");
		if (n == 7 && !strncmp(w, "verbose", 7)) {
			cl->parse_verbose = 1;
		} else if (n == 3 && !strncmp(w, "job", 3)) {
			cl->parse_job = 1;
		} else {
			sb_err("<cmdline>", "--parse-only=%s: '%.*s' is not a mode: use --parse-only "
			       "(quiet), --parse-only=verbose (print the expanded jobs), "
			       "--parse-only=job (check the job, not this machine) or both: "
			       "--parse-only=job,verbose", v, (int)n, w);
			return SB_EXIT_CMDLINE;
		}
		w += n;
	}
	return -1;
}

/* *dst = v, a name that must not be empty: -1, or the exit status after
 * saying what is needed */
static int named(const char **dst, const char *flag, const char *v, const char *need)
{
	if (!v || !*v) {
		sb_err(flag, "%s", need);
		return SB_EXIT_CMDLINE;
	}
	*dst = v;
	return -1;
}

/* the flags that take a value (v; --section and --cleanup may take the
 * next word: *i moves on); -1 when it is taken */
static int value_flag(struct cmdline *cl, unsigned id, const char *v, int argc, char **argv, int *i)
{
	char err[256];
	uint64_t us = 0;
	switch (id) {
	case SB_CLI_OUTPUT_FORMAT:
		return !v || sb_output_parse_formats(v, &cl->formats) ? bad_format(v) : -1;
	case SB_CLI_EXPORT:
		if (!v || strncmp(v, "csv:", 4) || !v[4]) {
			sb_err("<cmdline>", "--export=%s: not an export: use --export=csv:DIR", v ? v : "");
			return SB_EXIT_CMDLINE;
		}
		cl->export_csv = v + 4;
		return sb_csv_check(v + 4) ? SB_EXIT_CMDLINE : -1;
	case SB_CLI_OUTPUT:
		return named(&cl->output, "--output", v, "needs a file name: --output=FILE");
	case SB_CLI_STATUS_INTERVAL:
		if (!v || sb_parse_time(v, 1000000, &us, err) || us < 1000) {
			sb_err("--status-interval", "'%s' is not a time: use seconds (5) or "
			       "a unit (500ms, 1m), at least 1ms", v ? v : "");
			return SB_EXIT_CMDLINE;
		}
		cl->status_interval_ms = (unsigned)(us / 1000);
		return -1;
	case SB_CLI_SECTION:
		if (!v && *i + 1 < argc)
			v = argv[++*i];
		if (!v || !*v) {
			sb_err("<cmdline>", "--section needs a section name: --section=NAME");
			return SB_EXIT_CMDLINE;
		}
		cl->sections[cl->nsections++] = v;
		return -1;
	case SB_CLI_ETA_INTERVAL:
	case SB_CLI_ETA_NEWLINE: {
		bool nl = id == SB_CLI_ETA_NEWLINE;
		return cmd_time(nl ? "--eta-newline" : "--eta-interval", v,
				nl ? &cl->eta_newline_ms : &cl->eta_interval_ms) ? SB_EXIT_CMDLINE : -1;
	}
	case SB_CLI_AUX_PATH: /* the verify state files' folder (run/vstate.h) */
		if (!v || !*v) {
			sb_err("--aux-path", "needs a folder: --aux-path=DIR");
			return SB_EXIT_CMDLINE;
		}
		sb_vstate_aux_path(v);
		return -1;
	case SB_CLI_DEBUG: {
		int d = sb_debug_parse(v, stdout); /* lib/debug.h; ?: the list */
		return d > 0 ? SB_EXIT_OK : d < 0 ? SB_EXIT_CMDLINE : -1;
	}
	case SB_CLI_CLEANUP:
		if (!v && *i + 1 < argc && argv[*i + 1][0] != '-')
			v = argv[++*i];
		return named(&cl->cleanup, "--cleanup", v, "needs a directory: --cleanup DIR");
	case SB_CLI_INFLATE_LOG:
		return named(&cl->inflate, "--inflate-log", v, "needs a log file: --inflate-log=FILE.log.fz");
	case SB_CLI_PARSE_ONLY:
		return parse_only_mode(cl, v);
	}
	return choice_flag(cl, id, v);
}

/* the switches (no value) */
static void switch_flag(struct cmdline *cl, unsigned id)
{
	switch (id) {
	case SB_CLI_MINIMAL: cl->formats = SB_FMT_TERSE; break;
	case SB_CLI_SHOWCMD: cl->showcmd = 1; break;
	case SB_CLI_READONLY: cl->readonly = 1; break;
	case SB_CLI_WARNINGS_FATAL: cl->warnings_fatal = 1; break;
	case SB_CLI_PARSE_ONLY: cl->parse_only = 1; break;
	case SB_CLI_ALLOW_EXEC: sb_parse_allow_exec(true); break; /* exec_prerun/postrun may run */
	case SB_CLI_DATAGEN: cl->datagen = 1; break;
	case SB_CLI_DRY_RUN: cl->dry_run = 1; break;
	case SB_CLI_BANDWIDTH_LOG: cl->bw_log = 1; break;
	}
}

/* flags that go together or not at all */
static int cmdline_combos(const struct cmdline *cl)
{
	if (cl->dry_run && !cl->cleanup) {
		sb_err("--dry-run", "goes with --cleanup DIR (a run itself has no dry run: see --parse-only)");
		return SB_EXIT_CMDLINE;
	}
	if (cl->showcmd && !cl->njobfiles) {
		sb_err("<cmdline>", "--showcmd needs a job file: storbench --showcmd FILE ('-' reads "
		       "standard input)");
		return SB_EXIT_CMDLINE;
	}
	if (cl->cleanup && (cl->njobfiles || cl->njobargs)) {
		sb_err("--cleanup", "runs alone: give no job files or job options with it");
		return SB_EXIT_CMDLINE;
	}
	if (cl->inflate && (cl->njobfiles || cl->njobargs || cl->cleanup)) {
		sb_err("--inflate-log", "runs alone: give no job files, job options or --cleanup with it");
		return SB_EXIT_CMDLINE;
	}
	return -1;
}

/* the command line: storbench's flags from parse/cliflags.c's table (by
 * their id), job options (--key=value), job files; -1 to go on, or the
 * exit status */
static int parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	const char *v;
	cl->formats = SB_FMT_NORMAL;
	cl->jobfiles = calloc((size_t)argc, sizeof(*cl->jobfiles));
	cl->jobargs = calloc((size_t)argc, sizeof(*cl->jobargs));
	cl->sections = calloc((size_t)argc, sizeof(*cl->sections));
	cl->eta = -1;
	if (!cl->jobfiles || !cl->jobargs || !cl->sections)
		return SB_EXIT_CMDLINE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct sb_cli_flag *f = sb_cli_flag_match(a, &v);
		int r;
		if (f) {
			unsigned id = sb_cli_flag_id(f);
			if ((r = info_flag(id, v)) >= 0 || (f->arg && (r = value_flag(cl, id, v, argc, argv, &i)) >= 0))
				return r;
			switch_flag(cl, id);
		} else if (!strcmp(a, "-h")) {
			return info_flag(SB_CLI_HELP, NULL);
		} else if (is_prefix_opt(a, "--server", &v) || is_prefix_opt(a, "--client", &v)) {
			sb_err(a, "fio's client/server mode is not in storbench: multi-host runs go "
			       "through MPI (mpirun -np N storbench JOBFILE)");
			return SB_EXIT_CMDLINE;
		} else if (a[0] == '-' && a[1] == '-' && a[2]) {
			cl->jobargs[cl->njobargs++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			sb_err(a, "unknown command-line option; see storbench --help");
			return SB_EXIT_CMDLINE;
		} else {
			cl->jobfiles[cl->njobfiles++] = a;
		}
	}
	return cmdline_combos(cl);
}

/* the job list's thread count against --max-jobs (numjobs counted) */
/* fio 3.33's note on stderr as the jobs start: a
 * synchronous engine completes each I/O before the next, whatever iodepth=
 * says; once a job section, its name and values added */
static int load_jobs(const struct cmdline *cl, struct sb_joblist *jl, const struct sb_parse_relay *relay)
{
	int rc = 0;
	unsigned warned = sb_log_warnings();
	sb_parse_machine_checks(!cl->parse_job); /* --parse-only=job: the job, not this machine */
	if (cl->njobfiles || cl->njobargs) {
		struct sb_parse_req req = {
			.relay = relay,
			.files = cl->jobfiles, .nfiles = cl->njobfiles,
			.args = cl->jobargs, .nargs = cl->njobargs,
			.sections = cl->sections, .nsections = cl->nsections,
			.no_job_ok = cl->parse_only,
		};
		rc = sb_parse_request(&req, jl);
	} else {
		char text[1024];
		if (cl->nsections) {
			sb_err("<cmdline>", "--section=%s: there is no job file: give the job file "
			       "whose section to run", cl->sections[0]);
			return -EINVAL;
		}
		rc = sb_quick_job_text(text, sizeof(text));
		if (!rc)
			rc = sb_parse_text("<built-in quick job>", text, jl);
	}
	if (!rc)
		rc = sb_joblist_finish(jl);
	jl->datagen_only = cl->datagen;
	if (!rc && cl->readonly)
		rc = sb_joblist_check_readonly(jl);
	if (!rc)
		rc = sb_joblist_check_max_jobs(jl, cl->max_jobs);
	if (!rc && cl->warnings_fatal && sb_log_warnings() != warned) {
		sb_err("<cmdline>", "--warnings-fatal: %u warning(s) above: fix what they name, or "
		       "drop --warnings-fatal", sb_log_warnings() - warned);
		rc = -EINVAL;
	}
	if (!rc && !cl->parse_only && !cl->datagen)
		sb_run_depth_notes(jl); /* as the run starts: nothing comes between */
	return rc;
}

/* the interim-output callback: a snapshot in normal format, at once */
static void write_interim(void *arg, const struct sb_interim *snap)
{
	FILE *f = arg;
	sb_write_interim_normal(f, snap);
	fflush(f);
}

/* The run's environment (SB_EXIT_OK; 130 when a signal ended the wait for
 * an --output FIFO's reader, else 2).  --status-interval: normal-format snapshots go to
 * the results' stream as the run goes; with json they are kept for the
 * document's "interim" array (and nothing is printed early, so the JSON
 * stays one document); terse output gets none. */
static int run_env(const struct cmdline *cl, struct sb_resfile *o, struct sb_run_env *env)
{
	struct sb_mon_opts *r = &env->opts;
	bool json = cl->formats & (SB_FMT_JSON | SB_FMT_JSONPLUS);
	sb_debug_stream(o->f); /* --debug's messages: into the results' file, as fio's */
	*env = (struct sb_run_env){ .sysroot = "", .drop_caches = "/proc/sys/vm/drop_caches",
				    .output = cl->output };
	r->status_interval_ms = cl->status_interval_ms;
	r->bw_log = cl->bw_log;
	r->progress = cl->eta;
	r->progress_interval_ms = cl->eta_interval_ms;
	r->progress_newline_ms = cl->eta_newline_ms;
	r->interim_json = json; /* --status-interval's and SIGUSR1's snapshots */
	bool normal = !json && (cl->formats & SB_FMT_NORMAL);
	if (cl->status_interval_ms && normal) {
		int e = sb_resfile_stream(o); /* a FIFO: the snapshots stream into it */
		if (e)
			return e == -EINTR ? SB_EXIT_INTR : SB_EXIT_CMDLINE;
		r->interim = write_interim;
		r->interim_arg = o->f;
	}
	/* SIGUSR1's status: where --status-interval's go (the results' stream:
	 * stdout or --output's file); JSON or terse results, or an --output FIFO
	 * not open yet (opening it waits for a reader): on stderr.  MPI: rank
	 * 0 only. */
	if (sb_ranks_rank() == 0) {
		r->status = write_interim;
		r->status_arg = normal && o->f ? o->f : stderr;
	}
	return SB_EXIT_OK;
}

/* the workload table to run/ and parse/, the engines' option rows to the
 * parser's table (neither names the other's modules) */
static int tables_down(void)
{
	if (sb_workloads_hand_down()) {
		sb_err("workloads", "bug: the workloads' rows do not fit the parser's table");
		return -1;
	}
	if (!sb_run_engines_to_parser())
		return 0;
	sb_err("engines", "bug: the engines' option rows do not fit the parser's table");
	return -1;
}

/* the commands that run alone (--inflate-log, --cleanup, --showcmd): their
 * exit status; -1: a run */
/* a job that exits 3: its error or verify failures, except the verify
 * failures continue_on_error=verify (or all) lets pass, as fio 3.33 exits 0
 * then (job error 84, total_err and first_error counted) */
static bool job_failed(const struct sb_job_result *j)
{
	bool vpass = j->spec && (j->spec->continue_on_error & SB_COE_VERIFY);
	if (j->error && !(vpass && j->error == EILSEQ))
		return true;
	return sb_verify_nfail(j->verify) && !vpass;
}

static int alone(const struct cmdline *cl)
{
	if (cl->inflate)
		return sb_iolog_inflate(cl->inflate, stdout) ? SB_EXIT_CMDLINE : SB_EXIT_OK;
	if (cl->showcmd)
		return sb_showcmd(stdout, cl->jobfiles, cl->njobfiles) ? SB_EXIT_JOBFILE : SB_EXIT_OK;
	if (!cl->cleanup)
		return -1;
	int e = sb_cleanup_dir(cl->cleanup, cl->dry_run, stdout);
	return !e ? SB_EXIT_OK : e == -EIO ? SB_EXIT_IOERR : e == -EINTR ? SB_EXIT_INTR : SB_EXIT_CMDLINE;
}

int main(int argc, char **argv)
{
	struct cmdline cl = { 0 };
	struct sb_joblist jl = { 0 };
	struct sb_results res = { 0 };
	/* storbench COMMAND ...: a tool (tools/); a job file of the same name
	 * runs as ./NAME */
	if (tables_down())
		return SB_EXIT_JOBFILE;
	const struct sb_tool *tool = argc > 1 ? sb_tool_find(argv[1]) : NULL;
	if (tool)
		return tool->main(argc - 1, argv + 1);
	sb_stop_install(); /* before anything is read or made (lib/stop.h) */
	sb_ranks_start(&argc, &argv); /* MPI when a launcher started us; else one rank */
	int rc = parse_cmdline(argc, argv, &cl);
	int status = SB_EXIT_OK;
	const struct sb_parse_relay *relay = NULL; /* MPI: rank 0's job text (run/ranks.h) */

	if (rc >= 0 || (status = alone(&cl)) >= 0)
		goto out;
	status = SB_EXIT_OK;
	if (sb_ranks_text_begin(&relay) || sb_ranks_text_end(load_jobs(&cl, &jl, relay)) ||
	    sb_stopping()) {
		status = sb_stopping() ? SB_EXIT_INTR : SB_EXIT_JOBFILE;
		if (sb_stopping())
			sb_err("interrupted", "stopped while reading the job files: nothing was run "
			       "and nothing written");
		goto out;
	}
	if (cl.parse_only) {
		status = sb_parse_only(&jl, cl.output, cl.parse_job, cl.warnings_fatal, cl.parse_verbose) ?
			 SB_EXIT_JOBFILE : SB_EXIT_OK;
		goto out;
	}
	struct sb_resfile ro;
	if (sb_resfile_open(&ro, cl.output, sb_ranks_rank() == 0)) {
		status = SB_EXIT_CMDLINE;
		goto out;
	}
	struct sb_run_env env;
	if ((status = run_env(&cl, &ro, &env)) != SB_EXIT_OK)
		goto out;
	struct sb_sweep_results sweep = { 0 }; /* sweep.* job files: sweep/sweep.c */
	if (jl.sweep ? sb_sweep_run(&jl, &env, &sweep, &res) : sb_run(&jl, &env, &res)) {
		if (sweep.ndone) /* the points finished before the failure */
			sb_resfile_write(&ro, &res, cl.formats);
		else
			sb_resfile_drop(&ro);
		sb_sweep_results_free(&sweep);
		status = SB_EXIT_JOBFILE;
		goto out;
	}
	sb_ranks_own_results(&jl, &res, cl.output, sb_output_write, cl.formats); /* MPI */
	if (!jl.sweep && sb_ranks_merge(&res, sb_stop_signalled())) /* MPI: one result at rank 0 */
		status = SB_EXIT_IOERR;
	int we = sb_resfile_write(&ro, &res, cl.formats);
	if (we || res.logs_failed)
		status = SB_EXIT_IOERR;
	if (cl.export_csv && sb_write_csv(cl.export_csv, &res))
		status = SB_EXIT_IOERR;
	if (!cl.datagen && sb_mlps_write(&res)) /* results_dir= (tools/mlps.h); --datagen: no run */
		status = SB_EXIT_IOERR;
	for (size_t i = 0; i < res.njobs; i++)
		if (job_failed(&res.jobs[i]))
			status = SB_EXIT_IOERR;
	if (jl.sweep && sb_sweep_had_errors(&sweep))
		status = SB_EXIT_IOERR;
	if (res.interrupted || we == -EINTR) /* also the wait for an --output FIFO's reader */
		status = SB_EXIT_INTR;
	sb_results_free(&res);
	sb_sweep_results_free(&sweep);
out:
	sb_joblist_free(&jl);
	free(cl.jobfiles);
	free(cl.jobargs);
	free(cl.sections);
	if (rc < 0)
		status = sb_ranks_status(status); /* MPI: the same exit status on every rank */
	sb_ranks_finish();
	return rc >= 0 ? rc : status;
}
