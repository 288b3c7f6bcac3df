/* tier.h: the state of a tiered checkpoint run (checkpoint_cache_folder=),
 * shared by ml/checkpoint/tiered.c (the write loop, the flush, eviction) and
 * ml/checkpoint/tierred.c (the cache tier's layout and its redundancy: partner copies,
 * xor parity).  Internal to ml/.
 *
 * Cache tier layout (rank r, checkpoint k, set s):
 *   <cache>/rank<r>/global_epoch1_step<k+1>/<base>                  rank r's files
 *   <cache>/rank<(r+1)%n>/global_epoch1_step<k+1>/partner_rank<r>/<base>  partner
 *   <cache>/xor/global_epoch1_step<k+1>/set<s>.xor                   xor parity
 * The parity of set s is the XOR of the byte streams of its ranks (each
 * rank's files of the checkpoint concatenated in byte-wise order of their
 * names), each padded with zeroes to the longest. */
#ifndef SB_ML_TIER_H
#define SB_ML_TIER_H
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>

#include "ml/checkpoint/ckpt.h"

struct sb_ml_tier {
	char cache[PATH_MAX - 256];
	unsigned nsets;
	uint64_t *rank_bytes;            /* per rank, one checkpoint */
	size_t *order;                   /* the files, each rank's sorted by name */
	struct sb_scratch_id cache_id, xor_id, *rank_id; /* rank_id: per rank */
	struct sb_scratch_id *step_id;   /* [k * ranks + r]: rank r's step folder */
	struct sb_scratch_id *pdir_id;   /* [k * ranks + r]: partner_rank<r> folder */
	struct sb_scratch_id *xstep_id;  /* [k]: xor/ step folder */
	struct sb_scratch_id *file_id;   /* [k * nfiles + i]: cache files */
	struct sb_scratch_id *part_id;   /* [k * nfiles + i]: partner copies */
	struct sb_scratch_id *par_id;    /* [k * nsets + s]: parity files */
	/* the flush (mu guards what both the application and the flusher touch) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool locks, flusher_on, quit;
	pthread_t flusher;
	unsigned written, queued, next;  /* checkpoints in the cache / handed over / flushed */
	bool *in_cache, *flushed;        /* per checkpoint */
	uint64_t *c0, *c1;               /* per checkpoint: the compute before it */
	uint64_t *ready, *f0, *f1;       /* per checkpoint: in the cache, flush start, end */
	atomic_int err;                  /* the first flush error (errno) and where */
	char err_what[64], err_path[PATH_MAX];
	/* the checkpoint being flushed */
	int *src, *dst;                  /* per file */
	uint64_t *req_first;             /* per file: its first request; [nfiles] = all */
	atomic_uint_fast64_t req_next;
	uint64_t redundancy_bytes;       /* per checkpoint */
};

/* mkdir path, taking its identity (0 or -errno; may_exist: EEXIST is 0) */
int sb_ml_tier_mkdir(struct sb_wl_job *j, const char *path, struct sb_scratch_id *id,
		     bool may_exist);
/* record the first error of the flush side (thread-safe) */
void sb_ml_tier_fail(struct sb_ml_tier *t, int e, const char *what, const char *path);
/* t->order: each rank's files sorted by base name (the xor streams) */
void sb_ml_tier_order(struct sb_ml_ckpt *c);
/* rank r's step folder of checkpoint k in the cache */
void sb_ml_tier_step(const struct sb_ml_ckpt *c, unsigned r, unsigned k, char *buf, size_t len);
/* the partner copy of file i / the partner folder of rank r / parity of set s */
void sb_ml_tier_ppath(const struct sb_ml_ckpt *c, unsigned k, size_t i, char *buf, size_t len);
void sb_ml_tier_pdir(const struct sb_ml_ckpt *c, unsigned r, unsigned k, char *buf, size_t len);
void sb_ml_tier_xstep(const struct sb_ml_ckpt *c, unsigned k, char *buf, size_t len);
void sb_ml_tier_xpath(const struct sb_ml_ckpt *c, unsigned k, unsigned s, char *buf, size_t len);
/* the cache folders of checkpoint k (before its write) and its redundancy
 * (after); 0 or -errno, reported */
int sb_ml_tier_dirs(struct sb_wl_job *j, unsigned k);
int sb_ml_tier_redundancy(struct sb_wl_job *j, unsigned k);
/* remove checkpoint k from the cache (keep: mark it kept instead) */
void sb_ml_tier_evict(struct sb_wl_job *j, unsigned k, bool keep);
#endif
