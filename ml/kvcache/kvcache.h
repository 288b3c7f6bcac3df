/* kvcache.h: the state of a workload=kvcache job shared by ml/kvcache/kvcache.c
 * (the workers, the tier file) and ml/kvcache/kvstats.c (the results and the
 * MLPerf rules); see ml/kvcache/kvmodel.h for the cache model. */
#ifndef SB_ML_KVCACHE_H
#define SB_ML_KVCACHE_H
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/option.h"
#include "ml/kvcache/kvmodel.h"
#include "ml/kvcache/result.h"
#include "os/scratch.h"
#include "stats/hist.h"

struct sb_wl_job;
struct sb_kv_ml;
struct sb_kv_opts;

/* one latency distribution of one worker, ns */
struct sb_kv_acc {
	struct sb_hist h;
	uint64_t n, min, max;
	double sum;
};

struct sb_kv_worker {
	struct sb_wl_job *j;
	unsigned index;
	pthread_t tid;
	bool started;
	struct sb_kv_req req;      /* the request it serves */
	struct sb_kv_extra x0, x1; /* the model's extra counts around its planning */
	struct sb_kv_acc latency, ttft, storage_ttft;
};

/* the model's counts summed over the requests (under the lock) */
struct sb_kv_totals {
	uint64_t requests, reuse_requests, prefix_hits;
	uint64_t looked_up, mem_hits, disk_hits, misses, blocks_new;
	uint64_t disk_reads, disk_writes, evict_writes, disk_evictions;
	uint64_t tokens_prompt, tokens_output, tokens_cached, tokens_computed;
};

struct sb_kv_job {
	const struct sb_kv_opts *opts; /* the job's kvcache options (ml/kvcache/opts.h) */
	struct sb_kv_model m;
	pthread_mutex_t lock;       /* m and tot */
	bool lock_init;
	struct sb_kv_totals tot;
	struct sb_kv_worker *w;     /* nw */
	unsigned nw;                /* concurrency=, or min(kv_users, 500) with kv_profile=mlperf */
	struct sb_kv_ml *ml;        /* kv_profile=mlperf (ml/kvcache/mlperf.h); NULL: blocks */
	uint64_t bytes_per_token, block_bytes, tier_bytes;
	uint64_t start_ns;
	volatile bool failed;
	char folder[PATH_MAX - 64];
	char path[PATH_MAX];        /* the tier file; "" without a disk tier */
	struct sb_scratch_id folder_id, file_id;
};

enum { SB_KV_PROFILE_BLOCKS = 0, SB_KV_PROFILE_MLPERF = 1 };

/* 2 (K and V) x layers x kv_heads x head_dim x bytes per element */
uint64_t sb_kv_bytes_per_token(unsigned layers, unsigned kv_heads, unsigned head_dim,
			       unsigned elem_bytes);
/* The time rule of the arrival waits (both profiles): the instant the
 * job's runtime= ends (start_ns + runtime, saturated; UINT64_MAX without
 * runtime=), and the wait for a request's arrival: 0 when it arrived in
 * time, 1 when runtime= ends first (the wait ends then and the request is
 * not served or counted), -EINTR when a stop came first. */
struct sb_jobspec;
/* The job's simulated users: kv_users=, else concurrency= (at least 1);
 * the one place kv_users= becomes a user count (ml/kvcache/rules.c) */
unsigned sb_kv_users(const struct sb_jobspec *s);
uint64_t sb_kv_end_ns(const struct sb_kv_job *k, const struct sb_jobspec *s);
int sb_kv_wait_arrival(const struct sb_kv_job *k, const struct sb_jobspec *s, uint64_t arrive_ns);
/* add request r's counts to t (a request that ran) */
void sb_kv_count(struct sb_kv_totals *t, const struct sb_kv_req *r);
/* fill sb_ml_res(j)->kv (and the rule report with rules=mlperf) after the run */
void sb_kv_results(struct sb_wl_job *j);
/* fill sb_ml_res(j)->rules from the run's result kv (ml/kvcache/rules.c) */
struct sb_kv_result;
void sb_kv_rules(struct sb_wl_job *j, const struct sb_kv_result *kv);
/* the workload's row (kvcache.c), its option rows (opts.c) and its
 * parse-time check (check.c), listed by ml/registry.c */
extern const struct sb_workload_ops sb_workload_kvcache;
/* what the conformance suite runs of it (conform.c) */
extern const struct sb_wl_conformance sb_kv_conformance;
struct sb_jobctx;
extern const struct sb_option sb_kv_rows[];
extern const unsigned sb_kv_rows_n;
unsigned sb_ml_check_kv(struct sb_jobctx *c);
/* kv_profile='s checks (ml/kvcache/mlcheck.c), called by sb_ml_check_kv */
unsigned sb_kv_check_mlperf(struct sb_jobctx *c);
#endif
