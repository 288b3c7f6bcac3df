/* parse/cliflags.c: storbench's own command-line flags (parse/parse.h's
 * sb_cli_flags): the table main's parser (storbench.c) matches words
 * against (sb_cli_flag_match) and acts on by id, and from which --help, the
 * man page and the bash completion (parse/manpage.c) are written. */
#include <string.h>

#include "parse/parse.h"

/* storbench's own flags: --help, the man page and the bash completion are
 * written from this table (with the job options of parse/options.c) */
const struct sb_cli_flag sb_cli_flags[] = {
	{ "--output-format", "FMT", "normal, terse, json or json+ (a comma list prints several)" },
	{ "--output", "FILE", "write the results to FILE instead of standard output" },
	{ "--export", "csv:DIR", "also write the time series, host series and latency histograms "
	  "as CSV files into DIR (created when missing; see HOWTO.md, CSV export)" },
	{ "--minimal", NULL, "same as --output-format=terse" },
	{ "--terse-version", "3", "the terse format's version: 3 (fio's default; the only one "
	  "storbench writes)" },
	{ "--parse-only", "[MODE]", "check the job files as a run does before its first I/O, "
	  "touching no file: exit 0 and print nothing when they pass, exit 1 with file:line when "
	  "the run would refuse them (a missing directory= included).  MODE (a comma list): "
	  "verbose prints the expanded jobs; job checks the job, not this machine (what it lacks "
	  "is a warning, as fio 3.33 --parse-only)" },
	{ "--showcmd", NULL, "print each job file as the command line that defines the same jobs; "
	  "run nothing" },
	{ "--section", "NAME", "run only the job sections called NAME (repeatable; [global] "
	  "sections still apply)" },
	{ "--readonly", NULL, "refuse, before any I/O, every job that would write, trim or create "
	  "data" },
	{ "--max-jobs", "N", "refuse job lists that start more than N threads (numjobs counted)" },
	{ "--warnings-fatal", NULL, "a warning about the job files or options is an error "
	  "(exit 1)" },
	{ "--datagen", NULL, "create the datasets of workload=train jobs, run nothing" },
	{ "--allow-exec", NULL, "let job files run commands (exec_prerun, exec_postrun, ioengine=exec)" },
	{ "--status-interval", "T", "interim results every T (seconds, or 500ms, 1m): printed in "
	  "normal format as the run goes, or kept in the JSON document's \"interim\" array with "
	  "--output-format=json (one document)" },
	{ "--eta", "WHEN", "the progress line on stderr: auto (when stderr is a terminal, the "
	  "default), always or never" },
	{ "--eta-interval", "T", "update the progress line every T (seconds, or 500ms; at least "
	  "250ms; default 1s)" },
	{ "--eta-newline", "T", "start a new progress line every T instead of rewriting it "
	  "(seconds, or 500ms; at least 250ms)" },
	{ "--cleanup", "DIR", "remove what storbench runs that were killed left in DIR (only files "
	  "and folders with storbench's mark whose creator is no longer running); with --dry-run, "
	  "list them" },
	{ "--dry-run", NULL, "with --cleanup: list what would be removed, remove nothing" },
	{ "--debug", "CATEGORY", "print what storbench does, by category (fio's: random, parse, "
	  "io, file, verify, process, job, ... or all; a comma list; --debug=? lists them)" },
	{ "--bandwidth-log", NULL, "write fio's aggregate bandwidth logs agg-read_bw.log, "
	  "agg-write_bw.log, agg-trim_bw.log (all jobs, KiB/s every 500 ms) in this directory" },
	{ "--aux-path", "DIR", "keep the verify state files (verify_state_save/load) in DIR "
	  "instead of beside each job's first file" },
	{ "--inflate-log", "FILE", "print the text of a compressed log FILE.log.fz (written with "
	  "log_store_compressed=1) on standard output, and run nothing" },
	{ "--cmdhelp", "[OPTION]", "list every job option, or describe one" },
	{ "--cmdhelp-markdown", NULL, "every job option as the Markdown tables of HOWTO.md" },
	{ "--enghelp", "[ENGINE]", "list the I/O engines this build has, or ENGINE's own options" },
	{ "--man-page", NULL, "write the manual page storbench.1 (troff) to standard output" },
	{ "--workload-conformance", NULL, "every workload with its options and what the "
	  "conformance suite runs of it, as JSON" },
	{ "--doc-workloads", "NAMES", "given first: --cmdhelp-markdown, --man-page and "
	  "--bash-completion document only these workloads (a comma list; io always)" },
	{ "--bash-completion", NULL, "write the bash completion script to standard output" },
	{ "--version", NULL, "print the version" },
	{ "--help", NULL, "this text" },
};
const unsigned sb_cli_nflags = sizeof(sb_cli_flags) / sizeof(sb_cli_flags[0]);

const struct sb_cli_flag *sb_cli_flag_match(const char *arg, const char **val)
{
	*val = NULL;
	for (unsigned i = 0; i < sb_cli_nflags; i++) {
		const struct sb_cli_flag *f = &sb_cli_flags[i];
		size_t n = strlen(f->name);
		if (strncmp(arg, f->name, n) || (arg[n] && (arg[n] != '=' || !f->arg)))
			continue;
		*val = arg[n] ? arg + n + 1 : NULL;
		return f;
	}
	return NULL;
}

unsigned sb_cli_flag_id(const struct sb_cli_flag *f)
{
	return (unsigned)(f - sb_cli_flags) + 1;
}
