/* tsan.h: what ThreadSanitizer (make check-tsan) must be told about the
 * rings that the kernel maps for an engine (an io_uring SQ/CQ ring and SQE
 * array, a Linux AIO completion ring).  TSan only sees mappings made through
 * libc's mmap; these are made by the kernel (io_setup) or by liburing's own
 * system call.  When a thread releases its ring and another thread's new
 * ring lands at the same address (the ML workloads create one per phase
 * thread), TSan takes the two threads' accesses for a race on shared memory.
 * The kernel orders the two: the old ring is unmapped before the address is
 * handed out again.  sb_tsan_ring_released (before the ring is destroyed)
 * and sb_tsan_ring_new (after a ring is created) tell TSan that order, with
 * one process-wide sync object (the address of sb_engines[], one object in
 * the whole program): a ring's creation happens after every earlier ring's
 * release, of any engine.  Without TSan both are empty. */
#ifndef SB_ENGINES_TSAN_H
#define SB_ENGINES_TSAN_H
#include "engines/engine.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SB_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(SB_TSAN)
#define SB_TSAN 1
#endif

#ifdef SB_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

static inline void sb_tsan_ring_released(void)
{
	__tsan_release((void *)&sb_engines);
}

static inline void sb_tsan_ring_new(void)
{
	__tsan_acquire((void *)&sb_engines);
}
#else
static inline void sb_tsan_ring_released(void)
{
}

static inline void sb_tsan_ring_new(void)
{
}
#endif
#endif
