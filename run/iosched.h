/* iosched.h: fio's ioscheduler=: the I/O scheduler of the disk under a
 * job's files is switched to the one named for the run, and switched back
 * afterwards (fio leaves it switched; storbench restores what it changed). */
#ifndef SB_RUN_IOSCHED_H
#define SB_RUN_IOSCHED_H
#include "parse/jobspec.h"
#include "run/files.h"

/* s's ioscheduler exists for the disk of each of thread 0's files (before
 * anything is laid out); else reports with file:line, returns -EINVAL */
int sb_iosched_check(const struct sb_jobspec *s, const struct sb_jobfiles *jf);
/* switches the disks of every job with ioscheduler= (after the layout);
 * a refusal (not root) is reported and returned */
int sb_iosched_apply(const struct sb_joblist *jl, const struct sb_layout *lay);
/* puts back every scheduler sb_iosched_apply changed */
void sb_iosched_restore(void);
#endif
