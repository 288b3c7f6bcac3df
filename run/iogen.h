/* iogen.h: where the next I/O goes and how big it is.  Everything that needs
 * memory or maths is prepared by sb_iogen_init; sb_iogen_next is on the
 * per-I/O path and neither allocates nor makes a system call.
 *
 * A "pass" touches each file's I/O region once (sequential: every block in
 * order; random with the random map: every block exactly once, in random
 * order).  A "loop" moves io_size bytes (default: the regions' total);
 * passes restart inside a loop when io_size is larger than the regions.
 * Files are served round robin, one I/O each, as fio's default
 * file_service_type.  A mixed sequential workload keeps one position per
 * direction, as fio: each wraps to the region's start on its own, and the
 * loop ends when io_size bytes have moved.
 *
 * rw=...:N, percentage_random, zoned distributions,
 * random_generator=lfsr and number_ios run on a general path that
 * sb_iogen_next takes only when one of them is on (g->ext), so a job that
 * uses none of them stays on the short path. */
#ifndef SB_IOGEN_H
#define SB_IOGEN_H
#include <stdbool.h>
#include <stdint.h>

#include "run/rate.h"
#include "run/lfsr.h"
#include "run/rng.h"
#include "engines/engine.h"
#include "parse/jobspec.h"

/* one zone of random_distribution=zoned(_abs), ready to pick from */
struct sb_zonepick {
	uint64_t cum;                 /* cumulative access share, of 2^32 */
	double start, len;            /* zoned: fractions of the region */
	uint64_t start_b, len_b;      /* zoned_abs: bytes */
};

/* iogen's view of one file */
struct sb_replay_ent; /* run/replay.h */

struct sb_genfile {
	uint64_t start, len;          /* I/O region, bytes */
	uint64_t nblocks;             /* region length in units */
	uint64_t pos[SB_DDIR_N];      /* sequential: next offset from start, per direction */
	uint64_t last_off[SB_DDIR_N]; /* ext: offset and end of the direction's last I/O */
	uint64_t last_end[SB_DDIR_N];
	unsigned seq_left[SB_DDIR_N]; /* ext: I/Os of rw=randread:N before a new random offset */
	struct sb_lfsr lfsr;          /* random_generator=lfsr */
	uint64_t lfsr_left;           /* outputs left in this pass */
	uint64_t real_end;            /* the file's end, from start (rw=read:N wraps there) */
	uint64_t *map;                /* random map, a bit per unit; NULL without */
	uint64_t nfree;               /* units not yet touched in this pass */
	uint64_t perm_mul, perm_add;  /* scatter of the skewed distributions */
	double zipf_zetan, zipf_eta;
	bool done;                    /* this pass is over for the file */
};

