/* mixed.c: the writers' view of unified_rw_reporting: a job's merged
 * "mixed" direction with its group's (stats/mixed.h), as a one-job results
 * copy so that every writer's per-direction code writes it unchanged. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/derive.h"
#include "stats/mixed.h"

unsigned sb_out_unified_job(const struct sb_job_result *j)
{
	return j->spec ? j->spec->unified_rw : SB_UNIFIED_NONE;
}

unsigned sb_out_unified_group(const struct sb_results *r, unsigned groupid)
{
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].groupid == groupid)
			return sb_out_unified_job(&r->jobs[i]);
	return SB_UNIFIED_NONE;
}

int sb_out_mixed_open(struct sb_out_mixed *mx, const struct sb_results *r,
		      const struct sb_job_result *j)
{
	memset(mx, 0, sizeof(*mx));
	mx->job = sb_job_mixed(j);
	if (!mx->job)
		return -ENOMEM;
	mx->res = *r;
	mx->res.jobs = mx->job;
	mx->res.njobs = 1;
	mx->res.groups = NULL;
	mx->res.ngroups = 0;
	mx->res.sweep = NULL;
	if (!sb_group_mixed(r, j->groupid, sb_out_unified_job(j), &mx->group)) {
		mx->res.groups = &mx->group;
		mx->res.ngroups = 1;
	}
	return 0;
}

void sb_out_mixed_close(struct sb_out_mixed *mx)
{
	sb_job_mixed_free(mx->job);
	mx->job = NULL;
}
