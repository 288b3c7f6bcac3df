/* kvmodel.h: the KV cache model of workload=kvcache: the request stream
 * (arrivals, prompt and output lengths, which requests continue an earlier
 * conversation) drawn from the seed, and the two LRU tiers (memory, then
 * disk slots) with what each request reads and writes.  Pure bookkeeping,
 * no I/O: ml/kvcache/kvcache.c calls sb_kv_next under its lock, in request order,
 * and does the planned I/O outside it, so every count here depends on the
 * seed and options alone.
 *
 * A conversation is a list of full KV blocks (block_tokens each; a partial
 * tail is recomputed by the next turn).  A request continues one (chosen
 * uniformly among all earlier ones) with probability reuse, else starts a
 * new one.  Its prefix is the leading blocks still in a tier: memory (no
 * I/O), or disk (read, then promoted into memory once the whole prefix is
 * looked up; the disk copy stays, so a later eviction of it writes
 * nothing).  Blocks after the
 * first lost one are dropped and recomputed.  New full blocks (prompt and
 * output) go to memory; memory's least recently used blocks are evicted to
 * disk (written unless a copy is there); disk's least recently used are
 * dropped.  With no memory tier new blocks are written to disk directly.
 *
 * With a trace (cfg.trace, ml/kvcache/kvtrace.h) the requests are the
 * trace's, in order: arrival, prompt and output from it, a turn after the
 * first continues its trace conversation (reuse is not drawn), and the
 * stream ends with the trace (sb_kv_next: -ENODATA).  cfg.log, when set,
 * gets a line per request. */
#ifndef SB_ML_KVMODEL_H
#define SB_ML_KVMODEL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ml/kvcache/kvextra.h"
#include "run/rng.h"

struct sb_outfile;

struct sb_kv_cfg {
	unsigned block_tokens;
	uint64_t mem_blocks, disk_blocks;  /* tier sizes in blocks (0: none) */
	double reuse;                      /* 0-1 */
	double arrival_rate;               /* requests/s; 0: closed loop */
	unsigned prompt_mean, prompt_sd, prompt_min, prompt_max;
	unsigned output_mean, output_sd, output_min, output_max;
	uint64_t seed;
	struct sb_kv_trace *trace;         /* owned by the model once init takes it; NULL: none */
	bool trace_timed;                  /* the trace's arrivals are kept (open loop) */
	FILE *log;                         /* logf->f; NULL: none */
	struct sb_outfile *logf;           /* kv_request_log= (os/outfile.h), owned likewise */
	/* shared-prefix caching (prefix_cache.py): with this probability a
	 * request starts with one of the official three system prompts (5, 9
	 * or 6 tokens: its words), dropped from its prompt; 0: off */
	double sysprompt_prob;
	/* RAG (rag.py): rag_docs documents of rag_doc_min..max tokens stored
	 * as chunks of rag_chunk_tokens with the first request; then with
	 * probability rag_prob a request reads rag_top_k chunks of one
	 * document (zipfian: chunk i weighs 1 / (i + 1)); rag_docs 0: off */
	unsigned rag_docs, rag_doc_min, rag_doc_max, rag_chunk_tokens, rag_top_k;
	double rag_prob;
};

/* what the shared-prefix and RAG parts did (the official PrefixCacheManager
 * and RAGDocumentManager stats) */

/* one request's plan (buffers owned by the caller's struct, grown by
 * sb_kv_next; free with sb_kv_req_free) */
struct sb_kv_req {
	uint64_t index;
	double arrival_s;          /* since the start (open loop) */
	unsigned prompt, output;   /* new tokens */
	bool reused;               /* drawn to continue a conversation */
	uint32_t trace_conv, turn; /* from the trace (else the model's conversation, 0) */
	uint32_t prefix_tokens;    /* system-prompt tokens taken off the prompt (0: none) */
	uint32_t rag_chunks;       /* RAG chunks read */
	bool hit;                  /* reused, and its whole earlier KV was found */
	uint64_t cached_tokens, computed_tokens;
	uint64_t mem_hits, disk_hits, misses, looked_up, blocks_new;
	uint64_t *rd, nrd, *wr, nwr;       /* disk slots to read, to write */
	uint64_t evict_writes, disk_evictions;
	uint64_t cap_rd, cap_wr;
	uint64_t *promo, npromo, cap_promo; /* blocks read from disk, to promote */
};

struct sb_kv_blk {
	uint32_t mprev, mnext, dprev, dnext; /* LRU links; SB_KV_NIL: none */
	int64_t slot;                        /* disk slot, -1: not on disk */
	bool inmem;
};

struct sb_kv_conv {
	uint64_t tokens;
	uint32_t *blk;
	uint32_t n, cap;
};

struct sb_kv_model {
	struct sb_kv_cfg cfg;
	struct sb_rng rng;
	double t;                         /* arrival clock, s */
	uint64_t next_index;
	struct sb_kv_blk *b;
	uint32_t nb, capb;
	struct sb_kv_conv *conv;
	uint64_t nconv, capconv;
	uint32_t mhead, mtail, dhead, dtail; /* MRU head, LRU tail */
	uint64_t nmem, ndisk;
	uint64_t *freeslot, nfree, capfree;
	uint64_t next_slot;               /* slots ever used: the file's size in blocks */
	size_t tpos;                      /* the trace's next request */
	uint64_t *tconv;                  /* trace conversation -> model conversation */
	struct sb_kv_conv *chunk;         /* RAG chunks, rag_cdoc[d]..rag_cdoc[d+1] of doc d */
	uint64_t nchunk, capchunk;
	uint64_t *rag_cdoc;
	struct sb_kv_extra x;
};

#define SB_KV_NIL UINT32_MAX

int sb_kv_model_init(struct sb_kv_model *m, const struct sb_kv_cfg *cfg);
void sb_kv_model_free(struct sb_kv_model *m);
/* Draw the next request and update the tiers; 0 or -ENOMEM. */
int sb_kv_next(struct sb_kv_model *m, struct sb_kv_req *r);
void sb_kv_req_free(struct sb_kv_req *r);
/* a trace drove the stream and is used up: no request is left */
bool sb_kv_trace_done(const struct sb_kv_model *m);
/* requests arrive at their arrival_s (Poisson or a timed trace), not when a
 * worker is free */
bool sb_kv_open_loop(const struct sb_kv_model *m);
/* the shared-prefix and RAG counts so far */
const struct sb_kv_extra *sb_kv_extra_stats(const struct sb_kv_model *m);
/* take back what one planned request added to the per-request extra counts
 * (system-prompt hits, misses and tokens, RAG retrievals and chunk reads):
 * it did not run (runtime= ended before its arrival, or a stop).  before
 * and after: sb_kv_extra_stats' copies from around its sb_kv_next, under
 * the same lock. */
void sb_kv_extra_undo(struct sb_kv_model *m, const struct sb_kv_extra *before,
		      const struct sb_kv_extra *after);
#endif
