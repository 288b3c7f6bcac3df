/* gpu.h: iomem=cudamalloc.  Each thread's I/O buffers get a twin
 * in GPU memory (cuMemAlloc, gpu_dev_id / gpu_dev_ids) and are pinned
 * (cuMemHostRegister), so every engine moves data between storage and the
 * GPU through them: a completed read is copied host to GPU, a write is
 * copied GPU to host before it is submitted.  The copies ride the I/O
 * loop's content hooks (t->io_prep, t->io_check), wrapping whatever
 * contents or verify installed, so a job without cudamalloc runs the loop
 * unchanged.  Each copy is timed apart from clat into t->st->gpu_copy. */
#ifndef SB_RUN_GPU_H
#define SB_RUN_GPU_H
#include "run/thread.h"

/* After the buffers, contents and verify are set up: allocate the GPU
 * twin, pin the host buffers, fill the twin with the buffers' contents and
 * wrap the hooks.  0, or -errno having reported why (sb_err).  Does nothing
 * unless the job has iomem=cudamalloc. */
int sb_gpu_setup(struct sb_thread *t);
/* The same for a thread whatever its iomem= (the ML workloads' workers:
 * checkpoint_source=gpu, train_destination=gpu); what names the option in
 * messages.  After the thread's content hooks are installed. */
int sb_gpu_attach(struct sb_thread *t, const char *what);
/* On the I/O thread before its first I/O: make the GPU's context current. */
void sb_gpu_bind(struct sb_thread *t);
/* Undo sb_gpu_setup (before the buffers and the hooks' owners go). */
void sb_gpu_teardown(struct sb_thread *t);
#endif
