/* fill.h: fill_device=1 / fill_fs=1 (run/fill.c): the region to write and
 * the write error that ends the job normally. */
#ifndef SB_RUN_FILL_H
#define SB_RUN_FILL_H
#include <stdbool.h>
#include <stdint.h>

#include "run/files.h" /* sb_files_fill_len, sb_files_fill_new */

struct sb_thread;
struct sb_io_u;

/* io is a fill_device job's write that met a full file system (ENOSPC,
 * EDQUOT): the job ends there without an error (off the per-I/O path: only
 * failed I/Os ask) */
bool sb_fill_full(const struct sb_thread *t, const struct sb_io_u *io);
#endif
