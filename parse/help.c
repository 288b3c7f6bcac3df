/* help.c: everything that describes options to people, derived from the
 * option table: accepted forms for error messages, --cmdhelp, --parse-only
 * (sb_joblist_print) and the Markdown option list for HOWTO.md. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/options.h"
#include "parse/parse.h"
#include "parse/value.h"

#define FIELD(s, off, type) ((const type *)((const char *)(s) + (off)))

void sb_option_accepts(const struct sb_option *o, char *buf, size_t len)
{
	size_t n = 0;
	char names[160];
	switch (o->type) {
	case SB_OT_STR: snprintf(buf, len, "text"); break;
	case SB_OT_NAME: snprintf(buf, len, "a name of up to %d characters", SB_NAME_MAX - 1); break;
	case SB_OT_ENGINE:
		sb_parse_engine_names(names, sizeof(names));
		snprintf(buf, len, "one of %s", names);
		break;
	case SB_OT_SIZE:
		snprintf(buf, len, (o->flags & SB_OF_PCT) ? "a size such as 4k, 1m or 10g, or a percentage such as 50%%"
			 : "a size such as 4k, 1m or 10g");
		break;
	case SB_OT_SIZE_RANGE: snprintf(buf, len, "a size or LOW-HIGH range, e.g. 1g or 1g-4g"); break;
	case SB_OT_SIZE_SPLIT: snprintf(buf, len, "sizes READ[,WRITE[,TRIM]], e.g. 4k or 4k,64k"); break;
	case SB_OT_INT_SPLIT: snprintf(buf, len, "counts READ[,WRITE[,TRIM]], e.g. 1000 or 1000,500"); break;
	case SB_OT_RANGE_SPLIT: snprintf(buf, len, "ranges LOW-HIGH[,LOW-HIGH[,LOW-HIGH]], e.g. 4k-64k"); break;
	case SB_OT_BSSPLIT: snprintf(buf, len, "BS/PCT:BS/PCT... per direction, e.g. 4k/50:64k/50"); break;
	case SB_OT_TIME:
		snprintf(buf, len, "a time such as 30, 500ms, 10s, 5m or 1h (no unit: %s)",
			 o->unit_us == 1 ? "microseconds" : "seconds");
		break;
	case SB_OT_UINT: case SB_OT_INT: case SB_OT_U64:
		snprintf(buf, len, "an integer from %lld to %lld", (long long)o->min, (long long)o->max);
		break;
	case SB_OT_BOOL: snprintf(buf, len, "1/0, true/false, yes/no or on/off"); break;
	case SB_OT_ENUM:
		buf[0] = '\0';
		for (const struct sb_opt_enum *e = o->enums; e->name && n < len; e++) {
			int w = snprintf(buf + n, len - n, "%s%s", e == o->enums ? "one of " : ", ", e->name);
			n += w > 0 ? (size_t)w : 0;
		}
		break;
	case SB_OT_PCTL_LIST: snprintf(buf, len, "percentiles in (0,100] separated by ':', e.g. 50:99:99.9"); break;
	case SB_OT_DIST: snprintf(buf, len, "random, zipf[:theta], pareto[:h] or normal[:sigma]"); break;
	case SB_OT_FLOAT: snprintf(buf, len, "a number of at least %lld, e.g. 0.5 or 1e-3", (long long)o->min); break;
	}
}

static void fmt_split(const struct sb_option *o, const struct sb_jobspec *s, char *buf, size_t len)
{
	static const char *const dir[] = { "read", "write", "trim" };
	size_t n = 0;
	for (unsigned d = 0; d < SB_DDIR_N && n < len; d++) {
		char a[32], b[32], part[256] = "";
		uint64_t v = FIELD(s, o->off, uint64_t)[d];
		if (o->type == SB_OT_INT_SPLIT) {
			snprintf(part, sizeof(part), "%llu", (unsigned long long)v);
		} else if (o->type == SB_OT_SIZE_SPLIT) {
			sb_size_str(v, a, sizeof(a));
			snprintf(part, sizeof(part), "%llu (%s)", (unsigned long long)v, a);
		} else if (o->type == SB_OT_RANGE_SPLIT) {
			uint64_t h = FIELD(s, o->off2, uint64_t)[d];
			sb_size_str(v, a, sizeof(a));
			sb_size_str(h, b, sizeof(b));
			snprintf(part, sizeof(part), "%llu-%llu (%s-%s)", (unsigned long long)v,
				 (unsigned long long)h, a, b);
		} else {
			size_t m = 0;
			for (unsigned i = 0; i < s->bssplit_n[d] && m < sizeof(part); i++) {
				int w = snprintf(part + m, sizeof(part) - m, "%s%llu/%g", i ? ":" : "",
						 (unsigned long long)s->bssplit[d][i].bs, s->bssplit[d][i].pct);
				m += w > 0 ? (size_t)w : 0;
			}
			if (!s->bssplit_n[d])
				snprintf(part, sizeof(part), "(none)");
		}
		int w = snprintf(buf + n, len - n, "%s%s %s", d ? ", " : "", dir[d], part);
		n += w > 0 ? (size_t)w : 0;
	}
}

/* percentile lists and distributions */
void sb_option_format(const struct sb_option *o, const struct sb_jobspec *s, char *buf, size_t len)
{
	char a[32], b[32];
	uint64_t v;
	switch (o->type) {
	case SB_OT_STR: {
		const char *str = *FIELD(s, o->off, char *);
		snprintf(buf, len, "%s", str ? str : "(none)");
		break;
	}
	case SB_OT_SIZE:
		if ((o->flags & SB_OF_PCT) && *FIELD(s, o->off2, double) > 0) {
			snprintf(buf, len, "%g%% (of each file's size)", *FIELD(s, o->off2, double));
			break;
		}
		v = *FIELD(s, o->off, uint64_t);
		sb_size_str(v, a, sizeof(a));
		snprintf(buf, len, "%llu (%s)", (unsigned long long)v, a);
		break;
	case SB_OT_SIZE_RANGE:
		v = *FIELD(s, o->off, uint64_t);
		sb_size_str(v, a, sizeof(a));
		sb_size_str(*FIELD(s, o->off2, uint64_t), b, sizeof(b));
		snprintf(buf, len, "%llu-%llu (%s-%s)", (unsigned long long)v,
			 (unsigned long long)*FIELD(s, o->off2, uint64_t), a, b);
		break;
	case SB_OT_SIZE_SPLIT: case SB_OT_INT_SPLIT: case SB_OT_RANGE_SPLIT: case SB_OT_BSSPLIT:
		fmt_split(o, s, buf, len);
		break;
	case SB_OT_TIME:
		v = *FIELD(s, o->off, uint64_t);
		sb_fmt_time(v, a, sizeof(a));
		snprintf(buf, len, "%llu us (%s)", (unsigned long long)v, a);
		break;
	case SB_OT_ENUM: { /* the first name of the value, as the default is written (native) */
		unsigned val = *FIELD(s, o->off, unsigned);
		const struct sb_opt_enum *e = o->enums;
		while (e->name && e->val != val)
			e++;
		snprintf(buf, len, "%s", e->name ? e->name : "?");
		break;
	}
	default: /* numbers, flags, names and lists: as job-file text */
		sb_option_text(o, s, buf, len);
		break;
	}
}

