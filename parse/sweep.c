/* sweep.c: sweep.* keys in job files -> points (see sweep.h).  The lists are
 * taken out of the pre-passed sections; every point is then written back
 * into those sections as plain "option = value" lines (at the sweep line's
 * file:line) and converted by the ordinary job conversion, so a point is
 * validated, defaulted and echoed exactly like a hand-written job file. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/stop.h"
#include "lib/log.h"
#include "parse/ini.h"
#include "parse/jobparse.h"
#include "parse/parse.h"
#include "parse/sweep.h"
#include "parse/value.h"

#define PREFIX_LEN (sizeof(SB_SWEEP_PREFIX) - 1)

void sb_sweep_free(struct sb_sweep *sw)
{
	if (!sw)
		return;
	for (size_t p = 0; sw->points && p < sw->npoints; p++) {
		struct sb_sweep_point *pt = &sw->points[p];
		for (unsigned d = 0; pt->values && d < sw->ndims; d++)
			free(pt->values[d]);
		free(pt->values);
		sb_joblist_free(&pt->jl);
	}
	for (unsigned d = 0; d < sw->ndims; d++) {
		for (unsigned v = 0; v < sw->dims[d].nvalues; v++)
			free(sw->dims[d].values[v]);
		free(sw->dims[d].values);
		free(sw->dims[d].name);
	}
	free(sw->points);
	free(sw->dims);
	free(sw);
}

char *sb_sweep_point_str(const struct sb_sweep *sw, size_t p, const char *sep, char *buf,
			 size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned d = 0; d < sw->ndims && o < len; d++) {
		const char *v = sw->points[p].values ? sw->points[p].values[d] : NULL;
		int n = snprintf(buf + o, len - o, "%s%s=%s", d ? sep : "", sw->dims[d].name,
				 v ? v : "?");
		if (n < 0)
			break;
		o += (size_t)n;
	}
	return buf;
}

void sb_sweep_print(FILE *f, const struct sb_sweep *sw)
{
	char buf[1024];
	fprintf(f, "\nsweep: %zu point%s =", sw->npoints, sw->npoints == 1 ? "" : "s");
	for (unsigned d = 0; d < sw->ndims; d++)
		fprintf(f, "%s %s (%u)", d ? " x" : "", sw->dims[d].name, sw->dims[d].nvalues);
	fputs("; the jobs above are point 1's\n", f);
	for (size_t p = 0; p < sw->npoints; p++) {
		const struct sb_joblist *pjl = sw->points ? &sw->points[p].jl : NULL;
		const char *skip = NULL;
		for (size_t j = 0; pjl && j < pjl->njobs && !skip; j++)
			skip = pjl->jobs[j].gpu_skip[0] ? pjl->jobs[j].gpu_skip : NULL;
		fprintf(f, "  point %zu: %s%s%s%s\n", p + 1,
			sb_sweep_point_str(sw, p, " ", buf, sizeof(buf)),
			skip ? "  (skipped here: " : "", skip ? skip : "", skip ? ")" : "");
	}
}

static char *trimmed_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* "a | b | c" -> d->values; returns the error count (reported) */
static unsigned split_values(struct sb_sweep_dim *d, const char *text, const char *where)
{
	unsigned n = 1;
	for (const char *p = text; *p; p++)
		n += *p == '|';
	if (!(d->values = calloc(n, sizeof(*d->values)))) {
		sb_err(where, "out of memory");
		return 1;
	}
	const char *p = text;
	for (unsigned i = 0; i < n; i++) {
		const char *bar = strchr(p, '|');
		char *v = trimmed_dup(p, bar ? (size_t)(bar - p) : strlen(p));
		if (!v) {
			sb_err(where, "out of memory");
			return 1;
		}
		d->values[d->nvalues++] = v;
		if (!*v) {
			sb_err(where, "sweep.%s = %s: value %u of the list is empty; write the values as "
			       "'A | B | C'", d->name, text, i + 1);
			return 1;
		}
		p = bar ? bar + 1 : p;
	}
	return 0;
}

