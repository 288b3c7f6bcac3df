/* engines.c: the engines the parser was handed (sb_parse_set_engines, from
 * run/engtable.c: parse/ calls no engine code) and their option rows, copied
 * with offsets into the spec's engine_opts area (each engine at its own
 * base), which join the option table through sb_parse_engine_rows. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse/options.h"

/* The engines handed in by sb_parse_set_engines, and a copy of their option
 * rows with offsets into the spec (engine_opts + the engine's base + the
 * row's offset), listed after the last table row of their category. */
#define SB_PARSE_ENGINES_MAX 32
static struct sb_parse_engine engines[SB_PARSE_ENGINES_MAX];
static size_t engine_base[SB_PARSE_ENGINES_MAX];
static unsigned engine_first[SB_PARSE_ENGINES_MAX]; /* its first row in erows */

/* an earlier engine of e[0..i) with the same rows (filestat and dirstat
 * share stat_type, as fio's): i shares its area and rows; n when none */
static unsigned shares_with(const struct sb_parse_engine *e, unsigned i)
{
	for (unsigned j = 0; e[i].options && j < i; j++)
		if (e[j].options == e[i].options && e[j].noptions == e[i].noptions)
			return j;
	return i;
}
static unsigned nengines;
static struct sb_option erows[SB_OPT_MAX];
static unsigned nerows, erows_at = SB_OPT_MAX;  /* at: after every table row while none */

int sb_parse_set_engines(const struct sb_parse_engine *e, unsigned n)
{
	size_t base = 0;
	unsigned rows = 0, ntable = sb_options_count() - nerows;
	if (n > SB_PARSE_ENGINES_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		if (e[i].noptions && (!e[i].options || !e[i].opts_size))
			return -EINVAL;
		if (shares_with(e, i) != i)
			continue;
		base = (base + 7) & ~(size_t)7;
		if (base + e[i].opts_size > SB_ENGINE_OPTS_MAX ||
		    ntable + rows + e[i].noptions > SB_OPT_MAX)
			return -EINVAL;
		for (unsigned k = 0; k < e[i].noptions; k++) {
			const struct sb_option *o = &e[i].options[k];
			if (!sb_opt_module_type_ok(o->type) || o->off + sb_opt_value_size(o->type) > e[i].opts_size ||
			    o->flags)
				return -EINVAL;
		}
		base += e[i].opts_size;
		rows += e[i].noptions;
	}
	nengines = nerows = 0;  /* from here sb_option_at(i) is the table's row i */
	erows_at = SB_OPT_MAX;
	base = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned j = shares_with(e, i);
		engines[i] = e[i];
		if (j != i) {
			engine_base[i] = engine_base[j];
			engine_first[i] = engine_first[j];
			continue;
		}
		base = (base + 7) & ~(size_t)7;
		engine_base[i] = base;
		engine_first[i] = nerows;
		for (unsigned k = 0; k < e[i].noptions; k++) {
			erows[nerows] = e[i].options[k];
			erows[nerows].off = offsetof(struct sb_jobspec, engine_opts) + base + e[i].options[k].off;
			nerows++;
		}
		base += e[i].opts_size;
	}
	nengines = n;
	/* after the last table row of the engine rows' category (SB_CAT_ENG) */
	unsigned at = ntable;
	for (unsigned i = 0; nerows && i < ntable; i++)
		if (sb_option_at(i)->category == erows[0].category)
			at = i + 1;
	erows_at = at;
	return 0;
}

const struct sb_parse_engine *sb_parse_engine_at(unsigned i)
{
	return i < nengines ? &engines[i] : NULL;
}

const struct sb_parse_engine *sb_parse_engine_find(const char *name)
{
	for (unsigned i = 0; i < nengines; i++)
		if (!strcmp(engines[i].name, name))
			return &engines[i];
	return NULL;
}

void sb_parse_engine_names(char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < nengines && used < len; i++) {
		if (engines[i].package)
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", engines[i].name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

const struct sb_option *sb_engine_option_row(const struct sb_parse_engine *e, unsigned i)
{
	unsigned k = e ? (unsigned)(e - engines) : 0;
	return e && k < nengines && i < e->noptions ? &erows[engine_first[k] + i] : NULL;
}

const void *sb_spec_engine_opts(const struct sb_jobspec *s)
{
	for (unsigned i = 0; i < nengines; i++)
		if (!strcmp(engines[i].name, s->ioengine))
			return engines[i].opts_size ? s->engine_opts + engine_base[i] : NULL;
	return NULL;
}

bool sb_spec_engine_owns(const struct sb_jobspec *s, const struct sb_option *o)
{
	for (unsigned i = 0; i < nengines; i++)
		if (!strcmp(engines[i].name, s->ioengine))
			return o >= erows + engine_first[i] && o < erows + engine_first[i] + engines[i].noptions;
	return false;
}

const struct sb_option *sb_parse_engine_rows(unsigned *n, unsigned *at)
{
	*n = nerows;
	*at = erows_at;
	return erows;
}
