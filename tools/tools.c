/* tools/tools.c: the table of storbench's subcommands (tools/tools.h).  A
 * tool is one row here and its own file in tools/. */
#include "tools/tools.h"

#include <string.h>

static const struct sb_tool tools[] = {
	/* { "name", "ARGS", "summary", tool_main, flags }, one row per tool */
	{ "report", "RESULT.json [MORE.json ...] -o REPORT.html [--heatmap=X,Y] [--title=TEXT]",
	  "an HTML page of plots and tables from results (several: overlaid)", sb_report_main,
	  sb_report_flags },
	{ "compare", "A.json B.json [C.json ...]  (a side of several runs: A1.json,A2.json)",
	  "results of storbench or fio side by side: ratios to A, noise or difference", sb_tool_compare,
	  sb_compare_flags },
	{ "analyze", "[--output-format=normal|json] [--filter=KEY:VALUE]... [--threads=N] TRACE...",
	  "totals of DFTracer-format I/O traces (write_trace=, DFTracer, DLIO's profiler)", sb_analyze_main,
	  sb_analyze_flags },
	{ "datasize", "model=unet3d|resnet50|cosmoflow accelerators=N client_memory=SIZE hosts=N",
	  "the training dataset a CLOSED MLPerf Storage run needs, and its job-file lines", sb_tool_datasize,
	  sb_datasize_flags },
	{ "validate", "RESULTS_DIR", "check an mlpstorage results tree like the submission checker: "
	  "CLOSED/OPEN/INVALID per run and submission", sb_tool_validate,
	  sb_validate_flags },
	{ NULL, NULL, NULL, NULL, NULL },
};

const struct sb_tool *sb_tool_find(const char *name)
{
	for (const struct sb_tool *t = tools; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

void sb_tools_usage(FILE *f)
{
	if (!tools[0].name)
		return;
	fprintf(f, "\nCommands (storbench COMMAND --help for each):\n");
	for (const struct sb_tool *t = tools; t->name; t++)
		fprintf(f, "  storbench %s %s\n      %s\n", t->name, t->args, t->summary);
}

unsigned sb_tools_rows(struct sb_cli_flag *out, unsigned max)
{
	unsigned n = 0;
	for (const struct sb_tool *t = tools; t->name; t++, n++)
		if (n < max)
			out[n] = (struct sb_cli_flag){ t->name, t->args, t->summary };
	return n;
}

unsigned sb_tools_cmds(struct sb_cli_cmd *out, unsigned max)
{
	unsigned n = 0;
	for (const struct sb_tool *t = tools; t->name; t++, n++) {
		unsigned nf = 0;
		while (t->flags && t->flags[nf].name)
			nf++;
		if (n < max)
			out[n] = (struct sb_cli_cmd){ t->name, t->flags, nf };
	}
	return n;
}
