/* results.c: releasing the results model.  The jobs (with their time
 * series), groups, disks and interim arrays and the host sampler belong to
 * it; the job list (and the job specs it points into) does not.  Also the
 * MLPerf rule reports' verdict names and look-up (results data). */
#include <stdlib.h>
#include <string.h>

#include "stats/host.h"
#include "stats/results.h"

void sb_results_free(struct sb_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->jobs && i < r->njobs; i++) {
		if (r->jobs[i].wl)
			r->jobs[i].wl->fig->release(r->jobs[i].wl);
		r->jobs[i].wl = NULL;
		free(r->jobs[i].ts);
		sb_tstats_release(&r->jobs[i].st);
		sb_verify_result_free(r->jobs[i].verify);
		r->jobs[i].verify = NULL;
		if (r->jobs[i].ss)
			sb_steady_free(r->jobs[i].ss);
		free(r->jobs[i].ss);
		r->jobs[i].ss = NULL;
	}
	for (size_t i = 0; r->interim && i < r->ninterim; i++)
		free(r->interim[i].jobs);
	free(r->interim);
	r->interim = NULL;
	r->ninterim = 0;
	free(r->hosts);
	r->hosts = NULL;
	r->nhosts = 0;
	sb_host_close((struct sb_host *)r->host);
	r->host = NULL;
	free(r->jobs);
	free(r->groups);
	free(r->disks);
	r->jobs = NULL;
	r->groups = NULL;
	r->disks = NULL;
	r->njobs = r->ngroups = r->ndisks = 0;
	free(r->sys);
	r->sys = NULL;
}

