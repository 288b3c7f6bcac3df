/* result.h: the results of one workload=checkpoint job (ml/checkpoint/
 * fills them, ml/checkpoint/figures.c writes them), inside its struct
 * sb_ckpt_job_result after the shared struct sb_ml_result (ml/result.h).  Units in the field names; GB = 1e9 bytes,
 * GiB = 2^30 bytes. */
#ifndef SB_ML_CKPT_RESULT_H
#define SB_ML_CKPT_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/gpucopy.h"
#include "ml/result.h"

struct sb_job_result;
struct sb_wl_job;

/* one rank's share of one checkpoint; offsets from the checkpoint's first
 * start over the ranks it lists (under MPI: a process's own result lists its
 * ranks, the merged one every process's, ml/mpimerge.c) */
struct sb_ml_ckpt_rank {
	unsigned rank;
	double start_s, end_s;    /* its first open, its last close */
	double duration_s;        /* end_s - start_s */
	uint64_t bytes;           /* its files' bytes */
};

struct sb_ml_ckpt_point {
	unsigned index;           /* 0-based checkpoint number */
	const struct sb_ml_ckpt_rank *per_rank; /* nranks, into the phase's ranks (MPI:
						 * this process's; merged: all) */
	unsigned nranks;
	double duration_s;        /* rank0_s, or slowest_s with checkpoint_rank_sync */
	double gbps, gibps;       /* checkpoint bytes / duration */
	double rank0_s;           /* rank 0's own start to end (DLIO's default) */
	double slowest_s;         /* first start to last end over the ranks */
	uint64_t first_wall_ns, last_wall_ns; /* the same on the wall clock (MPI merge) */
	bool from_cache;          /* tiered reads: from the cache tier (else the shared one) */
};

struct sb_ml_ckpt_phase {
	struct sb_ml_ckpt_point *v; /* one per checkpoint written / read */
	unsigned n;
	struct sb_ml_ckpt_rank *ranks; /* ranks per checkpoint, checkpoint-major */
	double mean_duration_s, mean_gbps, mean_gibps;
};

/* tiered checkpoints (checkpoint_cache_folder=): one per checkpoint written.
 * Times are seconds; *_at_s are from the job's start. */
struct sb_ml_tier_point {
	unsigned index;
	double blocking_s;        /* the application's wait: cache write, redundancy, sync flush */
	double cache_write_s;     /* the write to the cache tier: its folders made, the ranks'
				   * threads started and joined */
	double redundancy_s;      /* partner copies / xor parity on the cache tier */
	double flush_s, flush_gbps, flush_gibps; /* the copy to checkpoint_folder (0: none) */
	double start_at_s;        /* the application called the checkpoint (compute ended) */
	double ready_at_s;        /* the checkpoint was in the cache, ready to flush */
	double flush_start_at_s, flush_end_at_s;
	double overlap_s;         /* flush time spent while emulated compute ran */
	double overlap_pct;       /* overlap_s / flush_s x 100 */
	bool behind;              /* ready before the previous flush had ended */
	double behind_s;          /* how long it waited for that flush */
};

struct sb_ml_tier_result {
	bool on;                  /* checkpoint_cache_folder= was set */
	char cache_folder[256];
	const char *flush;        /* "sync", "async", "none" */
	const char *redundancy;   /* "single", "partner", "xor" */
	unsigned flush_threads, cache_keep, set_size;
	uint64_t flush_bs;
	struct sb_ml_tier_point *v;
	unsigned n;
	uint64_t cache_bytes;     /* written to the cache tier, redundancy included */
	uint64_t redundancy_bytes; /* of which partner copies / parity */
	uint64_t shared_bytes;    /* written to checkpoint_folder by the flushes */
	unsigned behind_count;    /* checkpoints whose flush fell behind */
	double max_behind_s;
	double mean_blocking_s, mean_flush_s, mean_flush_gbps, mean_flush_gibps;
	double drain_s;           /* the wait for the last flushes after the last checkpoint */
	unsigned reads_cache, reads_shared; /* restart reads by tier */
};

struct sb_ml_ckpt_result {
	struct sb_ml_ckpt_phase write, read;
	uint64_t bytes_model;     /* per checkpoint, all ranks run, after scaling */
	uint64_t bytes_optimizer;
	unsigned files;           /* files per checkpoint */
	unsigned ranks;
	double fsync_s;           /* time in fsync, summed over ranks and files */
	bool caches_dropped;      /* the page cache was dropped before the reads */
	bool possibly_cached;     /* it could not be: reads may come from memory */
	char caches_reason[192];  /* why not dropped ("" when dropped or no reads) */
	char folder[256];
	bool rank_sync;           /* checkpoint_rank_sync: duration_s is slowest_s */
	bool torch_io;            /* checkpoint_io=torch: torch.save's requests */
	uint64_t bytes_framing;   /* per checkpoint: torch.save's zip framing (torch_io) */
	struct sb_ml_tier_result tier; /* checkpoint_cache_folder= */
	struct sb_ml_gpu_copy gpu;     /* checkpoint_source=gpu */
};

/* a checkpoint job's result: the shared part, then its own */
struct sb_ckpt_job_result {
	struct sb_ml_result ml;
	struct sb_ml_ckpt_result ckpt;
};
extern const struct sb_ml_figures sb_ckpt_figures; /* ml/checkpoint/figures.c */
/* The checkpoint result of a job's result, or NULL when it is not a
 * checkpoint job's. */
const struct sb_ml_ckpt_result *sb_ckpt_result_of(const struct sb_job_result *jr);
/* The result of a running checkpoint job (its j->res; NULL before its
 * prepare made it). */
struct sb_ckpt_job_result *sb_ckpt_res(const struct sb_wl_job *j);
#endif
