/* tools/compare.c: `storbench compare A.json B.json [...]`: results of
 * storbench or fio side by side, one table per job (or sweep point) with a
 * block of rows per direction, B/A ratios, and each difference judged
 * against the spread of the repetitions (tools/rcmp.h: model and rule). */
#include "tools/tools.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "output/jsonw.h"
#include "tools/rcmp.h"

#define MAX_SIDES 26

struct cmpopts {
	bool json;
	double tol;            /* fraction */
	unsigned long runs;    /* files per side with --runs, else 0 */
};

/* compare's flags: --help lists them, the bash completion offers them */
const struct sb_cli_flag sb_compare_flags[] = {
	{ "--output-format", "normal|json", "the report as text (default) or one JSON document" },
	{ "--runs", "N", "every N result files form one side (its repetitions)" },
	{ "--tolerance", "PCT", "widen each side's min..max by PCT percent before calling a ratio "
	  "noise (default 1)" },
	{ "--help", NULL, "this text (also -h)" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: storbench compare [--output-format=normal|json] [--runs=N] [--tolerance=PCT]\n"
		   "                         A.json B.json [C.json ...]\n"
		   "       storbench compare A1.json,A2.json B1.json,B2.json\n");
	SB_TOOL_FLAGS_USAGE(f, sb_compare_flags);
	fprintf(f, "\n"
		   "Compares storbench or fio JSON results: per job (or sweep point) and direction,\n"
		   "IOPS, bandwidth, clat p50/p99/p99.9, CPU per I/O, checkpoint GB/s and AU, with\n"
		   "each side's ratio to A.  Several runs of one side: A1.json,A2.json or --runs=N\n"
		   "(every N files form a side).  A ratio is 'noise' when the mean of one side lies\n"
		   "within the min..max of the other's repetitions (widened by --tolerance, default\n"
		   "1%%), 'diff' otherwise, '?' when neither side has repetitions.  See HOWTO.md\n"
		   "section 13.\n");
}

static int bad_cmdline(const char *what, const char *arg)
{
	sb_err("compare", "%s '%s' (storbench compare --help)", what, arg);
	return SB_EXIT_CMDLINE;
}

static int parse_flag(struct cmpopts *o, const char *arg, const char *val)
{
	char *end;
	if (!strcmp(arg, "--output-format")) {
		if (!strcmp(val, "json"))
			o->json = true;
		else if (!strcmp(val, "normal"))
			o->json = false;
		else
			return bad_cmdline("--output-format is normal or json, not", val);
	} else if (!strcmp(arg, "--runs")) {
		errno = 0;
		o->runs = strtoul(val, &end, 10);
		if (errno || end == val || *end || !o->runs || o->runs > 10000 || *val == '-')
			return bad_cmdline("--runs takes a number of files per side (1 or more), not", val);
	} else if (!strcmp(arg, "--tolerance")) {
		errno = 0;
		o->tol = strtod(val, &end) / 100.0;
		if (errno || end == val || *end || !(o->tol >= 0) || o->tol > 1)
			return bad_cmdline("--tolerance takes a percentage from 0 to 100, not", val);
	} else {
		return bad_cmdline("unknown option", arg);
	}
	return 0;
}

/* splits the file arguments into sides: one per argument ("A1,A2" is a group
 * of runs), or every o->runs files with --runs */
static int make_sides(const struct cmpopts *o, char **files, size_t nf, struct sb_rcmp_side *s, size_t *ns)
{
	size_t n = 0;
	if (o->runs && nf % o->runs) {
		sb_err("compare", "--runs=%lu needs a multiple of %lu result files, not %zu "
				  "(storbench compare --help)", o->runs, o->runs, nf);
		return SB_EXIT_CMDLINE;
	}
	for (size_t i = 0; i < nf; i++) {
		if (!*files[i] || (o->runs && strchr(files[i], ',')))
			return bad_cmdline(o->runs ? "with --runs, give one file per argument, not" :
						     "empty result file name in",
					   files[i]);
		if (!o->runs || i % o->runs == 0) {
			if (n == MAX_SIDES)
				return bad_cmdline("at most 26 sides can be compared; too many at", files[i]);
			snprintf(s[n].label, sizeof(s[n].label), "%c", 'A' + (int)n);
			n++;
		}
		struct sb_rcmp_side *side = &s[n - 1];
		for (char *p = files[i], *q; p; p = q) {
			q = strchr(p, ',');
			if (q)
				*q++ = 0;
			if (!*p)
				return bad_cmdline("empty result file name in a group near", p == files[i] ? "," : p);
			const char **nfl = realloc(side->files, (side->nfiles + 1) * sizeof(*nfl));
			if (!nfl)
				return SB_EXIT_JOBFILE;
			side->files = nfl;
			side->files[side->nfiles++] = p;
		}
	}
	*ns = n;
	if (n < 2)
		return bad_cmdline("compare needs at least two results (A.json B.json); sides given:",
				   n ? s[0].files[0] : "none");
	return 0;
}

