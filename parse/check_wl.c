/* check_wl.c: the workload checks parse/ does itself (see jobparse.h):
 * options of one workload given to a job of another, and the helpers the
 * workloads' own checks share; then the job's workload check as handed in
 * (parse/workloads.h: ml/<workload>/check.c).  Every error names file:line, the
 * value and the fix. */
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/workloads.h"

static const char *wl_name(unsigned wl)
{
	const char *name = sb_option_enum_name(SB_OPT(workload), wl);
	return name ? name : "?";
}

/* " or B or C": the workloads other than own that take o too */
static void also_takers(const struct sb_option *o, const struct sb_parse_workload *own, char *buf,
			size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; sb_parse_workload_at(i); i++) {
		const struct sb_parse_workload *w = sb_parse_workload_at(i);
		if (w == own || !sb_parse_workload_takes(w, o))
			continue;
		int k = snprintf(buf + n, len - n, " or %s", w->name);
		n += k > 0 && (size_t)k < len - n ? (size_t)k : 0;
	}
}

/* options of one workload given to a job of another (the rows' owner and
 * what each workload takes too: parse/workloads.h) */
static unsigned check_misplaced(const struct sb_jobctx *c)
{
	const struct sb_parse_workload *mine = sb_spec_workload(&c->spec);
	unsigned nerr = 0;
	char where[SB_WHERE_MAX], others[96];
	for (unsigned i = 0; i < sb_options_count(); i++) {
		if (!c->src[i].file) /* only what the job file sets */
			continue;
		const struct sb_option *o = sb_option_at(i);
		const struct sb_parse_workload *need = sb_parse_workload_owner(o);
		if (!need || sb_parse_workload_takes(mine, o))
			continue;
		also_takers(o, need, others, sizeof(others));
		sb_err(sb_ini_where(where, sizeof(where), c->src[i].file, c->src[i].line),
		       "%s=%s applies to workload=%s%s, but job '%s' has workload=%s: add workload=%s "
		       "to the job or remove %s=", o->name, c->src[i].raw, need->name, others,
		       c->spec.name, wl_name(c->spec.workload), need->name, o->name);
		nerr++;
	}
	return nerr;
}

/* "unknown X 'v': expected a, b or c (did you mean 'b'?)" */
void sb_job_unknown_name(const struct sb_jobctx *c, const struct sb_option *opt, const char *val,
			 const char *what, const char *const *names)
{
	char where[SB_WHERE_MAX], list[256] = "", hint[96] = "";
	size_t n = 0;
	unsigned best = 4;
	for (unsigned i = 0; names[i]; i++) {
		int w = snprintf(list + n, sizeof(list) - n, "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				 names[i]);
		n += w > 0 && (size_t)w < sizeof(list) - n ? (size_t)w : 0;
		unsigned d = sb_option_distance(val, names[i]);
		if (d < best) {
			best = d;
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", names[i]);
		}
	}
	sb_err(sb_job_where(c, opt, where, sizeof(where)), "%s=%s: unknown %s; expected %s%s", opt->name,
	       val, what, list, hint);
}

void sb_job_default_u(const struct sb_jobctx *c, const struct sb_option *o, unsigned *field,
			unsigned v)
{
	if (!sb_job_isset(c, o))
		*field = v;
}

unsigned sb_job_validate_wl(struct sb_jobctx *c)
{
	c->spec.ml_preset = NULL;
	unsigned nerr = check_misplaced(c);
	if (nerr)
		return nerr;
	const struct sb_parse_workload *w = sb_parse_workload_find(c->spec.workload);
	return w && w->check ? w->check(c) : 0;
}