static void print_names(FILE *f, const struct sb_option *o, const char *q)
{
	fprintf(f, "%s%s%s", q, o->name, q);
	for (unsigned a = 0; o->alias[a]; a++)
		fprintf(f, "%s%s%s%s%s", a ? ", " : " (", q, o->alias[a], q, o->alias[a + 1] ? "" : ")");
}

/* categories in table order, each once */
static unsigned categories(enum sb_opt_cat cat[], unsigned max)
{
	unsigned n = 0;
	for (unsigned i = 0; i < sb_options_count(); i++) {
		enum sb_opt_cat c = sb_option_at(i)->category;
		unsigned k = 0;
		while (k < n && cat[k] != c)
			k++;
		if (k == n && n < max)
			cat[n++] = c;
	}
	return n;
}

static void cmdhelp_one(FILE *f, const struct sb_option *o)
{
	char acc[512];
	sb_option_accepts(o, acc, sizeof(acc));
	print_names(f, o, "");
	fprintf(f, "\n  %s\n  type:     %s\n", o->help, sb_opt_type_name(o->type));
	if (o->unit)
		fprintf(f, "  unit:     %s\n", o->unit);
	fprintf(f, "  default:  %s\n", o->def ? o->def : "(none)");
	fprintf(f, "  accepts:  %s\n", acc);
	if (o->type == SB_OT_SIZE || o->type == SB_OT_SIZE_SPLIT)
		fprintf(f, "  bounds:   at least %lld\n", (long long)o->min);
	fprintf(f, "  category: %s\n", sb_opt_cat_name(o->category));
	for (const struct sb_opt_enum *e = o->enums; e && e->name; e++)
		fprintf(f, "    %-10s %s\n", e->name, e->help);
}