/* ---- the comparison: matches against A, then text or JSON ---- */

struct cmp {
	struct sb_rcmp_side *s;
	size_t ns;
	struct sb_rcmp_match *m[MAX_SIDES]; /* m[k][i]: A's entry i in side k */
	unsigned char *used[MAX_SIDES];
	double tol;
	bool judged;                        /* some row could be judged */
};

static const struct sb_rcmp_stat *stat_of(const struct cmp *c, size_t k, size_t i, int r)
{
	if (!k)
		return &c->s[0].e[i].row[r];
	long b = c->m[k][i].b;
	return b < 0 ? NULL : &c->s[k].e[b].row[r];
}

static bool has_partner(const struct cmp *c, size_t i)
{
	for (size_t k = 1; k < c->ns; k++)
		if (c->m[k][i].b >= 0)
			return true;
	return false;
}

static bool row_present(const struct cmp *c, size_t i, int r)
{
	for (size_t k = 0; k < c->ns; k++) {
		const struct sb_rcmp_stat *st = stat_of(c, k, i, r);
		if (st && st->n)
			return true;
	}
	return false;
}

/* side k against A for one row: ratio of the means (NAN when either is
 * missing or A's is 0) and the verdict */
static double ratio(const struct cmp *c, size_t k, size_t i, int r, enum sb_rcmp_verdict *v)
{
	const struct sb_rcmp_stat *a = stat_of(c, 0, i, r), *b = stat_of(c, k, i, r);
	*v = SB_RCMP_UNJUDGED;
	if (!a || !b || !a->n || !b->n)
		return NAN;
	*v = sb_rcmp_verdict(a->v, a->n, b->v, b->n, c->tol);
	double ma = sb_rcmp_summary(a->v, a->n).mean, mb = sb_rcmp_summary(b->v, b->n).mean;
	return ma != 0 ? mb / ma : NAN;
}

static void fmtnum(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e4)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* a table line, printed without trailing blanks */
struct line {
	char b[1024];
	size_t n;
};

static void __attribute__((format(printf, 2, 3))) lput(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->n = l->n + (size_t)n < sizeof(l->b) ? l->n + (size_t)n : sizeof(l->b) - 1;
}

static void lend(struct line *l)
{
	while (l->n && l->b[l->n - 1] == ' ')
		l->n--;
	printf("%.*s\n", (int)l->n, l->b);
	l->n = 0;
}

static void text_row(const struct cmp *c, size_t i, int r)
{
	struct line l = { .n = 0 };
	const struct sb_rcmp_rowdef *d = &sb_rcmp_rows[r];
	char label[48], buf[32];
	if (!strcmp(d->group, "job"))
		snprintf(label, sizeof(label), "%s", d->label);
	else
		snprintf(label, sizeof(label), "%s %s", d->group, d->label);
	lput(&l, "  %-22s", label);
	for (size_t k = 0; k < c->ns; k++) {
		const struct sb_rcmp_stat *st = stat_of(c, k, i, r);
		fmtnum(buf, sizeof(buf), st && st->n ? sb_rcmp_summary(st->v, st->n).mean * d->text_scale : NAN);
		lput(&l, " %12s", buf);
		if (!k)
			continue;
		enum sb_rcmp_verdict v;
		double q = ratio(c, k, i, r, &v);
		if (isfinite(q))
			lput(&l, " %7.3f %-5s", q, v == SB_RCMP_NOISE ? "noise" : v == SB_RCMP_DIFF ? "diff" : "?");
		else
			lput(&l, " %7s %-5s", "-", "");
	}
	lend(&l);
}

static void text_only(const struct cmp *c)
{
	for (size_t k = 0; k < c->ns; k++) {
		const struct sb_rcmp_side *s = &c->s[k];
		bool first = true;
		for (size_t e = 0; e < s->ne; e++) {
			bool alone = k ? !c->used[k][e] : !has_partner(c, e);
			if (!alone)
				continue;
			if (first)
				printf("only in %s: %s", s->label, s->e[e].name);
			else
				printf(", %s", s->e[e].name);
			first = false;
		}
		if (!first)
			printf("\n");
	}
}

