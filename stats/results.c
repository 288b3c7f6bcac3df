/* results.c: releasing the results model.  The jobs, groups and disks arrays
 * belong to it; the job list (and the job specs it points into) does not. */
#include <stdlib.h>

#include "stats/results.h"

void sb_results_free(struct sb_results *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->groups);
	free(r->disks);
	r->jobs = NULL;
	r->groups = NULL;
	r->disks = NULL;
	r->njobs = r->ngroups = r->ndisks = 0;
}
