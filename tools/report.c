/* tools/report.c: `storbench report RESULT.json [MORE.json ...] -o FILE`: one
 * self-contained HTML page (inline CSS and SVG, no script, no external
 * reference) drawn from storbench's (or fio's) JSON results; several results
 * are overlaid on the same axes.  This file reads the command line and the
 * results and writes the page's frame, the summary, the system inventory,
 * the job file and the generic JSON tables; the sections are in
 * report_job.c, report_sweep.c and report_ml.c. */
#include "tools/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "os/infile.h"
#include "os/inputs.h"
#include "os/outfile.h"
#include "tools/tools.h"

#define WHERE "report"

static const struct sb_outname report_name = { "report -o", NULL, "the report" };

/* report's flags: --help lists them, the bash completion offers them */
const struct sb_cli_flag sb_report_flags[] = {
	{ "--output", "FILE", "the HTML file to write ('-': standard output); also -o FILE" },
	{ "--heatmap", "X,Y", "the two swept options of the sweep heat map (default: the two with "
	  "the most values)" },
	{ "--title", "TEXT", "the page title (default: the result file names)" },
	{ "--help", NULL, "this text (also -h)" },
	{ NULL, NULL, NULL },
};

static void usage_text(FILE *f)
{
	fputs("usage: storbench report RESULT.json [MORE.json ...] -o REPORT.html [options]\n", f);
	SB_TOOL_FLAGS_USAGE(f, sb_report_flags);
	fputs("RESULT.json: storbench --output-format=json or json+ (or fio's JSON).\n", f);
}

/* "WHAT ARG...": a bad command line */
static int usage_err(const char *what, const char *arg, const char *rest)
{
	sb_err(WHERE, "%s%s%s (storbench report --help)", what, arg, rest);
	return SB_EXIT_CMDLINE;
}

void sb_rep_section(struct sb_rep *rp, const char *title)
{
	rp->nsec++;
	sb_out_printf(rp->o, "<section id=\"s%u\"><h2>", rp->nsec);
	sb_out_esc(rp->o, title);
	sb_out_puts(rp->o, "</h2>\n");
}

void sb_rep_section_end(struct sb_rep *rp)
{
	sb_out_puts(rp->o, "</section>\n");
}

const char *sb_rep_name(const struct sb_rep *rp, unsigned ri, const char *what, char *buf,
			size_t len)
{
	if (rp->n == 1 && what)
		snprintf(buf, len, "%s", what);
	else if (what)
		snprintf(buf, len, "%s: %s", rp->r[ri].label, what);
	else
		snprintf(buf, len, "%s", rp->r[ri].label);
	return buf;
}

/* ---- the summary, the system inventory and the job file ---- */

static void summary(struct sb_rep *rp)
{
	struct sb_out *o = rp->o;
	sb_rep_section(rp, "Results");
	sb_out_puts(o, "<table class=\"t\"><tr><th>result</th><th>program</th><th>time</th>"
		    "<th>jobs</th><th>kind</th></tr>\n");
	for (unsigned i = 0; i < rp->n; i++) {
		const struct sb_jval *root = rp->r[i].root;
		const char *prog = sb_jv_str(sb_jv_get(root, "storbench version"), NULL);
		if (!prog)
			prog = sb_jv_str(sb_jv_get(root, "fio version"), "?");
		const char *kind = sb_jv_get(root, "sweep") ? "sweep" : "jobs";
		const struct sb_jval *j0 = sb_jv_path(root, "jobs/0");
		if (sb_jv_get(j0, "checkpoint"))
			kind = "checkpoint";
		else if (sb_jv_get(j0, "train"))
			kind = "training";
		else if (sb_jv_get(j0, "kvcache"))
			kind = "kv cache";
		else if (sb_jv_len(sb_jv_get(root, "comparisons")))
			kind = "comparison";
		sb_out_puts(o, "<tr><td>");
		sb_out_esc(o, rp->r[i].path);
		sb_out_puts(o, "</td><td>");
		sb_out_esc(o, prog);
		sb_out_puts(o, "</td><td>");
		sb_out_esc(o, sb_jv_str(sb_jv_get(root, "time"), ""));
		sb_out_printf(o, "</td><td>%zu</td><td>%s</td></tr>\n",
			      sb_jv_len(sb_jv_get(root, "jobs")), kind);
	}
	sb_out_puts(o, "</table>\n");
	sb_rep_section_end(rp);
}

static void system_inv(struct sb_rep *rp)
{
	int any = 0;
	for (unsigned i = 0; i < rp->n; i++)
		any |= sb_jv_get(rp->r[i].root, "system") != NULL;
	if (!any)
		return;
	sb_rep_section(rp, "System");
	for (unsigned i = 0; i < rp->n; i++) {
		const struct sb_jval *s = sb_jv_get(rp->r[i].root, "system");
		if (!s)
			continue;
		if (rp->n > 1) {
			sb_out_puts(rp->o, "<h3>");
			sb_out_esc(rp->o, rp->r[i].label);
			sb_out_puts(rp->o, "</h3>\n");
		}
		sb_rep_raw(rp->o, "the inventory, key by key", s);
	}
	sb_rep_section_end(rp);
}

