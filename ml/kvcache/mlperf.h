/* mlperf.h: kv_profile=mlperf, the official MLCommons KV-cache benchmark's
 * storage behaviour (kv_cache_benchmark/kv_cache/benchmark.py,
 * process_requests and generate_requests; cache.py; backends.py):
 * kv_users users, each of a QoS class (interactive, responsive, batch),
 * send requests (think time apart, or back to back); workers serve the
 * ready request of the highest QoS priority first (the priority queue).  A
 * request continuing a conversation reads every earlier turn's entry, writes
 * its own entry (a whole context's KV) at prefill, reads it at decode and
 * re-reads it every kv_decode_reread_tokens output tokens.  Entries live in
 * the tiers of tiers.h; the NVMe tier is one .npy file per entry under
 * <directory>/kvcache (mlio.c).  The cache bookkeeping of all workers is
 * serialized under the job's lock; the entries' I/O (tiers.c drops the lock
 * around it, pinning the entries) and the generation time run outside it,
 * so kv_users workers have up to kv_users entry I/Os in flight. */
#ifndef SB_ML_KV_MLPERF_H
#define SB_ML_KV_MLPERF_H
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "ml/kvcache/kvextra.h"
#include "ml/kvcache/tiers.h"
#include "ml/kvcache/result.h"
#include "run/rng.h"
#include "run/thread.h"

struct sb_wl_job;
struct sb_tstats;
struct sb_kv_job;
struct sb_kv_opts;

struct sb_kv_user {
	uint64_t arrive_ns;      /* its next request's arrival */
	unsigned qos;            /* SB_KV_QOS_* */
	unsigned ctx, gen;       /* its context and generation lengths, tokens */
	uint64_t think_us;       /* its think time */
	bool busy;               /* trace replay: a request of it is being served */
	bool has_conv;           /* conv is its current conversation */
	uint32_t conv;           /* index in sb_kv_ml.convs */
	uint32_t queued;         /* its requests issued and not yet done */
};

/* a conversation: its turns' entries in the order they were issued
 * (ConversationManager.add_turn appends a turn's key when the request is
 * made, before it is served) */
struct sb_kv_mconv {
	uint32_t *turn, n, cap;
	uint64_t last;           /* when a turn was last added (LRU order) */
	bool dead;               /* evicted: its turns are no longer looked up */
};
/* every conversation made; at most SB_KV_MAX_CONVS of them live
 * (conversation.py:49-76: max_conversations 1000, the least recently
 * used one evicted when a new one would pass it) */
#define SB_KV_MAX_CONVS 1000
struct sb_kv_mconvs {
	struct sb_kv_mconv *c;
	uint32_t n, cap;
	uint32_t live[SB_KV_MAX_CONVS], nlive;
	uint64_t clock;
};

/* one request */
struct sb_kv_mreq {
	unsigned user, qos;
	uint32_t id;             /* its entry */
	uint32_t conv, turn;     /* its conversation, its turn's index there (0: the first) */
	uint64_t ctx, gen, arrive, seq;
	bool prefill_only;
};

/* the requests issued and not yet taken by a worker (at most SB_KV_MQ_MAX) */
#define SB_KV_MQ_MAX (1u << 20)
struct sb_kv_mq { struct sb_kv_mreq *r; size_t n, cap; uint64_t seq; };

/* Hooks for what benchmark.py does beside the synthetic users (NULL: not
 * used), called under the job's lock:
 * - next: a trace replaces the drawn request (ShareGPT turns, BurstGPT rows):
 *   fill *ctx and *gen (tokens), *arrive_ns (left as it is: now) and
 *   *new_conv (it starts a conversation) for user's next request, or
 *   return 1 when the trace is over (the job ends), -errno on error;
 * - prefix: process_requests step 1 (a shared-prefix hit): read the prefix
 *   entry through sb_kvt_access, lower *ctx, add its time to *ns;
 * - rag: step 4 (RAG chunk reads), its time added to *ns. */
struct sb_kv_ml_hooks {
	void *ctx;               /* next's */
	void *xctx;              /* prefix's and rag's */
	int (*next)(void *ctx, unsigned user, uint64_t *ctx_tokens, uint64_t *gen, uint64_t *arrive_ns,
		    bool *new_conv);
	int (*prefix)(void *ctx, struct sb_kvt *c, unsigned user, uint64_t *ctx_tokens, uint64_t *ns);
	int (*rag)(void *ctx, struct sb_kvt *c, unsigned user, uint64_t *ns);
};