static void print_text(const struct cmp *c)
{
	for (size_t k = 0; k < c->ns; k++) {
		printf("%s: ", c->s[k].label);
		for (size_t f = 0; f < c->s[k].nfiles; f++)
			printf("%s%s", f ? ", " : "", c->s[k].files[f]);
		printf(c->s[k].nfiles > 1 ? " (%zu runs)\n" : "\n", c->s[k].nfiles);
	}
	for (size_t i = 0; i < c->s[0].ne; i++) {
		if (!has_partner(c, i))
			continue;
		printf("\njob %s", c->s[0].e[i].name);
		for (size_t k = 1; k < c->ns; k++)
			if (c->m[k][i].how == SB_RCMP_BY_POSITION)
				printf("  (%s: '%s', matched by position)", c->s[k].label,
				       c->s[k].e[c->m[k][i].b].name);
		struct line l = { .n = 0 };
		printf("\n");
		lput(&l, "  %-22s %12s", "", "A");
		for (size_t k = 1; k < c->ns; k++)
			lput(&l, " %12s %3s/A %-5s", c->s[k].label, c->s[k].label, "");
		lend(&l);
		for (int r = 0; r < SB_RCMP_NROWS; r++)
			if (row_present(c, i, r))
				text_row(c, i, r);
	}
	printf("\n");
	text_only(c);
	printf("noise: the mean of one side within the min..max of the other's repetitions, "
	       "widened by %g%%; diff: outside; ?: cannot be judged\n", c->tol * 100);
	if (!c->judged)
		printf("noise cannot be judged: no side has repetitions (give several runs of a side "
		       "as A1.json,A2.json or with --runs=N, or use a sweep's loops)\n");
}

static void json_dbl_or_null(struct sb_jw *w, const char *key, double v)
{
	if (isfinite(v))
		sb_jw_dbl(w, key, v);
	else
		sb_jw_null(w, key);
}

static void json_cell(struct sb_jw *w, const struct cmp *c, size_t k, size_t i, int r)
{
	const struct sb_rcmp_stat *st = stat_of(c, k, i, r);
	struct sb_rcmp_sum sum = sb_rcmp_summary(st ? st->v : NULL, st ? st->n : 0);
	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "label", c->s[k].label);
	sb_jw_u64(w, "n", sum.n);
	json_dbl_or_null(w, "mean", sum.mean);
	json_dbl_or_null(w, "min", sum.min);
	json_dbl_or_null(w, "max", sum.max);
	sb_jw_arr_begin(w, "values");
	for (size_t j = 0; j < sum.n; j++)
		sb_jw_dbl(w, NULL, st->v[j]);
	sb_jw_arr_end(w);
	if (k) {
		enum sb_rcmp_verdict v;
		double q = ratio(c, k, i, r, &v);
		json_dbl_or_null(w, "ratio", q);
		if (isfinite(q))
			sb_jw_str(w, "verdict", sb_rcmp_verdict_name(v));
		else
			sb_jw_null(w, "verdict");
	}
	sb_jw_obj_end(w);
}

static void json_job(struct sb_jw *w, const struct cmp *c, size_t i)
{
	static const char *const how[] = { "none", "same_name", "position" };
	sb_jw_obj_begin(w, NULL);
	sb_jw_str(w, "job", c->s[0].e[i].name);
	sb_jw_arr_begin(w, "match");
	for (size_t k = 1; k < c->ns; k++) {
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "label", c->s[k].label);
		if (c->m[k][i].b >= 0)
			sb_jw_str(w, "job", c->s[k].e[c->m[k][i].b].name);
		else
			sb_jw_null(w, "job");
		sb_jw_str(w, "by", how[c->m[k][i].how]);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_arr_begin(w, "rows");
	for (int r = 0; r < SB_RCMP_NROWS; r++) {
		if (!row_present(c, i, r))
			continue;
		sb_jw_obj_begin(w, NULL);
		sb_jw_str(w, "group", sb_rcmp_rows[r].group);
		sb_jw_str(w, "metric", sb_rcmp_rows[r].metric);
		sb_jw_str(w, "unit", sb_rcmp_rows[r].unit);
		sb_jw_arr_begin(w, "sides");
		for (size_t k = 0; k < c->ns; k++)
			json_cell(w, c, k, i, r);
		sb_jw_arr_end(w);
		sb_jw_obj_end(w);
	}
	sb_jw_arr_end(w);
	sb_jw_obj_end(w);
}

