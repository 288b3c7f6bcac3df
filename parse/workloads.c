/* workloads.c: the workloads handed to the parser (see workloads.h). */
#include <errno.h>
#include <stddef.h>

#include "parse/jobspec.h"
#include "parse/workloads.h"

static struct sb_parse_workload wls[SB_PARSE_WORKLOADS_MAX];
static unsigned nwls;

struct sb_opt_enum sb_parse_workload_vals[SB_PARSE_WORKLOADS_MAX + 2] = {
	{ .name = "io", .val = SB_WL_IO, .help = "fio-style I/O jobs (rw=, bs=, size=...)" },
	{ .name = NULL },
};

int sb_parse_set_workloads(const struct sb_parse_workload *w, unsigned n)
{
	if (n > SB_PARSE_WORKLOADS_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		if (!w[i].name || w[i].id == SB_WL_IO || (w[i].nrows && !w[i].rows))
			return -EINVAL;
		for (unsigned k = 0; k < i; k++)
			if (w[k].id == w[i].id)
				return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		wls[i] = w[i];
		sb_parse_workload_vals[1 + i] = (struct sb_opt_enum){ .name = w[i].name, .val = w[i].id,
								      .help = w[i].help };
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
