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
#define SB_PARSE_ENGINES_MAX 16
static struct sb_parse_engine engines[SB_PARSE_ENGINES_MAX];
static size_t engine_base[SB_PARSE_ENGINES_MAX];
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
		base = (base + 7) & ~(size_t)7;
		engines[i] = e[i];
		engine_base[i] = base;
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
	unsigned first = 0;
	for (unsigned k = 0; k < nengines && &engines[k] != e; k++)
		first += engines[k].noptions;
	return e && i < e->noptions ? &erows[first + i] : NULL;
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
	unsigned first = 0;
	for (unsigned i = 0; i < nengines; i++) {
		if (!strcmp(engines[i].name, s->ioengine))
			return o >= erows + first && o < erows + first + engines[i].noptions;
		first += engines[i].noptions;
	}
	return false;
}

const struct sb_option *sb_parse_engine_rows(unsigned *n, unsigned *at)
{
	*n = nerows;
	*at = erows_at;
	return erows;
}
