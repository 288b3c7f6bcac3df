/* vjob.h: the verify state of one thread of a verify= job, shared by
 * run/verify.c (the hooks, the write tracker, the verify phases) and
 * run/vcheck.c (checking one interval read back, failures, verify_dump,
 * read jobs that verify, the 0-blocks rule).  Private to those two:
 * verify.c calls vcheck.c, never the other way round. */
#ifndef SB_RUN_VJOB_H
#define SB_RUN_VJOB_H
#include <stdbool.h>
#include <stdint.h>

#include "run/ioloop.h"
#include "run/thread.h"
#include "run/vblock.h"
#include "run/vstate.h"

#define PRINT_MAX 10 /* failure lines on stderr per thread */
/* a tracker slot's bit 31: checked since its last write (by a backlog
 * check), so the final verify phase skips it, as fio verifies each write
 * once; the generation is the other 31 bits */
#define CHECKED 0x80000000u
#define GEN_OF(x) ((x) & ~CHECKED)
/* the generation of an interval trimmed by trim_percentage: reads back as
 * zeroes (trim_verify_zero=1) */
#define TRIMMED 0x7fffffffu

struct ring_ent {
	unsigned file;
	uint64_t offset, len;
};

/* a write unit's range while it is in flight (iodepth > 1): two writes to
 * one interval in flight at once may reach the device in either order, so
 * that interval may hold either's block (fio does not compare generations
 * there either: time_based and norandommap turn its numberio check off) */
struct vinflight {
	uint64_t offset, len;
	unsigned file;
	bool busy, overlap;
};

struct vjob {
	struct sb_vfmt fmt;
	struct sb_csum cs;
	uint64_t base;              /* seed of the data seeds */
	uint64_t t0;                /* realtime ns at setup: the earliest stamp of this run's writes */
	uint64_t gen;               /* writes issued so far (the last generation) */
	uint64_t *io_gen;           /* per io unit: the generation its write carries */
	struct vinflight *infl;     /* per io unit (iodepth > 1; NULL otherwise) */
	unsigned ninfl;
	uint8_t **amb;              /* per file, per slot (with infl): 1 when its last
				     * write overlapped another in flight: any of this
				     * thread's generations is good there */
	struct sb_vtrack *tr;       /* per file */
	unsigned nfiles;
	unsigned job, thread;
	bool checking;              /* reads are verify reads */
	bool reader;                /* the job does not write: its own reads check what
				     * other jobs or runs wrote (HOWTO "verify on read jobs") */
	struct sb_vknown *known;    /* reader: per file, what the writers' states say */
	uint64_t prev_t0;           /* verify_only: the writing run's start (its state) */
	bool fatal;                 /* verify_fatal hit: stop */
	uint64_t rbs;               /* read size of a verify pass */
	uint64_t backlog, batch, since;
	bool backlog_due;
	struct ring_ent *ring;      /* the last `backlog` writes */
	uint64_t rhead;
	unsigned printed;
	uint64_t check_ns;          /* time spent in verify passes */
	uint8_t *expect;            /* one interval rebuilt for verify_dump */
	/* trim_percentage: writes picked for a trim, trimmed trim_backlog_batch
	 * at a time every trim_backlog writes (fio's verify-trim) */
	unsigned trim_pct;
	uint64_t tbacklog, tbatch, tsince, tcap, thead, tn;
	bool trim_due;
	struct ring_ent *tring;
};

/* check the interval at io->buf + o against want (want->gen TRIMMED:
 * zeroes); false when verify_fatal stops the job */
bool sb_vcheck_one(struct sb_thread *t, struct vjob *vj, const struct sb_io_u *io, uint64_t o,
		   const struct sb_vid *want);
/* a read job's completed read: every whole interval checked */
bool sb_vcheck_read(struct sb_thread *t, struct vjob *vj, const struct sb_io_u *io);
/* a read job: load what the writers' saved states say, as it starts */
void sb_vcheck_load_known(struct sb_thread *t, struct vjob *vj);
/* the end of a verify job's work: 0 blocks checked is an error */
void sb_vcheck_nothing(struct sb_thread *t, struct vjob *vj);
#endif
