/* cgroup.h: fio's cgroup=, cgroup_weight= and cgroup_nodelete=.  A job's
 * threads run in the cgroup NAME (the job's name when only cgroup_weight is
 * given), made below storbench's own cgroup on the cgroup v2 mount (a
 * threaded cgroup: jobs are threads, moved one by one through
 * cgroup.threads), or on the v1 blkio mount where there is no v2 one (its
 * tasks file takes threads).  cgroup_weight writes io.weight (v2) or
 * blkio.weight / blkio.bfq.weight (v1).  Cgroups storbench made are removed
 * after the run unless cgroup_nodelete=1. */
#ifndef SB_RUN_CGROUP_H
#define SB_RUN_CGROUP_H
#include <stddef.h>

#include "parse/jobspec.h"

/* whether s uses a cgroup; if so, that there is a mount to make it on and
 * the right to (before anything is laid out); else reports with file:line,
 * returns -EINVAL */
int sb_cgroup_check(const struct sb_jobspec *s);
/* makes the cgroups of every job (after the layout, before any thread) and
 * sets their weights; a failure is reported and returned */
int sb_cgroup_apply(const struct sb_joblist *jl);
/* called by a job thread: moves itself into job j's cgroup (0 when the job
 * has none); -errno */
int sb_cgroup_join(size_t j);
/* removes the cgroups sb_cgroup_apply made (unless cgroup_nodelete) */
void sb_cgroup_restore(void);
#endif