static void options(struct sb_out *o, const char *section, const struct sb_jval *opts)
{
	if (!opts || opts->type != SB_JOBJ)
		return;
	sb_out_puts(o, "[");
	sb_out_esc(o, section);
	sb_out_puts(o, "]\n");
	for (const struct sb_jval *c = opts->child; c; c = c->next) {
		sb_out_esc(o, c->key);
		if (c->type == SB_JSTR && c->n) {
			sb_out_puts(o, "=");
			sb_out_esc(o, c->s);
		}
		sb_out_puts(o, "\n");
	}
	sb_out_puts(o, "\n");
}

static void job_file(struct sb_rep *rp)
{
	struct sb_out *o = rp->o;
	sb_rep_section(rp, "Job file");
	for (unsigned i = 0; i < rp->n; i++) {
		const struct sb_jval *root = rp->r[i].root;
		sb_out_puts(o, "<h3>");
		sb_out_esc(o, rp->r[i].label);
		sb_out_puts(o, "</h3><pre>");
		const char *text = sb_jv_str(sb_jv_get(root, "job_file"), NULL);
		if (text) {
			sb_out_esc(o, text);
			sb_out_puts(o, "</pre>\n");
			continue;
		}
		options(o, "global", sb_jv_get(root, "global options"));
		const struct sb_jval *sw = sb_jv_get(root, "sweep");
		const struct sb_jval *ops = sb_jv_get(sw, "options");
		for (const struct sb_jval *op = ops ? ops->child : NULL; op; op = op->next) {
			sb_out_puts(o, "; sweep.");
			sb_out_esc(o, sb_jv_str(sb_jv_get(op, "name"), "?"));
			sb_out_puts(o, " =");
			const struct sb_jval *vals = sb_jv_get(op, "values");
			for (const struct sb_jval *v = vals ? vals->child : NULL; v; v = v->next) {
				sb_out_puts(o, " ");
				sb_out_esc(o, sb_jv_str(v, "?"));
				if (v->next)
					sb_out_puts(o, " |");
			}
			sb_out_puts(o, "\n");
		}
		const struct sb_jval *jobs = sb_jv_get(root, "jobs");
		if (!sb_jv_len(jobs) && sb_jv_path(sw, "points/0/jobs")) {
			jobs = sb_jv_path(sw, "points/0/jobs");
			sb_out_puts(o, "; the jobs as in point 1:\n");
		}
		for (const struct sb_jval *j = jobs ? jobs->child : NULL; j; j = j->next)
			options(o, sb_jv_str(sb_jv_get(j, "jobname"), "?"), sb_jv_get(j, "job options"));
		sb_out_puts(o, "</pre>\n");
	}
	sb_rep_section_end(rp);
}

/* ---- the page ---- */

