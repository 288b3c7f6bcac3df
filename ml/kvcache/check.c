/* check.c: workload=kvcache's checks at parse time (parse/workloads.h).  Resolves the
 * KV shape (layers, kv_heads, head_dim) from model='s catalog row, explicit
 * options winning, or requires all three; rejects length bounds that leave
 * no value and a KV block too large to address.  Every error names
 * file:line, the option, the value and the fix. */
#include <stdint.h>
#include <stdio.h>

#include "lib/log.h"
#include "parse/catalog.h"
#include "parse/jobparse.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/models.h"
#include "ml/kvcache/opts.h"
#include "ml/kvcache/tracejob.h"

static unsigned need_shape(struct sb_jobctx *c)
{
	const struct sb_option *need[] = { SB_OPT(shape.layers), SB_OPT(shape.kv_heads), SB_KV_OPT(kv_head_dim) };
	char where[SB_WHERE_MAX];
	for (unsigned i = 0; i < 3; i++) {
		if (sb_job_isset(c, need[i]))
			continue;
		sb_err(sb_job_where(c, NULL, where, sizeof(where)),
		       "job '%s': workload=kvcache needs %s= (e.g. llama3.1-8b) or "
		       "the KV shape; %s= is missing (give %s, %s and %s)", c->spec.name,
		       SB_OPT(ml_model)->name, need[i]->name, need[0]->name, need[1]->name, need[2]->name);
		return 1;
	}
	return 0;
}

static unsigned bounds(struct sb_jobctx *c, const struct sb_option *lo, unsigned vlo,
		       const struct sb_option *hi, unsigned vhi)
{
	char where[SB_WHERE_MAX];
	if (vlo <= vhi)
		return 0;
	sb_err(sb_job_where(c, sb_job_isset(c, lo) ? lo : hi, where, sizeof(where)),
	       "job '%s': %s=%u is above %s=%u: no length is left to draw; lower %s= or raise %s=",
	       c->spec.name, lo->name, vlo, hi->name, vhi, lo->name, hi->name);
	return 1;
}

unsigned sb_ml_check_kv(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	struct sb_kv_opts *o = sb_kv_opts_mut(s);
	char where[SB_WHERE_MAX];
	if (s->ml_model) {
		struct sb_kv_arch m;
		char names[512];
		if (sb_kv_arch_find(s->ml_model, &m)) {
			sb_err(sb_job_where(c, SB_OPT(ml_model), where, sizeof(where)),
			       "%s=%s: unknown model; expected one of %s", SB_OPT(ml_model)->name,
			       s->ml_model, sb_kv_arch_list(names, sizeof(names)));
			return 1;
		}
		if (!sb_job_isset(c, SB_OPT(shape.layers)))
			s->shape.layers = m.layers;
		if (!sb_job_isset(c, SB_OPT(shape.kv_heads)))
			s->shape.kv_heads = m.kv_heads;
		if (!sb_job_isset(c, SB_KV_OPT(kv_head_dim)))
			o->kv_head_dim = m.head_dim;
		const struct sb_model_preset *p = sb_model_preset_find(s->ml_model);
		if (p && s->shape.layers == p->layers && s->shape.kv_heads == p->kv_heads &&
		    o->kv_head_dim == p->head_dim)
			s->ml_preset = p;
	} else if (need_shape(c)) {
		return 1;
	}
	const struct sb_option *zero = !s->shape.layers ? SB_OPT(shape.layers)
				       : !s->shape.kv_heads ? SB_OPT(shape.kv_heads)
				       : !o->kv_head_dim ? SB_KV_OPT(kv_head_dim) : NULL;
	if (zero) {
		sb_err(sb_job_where(c, zero, where, sizeof(where)),
		       "job '%s': %s=0 gives no KV cache: set %s= to 1 or more", s->name, zero->name,
		       zero->name);
		return 1;
	}
	/* 2 x layers x kv_heads x head_dim x bytes x block tokens: below 2^62 */
	double block = 2.0 * s->shape.layers * s->shape.kv_heads * o->kv_head_dim * o->kv_elem_bytes *
		       o->kv_block_tokens;
	if (block > (double)(UINT64_C(1) << 40)) {
		const struct sb_option *bt = SB_KV_OPT(kv_block_tokens);
		sb_err(sb_job_where(c, bt, where, sizeof(where)),
		       "job '%s': %s=%u makes KV blocks of %.0f bytes (over 1 TiB): lower %s=", s->name,
		       bt->name, o->kv_block_tokens, block, bt->name);
		return 1;
	}
	if (sb_kv_trace_check(c)) /* kv_trace=: ml/kvcache/tracejob.c */
		return 1;
	if (!o->kv_requests && !s->runtime_us && !o->kv_trace) {
		const struct sb_option *rq = SB_KV_OPT(kv_requests);
		sb_err(sb_job_where(c, rq, where, sizeof(where)),
		       "job '%s': %s=0 runs until runtime=, but no %s= is set: the job would never end; "
		       "set %s= (e.g. 60) or %s= to a count", s->name, rq->name,
		       SB_OPT(runtime_us)->name, SB_OPT(runtime_us)->name, rq->name);
		return 1;
	}
	return sb_kv_check_mlperf(c) +
	       bounds(c, SB_KV_OPT(prompt_tokens_min), o->prompt_tokens_min,
		      SB_KV_OPT(prompt_tokens_max), o->prompt_tokens_max) +
	       bounds(c, SB_KV_OPT(output_tokens_min), o->output_tokens_min,
		      SB_KV_OPT(output_tokens_max), o->output_tokens_max);
}
