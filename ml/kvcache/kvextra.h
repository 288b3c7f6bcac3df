/* kvextra.h: the official benchmark's shared system prompts
 * (kv_cache/prefix_cache.py) and RAG retrieval (kv_cache/rag.py) as pure
 * draws, for every KV profile: kv_profile=blocks calls them from
 * kvmodel.c; the mlperf profile may call them the same way.  Each takes
 * the caller's uniform draws (in [0, 1)) so the caller's seed decides. */
#ifndef SB_ML_KVEXTRA_H
#define SB_ML_KVEXTRA_H
#include <stdint.h>

/* PrefixMatcher.COMMON_SYSTEM_PROMPTS: token_count = len(prompt.split()) */
#define SB_KV_SYSPROMPTS 3
extern const uint32_t sb_kv_sysprompt_tokens[SB_KV_SYSPROMPTS]; /* 5, 9, 6 */

/* detect_system_prompt: with probability prob (u < prob) the system prompt
 * pick % 3; its tokens, taken off a prompt of `prompt` tokens (remaining =
 * max(0, prompt - count)); 0: no shared prefix */
uint32_t sb_kv_sysprompt(double prob, double u, uint64_t pick, uint32_t prompt);

/* _ingest_rag_documents: document token range by model size (num_layers
 * >= 64: 1024-4096, else 4000-12000); ingest_document: tokens per chunk
 * max(1, min(chunk, 256 MiB / bytes_per_token)) */
void sb_kv_rag_doc_range(unsigned layers, unsigned *min, unsigned *max);
unsigned sb_kv_rag_chunk_tokens(unsigned chunk, uint64_t bytes_per_token);

/* retrieve_chunks, 'zipfian': min(k, n) of n chunks without replacement,
 * chunk i weighing 1 / (i + 1) (n capped at SB_KV_RAG_MAXPICK); draw(ctx)
 * gives a uniform value per pick.  Returns the count written to out. */
#define SB_KV_RAG_MAXPICK 4096

/* the counts of both profiles (JSON "system_prompt" and "rag"): shared
 * system prompts found / not found in the cache and the prompt tokens they
 * saved; RAG documents ingested, their chunks, retrievals, chunks read and
 * how they were found (blocks profile: blocks; mlperf: chunk entries,
 * mem = GPU or CPU tier, disk = NVMe) */
struct sb_kv_extra {
	uint64_t prefix_hits, prefix_misses, prefix_tokens_saved;
	uint64_t rag_docs, rag_chunks, rag_retrievals, rag_chunks_read;
	uint64_t rag_mem_hits, rag_disk_hits, rag_misses;
};
uint32_t sb_kv_rag_pick(double (*draw)(void *), void *ctx, uint32_t n, uint32_t k, uint32_t *out);
#endif