int sb_cmdhelp(FILE *f, const char *opt)
{
	if (opt) {
		const struct sb_option *o = sb_option_find(opt);
		if (o) {
			cmdhelp_one(f, o);
			return 0;
		}
		const char *s = sb_option_suggest(opt);
		if (sb_option_refusal(opt))
			sb_err("--cmdhelp", "'%s' is refused: %s", opt, sb_option_refusal(opt));
		else if (sb_option_fio_only(opt))
			sb_err("--cmdhelp", "'%s' is a fio option not supported by storbench", opt);
		else if (s)
			sb_err("--cmdhelp", "unknown option '%s' (did you mean '%s'?)", opt, s);
		else
			sb_err("--cmdhelp", "unknown option '%s' (--cmdhelp lists them all)", opt);
		return -ENOENT;
	}
	enum sb_opt_cat cat[SB_CAT_N];
	unsigned nc = categories(cat, SB_CAT_N);
	for (unsigned c = 0; c < nc; c++) {
		fprintf(f, "%s%s:\n", c ? "\n" : "", sb_opt_cat_name(cat[c]));
		for (unsigned i = 0; i < sb_options_count(); i++) {
			const struct sb_option *o = sb_option_at(i);
			if (o->category != cat[c])
				continue;
			fprintf(f, "  %-28s %-13s %s\n", o->name, sb_opt_type_name(o->type), o->help);
		}
	}
	return 0;
}

void sb_options_markdown(FILE *f)
{
	enum sb_opt_cat cat[SB_CAT_N];
	unsigned nc = categories(cat, SB_CAT_N);
	for (unsigned c = 0; c < nc; c++) {
		fprintf(f, "### %s\n\n| Option | Type | Unit | Default | Description |\n|---|---|---|---|---|\n",
			sb_opt_cat_name(cat[c]));
		for (unsigned i = 0; i < sb_options_count(); i++) {
			const struct sb_option *o = sb_option_at(i);
			if (o->category != cat[c])
				continue;
			fprintf(f, "| ");
			print_names(f, o, "`");
			fprintf(f, " | %s | %s | %s | %s |\n", sb_opt_type_name(o->type), o->unit ? o->unit : "",
				o->def ? o->def : "", o->help);
		}
		fprintf(f, "\n");
	}
}

void sb_joblist_print(FILE *f, const struct sb_joblist *jl)
{
	char val[2048];
	for (size_t j = 0; j < jl->njobs; j++) {
		const struct sb_jobspec *s = &jl->jobs[j];
		if (s->line)
			fprintf(f, "%s[%s] (%s:%u, group %u)\n", j ? "\n" : "", s->name, s->file, s->line,
				s->groupid);
		else
			fprintf(f, "%s[%s] (%s, group %u)\n", j ? "\n" : "", s->name, s->file, s->groupid);
		for (unsigned i = 0; i < sb_options_count(); i++) {
			const struct sb_option *o = sb_option_at(i);
			if (o->flags & SB_OF_INVERSE)
				continue; /* shown through the option it inverts */
			sb_option_format(o, s, val, sizeof(val));
			fprintf(f, "  %-27s = %s\n", o->name, val);
		}
	}
}