static const char style[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#222;max-width:1100px}"
	"h2{border-bottom:2px solid #ccc;margin-top:1.6em}figure{margin:1em 0}"
	"figcaption{font-weight:bold;margin:.3em 0}svg{background:#fff;display:block}"
	"svg text{font-size:11px;fill:#333}svg .n{font-size:10px}"
	"svg .g{stroke:#e4e4e4}svg .f{fill:none;stroke:#888}"
	"svg .best{fill:#fff3b0}svg .bc{stroke:#000;stroke-width:3}"
	".leg span{margin-right:1.2em;font-size:12px;white-space:nowrap}"
	".leg i{display:inline-block;width:18px;border-top:3px solid;margin-right:4px;"
	"vertical-align:middle}.leg i.d{border-top-style:dashed}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:13px}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
	"th{background:#f3f3f3}tr.best td{background:#fff3b0;font-weight:bold}"
	"tr.fail td{background:#fde2e2}pre{background:#f6f6f6;padding:.5em;overflow:auto}"
	"nav a{margin-right:1em}details{margin:.5em 0}summary{cursor:pointer;color:#036}"
	"td.na{color:#888}svg .empty{fill:#888;font-style:italic}"
	".pass{color:#1a7f37;font-weight:bold}.failv{color:#c62828;font-weight:bold}";

static void page(struct sb_rep *rp, const char *title)
{
	struct sb_out *o = rp->o;
	char t[512];
	if (!title) {
		size_t n = 0;
		t[0] = 0;
		for (unsigned i = 0; i < rp->n && n < sizeof(t) - 1; i++)
			n += (size_t)snprintf(t + n, sizeof(t) - n, "%s%s", i ? ", " : "", rp->r[i].label);
		title = t;
	}
	sb_out_puts(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"generator\" content=\"storbench report\"><title>storbench report: ");
	sb_out_esc(o, title);
	sb_out_printf(o, "</title>\n<style>%s</style></head>\n<body>\n<h1>storbench report: ", style);
	sb_out_esc(o, title);
	sb_out_puts(o, "</h1>\n");
	summary(rp);
	sb_rep_jobs(rp);
	sb_rep_host(rp);
	sb_rep_sweep(rp);
	sb_rep_compare(rp);
	sb_rep_ml(rp);
	system_inv(rp);
	job_file(rp);
	sb_out_puts(o, "</body></html>\n");
}

/* ---- loading ---- */

static int load(struct sb_rep_result *r)
{
	int rc = sb_in_json_load(&r->doc, r->path, &sb_in_json, 0);
	if (rc) {
		sb_err(r->path, "%s", r->doc.err);
		return rc;
	}
	r->root = r->doc.root;
	const struct sb_jval *jobs = sb_jv_get(r->root, "jobs");
	if (r->root->type != SB_JOBJ || !jobs || jobs->type != SB_JARR) {
		sb_err(r->path, "not a storbench or fio result: no \"jobs\" array at the top level "
		       "(write one with --output-format=json or json+)");
		return -EINVAL;
	}
	/* a sweep's points' jobs (labelled "sweep_point", for fio's tools):
	 * the Sweep section draws them; no "Job N" section each */
	struct sb_jval *jv = (struct sb_jval *)jobs;
	for (struct sb_jval **pp = &jv->child; *pp;) {
		if (sb_jv_get(*pp, "sweep_point")) {
			*pp = (*pp)->next;
			jv->n--;
		} else {
			pp = &(*pp)->next;
		}
	}
	const char *slash = strrchr(r->path, '/');
	r->label = slash && slash[1] ? slash + 1 : r->path;
	return 0;
}

static int write_out(const char *path, const struct sb_out *o)
{
	if (!strcmp(path, "-"))
		return fwrite(o->p, 1, o->len, stdout) == o->len && !fflush(stdout) ? 0 : -EIO;
	struct sb_outfile of;
	int e = sb_outfile_open(&of, path, &report_name, 0);
	if (e)
		return e; /* the gate said why */
	(void)fwrite(o->p, 1, o->len, of.f);
	if ((e = sb_outfile_commit(&of))) { /* a temporary, removed: what was there stays */
		sb_err(path, "cannot write the report: %s (a file that was there before is left as "
		       "it was): free space there, or give another -o", strerror(-e));
		return e;
	}
	return 0;
}

static int parse_heatmap(struct sb_rep *rp, char *arg)
{
	char *comma = strchr(arg, ',');
	if (!comma || comma == arg || !comma[1] || strchr(comma + 1, ','))
		return usage_err("--heatmap=", arg, ": give two swept options, e.g. --heatmap=bs,iodepth");
	*comma = 0;
	rp->heat_x = arg;
	rp->heat_y = comma + 1;
	return 0;
}

int sb_report_main(int argc, char **argv)
{
	struct sb_rep rp = { 0 };
	const char *outp = NULL, *title = NULL;
	char **in = calloc((size_t)argc, sizeof(*in));
	unsigned nin = 0;
	int rc = 0;
	if (!in)
		return SB_EXIT_IOERR;
	for (int i = 1; i < argc && !rc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_text(stdout);
			free(in);
			return SB_EXIT_OK;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc)
				rc = usage_err(a, "", " needs a file name");
			else
				outp = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			outp = a + 9;
		} else if (!strncmp(a, "--heatmap=", 10)) {
			rc = parse_heatmap(&rp, a + 10);
		} else if (!strncmp(a, "--title=", 8)) {
			title = a + 8;
		} else if (a[0] == '-' && a[1]) {
			rc = usage_err("unknown option '", a, "'");
		} else {
			in[nin++] = a;
		}
	}
	if (!rc && !nin)
		rc = usage_err("no result file: give one or more RESULT.json", "", "");
	if (!rc && (!outp || !*outp))
		rc = usage_err("no output file: give -o REPORT.html", "", "");
	if (rc) {
		free(in);
		return rc;
	}
	for (unsigned i = 0; i < nin; i++) /* -o never replaces one of them */
		(void)sb_inputs_add_path(in[i], "result file");
	if (strcmp(outp, "-") && sb_outfile_check(outp, &report_name, 0)) {
		free(in);
		return SB_EXIT_CMDLINE;
	}
	rp.r = calloc(nin, sizeof(*rp.r));
	rp.n = nin;
	struct sb_out o = { 0 };
	rp.o = &o;
	rc = rp.r ? 0 : SB_EXIT_IOERR;
	for (unsigned i = 0; i < nin && !rc; i++) {
		rp.r[i].path = in[i];
		if ((rc = load(&rp.r[i])))  /* not a regular file: a bad argument */
			rc = rc == -ENOTSUP ? SB_EXIT_CMDLINE : SB_EXIT_JOBFILE;
	}
	if (!rc && sb_rep_check_heatmap(&rp))
		rc = SB_EXIT_CMDLINE;
	if (!rc) {
		page(&rp, title);
		if (o.oom) {
			sb_err(WHERE, "out of memory");
			rc = SB_EXIT_IOERR;
		} else if (write_out(outp, &o)) {
			rc = SB_EXIT_IOERR;
		}
	}
	for (unsigned i = 0; rp.r && i < nin; i++)
		sb_json_free(&rp.r[i].doc);
	sb_out_free(&o);
	free(rp.r);
	free(in);
	return rc;
}
