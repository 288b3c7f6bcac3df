/* tools/report_value.c: any JSON value of a result as HTML for `storbench
 * report`: scalars as text, lists on one line, arrays of objects as tables
 * with a column per key, objects as key/value tables; and the same folded
 * away in a <details> behind the charts.  Knows no section. */
#include "tools/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_rep_kv(struct sb_out *o, const char *k, const char *fmt, ...)
{
	char v[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	sb_out_puts(o, "<tr><th>");
	sb_out_esc(o, k);
	sb_out_puts(o, "</th><td>");
	sb_out_esc(o, v);
	sb_out_puts(o, "</td></tr>\n");
}

static void scalar(struct sb_out *o, const struct sb_jval *v)
{
	char num[64];
	switch (v->type) {
	case SB_JNULL: sb_out_puts(o, "null"); break;
	case SB_JBOOL: sb_out_puts(o, v->b ? "true" : "false"); break;
	case SB_JNUM:
		if (v->is_int)
			snprintf(num, sizeof(num), "%lld", (long long)v->i);
		else
			snprintf(num, sizeof(num), "%.6g", v->num);
		sb_out_puts(o, num);
		break;
	case SB_JSTR: sb_out_esc(o, v->s); break;
	default: break;
	}
}

static int is_scalar(const struct sb_jval *v)
{
	return v->type != SB_JARR && v->type != SB_JOBJ;
}

/* an array of objects: one row each, the union of their keys as columns
 * (the first 32 keys met) */
static int object_rows(struct sb_out *o, const struct sb_jval *v, int depth)
{
	const char *cols[32];
	unsigned nc = 0;
	for (const struct sb_jval *e = v->child; e; e = e->next) {
		if (e->type != SB_JOBJ)
			return 0;
		for (const struct sb_jval *k = e->child; k; k = k->next) {
			unsigned i = 0;
			while (i < nc && strcmp(cols[i], k->key))
				i++;
			if (i == nc && nc < 32)
				cols[nc++] = k->key;
		}
	}
	sb_out_puts(o, "<table class=\"t\"><tr>");
	for (unsigned i = 0; i < nc; i++) {
		sb_out_puts(o, "<th>");
		sb_out_esc(o, cols[i]);
		sb_out_puts(o, "</th>");
	}
	sb_out_puts(o, "</tr>\n");
	for (const struct sb_jval *e = v->child; e; e = e->next) {
		sb_out_puts(o, "<tr>");
		for (unsigned i = 0; i < nc; i++) {
			sb_out_puts(o, "<td>");
			const struct sb_jval *c = sb_jv_get(e, cols[i]);
			if (c)
				sb_rep_value(o, c, depth + 1);
			sb_out_puts(o, "</td>");
		}
		sb_out_puts(o, "</tr>\n");
	}
	sb_out_puts(o, "</table>\n");
	return 1;
}

void sb_rep_raw(struct sb_out *o, const char *what, const struct sb_jval *v)
{
	sb_out_puts(o, "<details><summary>");
	sb_out_esc(o, what);
	sb_out_puts(o, "</summary>\n");
	sb_rep_value(o, v, 1);
	sb_out_puts(o, "</details>\n");
}

void sb_rep_value(struct sb_out *o, const struct sb_jval *v, int depth)
{
	if (is_scalar(v)) {
		scalar(o, v);
		return;
	}
	if (depth > 8) {
		sb_out_puts(o, "...");
		return;
	}
	if (v->type == SB_JARR) {
		int all = 1;
		for (const struct sb_jval *e = v->child; e; e = e->next)
			all &= is_scalar(e);
		if (all) {   /* a list of values: one line */
			for (const struct sb_jval *e = v->child; e; e = e->next) {
				scalar(o, e);
				if (e->next)
					sb_out_puts(o, ", ");
			}
			return;
		}
		if (v->n && object_rows(o, v, depth))
			return;
		sb_out_puts(o, "<ol>");
		for (const struct sb_jval *e = v->child; e; e = e->next) {
			sb_out_puts(o, "<li>");
			sb_rep_value(o, e, depth + 1);
			sb_out_puts(o, "</li>");
		}
		sb_out_puts(o, "</ol>\n");
		return;
	}
	sb_out_puts(o, "<table class=\"kv\">\n");
	for (const struct sb_jval *c = v->child; c; c = c->next) {
		sb_out_puts(o, "<tr><th>");
		sb_out_esc(o, c->key);
		sb_out_puts(o, "</th><td>");
		sb_rep_value(o, c, depth + 1);
		sb_out_puts(o, "</td></tr>\n");
	}
	sb_out_puts(o, "</table>\n");
}
