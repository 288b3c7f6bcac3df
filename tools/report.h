/* tools/report.h: what the files of `storbench report` share: the loaded
 * results and the section writers.  tools/report.c reads the command line
 * and the results and writes the document; tools/report_job.c the per-job
 * and host sections; tools/report_sweep.c sweeps and engine comparisons;
 * tools/report_ml.c checkpoint and training; tools/svg.c draws. */
#ifndef SB_TOOLS_REPORT_H
#define SB_TOOLS_REPORT_H

#include "lib/jsonr.h"
#include "tools/svg.h"

struct sb_rep_result {
	const char *path;        /* as given on the command line */
	const char *label;       /* its base name: the legend's name */
	struct sb_json doc;
	const struct sb_jval *root;
};

struct sb_rep {
	struct sb_out *o;
	struct sb_rep_result *r;
	unsigned n;
	const char *heat_x, *heat_y;   /* --heatmap=X,Y, or NULL */
	unsigned nsec;                 /* sections written (for the contents) */
};

/* <section> with an <h2> title (escaped) and its closing tag */
void sb_rep_section(struct sb_rep *rp, const char *title);
void sb_rep_section_end(struct sb_rep *rp);
/* a legend name "LABEL" (one result) or "LABEL: WHAT"; into buf */
const char *sb_rep_name(const struct sb_rep *rp, unsigned ri, const char *what, char *buf,
			size_t len);
/* a JSON value of any shape as HTML tables, key by key */
void sb_rep_value(struct sb_out *o, const struct sb_jval *v, int depth);
/* a table row <tr><th>k</th><td>v</td></tr> with v formatted by fmt */
void sb_rep_kv(struct sb_out *o, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* --heatmap=X,Y names two options every sweep among the results sweeps:
 * 0, else -1 with the message printed */
int sb_rep_check_heatmap(const struct sb_rep *rp);

/* sections; each writes nothing when no result has what it shows */
void sb_rep_jobs(struct sb_rep *rp);
void sb_rep_host(struct sb_rep *rp);
void sb_rep_sweep(struct sb_rep *rp);
void sb_rep_compare(struct sb_rep *rp);
void sb_rep_ml(struct sb_rep *rp);

#endif