static int find_dim(const struct sb_sweep *sw, const struct sb_option *o)
{
	for (unsigned d = 0; d < sw->ndims; d++)
		if (sw->dims[d].opt == o)
			return (int)d;
	return -1;
}

/* one sweep.* key; returns the error count (reported) */
static unsigned add_dim(struct sb_sweep *sw, const struct sb_ini *ini, unsigned sec,
			const struct sb_ini_kv *kv)
{
	char where[SB_WHERE_MAX];
	const char *name = kv->key + PREFIX_LEN;
	const struct sb_option *o = sb_option_find(name);
	sb_ini_where(where, sizeof(where), kv->file, kv->line);
	if (!o) {
		const char *s = *name ? sb_option_suggest(name) : NULL;
		if (s)
			sb_err(where, "%s: unknown option '%s' (did you mean 'sweep.%s'?)", kv->key, name,
			       s);
		else
			sb_err(where, "%s: unknown option '%s': sweep.OPTION takes any job option "
			       "(storbench --cmdhelp lists them)", kv->key, name);
		return 1;
	}
	if (kv->bare || !*kv->value) {
		sb_err(where, "%s needs a list of values: %s = A | B | C", kv->key, kv->key);
		return 1;
	}
	int prev = find_dim(sw, o);
	if (prev >= 0) {
		sb_err(where, "%s: '%s' is already swept at %s:%u; sweep an option in one place "
		       "(a [global] sweep applies to every job after it)", kv->key, o->name,
		       sw->dims[prev].file, sw->dims[prev].line);
		return 1;
	}
	struct sb_sweep_dim *nd = realloc(sw->dims, (sw->ndims + 1) * sizeof(*nd));
	if (!nd) {
		sb_err(where, "out of memory");
		return 1;
	}
	sw->dims = nd;
	struct sb_sweep_dim *d = &nd[sw->ndims++];
	memset(d, 0, sizeof(*d));
	d->opt = o;
	d->file = kv->file;
	d->line = kv->line;
	d->section = sec;
	d->global = ini->sec[sec].global;
	if (!(d->name = strdup(name))) {
		sb_err(where, "out of memory");
		return 1;
	}
	return split_values(d, kv->value, where);
}

/* take the sweep.* keys out of every section */
static unsigned extract(struct sb_sweep *sw, struct sb_ini *ini)
{
	unsigned nerr = 0;
	for (unsigned s = 0; s < ini->nsec; s++) {
		struct sb_ini_section *sec = &ini->sec[s];
		unsigned k = 0;
		while (k < sec->nkv) {
			struct sb_ini_kv *kv = &sec->kv[k];
			if (strncasecmp(kv->key, SB_SWEEP_PREFIX, PREFIX_LEN)) {
				k++;
				continue;
			}
			nerr += add_dim(sw, ini, s, kv);
			free(kv->key);
			free(kv->value);
			memmove(kv, kv + 1, (sec->nkv - k - 1) * sizeof(*kv));
			sec->nkv--;
		}
	}
	return nerr;
}

/* a swept option also set plainly in the same section: which one counts? */
static unsigned check_conflicts(const struct sb_sweep *sw, const struct sb_ini *ini)
{
	char where[SB_WHERE_MAX];
	unsigned nerr = 0;
	for (unsigned d = 0; d < sw->ndims; d++) {
		const struct sb_sweep_dim *dim = &sw->dims[d];
		const struct sb_ini_section *sec = &ini->sec[dim->section];
		for (unsigned k = 0; k < sec->nkv; k++) {
			if (sb_option_find(sec->kv[k].key) != dim->opt)
				continue;
			sb_err(sb_ini_where(where, sizeof(where), dim->file, dim->line),
			       "sweep.%s: '%s' is also set at %s:%u in the same section; keep one of them",
			       dim->name, sec->kv[k].key, sec->kv[k].file, sec->kv[k].line);
			nerr++;
		}
	}
	return nerr;
}

