/* ckpt.h: what ml/checkpoint/checkpoint.c (workload=checkpoint) shares with
 * ml/checkpoint/tiered.c (its tiered mode, checkpoint_cache_folder=): the job's state,
 * the rank phases and the paths.  Internal to ml/. */
#ifndef SB_ML_CKPT_H
#define SB_ML_CKPT_H
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/option.h"
#include "ml/model.h"
#include "ml/run.h"
#include "ml/checkpoint/result.h"
#include "ml/checkpoint/torchsave.h"
#include "os/scratch.h"


struct sb_ml_tier; /* ml/checkpoint/tiered.c */

/* where a rank's I/O is: the context of its content alternatives */
struct ckpt_at {
	struct sb_wl_job *j;
	unsigned rank, k;
	size_t i;
};

struct sb_ml_ckpt {
	struct sb_ml_shape shape;
	struct sb_ml_file *files;      /* one checkpoint, rank-major */
	size_t nfiles;
	size_t *rank_first;            /* per rank: its first file; [ranks] = nfiles */
	unsigned ranks;                /* all ranks (every MPI process's) */
	unsigned r0, nloc;             /* this process's ranks: [r0, r0 + nloc) */
	char folder[PATH_MAX - 256];
	struct sb_scratch_id folder_id; /* what storbench made (ino 0: nothing); */
	struct sb_scratch_id *dir_id;  /* per checkpoint; removed only if still */
	struct sb_scratch_id *created; /* that inode: [checkpoint * nfiles + file] */
	uint64_t *t_start, *t_end;     /* per local rank, of the current phase */
	uint64_t wall[2];              /* the phase's first start, last end over the local
				        * ranks on the wall clock (for the MPI merge) */
	struct ckpt_at *at;            /* per local rank: the file its I/O is on */
	struct sb_torch_plan *plan;    /* checkpoint_io=torch: per file; else NULL */
	struct sb_ml_tier *tier;       /* checkpoint_cache_folder=: else NULL */
	bool on_cache;                 /* the rank phases use the cache tier's paths */
};

struct sb_ml_rank_arg {
	struct sb_wl_job *j;
	unsigned rank, ckpt;
	int ddir;
	pthread_t tid;
};

/* file i of checkpoint k on the shared tier: <folder>/global_epoch1_step<k+1>/<base> */
void sb_ml_ckpt_path(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len);
void sb_ml_ckpt_step_dir(const struct sb_ml_ckpt *c, unsigned k, char *buf, size_t len);
/* mkdir dir, taking its identity into *made (may_exist: an existing one is fine) */
bool sb_ml_ckpt_mkdir(struct sb_wl_job *j, const char *dir, struct sb_scratch_id *made,
		      bool may_exist);
/* this process's ranks on checkpoint k (args: one per local rank; on the
 * cache tier's paths when c->on_cache); the duration in ns (0 on failure),
 * *slowest first start to last end over them, c->wall the same two on the
 * wall clock */
/* content alternatives of a failing block (ctx: its struct ckpt_at): this
 * file in older checkpoints (stale), then the other files of this one
 * (misplaced); see ml/content.h */
struct sb_ml_alt;
bool sb_ml_ckpt_alt(void *ctx, unsigned n, struct sb_ml_alt *out);
uint64_t sb_ml_ckpt_phase(struct sb_wl_job *j, unsigned k, int ddir, struct sb_ml_rank_arg *args,
			  uint64_t *slowest);
/* the point of that phase; per_rank: this process's ranks (global numbers) */
void sb_ml_ckpt_point(struct sb_wl_job *j, struct sb_ml_ckpt_phase *ph, unsigned k, uint64_t ns,
		      uint64_t slowest, uint64_t bytes);

/* ---- ml/checkpoint/tiered.c ---- */
/* set up the cache tier; checks its folder (errors reported) */
int sb_ml_tier_prepare(struct sb_wl_job *j);
/* the write loop of a tiered run; returns the summed cache-write ns */
uint64_t sb_ml_tier_write(struct sb_wl_job *j, struct sb_ml_rank_arg *args, uint64_t bytes);
/* file i of checkpoint k in its rank's cache folder:
 * <cache>/rank<r>/global_epoch1_step<k+1>/<base> */
void sb_ml_tier_path(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len);
/* where the identity of cache file i of checkpoint k goes */
struct sb_scratch_id *sb_ml_tier_made(struct sb_ml_ckpt *c, unsigned k, size_t i);
/* before reading checkpoint k back: whether it comes from the cache; after: p's source */
bool sb_ml_tier_read_from(struct sb_wl_job *j, unsigned k);
void sb_ml_tier_read_done(struct sb_wl_job *j, struct sb_ml_ckpt_point *p);
void sb_ml_tier_release(struct sb_wl_job *j);
/* the workload's row (checkpoint.c), its option rows (opts.c) and its
 * parse-time checks (check.c, checktier.c), listed by ml/registry.c */
/* rules=mlperf of a checkpoint job from its spec and its result
 * (ml/checkpoint/merge.c) */
void sb_ml_ckpt_rules(const struct sb_jobspec *s, struct sb_ckpt_job_result *m);
/* its ranks_merge hook (run/workload.h): rank 0's result becomes the
 * whole run's */
int sb_ckpt_ranks_merge(struct sb_job_result *jr);
extern const struct sb_workload_ops sb_workload_checkpoint;
/* what the conformance suite runs of it (conform.c) */
extern const struct sb_wl_conformance sb_ckpt_conformance;
struct sb_jobctx;
extern const struct sb_option sb_ckpt_rows[];
extern const unsigned sb_ckpt_rows_n;
unsigned sb_ml_check_ckpt(struct sb_jobctx *c);
unsigned sb_ml_check_tier(struct sb_jobctx *c); /* checkpoint_cache_folder= */
/* its hooks for --readonly (num_checkpoints_write) and GPU memory
 * (checkpoint_source=gpu): see parse/workloads.h */
struct sb_jobspec;
const struct sb_option *sb_ml_ckpt_writes(const struct sb_jobspec *s, const char **why,
					  const char **fix);
const struct sb_option *sb_ml_ckpt_gpu_mem(const struct sb_jobspec *s);
/* MPI (ml/checkpoint/merge.c): this process's block [*r0, *r0 + *n) of the
 * ranks; whether there are enough ranks for every process and the job can
 * run under MPI (tiered checkpoints cannot; else says why: -EINVAL); a
 * phase's first start and last end (sb_now_ns) on the wall clock */
void sb_ml_ckpt_local(unsigned ranks, unsigned *r0, unsigned *n);
int sb_ml_ckpt_enough(const struct sb_jobspec *s, unsigned ranks);
void sb_ml_ckpt_wall(uint64_t first, uint64_t last, uint64_t wall[2]);
#endif
