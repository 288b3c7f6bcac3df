/* tools/tools.h: storbench's subcommands (`storbench NAME ARGS...`): tools
 * that read results, traces or result trees back (report, compare, analyze,
 * ...).  Each tool is one file in tools/ and one row of tools/tools.c's
 * table; storbench.c runs the tool named by its first argument. */
#ifndef SB_TOOLS_TOOLS_H
#define SB_TOOLS_TOOLS_H

#include <stdio.h>

#include "parse/parse.h"

struct sb_tool {
	const char *name;     /* the first word of the command line */
	const char *args;     /* synopsis of its arguments, for --help */
	const char *summary;  /* one line, for --help and the man page */
	/* argv[0] is the tool's name; returns the process exit code
	 * (0 ok, 1 bad input file, 2 bad command line, 3 I/O error) */
	int (*main)(int argc, char **argv);
	/* its flags: what its --help lists and the bash completion offers
	 * (parse/parse.h, struct sb_cli_cmd); NULL-named row ends the table */
	const struct sb_cli_flag *flags;
};

/* each tool's flag table, in its own file */
extern const struct sb_cli_flag sb_report_flags[], sb_compare_flags[], sb_analyze_flags[],
	sb_datasize_flags[], sb_validate_flags[];

/* the tools' entry points (one file each in tools/) */
int sb_analyze_main(int argc, char **argv);      /* tools/analyze.c */

/* the tool called NAME, or NULL */
const struct sb_tool *sb_tool_find(const char *name);
/* "Commands:" lines for --help (nothing when the table is empty) */
void sb_tools_usage(FILE *f);
/* the tools as rows for the man page (name, args, summary); returns the
 * number of tools (at most max are filled) */
unsigned sb_tools_rows(struct sb_cli_flag *out, unsigned max);
/* the tools with their flags, for the bash completion; same count rule */
unsigned sb_tools_cmds(struct sb_cli_cmd *out, unsigned max);
/* a tool's --help list of its flags: tab is its table, defined above the
 * use in the same file (the count leaves out the NULL-named last row) */
#define SB_TOOL_FLAGS_USAGE(f, tab) \
	sb_cli_flags_usage((f), (tab), (unsigned)(sizeof(tab) / sizeof((tab)[0]) - 1))

/* the tools (one line each) */
int sb_report_main(int argc, char **argv);   /* tools/report.c */
int sb_tool_compare(int argc, char **argv);  /* tools/compare.c */
int sb_tool_datasize(int argc, char **argv); /* tools/datasize.c */
int sb_tool_validate(int argc, char **argv); /* tools/validate.c */

#endif
