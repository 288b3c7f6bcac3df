/* models.c: the KV shapes of model= for workload=kvcache (see models.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ml/kvcache/models.h"
#include "ml/kvcache/opts.h"
#include "parse/catalog.h"
#include "parse/jobspec.h"

/* kv_cache_benchmark/kv_cache/models.py:70-81 (mlcommons/storage 64f05b3);
 * checker: mlpstorage/config.py KVCACHE_MODELS (tiny-1b .. llama3.1-70b-instruct) */
static const struct sb_kv_arch official[] = {
	/* name, layers, hidden, heads, kv_heads, head_dim, attn, lora, rope, bytes, official, checker */
	{ "tiny-1b", 12, 1024, 8, 4, 1024 / 8, SB_KV_ATTN_MHA, 0, 0, 2, true, true },
	{ "mistral-7b", 32, 4096, 32, 8, 4096 / 32, SB_KV_ATTN_MHA, 0, 0, 2, true, true },
	{ "llama2-7b", 32, 4096, 32, 32, 4096 / 32, SB_KV_ATTN_MHA, 0, 0, 2, true, true },
	{ "llama3.1-8b", 32, 4096, 32, 8, 4096 / 32, SB_KV_ATTN_MHA, 0, 0, 2, true, true },
	{ "llama3.1-70b-instruct", 80, 8192, 64, 8, 8192 / 64, SB_KV_ATTN_MHA, 0, 0, 2, true, true },
	/* MLA: kv_lora_rank 512, qk_rope_head_dim 64; kv_dim_per_head 7168 // 128 = 56 */
	{ "deepseek-v3", 61, 7168, 128, 128, 7168 / 128, SB_KV_ATTN_MLA, 512, 64, 2, true, false },
	{ "qwen3-32b", 64, 5120, 64, 8, 128, SB_KV_ATTN_MHA, 0, 0, 2, true, false },
	{ "gpt-oss-120b", 36, 2880, 64, 8, 64, SB_KV_ATTN_MHA, 0, 0, 2, true, false },
	{ "gpt-oss-20b", 24, 2880, 64, 8, 64, SB_KV_ATTN_MHA, 0, 0, 2, true, false },
};
#define NOFFICIAL (sizeof(official) / sizeof(official[0]))

const char *const sb_kv_arch_names[] = {
	"tiny-1b", "mistral-7b", "llama2-7b", "llama3.1-8b", "llama3.1-70b-instruct", "deepseek-v3",
	"qwen3-32b", "gpt-oss-120b", "gpt-oss-20b",
	"llama3-8b", "llama3-70b", "llama3-405b", "llama3-1t", NULL,
};

int sb_kv_arch_find(const char *name, struct sb_kv_arch *out)
{
	if (!name)
		return -ENOENT;
	for (size_t i = 0; i < NOFFICIAL; i++)
		if (!strcmp(official[i].name, name)) {
			*out = official[i];
			return 0;
		}
	const struct sb_model_preset *p = sb_model_preset_find(name);
	if (!p)
		return -ENOENT;
	*out = (struct sb_kv_arch){ .name = p->name, .layers = p->layers, .hidden = p->hidden,
				     .heads = p->heads, .kv_heads = p->kv_heads, .head_dim = p->head_dim,
				     .attn = SB_KV_ATTN_MHA, .elem_bytes = 2 };
	return 0;
}

const char *sb_kv_arch_list(char *buf, unsigned len)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; sb_kv_arch_names[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sb_kv_arch_names[i]);
	return buf;
}

uint64_t sb_kv_arch_bytes_per_token(const struct sb_kv_arch *m, unsigned elem_bytes)
{
	uint64_t e = elem_bytes ? elem_bytes : m->elem_bytes;
	if (m->attn == SB_KV_ATTN_MLA) /* models.py:65-66 */
		return (uint64_t)m->layers * (m->kv_lora_rank + m->qk_rope_head_dim) * e;
	return 2 * e * m->layers * m->kv_heads * m->head_dim; /* :67 (kvstats.c's formula) */
}

uint64_t sb_kv_spec_bytes_per_token(const struct sb_jobspec *s)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	struct sb_kv_arch m;
	if (s->ml_model && !sb_kv_arch_find(s->ml_model, &m) && m.attn == SB_KV_ATTN_MLA) {
		m.layers = s->shape.layers; /* layers= may scale an MLA model */
		return sb_kv_arch_bytes_per_token(&m, o->kv_elem_bytes);
	}
	m = (struct sb_kv_arch){ .layers = s->shape.layers, .kv_heads = s->shape.kv_heads,
				 .head_dim = o->kv_head_dim, .attn = SB_KV_ATTN_MHA };
	return sb_kv_arch_bytes_per_token(&m, o->kv_elem_bytes);
}

bool sb_kv_spec_shape_is_model(const struct sb_jobspec *s, const struct sb_kv_arch *m)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	return s->shape.layers == m->layers && s->shape.kv_heads == m->kv_heads &&
	       o->kv_head_dim == m->head_dim && o->kv_elem_bytes == m->elem_bytes;
}
