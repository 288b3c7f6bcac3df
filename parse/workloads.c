/* workloads.c: the workloads handed to the parser (see workloads.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "lib/assert.h"
#include "parse/jobspec.h"
#include "parse/workloads.h"

static struct sb_parse_workload wls[SB_PARSE_WORKLOADS_MAX];
static size_t wl_base[SB_PARSE_WORKLOADS_MAX];
static unsigned nwls;
/* the rows of workloads with an options struct, offsets moved into the spec */
static struct sb_option orows[SB_WL_ROWS_MAX];

struct sb_opt_enum sb_parse_workload_vals[SB_PARSE_WORKLOADS_MAX + 2] = {
	{ .name = "io", .val = SB_WL_IO, .help = "fio-style I/O jobs (rw=, bs=, size=...)" },
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
		if (!w[i].name || w[i].id == SB_WL_IO || (w[i].nrows && !w[i].rows))
			return -EINVAL;
		for (unsigned k = 0; k < i; k++)
			if (w[k].id == w[i].id || !strcmp(w[k].name, w[i].name))
				return -EINVAL;
		if (!strcmp(w[i].name, "io"))
			return -EINVAL;
		if (!w[i].opts_size)
			continue;
		base = (base + 7) & ~(size_t)7;
		if (base + w[i].opts_size > SB_WL_OPTS_MAX || rows + w[i].nrows > SB_WL_ROWS_MAX)
			return -EINVAL;
		for (unsigned k = 0; k < w[i].nrows; k++)
			if (!sb_opt_module_type_ok(w[i].rows[k].type) ||
			    w[i].rows[k].off + sb_opt_value_size(w[i].rows[k].type) > w[i].opts_size ||
			    (w[i].rows[k].flags & SB_OF_INVERSE))
				return -EINVAL;
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
		sb_parse_workload_vals[1 + i] = (struct sb_opt_enum){ .name = w[i].name, .val = w[i].id,
								      .help = w[i].help };
		if (!w[i].opts_size)
			continue;
		base = (base + 7) & ~(size_t)7;
		wl_base[i] = base;
		for (unsigned k = 0; k < w[i].nrows; k++) {
			orows[rows + k] = w[i].rows[k];
			orows[rows + k].off = offsetof(struct sb_jobspec, wl_opts) + base + w[i].rows[k].off;
			/* the row lies in the spec's area (list_ok checked its struct) */
			SB_ASSERT(base + w[i].rows[k].off + sb_opt_value_size(w[i].rows[k].type) <=
				  SB_WL_OPTS_MAX);
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

const void *sb_spec_wl_opts(const struct sb_jobspec *s)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].id == s->workload)
			return wls[i].opts_size ? s->wl_opts + wl_base[i] : NULL;
	return NULL;
}

const struct sb_parse_workload *sb_parse_workload_of_row(const struct sb_option *o)
{
	for (unsigned i = 0; i < nwls; i++)
		if (wls[i].rows && o >= wls[i].rows && o < wls[i].rows + wls[i].nrows)
			return &wls[i];
	return NULL;
}
