/* collect.h: turn the finished job threads into the results model: one
 * sb_job_result per thread (or per job with group_reporting), one
 * sb_group_result per group. */
#ifndef SB_COLLECT_H
#define SB_COLLECT_H
#include "run/thread.h"
#include "stats/results.h"

/* Fill res->jobs, res->groups, version and timestamps from threads[0..n)
 * (jobs without threads get empty results).  Returns 0 or -ENOMEM. */
int sb_collect(struct sb_results *res, const struct sb_joblist *jl, const struct sb_thread *threads,
	       unsigned n);
/* One result from threads [from, to) that belong to job index job. */
void sb_collect_job(struct sb_job_result *jr, const struct sb_jobspec *s, size_t job,
		    const struct sb_thread *th, unsigned from, unsigned to);
/* (Re)compute res->groups from res->jobs.  0 or -ENOMEM. */
int sb_collect_groups(struct sb_results *res);
#endif
