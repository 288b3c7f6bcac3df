/* workload.c: the workload table main hands down (see workload.h).  The
 * rows live with their workloads (ml/registry.c lists them); run/ sees
 * only the table. */
#include <limits.h>
#include <stddef.h>

#include "lib/assert.h"
#include "run/workload.h"

static const struct sb_workload_ops *const none[] = { NULL };
static const struct sb_workload_ops *const *table = none;

void sb_workloads_set(const struct sb_workload_ops *const *t)
{
	table = t ? t : none;
	/* a row's id is its position (sb_workload_id): io first, each row once */
	SB_ASSERT(!table[0] || (table[0]->flags & SB_WL_THREADS));
	for (unsigned i = 0; table[i]; i++)
		for (unsigned k = 0; k < i; k++)
			SB_ASSERT(table[k] != table[i]);
}

const struct sb_workload_ops *const *sb_workloads_get(void)
{
	return table;
}

const struct sb_workload_ops *sb_workload_find(unsigned id)
{
	for (unsigned i = 0; table[i]; i++)
		if (i == id)
			return table[i];
	return NULL;
}

unsigned sb_workload_id(const struct sb_workload_ops *w)
{
	for (unsigned i = 0; table[i]; i++)
		if (table[i] == w)
			return i;
	return UINT_MAX;
}

const struct sb_workload_ops *sb_workload_of(const struct sb_jobspec *s)
{
	const struct sb_workload_ops *w = sb_workload_find(s->workload);
	return w ? w : table[0]; /* the io row */
}
