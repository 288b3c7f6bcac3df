/* workload.c: the table of workloads (see workload.h).  Adding a workload is
 * one file with its row and one line here. */
#include <stddef.h>

#include "run/workload.h"

/* the rows, one per workload file */
extern const struct sb_workload_ops sb_workload_io;         /* run/precheck.c */
extern const struct sb_workload_ops sb_workload_checkpoint; /* ml/checkpoint.c */
extern const struct sb_workload_ops sb_workload_train;      /* ml/trainrun.c */
extern const struct sb_workload_ops sb_workload_kvcache;    /* ml/kvcache.c */

const struct sb_workload_ops *const sb_workloads[] = {
	&sb_workload_io,
	&sb_workload_checkpoint,
	&sb_workload_train,
	&sb_workload_kvcache,
	NULL,
};

const struct sb_workload_ops *sb_workload_find(unsigned id)
{
	for (unsigned i = 0; sb_workloads[i]; i++)
		if (sb_workloads[i]->id == id)
			return sb_workloads[i];
	return NULL;
}

const struct sb_workload_ops *sb_workload_of(const struct sb_jobspec *s)
{
	const struct sb_workload_ops *w = sb_workload_find(s->workload);
	return w ? w : &sb_workload_io;
}
