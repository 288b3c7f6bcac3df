/* trace.h: I/O traces in DFTracer's format (write_trace=PATH,
 * trace_sample=N).  DFTracer (docs/trace_format.rst) writes Chrome-trace
 * JSON lines: a "[" line, then one complete event ("ph":"X") per line with
 * its name, category, pid, tid, ts and dur (microseconds; ts since the Unix
 * epoch) and args: the host's and file's name hashes (hhash, fhash), the
 * I/O's offset, length and return value; file and host names are stored
 * once as hash metadata events ("ph":"M": FH, HH).  HOWTO.md section 2
 * ("I/O traces") shows the lines.  The file is
 * one gzip stream per file (per sweep point when a sweep appends), as
 * DFTracer's own (it gzips the finished file): zindex and DFTracer's
 * analyzer slow down with every gzip member before a line.  The text is
 * deflated in blocks of at most SB_TRACE_BLOCK bytes, each ending on a line
 * and a full flush, and written as it is made: a killed run leaves a
 * readable prefix (every line up to its last whole block).  Traces of
 * storbench before this are series of members with an "SB" length field in
 * each header; tools/trace_read.c still reads those in parallel.
 *
 * The I/O thread records a fixed-size binary event into its own ring
 * (allocated before the run; no lock, no allocation, no formatting); one
 * writer thread per trace file drains the rings, formats the lines and
 * compresses them.  Sampling (one event in trace_sample) is decided before
 * anything is recorded.  A full ring makes the I/O thread wait for the
 * writer (a trace with holes would misreport totals); the waits are
 * counted and reported. */
#ifndef SB_STATS_TRACE_H
#define SB_STATS_TRACE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SB_TRACE_RING (1u << 16)      /* events per ring: 4 MiB */
#define SB_TRACE_BLOCK (256u << 10)   /* text per flushed deflate block, at most */

/* names of I/O events: enum sb_ddir values, then these */
enum { SB_TRACE_OPEN = 6, SB_TRACE_CLOSE = 7, SB_TRACE_NOPS = 8 };

struct sb_trace_ev {
	uint64_t ts_ns, dur_ns;       /* sb_now_ns() clock */
	uint64_t offset, size;        /* app events: offset holds the argument's value */
	int64_t ret;
	const char *name;             /* app events (cat "storbench"): a static string; NULL: I/O */
	const char *argname;          /* app events: the name of the argument, or NULL */
	uint32_t fid;                 /* file id (sb_trace_set_file), UINT32_MAX: none */
	uint32_t tid;
	uint32_t op;                  /* I/O events: enum sb_ddir or SB_TRACE_OPEN/CLOSE */
	uint32_t pad;
};

struct sb_trace;

struct sb_trace_ring {
	_Atomic uint64_t head;        /* written by the I/O thread */
	char pad1[56];
	_Atomic uint64_t tail;        /* written by the writer thread */
	char pad2[56];
	struct sb_trace_ev *ev;       /* SB_TRACE_RING events */
	uint32_t *fid;                /* file slot -> file id */
	unsigned nslots;
	unsigned every, left;         /* trace_sample: record when --left reaches 0 */
	uint32_t tid;                 /* the thread recording now (sb_trace_thread) */
	int32_t rank;                 /* args "rank" of its events (sb_trace_rank), -1: none */
	_Atomic uint64_t waits;       /* times the ring was full */
	struct sb_trace *tr;
	struct sb_trace_ring *next;
};

/* A ring for one I/O thread of a job writing the trace PATH (the writer is
 * created, and the file, on the first call for a path; one sample in
 * every; nslots file slots).  Reports with sb_err; -errno. */
int sb_trace_attach(struct sb_trace_ring **out, const char *path, unsigned every, unsigned nslots);
/* Slot's file is now path (not on the per-I/O path: takes a lock). */
void sb_trace_set_file(struct sb_trace_ring *r, unsigned slot, const char *path);
/* The calling thread records into r from now on (its tid). */
void sb_trace_thread(struct sb_trace_ring *r);
/* The ring's events carry args "rank": rank (a rank that is a thread, such
 * as a checkpoint rank, so that analyzers tell ranks of one pid apart).
 * Call before the thread records; the writer adds it, not the I/O path. */
void sb_trace_rank(struct sb_trace_ring *r, int rank);
/* Ring full: wait for the writer (yielding). */
void sb_trace_wait_room(struct sb_trace_ring *r, uint64_t h);

static inline struct sb_trace_ev *sb_trace_slot(struct sb_trace_ring *r)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (h - atomic_load_explicit(&r->tail, memory_order_acquire) >= SB_TRACE_RING)
		sb_trace_wait_room(r, h);
	return &r->ev[h & (SB_TRACE_RING - 1)];
}

static inline void sb_trace_commit(struct sb_trace_ring *r)
{
	atomic_store_explicit(&r->head, atomic_load_explicit(&r->head, memory_order_relaxed) + 1,
			      memory_order_release);
}

/* One I/O (the per-I/O path): sampled, then a fixed-size record. */
static inline void sb_trace_io(struct sb_trace_ring *r, unsigned op, unsigned slot,
			       uint64_t offset, uint64_t size, int64_t ret, uint64_t start_ns,
			       uint64_t end_ns)
{
	if (--r->left)
		return;
	r->left = r->every;
	struct sb_trace_ev *e = sb_trace_slot(r);
	e->ts_ns = start_ns;
	e->dur_ns = end_ns - start_ns;
	e->offset = offset;
	e->size = size;
	e->ret = ret;
	e->name = 0;
	e->fid = slot < r->nslots ? r->fid[slot] : UINT32_MAX;
	e->tid = r->tid;
	e->op = op;
	sb_trace_commit(r);
}

/* An application event (cat "storbench": a checkpoint, an epoch, a step),
 * never sampled; name and argname are static strings. */
void sb_trace_app(struct sb_trace_ring *r, const char *name, const char *argname, uint64_t arg,
		  uint64_t start_ns, uint64_t end_ns);

/* Drain, flush and close every trace file; frees the writers and their
 * rings.  Returns 0 or the first -errno (reported with sb_err).  A later
 * run of this process (a sweep's next point) that writes the same path
 * appends a gzip stream of its own to it, ids continuing: one trace holds
 * every run (trace_ring.c). */
int sb_trace_close_all(void);

/* trace_ring.c: whether this process wrote path before (*next_id: the id
 * its next event gets), and noting it when a trace closes */
bool sb_trace_reg_get(const char *path, uint64_t *next_id);
void sb_trace_reg_put(const char *path, uint64_t next_id);
#endif
