/* models.h: the KV shapes of workload=kvcache's model= names.
 *
 * Two sources: the official KV-cache benchmark's model list
 * (mlcommons/storage kv_cache_benchmark/kv_cache/models.py:70-81,
 * _DEFAULT_MODEL_CONFIGS: tiny-1b, mistral-7b, llama2-7b, llama3.1-8b,
 * llama3.1-70b-instruct, deepseek-v3, qwen3-32b, gpt-oss-120b, gpt-oss-20b)
 * and storbench's llama3 checkpoint shapes (parse/catalog.c: llama3-8b,
 * llama3-70b, llama3-405b, llama3-1t).
 *
 * KV bytes per token as models.py:56-67 (kv_cache_size_per_token) computes it:
 *   MHA/GQA: layers x kv_heads x head_dim x 2 (K and V) x bytes per element
 *   MLA:     layers x (kv_lora_rank + qk_rope_head_dim) x bytes per element
 *            (one joint latent for K and V, no x2, plus the shared RoPE key)
 * head_dim is models.py's kv_dim_per_head: its kv_dim_per_head override where
 * the row gives one (qwen3-32b 128, gpt-oss 64), else hidden_dim // num_heads
 * (models.py:48-53). */
#ifndef SB_ML_KV_ARCH_H
#define SB_ML_KV_ARCH_H
#include <stdbool.h>
#include <stdint.h>

enum sb_kv_attn { SB_KV_ATTN_MHA = 0, SB_KV_ATTN_MLA = 1 }; /* MHA covers GQA */

struct sb_kv_arch {
	const char *name;
	unsigned layers, hidden, heads, kv_heads, head_dim;
	unsigned attn;                      /* enum sb_kv_attn */
	unsigned kv_lora_rank, qk_rope_head_dim; /* MLA only */
	unsigned elem_bytes;                /* models.py dtype float16: 2 */
	bool official;  /* in kv_cache/models.py's list */
	bool checker;   /* in mlpstorage/config.py KVCACHE_MODELS (the run checker's list) */
};

/* model='s KV shape into out; 0, or -ENOENT for an unknown name */
int sb_kv_arch_find(const char *name, struct sb_kv_arch *out);
/* all model= names of workload=kvcache, NULL-terminated */
extern const char *const sb_kv_arch_names[];
/* the names joined with ", " into buf (for error messages) */
const char *sb_kv_arch_list(char *buf, unsigned len);
/* the bytes of one token's KV (see above); elem_bytes 0: the model's own */
uint64_t sb_kv_arch_bytes_per_token(const struct sb_kv_arch *m, unsigned elem_bytes);
/* the bytes per token of a job spec: MLA when model= names an MLA model,
 * else 2 x layers x kv_heads x head_dim x kv_bytes_per_element */
struct sb_jobspec;
uint64_t sb_kv_spec_bytes_per_token(const struct sb_jobspec *s);
/* true when s runs model='s row with its own shape (no shape option changed it) */
bool sb_kv_spec_shape_is_model(const struct sb_jobspec *s, const struct sb_kv_arch *m);
#endif
