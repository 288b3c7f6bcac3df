/* workload.c: the workload table main hands down (see workload.h).  The
 * rows live with their workloads (ml/registry.c lists them); run/ sees
 * only the table. */
#include <stddef.h>

#include "lib/assert.h"
#include "run/workload.h"

static const struct sb_workload_ops *const none[] = { NULL };
static const struct sb_workload_ops *const *table = none;

void sb_workloads_set(const struct sb_workload_ops *const *t)
{
	table = t ? t : none;
	for (unsigned i = 0; table[i]; i++)
		SB_ASSERT(table[i]->id == i); /* sb_workload_find and the parser's ids rely on it */
}

const struct sb_workload_ops *const *sb_workloads_get(void)
{
	return table;
}

const struct sb_workload_ops *sb_workload_find(unsigned id)
{
	for (unsigned i = 0; table[i]; i++)
		if (table[i]->id == id)
			return table[i];
	return NULL;
}

const struct sb_workload_ops *sb_workload_of(const struct sb_jobspec *s)
{
	const struct sb_workload_ops *w = sb_workload_find(s->workload);
	return w ? w : table[0]; /* the io row */
}