static void print_json(const struct cmp *c)
{
	struct sb_jw w;
	sb_jw_init(&w, stdout);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_u64(&w, "compare_version", 1);
	sb_jw_dbl(&w, "tolerance_pct", c->tol * 100);
	sb_jw_bool(&w, "judged", c->judged);
	sb_jw_arr_begin(&w, "sides");
	for (size_t k = 0; k < c->ns; k++) {
		sb_jw_obj_begin(&w, NULL);
		sb_jw_str(&w, "label", c->s[k].label);
		sb_jw_arr_begin(&w, "files");
		for (size_t f = 0; f < c->s[k].nfiles; f++)
			sb_jw_str(&w, NULL, c->s[k].files[f]);
		sb_jw_arr_end(&w);
		sb_jw_obj_end(&w);
	}
	sb_jw_arr_end(&w);
	sb_jw_arr_begin(&w, "jobs");
	for (size_t i = 0; i < c->s[0].ne; i++)
		if (has_partner(c, i))
			json_job(&w, c, i);
	sb_jw_arr_end(&w);
	sb_jw_arr_begin(&w, "only");
	for (size_t k = 0; k < c->ns; k++)
		for (size_t e = 0; e < c->s[k].ne; e++)
			if (k ? !c->used[k][e] : !has_partner(c, e)) {
				sb_jw_obj_begin(&w, NULL);
				sb_jw_str(&w, "label", c->s[k].label);
				sb_jw_str(&w, "job", c->s[k].e[e].name);
				sb_jw_obj_end(&w);
			}
	sb_jw_arr_end(&w);
	sb_jw_obj_end(&w);
	fputc('\n', stdout);
}

/* "A has: x, y" for the no-job-in-common message */
static void names(char *buf, size_t len, const struct sb_rcmp_side *s)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t e = 0; e < s->ne && used < len; e++) {
		int n = snprintf(buf + used, len - used, "%s'%s'", e ? ", " : "", s->e[e].name);
		used += n > 0 ? (size_t)n : 0;
	}
	if (!s->ne)
		snprintf(buf, len, "no jobs");
}

static int run_compare(struct cmp *c, bool json)
{
	for (size_t k = 0; k < c->ns; k++)
		for (size_t f = 0; f < c->s[k].nfiles; f++)
			switch (sb_rcmp_load(&c->s[k], c->s[k].files[f])) {
			case 0:
				break;
			case -2: /* not a regular file: a bad argument */
				return SB_EXIT_CMDLINE;
			default:
				return SB_EXIT_JOBFILE;
			}
	for (size_t k = 1; k < c->ns; k++) {
		c->m[k] = calloc(c->s[0].ne + 1, sizeof(*c->m[k]));
		c->used[k] = calloc(c->s[k].ne + 1, 1);
		if (!c->m[k] || !c->used[k]) {
			sb_err("compare", "out of memory");
			return SB_EXIT_JOBFILE;
		}
		if (!sb_rcmp_match(&c->s[0], &c->s[k], c->m[k], c->used[k])) {
			char an[400], bn[400];
			names(an, sizeof(an), &c->s[0]);
			names(bn, sizeof(bn), &c->s[k]);
			sb_err(c->s[k].files[0], "no job in common with %s (%s has %s; %s has %s): compare "
						 "results of the same jobs",
			       c->s[0].files[0], c->s[0].label, an, c->s[k].label, bn);
			return SB_EXIT_JOBFILE;
		}
	}
	for (size_t i = 0; i < c->s[0].ne; i++)
		for (size_t k = 1; k < c->ns; k++)
			for (int r = 0; r < SB_RCMP_NROWS; r++) {
				enum sb_rcmp_verdict v;
				if (c->m[k][i].b >= 0 && isfinite(ratio(c, k, i, r, &v)) && v != SB_RCMP_UNJUDGED)
					c->judged = true;
			}
	if (json)
		print_json(c);
	else
		print_text(c);
	return fflush(stdout) ? SB_EXIT_IOERR : SB_EXIT_OK;
}

int sb_tool_compare(int argc, char **argv)
{
	struct cmpopts o = { .tol = 0.01 };
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	struct sb_rcmp_side sides[MAX_SIDES];
	struct cmp c = { .s = sides };
	size_t nf = 0;
	int rc = 0;
	memset(sides, 0, sizeof(sides));
	if (!files)
		return SB_EXIT_JOBFILE;
	bool flags = true;
	for (int i = 1; i < argc && !rc; i++) {
		char *a = argv[i];
		if (flags && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			usage(stdout);
			free(files);
			return SB_EXIT_OK;
		} else if (flags && !strcmp(a, "--")) {
			flags = false;
		} else if (flags && a[0] == '-' && a[1]) {
			char *eq = strchr(a, '=');
			if (!eq && a[1] == '-' && i + 1 < argc && strcmp(a, "--help")) {
				rc = parse_flag(&o, a, argv[++i]);
			} else if (eq) {
				*eq = 0;
				rc = parse_flag(&o, a, eq + 1);
				*eq = '=';
			} else {
				rc = bad_cmdline("unknown option", a);
			}
		} else {
			files[nf++] = a;
		}
	}
	if (!rc)
		rc = make_sides(&o, files, nf, sides, &c.ns);
	if (!rc) {
		c.tol = o.tol;
		rc = run_compare(&c, o.json);
	}
	for (size_t k = 0; k < MAX_SIDES; k++) {
		sb_rcmp_side_free(&sides[k]);
		free(sides[k].files);
		free(c.m[k]);
		free(c.used[k]);
	}
	free(files);
	return rc;
}