struct sb_iogen {
	const struct sb_jobspec *spec;
	struct sb_file *files;
	struct sb_genfile *gf;
	unsigned nfiles;
	unsigned next_file;
	unsigned files_done;
	struct sb_rng rng;
	uint64_t unit;                /* smallest block size in use: map and offset grain */
	uint64_t align[SB_DDIR_N];    /* offset alignment of random I/O without the map */
	bool random, usemap, mixed;
	int only_ddir;                /* direction of a non-mixed workload */
	uint64_t rwmix_thresh;        /* reads when a 32-bit random value is below */
	uint64_t bss_cum[SB_DDIR_N][SB_BSSPLIT_MAX]; /* cumulative shares, of 2^32 */
	uint64_t loop_budget;         /* bytes per loop */
	uint64_t loop_bytes;
	uint64_t loops_done;
	uint64_t writes;              /* writes issued, for fsync=/fdatasync= */
	int pending_sync;             /* SB_DDIR_SYNC / DATASYNC to issue next, or 0 */
	struct sb_file *sync_file;
	double zipf_alpha, zipf_zeta2, pareto_pow;
	/* the general path: see the top of this file */
	bool ext;
	bool lfsr;                    /* random_generator=lfsr on a uniform random job */
	bool loop_cut;                /* rw=read:N went past the region's end: fio ends the loop */
	uint64_t ios, number_ios;     /* I/Os issued; number_ios (0: no limit) */
	uint64_t pct_rand[SB_DDIR_N]; /* random when a 32-bit value is below; 2^32: always */
	struct sb_zonepick *zt[SB_DDIR_N]; /* random_distribution=zoned(_abs) per direction */
	unsigned zn[SB_DDIR_N];
	/* span mode (sb_iogen_init_span): one byte range of one file, in order */
	bool span;
	int span_ddir;
	uint64_t span_pos, span_end, span_bs;
	/* a mixed job with a rate cap and both directions in its mix: the
	 * direction is fio's (sb_rate_pick); NULL otherwise (set by the caller) */
	const struct sb_rate *rate;
	/* replay mode (run/replay.h: read_iolog), reached through span */
	bool rp;
	struct sb_replay_ent *rp_ent; /* owned; freed by sb_iogen_free */
	size_t rp_n, rp_i;
	uint64_t rp_start_ns, rp_last_ns;
	/* file_service_type other than roundrobin:1 (fsvc set) */
	bool fsvc;
	unsigned fsvc_left;           /* I/Os left on the current file */
	unsigned fsvc_cur;
	double *fsvc_cum;             /* zipf, normal: cumulative file weights, last 1 */
	double fsvc_pow;              /* pareto: fio's exponent log(h)/log(1-h) */
	/* sync_file_range=: the bytes written since the last one */
	uint64_t sfr_lo, sfr_hi;
	/* unlink_each_loop (run/eachloop.c): each_loop makes
	 * sb_iogen_next return 0 at the end of every loop but the last, with
	 * loop_paused set; the caller sets loop_resume to go on */
	bool each_loop, loop_paused, loop_resume;
	bool finished;                  /* every loop done: stays done (a caller that
					 * asks again, after a verify_backlog pause,
					 * gets no new loop) */
	/* rw=trimwrite/randtrimwrite (on the general path): each
	 * trim is followed by a write of its offset and length, as fio's
	 * td_trimwrite; tw_file is that trim's file while a write is owed */
	bool trimwrite;
	struct sb_file *tw_file;
	uint64_t tw_off, tw_len;
	/* cmdprio_* (on the general path): io->ioprio of each read
	 * and write, from spec->cmdprio_bs (parse/check_cmdprio.c) */
	bool cmdprio;
	/* zonemode=strided (run/strided.c, on the general path): the
	 * one file's zones as fio's setup_strided_zone_mode moves them */
	bool strided;
	uint64_t zs_start;            /* the zone's first byte, absolute (fio: f->file_offset) */
	uint64_t zs_bytes;            /* bytes moved in this zone (fio: td->zone_bytes) */
	uint64_t zs_last[SB_DDIR_N];  /* end of the direction's last I/O, absolute (fio: last_pos) */
	uint64_t zs_end;              /* the file's end, absolute: zones wrap to the region's start */
	uint64_t *zs_map;             /* random: a bit per unit of the zone range */
	uint64_t zs_nb, zs_nfree;     /* units in the zone range; not yet touched */
	/* zonemode=zbd (run/zbd.h, on the general path) */
	struct sb_zbd *zbd;
};

/* The seed of thread thread_index of a job: randseed (randrepeat=1) or the
 * clock (randrepeat=0), mixed with the thread index. */
uint64_t sb_iogen_seed(const struct sb_jobspec *spec, unsigned thread_index);
/* files[i].region_start/region_len must be set.  -ENOMEM, or -EINVAL when
 * no region can hold a single block. */
int sb_iogen_init(struct sb_iogen *g, const struct sb_jobspec *spec, struct sb_file *files,
		  unsigned nfiles, uint64_t seed);
void sb_iogen_free(struct sb_iogen *g);
/* start a new pass over every file (iogen_setup.c, for iogen.c) */
void sb_iogen_new_pass(struct sb_iogen *g);
/* Span mode: the bytes [offset, offset + len) of file f in direction ddir,
 * in order, bs bytes per I/O and a shorter last one, so exactly len bytes
 * move (a whole checkpoint file, one training sample).  Allocates nothing;
 * frees what an earlier init held. */
void sb_iogen_init_span(struct sb_iogen *g, const struct sb_jobspec *spec, struct sb_file *f,
			int ddir, uint64_t offset, uint64_t len, uint64_t bs);
/* Fill io->ddir, file, offset and len with the next I/O.  Returns 1, or 0
 * when the workload is complete (never for time_based jobs). */
int sb_iogen_next(struct sb_iogen *g, struct sb_io_u *io);
/* zonemode=strided (run/strided.c): set up at init (-ENOMEM), and the
 * next I/O's absolute offset into *off; false when fio would end the loop
 * there (the zone's block passes the region's length or the file's end) */
int sb_strided_setup(struct sb_iogen *g);
bool sb_strided_next(struct sb_iogen *g, struct sb_genfile *f, int d, uint64_t *len, uint64_t *off);
/* Bytes one loop moves (for tests and reporting). */
static inline uint64_t sb_iogen_loop_bytes(const struct sb_iogen *g)
{
	return g->loop_budget;
}
#endif
