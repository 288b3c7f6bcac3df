/* mlextra.c: kv_system_prompt_probability= and kv_rag_*= under
 * kv_profile=mlperf (hooks.prefix and hooks.rag of mlperf.h), as the
 * official benchmark does them (mlcommons/storage
 * kv_cache_benchmark/kv_cache/prefix_cache.py, rag.py, benchmark.py
 * process_requests steps 1 and 4), with kvextra.c's draws:
 * - a request has one of the three common system prompts with the given
 *   probability (prefix_cache.py counts it a prefix hit, its tokens saved;
 *   a request without one is a prefix miss); its tokens are taken off the
 *   request's context, and its cache key, which nothing ever writes, is
 *   looked up (a cache miss, no I/O), as process_requests step 1 does;
 * - RAG: kv_rag_docs documents are ingested before the run (each of
 *   sb_kv_rag_doc_range tokens, one entry per chunk of kv_rag_chunk_tokens,
 *   written: counted in the cache statistics); a request retrieves with
 *   probability kv_rag_probability: top_k chunks of a random document
 *   (zipfian), each read where it is (or lost if evicted).
 * Called under the job's lock; the reads and writes drop it (tiers.c). */
#include <errno.h>
#include <stdlib.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/kvextra.h"
#include "ml/kvcache/mlperf.h"

struct mlextra {
	struct sb_kv_ml *ml;
	const struct sb_kv_cfg *cfg;
	uint32_t sys[SB_KV_SYSPROMPTS];   /* their entries (SB_KVT_NIL: none yet) */
	uint32_t *chunk;                  /* the chunks' entries, doc d's from first[d] */
	uint32_t *first;                  /* ndocs + 1 */
};

static int prefix(void *ctx, struct sb_kvt *c, unsigned user, uint64_t *ctx_tokens, uint64_t *ns)
{
	struct mlextra *x = ctx;
	struct sb_kv_ml *ml = x->ml;
	double u = sb_rng_unit(&ml->rng);
	uint64_t pick = sb_rng_next(&ml->rng);
	uint32_t n = sb_kv_sysprompt(x->cfg->sysprompt_prob, u, pick, (uint32_t)*ctx_tokens);
	(void)user;
	*ns = 0;
	if (!n) {
		ml->x.prefix_misses++;
		return 0;
	}
	ml->x.prefix_hits++;
	ml->x.prefix_tokens_saved += n;
	unsigned i = (unsigned)(pick % SB_KV_SYSPROMPTS);
	ml->sys_tokens += sb_kv_sysprompt_tokens[i]; /* bytes_saved counts them all */
	if (x->sys[i] == SB_KVT_NIL && (x->sys[i] = sb_kvt_new(c, n)) == SB_KVT_NIL)
		return -ENOMEM;
	/* benchmark.py step 1 reads kv_system_<hash>, which nothing writes */
	int e = sb_kvt_access(c, x->sys[i], false, SB_KVT_USER, ns);
	*ctx_tokens -= n;
	return e < 0 ? e : 1;
}

static double draw(void *ctx)
{
	return sb_rng_unit(&((struct sb_kv_ml *)ctx)->rng);
}

static int rag(void *ctx, struct sb_kvt *c, unsigned user, uint64_t *ns)
{
	struct mlextra *x = ctx;
	struct sb_kv_ml *ml = x->ml;
	uint32_t pick[64];
	uint64_t t;
	(void)user;
	*ns = 0;
	if (sb_rng_unit(&ml->rng) >= x->cfg->rag_prob)
		return 0;
	uint64_t d = sb_rng_next(&ml->rng) % x->cfg->rag_docs;
	uint32_t c0 = x->first[d], top = x->cfg->rag_top_k < 64 ? x->cfg->rag_top_k : 64;
	uint32_t k = sb_kv_rag_pick(draw, ml, x->first[d + 1] - c0, top, pick);
	ml->x.rag_retrievals++;
	for (uint32_t j = 0; j < k; j++) {
		uint32_t id = x->chunk[c0 + pick[j]];
		int tier = c->e[id].tier;
		int e = sb_kvt_access(c, id, false, SB_KVT_USER, &t);
		if (e < 0)
			return e;
		*ns += t;
		ml->x.rag_chunks_read++;
		if (e == 0)
			ml->x.rag_misses++;
		else if (tier == SB_KVT_NVME)
			ml->x.rag_disk_hits++;
		else
			ml->x.rag_mem_hits++;
	}
	return 0;
}

/* _ingest_rag_documents: every document's chunks written before the run */
int sb_kv_ml_rag_ingest(struct sb_kv_ml *ml)
{
	struct mlextra *x = ml->extra_ctx;
	if (!x || !x->cfg->rag_docs)
		return 0;
	const struct sb_kv_cfg *g = x->cfg;
	uint32_t cap = 0, n = 0;
	uint64_t ns;
	if (!(x->first = calloc(g->rag_docs + 1, sizeof(*x->first))))
		return -ENOMEM;
	for (unsigned d = 0; d < g->rag_docs; d++) {
		uint64_t tokens = g->rag_doc_min + sb_rng_below(&ml->rng, g->rag_doc_max - g->rag_doc_min + 1);
		x->first[d] = n;
		for (uint64_t o = 0; o < tokens; o += g->rag_chunk_tokens, n++) {
			if (n == cap) {
				uint32_t *p = realloc(x->chunk, (cap = cap ? cap * 2 : 256) * sizeof(*p));
				if (!p)
					return -ENOMEM;
				x->chunk = p;
			}
			uint64_t len = tokens - o < g->rag_chunk_tokens ? tokens - o : g->rag_chunk_tokens;
			if ((x->chunk[n] = sb_kvt_new(&ml->c, len)) == SB_KVT_NIL)
				return -ENOMEM;
			int e = sb_kvt_alloc(&ml->c, x->chunk[n], false, &ns);
			if (e)
				return e;
		}
	}
	x->first[g->rag_docs] = n;
	ml->x.rag_docs = g->rag_docs;
	ml->x.rag_chunks = n;
	return 0;
}

int sb_kv_ml_extra_init(struct sb_kv_job *k)
{
	struct sb_kv_ml *ml = k->ml;
	const struct sb_kv_cfg *g = &k->m.cfg;
	if (g->sysprompt_prob <= 0 && !g->rag_docs)
		return 0;
	struct mlextra *x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->ml = ml;
	x->cfg = g;
	for (unsigned i = 0; i < SB_KV_SYSPROMPTS; i++)
		x->sys[i] = SB_KVT_NIL;
	ml->extra_ctx = ml->hooks.xctx = x;
	if (g->sysprompt_prob > 0)
		ml->hooks.prefix = prefix;
	if (g->rag_docs)
		ml->hooks.rag = rag;
	return 0;
}

void sb_kv_ml_extra_free(struct sb_kv_ml *ml)
{
	struct mlextra *x = ml->extra_ctx;
	if (x) {
		free(x->chunk);
		free(x->first);
		free(x);
	}
	ml->extra_ctx = NULL;
}
