/* workloads.c: the workloads handed to the parser (see workloads.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "lib/assert.h"
#include "parse/jobspec.h"
#include "parse/workloads.h"

static struct sb_parse_workload wls[SB_PARSE_WORKLOADS_MAX];
static size_t wl_base[SB_PARSE_WORKLOADS_MAX];
static const struct sb_option *wl_rows_in[SB_PARSE_WORKLOADS_MAX]; /* the rows as handed in */
static unsigned nwls;
/* the rows of workloads with an options struct, offsets moved into the spec */
#define WL_ROWS_MAX 256
static struct sb_option orows[WL_ROWS_MAX];

struct sb_opt_enum sb_parse_workload_vals[SB_PARSE_WORKLOADS_MAX + 2] = {
	{ .name = "io", .val = 0, .help = "fio-style I/O jobs (rw=, bs=, size=...)" },
	{ .name = NULL },
};

/* w is a list the parser can take: ids, names, options structs and rows */
static int list_ok(const struct sb_parse_workload *w, unsigned n)
{
	size_t base = 0;
	unsigned rows = 0;
	if (n > SB_PARSE_WORKLOADS_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		if (!w[i].name || !w[i].id || (w[i].nrows && !w[i].rows))
			return -EINVAL;
		for (unsigned k = 0; k < i; k++)
			if (w[k].id == w[i].id || !strcmp(w[k].name, w[i].name))
				return -EINVAL;
		if (!strcmp(w[i].name, "io"))
			return -EINVAL;
		if (!w[i].opts_size)
			continue;
		base = (base + 7) & ~(size_t)7;
		if (base + w[i].opts_size > SB_SPEC_WLOPTS_MAX || rows + w[i].nrows > WL_ROWS_MAX)
			return -EINVAL;
		for (unsigned k = 0; k < w[i].nrows; k++) {
			const struct sb_option *o = &w[i].rows[k];
			if (o->flags & SB_OF_SPEC) { /* the spec's field: a parse row like any other */
				if (o->off >= sizeof(struct sb_jobspec))
					return -EINVAL;
				continue;
			}
			if (!sb_opt_wl_type_ok(o->type) || o->off + sb_opt_value_size(o->type) > w[i].opts_size ||
			    o->off >= w[i].opts_size ||
			    (sb_opt_uses_off2(o) && o->off2 >= w[i].opts_size) || (o->flags & SB_OF_INVERSE))
				return -EINVAL;
		}
		base += w[i].opts_size;
		rows += w[i].nrows;
	}
	return 0;
}

int sb_parse_set_workloads(const struct sb_parse_workload *w, unsigned n)
{
	int e = list_ok(w, n);
	if (e)
		return e;
	size_t base = 0;
	unsigned rows = 0;
	for (unsigned i = 0; i < n; i++) {
		wls[i] = w[i];
		wl_rows_in[i] = w[i].rows;
		sb_parse_workload_vals[1 + i] = (struct sb_opt_enum){ .name = w[i].name, .val = w[i].id,
								      .help = w[i].help };
		if (!w[i].opts_size)
			continue;
		base = (base + 7) & ~(size_t)7;
		wl_base[i] = base;
		for (unsigned k = 0; k < w[i].nrows; k++) {
			orows[rows + k] = w[i].rows[k];
			if (w[i].rows[k].flags & SB_OF_SPEC)
				continue;
			size_t area = offsetof(struct sb_jobspec, wl_opts) + base;
			orows[rows + k].off = area + w[i].rows[k].off;
			orows[rows + k].flags |= SB_OF_ML; /* a workload's own: I/O comparisons ignore it */
			/* the row lies in the spec's area (list_ok checked its struct) */
			SB_ASSERT(base + w[i].rows[k].off + sb_opt_value_size(w[i].rows[k].type) <=
				  SB_SPEC_WLOPTS_MAX);
			if (sb_opt_uses_off2(&w[i].rows[k]))
				orows[rows + k].off2 = area + w[i].rows[k].off2;
		}
		wls[i].rows = orows + rows;
		rows += w[i].nrows;
		base += w[i].opts_size;
	}
	sb_parse_workload_vals[1 + n] = (struct sb_opt_enum){ .name = NULL };
	nwls = n;
	return 0;
}

const struct sb_parse_workload *sb_parse_workload_find(unsigned id)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].id == id)
			return &wls[i];
	return NULL;
}

const struct sb_parse_workload *sb_parse_workload_at(unsigned i)
{
	return i < nwls ? &wls[i] : NULL;
}

/* the byte offset of workload id's struct in wl_opts, or -1 when it has none */
static long area_of(unsigned id)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].id == id)
			return wls[i].opts_size ? (long)wl_base[i] : -1;
	return -1;
}

const void *sb_spec_wl_opts(const struct sb_jobspec *s)
{
	long a = area_of(s->workload);
	return a < 0 ? NULL : s->wl_opts + a;
}

const struct sb_parse_workload *sb_parse_workload_of_row(const struct sb_option *o)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].rows && o >= wls[i].rows && o < wls[i].rows + wls[i].nrows)
			return &wls[i];
	return NULL;
}

const struct sb_parse_workload *sb_spec_workload(const struct sb_jobspec *s)
{
	return sb_parse_workload_find(s->workload);
}

bool sb_spec_wl_flag(const struct sb_jobspec *s, unsigned flag)
{
	const struct sb_parse_workload *w = sb_spec_workload(s);
	return w && (w->flags & flag);
}

static bool listed(const struct sb_parse_workload *w, const struct sb_option *o)
{
	for (const char *const *n = w->also; n && *n; n++)
		if (!strcmp(*n, o->name))
			return true;
	return false;
}

const struct sb_parse_workload *sb_parse_workload_owner(const struct sb_option *o)
{
	const struct sb_parse_workload *w = sb_parse_workload_of_row(o);
	if (w && w->opts_size && !(o->flags & SB_OF_SPEC)) /* a field of its own struct */
		return w;
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].category && wls[i].category == o->category)
			return &wls[i];
	for (unsigned i = 0; i < nwls; i++)
		if (listed(&wls[i], o))
			return &wls[i];
	return NULL;
}

bool sb_parse_workload_takes(const struct sb_parse_workload *w, const struct sb_option *o)
{
	const struct sb_parse_workload *own = sb_parse_workload_owner(o);
	return !own || own == w || (w && listed(w, o));
}

/* the byte offset of the struct of the spec's workload when rows are its
 * rows as handed in, else -1 */
static long own_area(const struct sb_jobspec *s, const struct sb_option *rows)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].id == s->workload)
			return rows && wl_rows_in[i] == rows && wls[i].opts_size ? (long)wl_base[i] : -1;
	return -1;
}

const void *sb_spec_wl_opts_own(const struct sb_jobspec *s, const struct sb_option *rows)
{
	long a = own_area(s, rows);
	return a < 0 ? NULL : s->wl_opts + a;
}

void *sb_spec_wl_opts_own_mut(struct sb_jobspec *s, const struct sb_option *rows)
{
	long a = own_area(s, rows);
	return a < 0 ? NULL : s->wl_opts + a;
}

const struct sb_option *sb_parse_wl_row(const struct sb_option *rows, size_t off)
{
	for (unsigned i = 0; i < nwls; i++) {
		if (!rows || wl_rows_in[i] != rows)
			continue;
		for (unsigned k = 0; k < wls[i].nrows; k++)
			if (!(rows[k].flags & SB_OF_SPEC) && rows[k].off == off)
				return &wls[i].rows[k];
		return NULL;
	}
	return NULL;
}
