/* assert.h: SB_ASSERT(cond), the invariants that casts and tables rely on
 * (a workload's id is its table index, a result is the workload's own before
 * it is cast, option rows lie inside their struct, a table fits its list).
 * Unlike assert() it is on in every build (NDEBUG does not remove it): a
 * false cond prints "storbench: internal error: FILE:LINE: FUNC: cond" on
 * stderr (straight to fd 2, not through a test's log capture) and aborts.
 * Cheap checks only, at setup, hand-down and cast time: never in the per-I/O
 * loop.  HOWTO section 12. */
#ifndef SB_LIB_ASSERT_H
#define SB_LIB_ASSERT_H

_Noreturn void sb_assert_fail(const char *cond, const char *file, int line, const char *func);

#define SB_ASSERT(cond) ((cond) ? (void)0 : sb_assert_fail(#cond, __FILE__, __LINE__, __func__))
#endif
