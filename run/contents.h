/* contents.h: what a job writes (fio's buffer options: scramble_buffers,
 * refill_buffers, zero_buffers, buffer_pattern, buffer_compress_percentage
 * + buffer_compress_chunk, dedupe_percentage + dedupe_mode +
 * dedupe_working_set_percentage).  sb_contents_setup fills a thread's I/O
 * buffers once and, only when the job needs per-write work, sets the I/O
 * loop's io_prep hook (struct sb_thread) with its state in t->content:
 *   zero_buffers, buffer_pattern without %o, scramble_buffers=0: no hook
 *   scramble_buffers=1 (default): fio's stamps, 24 bytes per 512-byte
 *     sector (lib/datagen.h: sb_dg_scramble)
 *   scramble_whole_buffers=1: XOR the whole buffer with a fresh 64-bit word
 *   refill_buffers, a compression or dedupe share: a fresh buffer from the
 *     recipe (lib/datagen.h), the thread's write count as stream unit
 *   buffer_pattern with %o: the I/O's offset pasted into each repetition.
 * dedupe_global: the writers of all such jobs share one working set
 * (struct sb_dg's peers; t->dg_peer, dg_peers set by run/run.c).
 * verify= jobs own their buffer contents (as in fio): the verify hooks win
 * where both apply.
 * The ML workloads use sb_contents_recipe for their files' contents. */
#ifndef SB_RUN_CONTENTS_H
#define SB_RUN_CONTENTS_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/datagen.h"
#include "parse/jobspec.h"
#include "run/thread.h"

/* t's buffers are allocated (etd.buf_base, buf_len, buf_per_io): fill them
 * and set the hooks the job needs (I/O jobs; other workloads get random
 * buffers and no hook).  0 or -ENOMEM. */
int sb_contents_setup(struct sb_thread *t);
/* free what sb_contents_setup set (its hooks and state) */
void sb_contents_release(struct sb_thread *t);
/* The recipe of s's buffer options for stream key, unit bytes per buffer
 * and region bytes (the working set's base); stamp each 4 KiB block.  Its
 * pattern points into s. */
void sb_contents_recipe(const struct sb_jobspec *s, uint64_t key, uint64_t unit, uint64_t region,
			struct sb_dg *g);
/* dedupe_global: does a thread of s share the run's working set (an I/O
 * job that writes its own contents with dedupe_mode=working_set)? */
bool sb_contents_global(const struct sb_jobspec *s);
/* fill buf with s's buffer_pattern repeated from its first byte, %o set to
 * offset */
void sb_contents_pattern(const struct sb_jobspec *s, uint64_t offset, void *buf, uint64_t len);
#endif
