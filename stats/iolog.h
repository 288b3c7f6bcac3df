/* iolog.h: fio-compatible log files (write_bw_log, write_iops_log,
 * write_lat_log, and write_iolog: fio's iolog v3 of the I/Os issued, see
 * lib/iologfmt.h) and the per-I/O entry ring that feeds them.
 *
 * File names and columns follow fio 3.33: NAME_bw.N.log, NAME_iops.N.log,
 * NAME_clat.N.log, NAME_slat.N.log, NAME_lat.N.log, N = the thread's number
 * in the run (1-based; per_job_logs=0: no ".N", the threads of a job share
 * one file); one line per entry:
 *     time (ms), value, data direction (0 read, 1 write, 2 trim), block size, [offset,] priority
 * (offset only with log_offset=1; priority: per I/O 1 when its ioprio is of
 * the realtime class, else 0, or with log_prio=1 its ioprio as fio's 0x%04x:
 * its cmdprio, else the job's).  Values: latency in ns, bandwidth in KiB/s, IOPS.
 *
 * log_avg_msec=N > 0: one entry per direction every N ms, the average over
 * the window (block size and offset 0, as fio writes them), taken by the
 * stats thread from the per-interval accumulators (ilat.h).
 * log_avg_msec=0 (fio's default): one entry per I/O, never dropped.  The I/O
 * thread pushes a fixed-size entry into a preallocated single-producer/
 * single-consumer ring (release store of the head; no lock, no allocation,
 * no formatting).  The log writer thread (stats/monlog.c) drains the rings
 * into the files (a temporary beside each log until the end, os/outfile.h):
 * every tick, and at once when a ring passes SB_IOLOG_KICK entries (the one
 * push that crosses it takes a mutex to wake the writer).  Memory is the
 * ring, bounded: when a ring is full the I/O thread waits until the writer
 * has made room (back-pressure, as fio's log writing slows fio's I/O); it
 * never drops an entry.  A log the writer cannot write (ENOSPC, EIO) is
 * reported by name at the end and the run exits 3. */
#ifndef SB_IOLOG_H
#define SB_IOLOG_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "os/outfile.h"
#include "lib/ddir.h"

#define SB_IOLOG_RING (1u << 16)   /* entries per thread: 3.5 MiB */
#define SB_IOLOG_KICK (SB_IOLOG_RING / 4) /* fill that wakes the writer */

struct sb_iolog_ent {
	uint64_t t_ns;           /* completion time (CLOCK_MONOTONIC) */
	uint64_t offset;
	uint64_t clat_ns, slat_ns, lat_ns;
	uint32_t bytes;
	uint32_t ddir : 8;        /* enum sb_ddir */
	uint32_t file : 24;       /* index in the thread's files (write_iolog) */
	uint16_t ioprio;          /* the I/O's own priority (cmdprio_*); 0: the job's */
};

/* How the I/O threads wake the log writer and wait for room (one per run,
 * the monitor's).  Never touched on the per-I/O path's common case. */
struct sb_iolog_wake {
	pthread_mutex_t mu;
	pthread_cond_t work;      /* the writer sleeps here between ticks */
	pthread_cond_t room;      /* I/O threads with a full ring sleep here */
	bool kicked;              /* under mu: a ring wants draining now */
	bool quit;                /* under mu: the writer is to stop */
	_Atomic unsigned waiting; /* I/O threads in sb_iolog_wait_room */
};

struct sb_iolog_ring {
	_Atomic uint64_t head;    /* written by the I/O thread */
	char pad1[56];
	_Atomic uint64_t tail;    /* written by the log writer (one at a time) */
	char pad2[56];
	struct sb_iolog_ent *ent; /* SB_IOLOG_RING entries */
	/* the writer to wake; NULL: none (whoever drains polls, and a full
	 * ring waits by yielding) */
	struct sb_iolog_wake *wake;
	_Atomic uint64_t waits;   /* times the I/O thread found the ring full */
};

/* The I/O thread: the ring's fill crossed SB_IOLOG_KICK: wake the writer. */
void sb_iolog_kick(struct sb_iolog_ring *r);
/* The I/O thread, ring full at head h: waits until the writer made room.
 * Never gives up: the writer runs until the I/O threads were joined. */
void sb_iolog_wait_room(struct sb_iolog_ring *r, uint64_t h);

/* The I/O thread. */
static inline void sb_iolog_push(struct sb_iolog_ring *r, const struct sb_iolog_ent *e)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t fill = h - atomic_load_explicit(&r->tail, memory_order_acquire);
	if (__builtin_expect(fill >= SB_IOLOG_KICK, 0)) {
		/* the fill seen grows by one a push at most: every crossing
		 * passes through SB_IOLOG_KICK exactly */
		if (fill == SB_IOLOG_KICK)
			sb_iolog_kick(r);
		else if (fill >= SB_IOLOG_RING)
			sb_iolog_wait_room(r, h);
	}
	r->ent[h & (SB_IOLOG_RING - 1)] = *e;
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

/* The fill of r as its consumer sees it. */
static inline uint64_t sb_iolog_fill(struct sb_iolog_ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_acquire) -
	       atomic_load_explicit(&r->tail, memory_order_relaxed);
}

void sb_iolog_wake_init(struct sb_iolog_wake *w);
void sb_iolog_wake_destroy(struct sb_iolog_wake *w);
int sb_iolog_ring_init(struct sb_iolog_ring *r);
void sb_iolog_ring_free(struct sb_iolog_ring *r);

