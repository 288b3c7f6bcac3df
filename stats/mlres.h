/* mlres.h: the results of one ML workload job (workload=checkpoint or
 * train), hung off its sb_job_result as ->ml.  ml/ fill it; the
 * writers in output/ only read it.  Units in the field names; GB = 1e9
 * bytes, GiB = 2^30 bytes. */
#ifndef SB_MLRES_H
#define SB_MLRES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sb_kv_result;

/* ---- MLPerf rule reports (ml/rules.c fills them; the writers print them) */

enum sb_ml_verdict { SB_ML_CLOSED = 0, SB_ML_OPEN = 1, SB_ML_INVALID = 2 };

#define SB_ML_RULES_MAX 16

struct sb_ml_rule {
	char name[32];            /* "dataset_size", "au", ... */
	char expected[64];
	char actual[64];
	bool pass;
	enum sb_ml_verdict fail_as; /* what a failure costs: OPEN or INVALID */
	char fix[192];            /* empty when passed */
};

struct sb_ml_rule_report {
	enum sb_ml_verdict verdict;
	size_t n;
	struct sb_ml_rule rules[SB_ML_RULES_MAX];
};

const char *sb_ml_verdict_name(enum sb_ml_verdict v); /* "CLOSED", "OPEN", "INVALID" */
/* The rule named name, or NULL. */
const struct sb_ml_rule *sb_ml_rule_get(const struct sb_ml_rule_report *rep, const char *name);

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
};

struct sb_ml_epoch_result {
	unsigned epoch;           /* 1-based */
	size_t steps;             /* steps of all accelerators */
	double duration_s;
	double au_pct, samples_per_s, mb_per_s;
	/* mean step period (compute end to compute end) of the fastest and the
	 * slowest accelerator: equal under the step barrier */
	double step_s_min, step_s_max;
	size_t eval_steps;        /* eval phase after this epoch (0: none) */
	double eval_duration_s;
};

/* a checkpoint written during training */
struct sb_ml_train_ckpt {
	unsigned epoch;
	uint64_t step;            /* DLIO's step number in its folder name */
	uint64_t bytes;
	double duration_s;        /* create + write + fsync + close */
	char path[256];
};

struct sb_ml_train_result {
	double au_pct, samples_per_s, mb_per_s; /* mean of the epochs */
	double au_target_pct;
	bool au_met;
	struct sb_ml_epoch_result *epochs;
	unsigned nepochs;
	uint64_t dataset_bytes;
	unsigned dataset_files;
	bool dataset_created;     /* storbench generated it for this run */
	size_t steps_per_epoch;   /* per accelerator */
	char data_dir[256];
	/* the pipeline: accelerators x read_threads readers, each prefetching
	 * prefetch_per_reader batches; readers_did_io counts the reader threads
	 * whose statistics show read bytes */
	unsigned accelerators, read_threads, readers, readers_did_io, prefetch_per_reader;
	struct sb_ml_train_ckpt *ckpts;
	unsigned nckpts;
};

struct sb_ml_result {
	unsigned workload;        /* enum sb_workload */
	struct sb_ml_ckpt_result ckpt;
	struct sb_ml_train_result train;
	bool has_rules;           /* rules=mlperf */
	struct sb_ml_rule_report rules;
	struct sb_kv_result *kv;  /* workload=kvcache (stats/kvres.h); else NULL */
};

void sb_ml_result_free(struct sb_ml_result *m);
#endif
