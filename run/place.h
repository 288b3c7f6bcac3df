/* place.h: where a job thread runs and where its buffers live: CPU
 * affinity (cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes),
 * nice, I/O priority (prio, prioclass), and the I/O buffers' allocation
 * (iomem, iomem_align) and NUMA policy (numa_mem_policy).  Nothing here runs
 * on the per-I/O path. */
#ifndef SB_RUN_PLACE_H
#define SB_RUN_PLACE_H
#include <stddef.h>

struct sb_thread;

/* Allocates t's I/O buffers (len bytes, aligned to align or iomem_align,
 * whichever is larger) as the job's iomem= says, applies numa_mem_policy,
 * and sets t->etd.buf_base.  0 or -errno (with sb_err naming the option). */
int sb_place_buffers(struct sb_thread *t, size_t len, size_t align);
/* Releases what sb_place_buffers allocated (NULL buf_base: nothing). */
void sb_place_buffers_free(struct sb_thread *t);
/* Called by the job thread itself before its first I/O: pins it, sets its
 * nice value and I/O priority.  0, or -errno with *what naming the option
 * that failed (the thread records the error; threads never print). */
int sb_place_thread(struct sb_thread *t, const char **what);
#endif
