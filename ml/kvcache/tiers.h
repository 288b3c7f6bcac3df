/* tiers.h: kv_profile=mlperf's cache: entries (a whole context's KV each)
 * in up to three tiers, GPU, CPU and NVMe, with the waterfall LRU of the
 * official benchmark's MultiTierCache (kv_cache_benchmark/kv_cache/cache.py):
 * a new entry goes to the first tier that makes room for it; a non-last
 * tier makes room down to 80% of its limit by demoting its least recently
 * used entries to the next tier (read there, written below, deleted), the
 * last tier (NVMe) down to its full limit by deleting them; an entry over
 * 95% of a non-last tier's limit skips it; a tier under 5% full takes the
 * entry anyway.  The caller serializes every call (one lock); the I/O of
 * each tier is the caller's, through sb_kvt_io.  After sb_kvt_set_lock the
 * calls drop that lock around each sb_kvt_io call, like cache.py's
 * per-entry locks: an entry being read is pinned (readers share it; it is
 * not evicted, an eviction takes the next unpinned LRU entry), an entry
 * being written, demoted or deleted is busy (no one else reads or writes
 * it: they wait for it); a tier whose entries are all pinned or busy takes
 * nothing, so with several users where an entry lands depends on timing,
 * as in the official benchmark.  The io callbacks get a copy of the entry
 * and are called without the lock. */
#ifndef SB_ML_KV_TIERS_H
#define SB_ML_KV_TIERS_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"

enum { SB_KVT_GPU, SB_KVT_CPU, SB_KVT_NVME, SB_KVT_N };
/* how an entry is read: for the per-kind hit counters (cache.py access_cache's
 * cache_type: 'user', 'multi_turn', 'system': a request with a system prompt) */
enum sb_kvt_kind { SB_KVT_USER, SB_KVT_MULTI_TURN, SB_KVT_SYSTEM };

/* one latency distribution, ns */
struct sb_kvt_acc {
	struct sb_hist h;
	uint64_t n, max;
	double sum;
};
void sb_kvt_acc_add(struct sb_kvt_acc *a, uint64_t ns);

struct sb_kvt_entry {
	uint64_t bytes, tokens;
	int tier;                /* SB_KVT_*, -1: not cached (evicted or never written) */
	uint32_t prev, next;     /* LRU links in its tier (SB_KVT_NIL: none) */
	uint32_t pin;            /* reads in flight */
	bool busy;               /* a write, demotion or delete in flight (not in a list) */
};
#define SB_KVT_NIL UINT32_MAX

/* a tier operation's time, ns: total, device and host as backends.py splits them */
struct sb_kvt_time { uint64_t total, device, host; };

struct sb_kvt_io {
	void *ctx;
	int (*write)(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t);
	int (*read)(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier, struct sb_kvt_time *t);
	int (*drop)(void *ctx, uint32_t id, const struct sb_kvt_entry *e, int tier);
};

/* the counters of cache.py's stats dict */
struct sb_kvt_stats {
	uint64_t hits, misses, evictions, offloads_cpu, offloads_storage;
	uint64_t prefill_writes, decode_reads, multi_turn_hits, user_hits, system_hits;
	uint64_t rd_bytes[SB_KVT_N], wr_bytes[SB_KVT_N];
	uint64_t read_ops, write_ops, read_bytes, write_bytes;
	double storage_tokens;
	struct sb_kvt_acc rd[SB_KVT_N], wr[SB_KVT_N];   /* total */
	struct sb_kvt_acc rd_dev, rd_host, wr_dev, wr_host; /* NVMe's split */
};

struct sb_kvt {
	struct sb_kvt_entry *e;
	uint32_t ne, cap;
	uint32_t head[SB_KVT_N], tail[SB_KVT_N]; /* MRU, LRU */
	uint64_t used[SB_KVT_N], limit[SB_KVT_N], entries[SB_KVT_N];
	bool has[SB_KVT_N];
	uint64_t bytes_per_token;   /* whole model, for storage_tokens_processed */
	unsigned tp;                /* tensor parallel: the entry holds 1/tp */
	struct sb_kvt_stats st;
	struct sb_kvt_io io;
	pthread_mutex_t *lock;      /* dropped around the I/O; NULL: never */
	pthread_cond_t cond;        /* an entry's pin or busy went away */
	uint32_t moving[SB_KVT_N];  /* busy entries counted in used[] but in no list */
};

/* limits in bytes; gpu 0: no GPU tier */
int sb_kvt_init(struct sb_kvt *c, uint64_t gpu, uint64_t cpu, uint64_t nvme, uint64_t bytes_per_token,
		unsigned tp, const struct sb_kvt_io *io);
void sb_kvt_free(struct sb_kvt *c);
/* from now on, every call is made with *lock held, and drops it around I/O */
void sb_kvt_set_lock(struct sb_kvt *c, pthread_mutex_t *lock);
/* a new entry id for tokens tokens (not cached yet); UINT32_MAX on ENOMEM */
uint32_t sb_kvt_new(struct sb_kvt *c, uint64_t tokens);
/* a not yet cached entry's new token count (a prefix hit shortened it) */
void sb_kvt_resize(struct sb_kvt *c, uint32_t id, uint64_t tokens);
/* allocate_cache: write entry id to the first tier with room; *ns its
 * write's total time; 0 or -errno (an I/O error) */
int sb_kvt_alloc(struct sb_kvt *c, uint32_t id, bool prefill, uint64_t *ns);
/* access_cache: read entry id where it is; 1 hit, 0 miss, -errno; *ns the
 * read's total time */
int sb_kvt_access(struct sb_kvt *c, uint32_t id, bool decode, enum sb_kvt_kind kind, uint64_t *ns);
/* zero the counters and latencies (after decode-only's pre-population) */
void sb_kvt_reset(struct sb_kvt *c);
#endif
