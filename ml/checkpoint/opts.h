/* opts.h: workload=checkpoint's own options (its rows in opts.c set them),
 * kept in the spec's wl_opts area (parse/workloads.h), and the typed
 * accessors to them.  The options other workloads read too (model= and the
 * shape, checkpoint_folder, keep_checkpoints, checkpoint_fsync, results_dir)
 * stay in struct sb_jobspec; their rows are flagged SB_OF_SPEC. */
#ifndef SB_ML_CKPT_OPTS_H
#define SB_ML_CKPT_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/workloads.h"

struct sb_option;
struct sb_jobspec;

struct sb_ckpt_opts {
	unsigned ranks;             /* emulated ranks (threads); resolved: tp*pp*dp when unset */
	bool subset;                /* ranks < tp*pp*dp write their fraction (MLPerf subset) */
	double checkpoint_scale;    /* multiplies every checkpoint file size (default 1) */
	unsigned num_checkpoints_write, num_checkpoints_read;
	uint64_t time_between_checkpoints_us; /* slept before every write and read */
	bool checkpoint_rank_sync;  /* 1: a checkpoint lasts until the slowest rank ends;
				     * 0 (DLIO's default): rank 0's own time */
	unsigned checkpoint_io;     /* enum sb_ckpt_io: torch.save's writes, or bs-sized */
	unsigned checkpoint_source; /* enum sb_ml_mem: gpu: D2H before each write, H2D
				     * after each read */
	unsigned checkpoint_content; /* enum sb_ckpt_content; resolved: dlio under
				      * rules=mlperf, else unique */
	bool checkpoint_verify;     /* check every byte read back */
	/* tiered checkpoints (tiered.c, tierred.c, checktier.c) */
	char *checkpoint_cache_folder; /* the cache tier; NULL: not tiered */
	unsigned checkpoint_flush;  /* enum sb_ckpt_flush */
	unsigned flush_threads;     /* threads copying a checkpoint to the shared tier */
	uint64_t flush_bs;          /* bytes per flush request */
	unsigned cache_keep;        /* checkpoints kept in the cache tier */
	unsigned checkpoint_redundancy; /* enum sb_ckpt_red */
	unsigned set_size;          /* xor: ranks per parity set */
};

/* The checkpoint options of s; NULL when s is not a checkpoint job. */
extern const struct sb_option sb_ckpt_rows[]; /* its rows (opts.c) */
static inline const struct sb_ckpt_opts *sb_ckpt_opts(const struct sb_jobspec *s)
{
	return (const struct sb_ckpt_opts *)sb_spec_wl_opts_own(s, sb_ckpt_rows);
}

/* The same, writable: for the check (check.c), which resolves defaults. */
static inline struct sb_ckpt_opts *sb_ckpt_opts_mut(struct sb_jobspec *s)
{
	return (struct sb_ckpt_opts *)sb_spec_wl_opts_own_mut(s, sb_ckpt_rows);
}

/* The row of the option stored at byte off of struct sb_ckpt_opts, as the
 * parser holds it (for sb_job_isset, sb_job_where); a field without a row,
 * or the workload not handed down, is a bug: it says so and aborts. */
const struct sb_option *sb_ckpt_opt(size_t off);
/* model= names a row and the job changes its shape: any of its
 * dimensions, tp, pp or the ZeRO stage (dp follows ranks, as DLIO's). */
bool sb_ckpt_shape_changed(const struct sb_jobspec *s);
/* The row of field f: a misspelt field is a compile error. */
#define SB_CKPT_OPT(f) sb_ckpt_opt(offsetof(struct sb_ckpt_opts, f))
#endif