enum sb_iolog_kind { SB_LOG_BW, SB_LOG_IOPS, SB_LOG_CLAT, SB_LOG_SLAT, SB_LOG_LAT, SB_LOG_NKIND };

/* log_store_compressed=1 with log_compression=N: the bw, iops and
 * latency logs are NAME.log.fz, zlib streams of N bytes of the text each
 * (--inflate-log prints them); else plain NAME.log */
static inline bool sb_iolog_fz(uint64_t log_compression, bool log_store_compressed)
{
	return log_compression && log_store_compressed;
}

/* The log files of one thread. */
struct sb_iolog_files {
	FILE *f[SB_LOG_NKIND];    /* NULL: not requested; else af[k].f */
	/* each log is written whole or not at all (os/outfile.h): a log that
	 * cannot be completed (a full file system) leaves no truncated file */
	struct sb_outfile af[SB_LOG_NKIND];
	struct sb_outfile afio;     /* write_iolog's */
	bool log_offset;
	bool slat;                /* the engine has a submission step (async) */
	bool avg;                 /* log_avg_msec > 0: no per-I/O bw/iops/lat lines */
	/* write_iolog: fio's iolog v3, one line per I/O at its issue time (us) */
	FILE *io;
	const char *const *paths; /* the thread's files, by index */
	unsigned npaths;
	uint64_t io_last_us;
	/* per_job_logs=0 - the files belong to another thread of the
	 * job (sb_iolog_share), which closes them */
	bool shared;
	/* log_unix_epoch=1: stamps are ms since the Unix epoch: the relative
	 * stamp plus epoch_ms (the Unix time of the thread's time zero, set by
	 * sb_iolog_set_epoch) */
	bool unix_epoch;
	uint64_t epoch_ms;
	bool epoch_set;
	/* log_alternate_epoch_clock_id (the clock whose epoch the
	 * stamps count from with unix_epoch; 0: CLOCK_REALTIME) and log_prio's
	 * last column ("0x4003": fio's ioprio value; empty: "0") */
	int epoch_clock;
	char prio[8];
	/* the per-I/O lines' priority column, as fio 3.33 (iolog.c
	 * flush_samples): with log_prio the I/O's ioprio (its cmdprio, else
	 * job_ioprio) as 0x%04x; without, 1 when that is realtime class, else 0 */
	bool log_prio;
	unsigned job_ioprio;
	/* log_max_value=1 with log_avg_msec - the
	 * per-I/O ring is drained into each direction's clat, slat and lat
	 * maxima (ns) of the window still open; monlog.c writes them instead
	 * of the means and clears them */
	bool maxv;
	uint64_t wmax[SB_DDIR_N][3];
};

/* Opens the write_iolog file name (created or emptied) and writes the
 * header and each file's add and open lines.  Reports with sb_err; -errno. */
int sb_iolog_open_io(struct sb_iolog_files *lf, const char *name, const char *const *paths,
		     unsigned npaths);

/* log_unix_epoch: fix epoch_ms from the thread's time zero t0_ns
 * (CLOCK_MONOTONIC), once. */
void sb_iolog_set_epoch(struct sb_iolog_files *lf, uint64_t t0_ns);
/* per_job_logs=0: dst writes into src's files (the same job's first
 * thread); closing dst leaves them open. */
void sb_iolog_share(struct sb_iolog_files *dst, const struct sb_iolog_files *src);

/* Opens the files asked for (bw/iops/lat names may be NULL).  thread_no is
 * 1-based; 0: no number in the names (per_job_logs=0).  gz: 0, or the
 * chunk size of .fz logs (sb_iolog_fz).  Reports failures with sb_err; -errno. */
int sb_iolog_open(struct sb_iolog_files *lf, const char *bw, const char *iops, const char *lat,
		  unsigned thread_no, bool log_offset, bool slat, size_t gz);
/* Closes them; -EIO if a write failed. */
int sb_iolog_close(struct sb_iolog_files *lf);
/* --inflate-log=path: the text of a .fz log to out (read through the one
 * reader); 0, or -errno after saying why (sb_err) */
int sb_iolog_inflate(const char *path, FILE *out);
/* One line. */
void sb_iolog_line(FILE *f, uint64_t t_ms, uint64_t value, unsigned ddir, uint64_t bs,
		   uint64_t offset, bool log_offset);
/* The same line with the last column log_prio's (sb_iolog_set_prio). */
void sb_iolog_linep(const struct sb_iolog_files *lf, FILE *f, uint64_t t_ms, uint64_t value,
		    unsigned ddir, uint64_t bs, uint64_t offset, bool log_offset);
/* log_prio=1: the last column is ioprio ((class << 13) | level, as fio's
 * "0x%04x"); 0: "0" (storbench has no per-I/O priorities to flag). */
void sb_iolog_set_prio(struct sb_iolog_files *lf, bool log_prio, int ioprio);
/* Per-I/O entries drained from a ring; t0_ns is the thread's time zero. */
void sb_iolog_write_ent(struct sb_iolog_files *lf, const struct sb_iolog_ent *e, uint64_t t0_ns);
/* Drains r into lf (its one consumer at a time), handing room back to a
 * waiting I/O thread every few thousand entries.  Returns the entries
 * written. */
uint64_t sb_iolog_drain(struct sb_iolog_ring *r, struct sb_iolog_files *lf, uint64_t t0_ns);
#endif
