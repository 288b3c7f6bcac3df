/* kvextra.c: shared system prompts and RAG retrieval draws (see kvextra.h). */
#include <stdlib.h>

#include "ml/kvcache/kvextra.h"

const uint32_t sb_kv_sysprompt_tokens[SB_KV_SYSPROMPTS] = {
	5, /* "You are a helpful assistant." */
	9, /* "You are an AI assistant helping with coding tasks." */
	6, /* "You are a professional writing assistant." */
};

uint32_t sb_kv_sysprompt(double prob, double u, uint64_t pick, uint32_t prompt)
{
	if (prob <= 0 || u >= prob)
		return 0;
	uint32_t n = sb_kv_sysprompt_tokens[pick % SB_KV_SYSPROMPTS];
	return n < prompt ? n : prompt;
}

void sb_kv_rag_doc_range(unsigned layers, unsigned *min, unsigned *max)
{
	*min = layers >= 64 ? 1024 : 4000;
	*max = layers >= 64 ? 4096 : 12000;
}

unsigned sb_kv_rag_chunk_tokens(unsigned chunk, uint64_t bytes_per_token)
{
	uint64_t cap = (UINT64_C(256) << 20) / (bytes_per_token ? bytes_per_token : 1);
	cap = cap ? cap : 1;
	return chunk < cap ? chunk : (unsigned)cap;
}

uint32_t sb_kv_rag_pick(double (*draw)(void *), void *ctx, uint32_t n, uint32_t k, uint32_t *out)
{
	static _Thread_local double w[SB_KV_RAG_MAXPICK];
	double sum = 0;
	n = n < SB_KV_RAG_MAXPICK ? n : SB_KV_RAG_MAXPICK;
	for (uint32_t i = 0; i < n; i++)
		sum += w[i] = 1.0 / (i + 1);
	k = k < n ? k : n;
	for (uint32_t j = 0; j < k; j++) {
		double u = draw(ctx) * sum;
		uint32_t i = 0;
		while (i + 1 < n && (w[i] == 0 || u >= w[i]))
			u -= w[i++];
		while (w[i] == 0) /* rounding at the end: the last one still left */
			i--;
		out[j] = i;
		sum -= w[i];
		w[i] = 0;
	}
	return k;
}