/* every value through the option table, each reported once */
static unsigned check_values(const struct sb_sweep *sw)
{
	char where[SB_WHERE_MAX], err[SB_VERR_LEN];
	unsigned nerr = 0;
	struct sb_jobspec *spec = calloc(1, sizeof(*spec));
	if (!spec || sb_spec_defaults(spec)) {
		free(spec);
		sb_err("sweep", "out of memory");
		return 1;
	}
	for (unsigned d = 0; d < sw->ndims; d++) {
		const struct sb_sweep_dim *dim = &sw->dims[d];
		sb_ini_where(where, sizeof(where), dim->file, dim->line);
		for (unsigned i = 0; i < dim->nvalues; i++) {
			const char *v = dim->values[i];
			if (v[0] == '@') {
				const struct sb_option *r = sb_option_find(v + 1);
				const char *s = r ? NULL : sb_option_suggest(v + 1);
				if (!r && s)
					sb_err(where, "sweep.%s: '%s' refers to no option (did you mean '@%s'?)",
					       dim->name, v, s);
				else if (!r)
					sb_err(where, "sweep.%s: '%s' refers to no option: @OPTION takes "
					       "the value of OPTION in the same point", dim->name, v);
				else if (r == dim->opt)
					sb_err(where, "sweep.%s: '%s' refers to itself", dim->name, v);
				nerr += !r || r == dim->opt;
				continue;
			}
			if (sb_option_set(dim->opt, spec, v, false, err)) {
				sb_err(where, "sweep.%s: value '%s' (%u of %u): %s", dim->name, v, i + 1,
				       dim->nvalues, err);
				nerr++;
			}
		}
	}
	sb_spec_release(spec);
	free(spec);
	return nerr;
}

/* the value of option o as section sec sees it: set there or in an earlier
 * [global]; NULL if not set */
static const char *section_value(const struct sb_ini *ini, unsigned sec, const struct sb_option *o)
{
	for (unsigned s = sec + 1; s-- > 0;) {
		if (s != sec && !ini->sec[s].global)
			continue;
		for (unsigned k = 0; k < ini->sec[s].nkv; k++)
			if (sb_option_find(ini->sec[s].kv[k].key) == o)
				return ini->sec[s].kv[k].bare ? "1" : ini->sec[s].kv[k].value;
	}
	return NULL;
}

/* dimension d's value in the point whose list positions are idx, "@opt"
 * resolved: opt's swept value if it is swept where d applies, else its value
 * in d's section (or an earlier [global]), else its default */
static const char *resolve(const struct sb_sweep *sw, const struct sb_ini *ini,
			   const size_t *idx, unsigned d, unsigned depth)
{
	const struct sb_sweep_dim *dim = &sw->dims[d];
	const char *v = dim->values[idx[d]];
	char where[SB_WHERE_MAX];
	if (v[0] != '@')
		return v;
	sb_ini_where(where, sizeof(where), dim->file, dim->line);
	if (depth > sw->ndims) {
		sb_err(where, "sweep.%s: '%s' is part of a circle of @ references", dim->name, v);
		return NULL;
	}
	const struct sb_option *o = sb_option_find(v + 1);
	int e = find_dim(sw, o);
	if (e >= 0 && (sw->dims[e].section == dim->section ||
		       (sw->dims[e].global && sw->dims[e].section < dim->section)))
		return resolve(sw, ini, idx, (unsigned)e, depth + 1);
	const char *sv = section_value(ini, dim->section, o);
	if (sv)
		return sv;
	if (o->def)
		return o->def;
	sb_err(where, "sweep.%s: '%s' has no value here: set %s= or sweep it", dim->name, v, o->name);
	return NULL;
}

