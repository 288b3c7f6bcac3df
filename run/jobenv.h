/* jobenv.h: what a job thread takes on before its first I/O besides its
 * placement (run/place.h): fio's uid=/gid= (its own credentials) and
 * lockmem= (memory held locked while it runs). */
#ifndef SB_JOBENV_H
#define SB_JOBENV_H
#include <stddef.h>

struct sb_thread;

/* Called by the job thread itself: locks lockmem bytes (*mem, *len: release
 * them with sb_jobenv_release), then switches this thread alone to gid= and
 * uid= (raw setresgid/setresuid: glibc's wrappers change every thread) and
 * checks the job's files are open to those ids, as fio's job opens them.
 * 0, or -errno with *what naming the option that failed. */
int sb_jobenv_enter(struct sb_thread *t, void **mem, size_t *len, const char **what);
void sb_jobenv_release(void *mem, size_t len);
#endif