struct sb_kv_ml {
	struct sb_kv_ml_hooks hooks;
	struct sb_kvt c;
	struct sb_rng rng;
	struct sb_kv_user *u;
	unsigned nusers;
	struct sb_kv_mq q;       /* synthetic users' queued requests (mlqueue.c) */
	struct sb_kv_mconvs convs;
	uint64_t started, next_slot_ns, t0_ns;
	bool trace_done;         /* hooks.next said the trace is over */
	void *trace_ctx;         /* mltrace.c's, freed at release */
	void *extra_ctx;         /* mlextra.c's */
	struct sb_kv_extra x;    /* system prompt and RAG counts */
	uint64_t sys_tokens;     /* the system prompts' whole token counts (bytes_saved's) */
	uint32_t *prepop;        /* decode-only: the pre-populated entries */
	unsigned nprepop;
	/* the files */
	char dir[PATH_MAX - 64];
	char hdr_descr[16];
	unsigned char *buf;      /* SB_KV_ML_BUF bytes of noise, stamped per entry */
	uint64_t seed;           /* the entries' stamps' (from randseed=) */
	unsigned char *rbuf;     /* what is read into */
	uint64_t *made;          /* bitmap: entry ids with a file of ours */
	uint32_t made_cap;
	unsigned layers, kv_heads, head_dim, elem_bytes;
	bool nodiskio;           /* ioengine=null: no file I/O */
	/* ioengine=s3: each entry is the object at its path, PUT and GET whole
	 * through the engine (struct sb_engine_ops object_*), deleted when evicted */
	const struct sb_engine_ops *objects;
	const void *eopts;       /* the job's engine options */
	const char *job;         /* the job's name, for the files' marks */
	pthread_mutex_t *lock;   /* the job's, guarding made[] once workers run */
	/* the request-level results */
	uint64_t completed, tokens_generated, mt_hits, mt_misses;
	double storage_io_s, generation_s;
	struct sb_kvt_acc e2e, storage, generation;
	struct sb_kvt_acc qos_lat[SB_KV_NQOS];
	uint64_t qos_n[SB_KV_NQOS], qos_viol[SB_KV_NQOS];
	int err;                 /* first I/O error (-errno) */
};

#define SB_KV_ML_BUF (4u << 20)

/* mlperf.c */
int sb_kv_ml_prepare(struct sb_wl_job *j, struct sb_kv_job *k);
void *sb_kv_ml_worker(void *arg);
int sb_kv_ml_begin(struct sb_wl_job *j, struct sb_kv_job *k);
void sb_kv_ml_release(struct sb_kv_job *k);
/* mlqueue.c: the official user model (users issue on their think timer,
 * several requests of a user may be queued) */
int sb_kv_mq_push(struct sb_kv_mq *q, struct sb_kv_mreq *r);
bool sb_kv_mq_pop(struct sb_kv_mq *q, struct sb_kv_mreq *out);
void sb_kv_mq_free(struct sb_kv_mq *q);
uint32_t sb_kv_conv_new(struct sb_kv_mconvs *cs);
int sb_kv_conv_add(struct sb_kv_mconvs *cs, uint32_t conv, uint32_t id, uint32_t *turn);
void sb_kv_convs_free(struct sb_kv_mconvs *cs);
int sb_kv_ml_conv_turn(struct sb_kv_ml *ml, struct sb_kv_user *u, bool fresh, uint32_t max_turns,
		       struct sb_kv_mreq *r);
int sb_kv_ml_issue(const struct sb_kv_opts *o, struct sb_kv_ml *ml, uint64_t now, uint64_t end_ns,
		   uint64_t *wake);
int sb_kv_ml_turn_reads(struct sb_kv_ml *ml, const struct sb_kv_mreq *r, uint64_t *ns);
/* a user's think time x U(0.8, 1.2), ns */
uint64_t sb_kv_ml_think_ns(struct sb_kv_ml *ml, const struct sb_kv_user *u);
/* mltrace.c: kv_trace= and kv_request_log= (hooks.next) */
int sb_kv_ml_trace_init(struct sb_kv_job *k);
/* mlextra.c: system prompts and RAG (hooks.prefix, hooks.rag); the RAG
 * documents are written at begin */
int sb_kv_ml_extra_init(struct sb_kv_job *k);
int sb_kv_ml_rag_ingest(struct sb_kv_ml *ml);
void sb_kv_ml_extra_free(struct sb_kv_ml *ml);
/* mlio.c: the tiers' I/O, and removing the files at the end */
extern const struct sb_kvt_io sb_kv_ml_io;
/* the calling thread's results (worker t; NULL: none, the buffers freed) */
void sb_kv_ml_io_thread(struct sb_thread *t, unsigned char *rbuf);
int sb_kv_ml_files_init(struct sb_kv_ml *ml, const char *dir, unsigned elem_bytes);
/* entry id's n bytes of data (unique 4 KiB blocks, cache.py _apply_xor_stamp) */
void sb_kv_ml_entry_data(const struct sb_kv_ml *ml, uint32_t id, unsigned char *dst, uint64_t n);
void sb_kv_ml_files_remove(struct sb_kv_ml *ml, bool keep);
/* before the run: no kv_*.npy in dir yet (a rerun over a killed run's
 * files says so and names storbench --cleanup); 0 or -EEXIST (said, with
 * where) */
int sb_kv_ml_files_check(const char *dir, const char *where);
/* mlstats.c: the official metrics and the storage assessment */
void sb_kv_ml_results(const struct sb_kv_job *k, struct sb_kv_result *kv);
#endif
