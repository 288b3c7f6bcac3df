/* registry.c: the workload table (see registry.h): one row per workload. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "lib/assert.h"
#include "ml/registry.h"
#include "ml/checkpoint/ckpt.h"
#include "ml/kvcache/kvcache.h"
#include "ml/train/trainst.h"
#include "parse/workloads.h"

const struct sb_workload_ops *const sb_workload_table[] = {
	&sb_workload_io,
	&sb_workload_checkpoint,
	&sb_workload_train,
	&sb_workload_kvcache,
	NULL,
};

/* name is one of the comma list's */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p; p = strchr(p, ',')) {
		p += *p == ',';
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

int sb_workloads_hand_down(void)
{
	return sb_workloads_hand_down_only(NULL);
}

int sb_workloads_hand_down_only(const char *names)
{
	struct sb_parse_workload p[SB_PARSE_WORKLOADS_MAX];
	unsigned n = 0;
	sb_workloads_set(sb_workload_table);
	for (unsigned i = 0; sb_workload_table[i]; i++) {
		const struct sb_workload_ops *w = sb_workload_table[i];
		SB_ASSERT(w->id == i); /* ids are table indexes (run/workload.h) */
		if (w->id == SB_WL_IO || (names && !listed(names, w->name)))
			continue; /* parse's own; not asked for */
		if (n == SB_PARSE_WORKLOADS_MAX)
			return -EINVAL;
		p[n++] = (struct sb_parse_workload){ .id = w->id, .name = w->name, .help = w->help,
						     .rows = w->rows, .nrows = w->nrows ? *w->nrows : 0,
						     .opts_size = w->opts_size, .check = w->check };
	}
	return sb_parse_set_workloads(p, n);
}
