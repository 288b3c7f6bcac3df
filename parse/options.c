/* options.c: THE option table (see options.h), joined from its segments
 * (parse/opt_rows.h), and lookups by name, alias and edit distance.  Names,
 * meanings and defaults follow fio so fio job files run unchanged.  Setting
 * values lives in optset.c, help/printing in help.c. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/opt_rows.h"
#include "parse/workloads.h"

static const char *const cat_names[SB_CAT_N] = {
	[SB_CAT_DESC] = "Job description",
	[SB_CAT_FILE] = "Files and sizes",
	[SB_CAT_IO] = "I/O pattern",
	[SB_CAT_BS] = "Block size",
	[SB_CAT_ENG] = "I/O engine",
	[SB_CAT_TIME] = "Time and repetition",
	[SB_CAT_GRP] = "Threads, groups and ordering",
	[SB_CAT_RAND] = "Randomness",
	[SB_CAT_RATE] = "Rate and think time",
	[SB_CAT_STAT] = "Statistics and units",
	[SB_CAT_SAFE] = "File life cycle and safety",
	[SB_CAT_ML] = "ML workloads",
	[SB_CAT_CKPT] = "Checkpoint workload",
	[SB_CAT_TRAIN] = "Training workload",
	[SB_CAT_LOG] = "Time series, logs and host counters",
	[SB_CAT_SWEEP] = "Sweeps",
	[SB_CAT_VERIFY] = "Data verification",
	[SB_CAT_KV] = "KV-cache workload",
};


/* THE table: its segments, in order; the workloads' between mid and post */
static const struct {
	const struct sb_option *rows;
	const unsigned *n;
} segs[] = {
	{ sb_opt_rows_io, &sb_opt_rows_io_n },
	{ sb_opt_rows_mid, &sb_opt_rows_mid_n },
	{ sb_opt_rows_post, &sb_opt_rows_post_n },
	{ sb_opt_rows_ctl, &sb_opt_rows_ctl_n },
};
#define NSEGS (sizeof(segs) / sizeof(segs[0]))
#define SEG_WL 2 /* the workloads' rows come before segs[SEG_WL] */

/* segment k of the table: the fixed ones with the workloads' inserted */
static const struct sb_option *seg(unsigned k, unsigned *n)
{
	const struct sb_parse_workload *w;
	if (k < SEG_WL) {
		*n = *segs[k].n;
		return segs[k].rows;
	}
	for (unsigned i = 0; (w = sb_parse_workload_at(i)); i++, k--)
		if (k == SEG_WL) { /* never NULL: NULL ends the walk */
			*n = w->rows ? w->nrows : 0;
			return w->rows ? w->rows : segs[0].rows;
		}
	if (k < NSEGS) {
		*n = *segs[k].n;
		return segs[k].rows;
	}
	*n = 0;
	return NULL;
}

static unsigned table_n(void)
{
	unsigned n = 0, m;
	for (unsigned k = 0; seg(k, &m); k++)
		n += m;
	return n;
}

/* row i of the table (without the engines' rows), NULL past its end */
static const struct sb_option *table_at(unsigned i)
{
	const struct sb_option *r;
	unsigned m;
	for (unsigned k = 0; (r = seg(k, &m)); i -= m, k++)
		if (i < m)
			return &r[i];
	return NULL;
}

/* the engines' option rows (parse/engines.c) come after the last table row
 * of their category */
unsigned sb_options_count(void)
{
	unsigned nerows, at, n = table_n();
	sb_parse_engine_rows(&nerows, &at);
	if (n + nerows > SB_OPT_MAX) {
		fprintf(stderr, "storbench: bug: %u option rows, raise SB_OPT_MAX\n", n + nerows);
		abort();
	}
	return n + nerows;
}

const struct sb_option *sb_option_at(unsigned i)
{
	unsigned nerows, at;
	const struct sb_option *erows = sb_parse_engine_rows(&nerows, &at);
	if (i < at)
		return table_at(i);
	if (i < at + nerows)
		return &erows[i - at];
	return table_at(i - nerows);
}

