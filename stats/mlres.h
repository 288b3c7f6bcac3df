/* mlres.h: the results of one ML workload job (workload=checkpoint or
 * train), hung off its sb_job_result as ->ml.  ml/ fill it; the
 * writers in output/ only read it.  Units in the field names; GB = 1e9
 * bytes, GiB = 2^30 bytes. */
#ifndef SB_MLRES_H
#define SB_MLRES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

struct sb_ml_ckpt_point {
	unsigned index;           /* 0-based checkpoint number */
	double duration_s;        /* rank0_s, or slowest_s with checkpoint_rank_sync */
	double gbps, gibps;       /* checkpoint bytes / duration */
	double rank0_s;           /* rank 0's own start to end (DLIO's default) */
	double slowest_s;         /* first start to last end over the ranks */
	uint64_t first_wall_ns, last_wall_ns; /* the same on the wall clock (MPI merge) */
};

struct sb_ml_ckpt_phase {
	struct sb_ml_ckpt_point *v; /* one per checkpoint written / read */
	unsigned n;
	double mean_duration_s, mean_gbps, mean_gibps;
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
};

void sb_ml_result_free(struct sb_ml_result *m);
#endif
