/* replay.h: read_iolog: the entries of a fio iolog (v2/v3, lib/iologfmt.h)
 * replayed by iogen instead of generated I/O.  The parser has read the log
 * once already (parse/check_replay.c: validated it, made its files the
 * job's files in order of first appearance, or replay_redirect the only
 * one); this reads it again into a flat array before the job starts.
 *
 * Timing, as fio 3.33: a version 3 entry waits until its time distance to
 * the entry before (times replay_time_scale, in percent of the logged rate:
 * 200 halves the distance) has passed since the previous I/O was issued,
 * unless replay_no_stall=1; a version 2 log has no times, its "wait N"
 * entries wait until N ms after the replay started.  Offsets are divided by
 * replay_scale, then rounded down to replay_align.  replay_skip drops the
 * named types (fio applies it to blktrace replay only; here to iologs).
 * File actions (add, open, close) are not replayed: the job's files are
 * open for the whole job. */
#ifndef SB_RUN_REPLAY_H
#define SB_RUN_REPLAY_H
#include <stdint.h>

#include "run/iogen.h"

struct sb_replay_ent {
	uint64_t offset;
	uint64_t delay_ns;   /* v3: after the previous issue; wait: since the start */
	uint32_t len;
	uint16_t file;       /* index in the job's files */
	uint8_t ddir;        /* enum sb_ddir (SYNC/DATASYNC included) */
	uint8_t wait;        /* a v2 "wait" entry */
};

/* Loads spec->read_iolog into g (replay mode, after sb_iogen_init); nfiles
 * files.  Reports errors with sb_err; -errno. */
int sb_iogen_init_replay(struct sb_iogen *g, const struct sb_jobspec *spec, unsigned nfiles);
/* The next entry (on the per-I/O path: no allocation; sleeps for the log's
 * timing).  1, or 0 at the end of the log or when the run stops. */
int sb_replay_next(struct sb_iogen *g, struct sb_io_u *io);
#endif