/* write point p's values into the sections (and into values[] if given) */
static unsigned apply_point(const struct sb_sweep *sw, struct sb_ini *ini, size_t p, char **values)
{
	size_t idx[64], rem = p;
	for (unsigned d = sw->ndims; d-- > 0;) {
		idx[d] = rem % sw->dims[d].nvalues;
		rem /= sw->dims[d].nvalues;
	}
	for (unsigned d = 0; d < sw->ndims; d++) {
		const struct sb_sweep_dim *dim = &sw->dims[d];
		const char *v = resolve(sw, ini, idx, d, 0);
		if (!v)
			return 1;
		if (values && !(values[d] = strdup(v)))
			return 1;
		if (sb_ini_set(&ini->sec[dim->section], dim->name, v, dim->file, dim->line)) {
			sb_err(dim->file, "out of memory");
			return 1;
		}
	}
	return 0;
}

/* the number of points; too many: reported at the sweep.* line that overflows */
static unsigned count_points(struct sb_sweep *sw)
{
	size_t n = 1;
	char where[SB_WHERE_MAX];
	if (sw->ndims > 64) {
		const struct sb_sweep_dim *d = &sw->dims[64];
		sb_err(sb_ini_where(where, sizeof(where), d->file, d->line), "sweep.%s: %u options "
		       "are swept: at most 64; remove sweep.* lines", d->name, sw->ndims);
		return 1;
	}
	for (unsigned d = 0; d < sw->ndims; d++) {
		n *= sw->dims[d].nvalues;
		if (n > SB_SWEEP_MAX_POINTS) {
			const struct sb_sweep_dim *dim = &sw->dims[d];
			sb_err(sb_ini_where(where, sizeof(where), dim->file, dim->line),
			       "sweep.%s (%u values): the sweep has more than %d points: shorten the "
			       "sweep.* lists or split the job file", dim->name, dim->nvalues,
			       SB_SWEEP_MAX_POINTS);
			return 1;
		}
	}
	sw->npoints = n;
	return 0;
}

unsigned sb_sweep_begin(const struct sb_joblist *jl, struct sb_ini *ini, struct sb_sweep **out,
			const char *what)
{
	struct sb_sweep *sw = calloc(1, sizeof(*sw));
	*out = NULL;
	if (!sw) {
		sb_err(what, "out of memory");
		return 1;
	}
	unsigned nerr = extract(sw, ini);
	if (!sw->ndims && !nerr && !jl->sweep) {
		sb_sweep_free(sw);
		return 0;
	}
	if (jl->sweep || jl->njobs) {
		sb_err(what, "a job file with sweep.* options must be the only job file: run it alone");
		nerr++;
	}
	nerr += check_conflicts(sw, ini);
	nerr += check_values(sw);
	if (!nerr)
		nerr += count_points(sw);
	if (!nerr && sw->ndims)
		nerr += apply_point(sw, ini, 0, NULL);
	*out = sw;
	return nerr;
}

unsigned sb_sweep_expand(struct sb_joblist *jl, struct sb_ini *ini, struct sb_sweep *sw,
			 bool failed, const char *what)
{
	char buf[1024];
	unsigned nerr = 0;
	if (failed || !sw->ndims) {
		sb_sweep_free(sw);
		return 0;
	}
	if (!(sw->points = calloc(sw->npoints, sizeof(*sw->points)))) {
		sb_err(what, "out of memory");
		sb_sweep_free(sw);
		return 1;
	}
	for (size_t p = 0; p < sw->npoints && !nerr; p++) {
		struct sb_sweep_point *pt = &sw->points[p];
		if (sb_stopping()) { /* SIGINT/SIGTERM: main says so and exits 130 */
			nerr++;
			break;
		}
		if (!(pt->values = calloc(sw->ndims, sizeof(*pt->values))) ||
		    apply_point(sw, ini, p, pt->values)) {
			nerr++;
			break;
		}
		nerr += sb_job_convert(&pt->jl, ini, what);
		if (!nerr && sb_joblist_finish(&pt->jl))
			nerr++;
		if (nerr)
			sb_err(what, "(in sweep point %zu of %zu: %s)", p + 1, sw->npoints,
			       sb_sweep_point_str(sw, p, ", ", buf, sizeof(buf)));
	}
	if (nerr) {
		sb_sweep_free(sw);
		return nerr;
	}
	jl->sweep = sw;
	return 0;
}