unsigned sb_option_index(const struct sb_option *o)
{
	unsigned nerows, at, i = 0;
	const struct sb_option *erows = sb_parse_engine_rows(&nerows, &at);
	if (o >= erows && o < erows + nerows)
		return at + (unsigned)(o - erows);
	const struct sb_option *r;
	unsigned m;
	for (unsigned k = 0; (r = seg(k, &m)); i += m, k++)
		if (o >= r && o < r + m) {
			i += (unsigned)(o - r);
			break;
		}
	return i < at ? i : i + nerows;
}

const struct sb_option *sb_option_find(const char *name)
{
	for (unsigned i = 0, n = sb_options_count(); i < n; i++) {
		const struct sb_option *o = sb_option_at(i);
		if (!strcasecmp(o->name, name))
			return o;
		for (unsigned a = 0; o->alias[a]; a++)
			if (!strcasecmp(o->alias[a], name))
				return o;
	}
	return NULL;
}

/* Edit distance with transpositions (optimal string alignment: "nmae" is
 * one from "name", as "blocksze" from "blocksize"), case-insensitive, for
 * names up to 63 characters */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned rows[3][64], la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
	if (la > 63 || lb > 63)
		return 64;
	for (unsigned j = 0; j <= lb; j++)
		rows[0][j] = j; /* row i lives in rows[i % 3] */
	for (unsigned i = 1; i <= la; i++) {
		unsigned *r = rows[i % 3], *p = rows[(i + 2) % 3], *pp = rows[(i + 1) % 3];
		r[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned cost = (a[i - 1] | 32) != (b[j - 1] | 32);
			unsigned best = p[j - 1] + cost;
			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (r[j - 1] + 1 < best)
				best = r[j - 1] + 1;
			if (i > 1 && j > 1 && (a[i - 1] | 32) == (b[j - 2] | 32) &&
			    (a[i - 2] | 32) == (b[j - 1] | 32) && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1; /* two neighbours swapped */
			r[j] = best;
		}
	}
	return rows[la % 3][lb];
}

unsigned sb_option_distance(const char *a, const char *b)
{
	return edit_distance(a, b);
}

const char *sb_option_suggest(const char *name)
{
	const char *best = NULL;
	size_t len = strlen(name);
	unsigned bestd = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	for (unsigned i = 0, nopt = sb_options_count(); i < nopt; i++) {
		const struct sb_option *o = sb_option_at(i);
		for (int a = -1; a < 3; a++) {
			const char *n = a < 0 ? o->name : o->alias[a];
			if (!n)
				break;
			unsigned d = edit_distance(name, n);
			if (d <= bestd && (!best || d < bestd)) {
				best = n;
				bestd = d;
			}
		}
	}
	return best;
}

const struct sb_option *sb_option_of(size_t off, unsigned inverse)
{
	for (unsigned i = 0, n = sb_options_count(); i < n; i++) { /* the engines' rows too */
		const struct sb_option *o = sb_option_at(i);
		if (o->off == off && (o->flags & SB_OF_INVERSE) == inverse)
			return o;
	}
	fprintf(stderr, "storbench: bug: no option row at offset %zu of struct sb_jobspec\n", off);
	abort();
}

const char *sb_opt_cat_name(enum sb_opt_cat c)
{
	return (unsigned)c < SB_CAT_N ? cat_names[c] : "?";
}

bool sb_option_fio_only(const char *name)
{
	for (unsigned i = 0; sb_fio_only_names[i]; i++)
		if (!strcasecmp(sb_fio_only_names[i], name))
			return true;
	return false;
}

const char *sb_opt_type_name(enum sb_opt_type t)
{
	static const char *const names[] = {
		[SB_OT_STR] = "string", [SB_OT_NAME] = "string", [SB_OT_ENGINE] = "engine",
		[SB_OT_SIZE] = "size", [SB_OT_SIZE_RANGE] = "size range",
		[SB_OT_SIZE_SPLIT] = "size split", [SB_OT_INT_SPLIT] = "int split",
		[SB_OT_RANGE_SPLIT] = "range split", [SB_OT_BSSPLIT] = "bssplit",
		[SB_OT_TIME] = "time", [SB_OT_UINT] = "int", [SB_OT_INT] = "int", [SB_OT_U64] = "int",
		[SB_OT_BOOL] = "bool", [SB_OT_ENUM] = "enum", [SB_OT_PCTL_LIST] = "float list",
		[SB_OT_DIST] = "distribution", [SB_OT_FLOAT] = "float",
	};
	return names[t];
}
