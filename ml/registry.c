/* registry.c: the workload table (see registry.h): one row per workload. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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

struct sb_parse_workload sb_workload_parse_view(const struct sb_workload_ops *w, unsigned id)
{
	return (struct sb_parse_workload){ .id = id, .name = w->name, .help = w->help,
					   .rows = w->rows, .nrows = w->nrows ? *w->nrows : 0,
					   .opts_size = w->opts_size, .category = w->category,
					   .also = w->also, .flags = w->parse_flags,
					   .check = w->check, .writes = w->writes, .gpu_mem = w->gpu_mem };
}

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
	if (!(sb_workload_table[0]->flags & SB_WL_THREADS))
		return -EINVAL; /* id 0 is io, parse's own */
	sb_workloads_set(sb_workload_table);
	for (unsigned i = 1; sb_workload_table[i]; i++) {
		const struct sb_workload_ops *w = sb_workload_table[i];
		if (names && !listed(names, w->name))
			continue; /* not asked for */
		if (n == SB_PARSE_WORKLOADS_MAX)
			return -EINVAL;
		p[n++] = sb_workload_parse_view(w, i);
	}
	return sb_parse_set_workloads(p, n);
}
