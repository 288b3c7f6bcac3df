/* mlcheck.c: parse-time checks of kv_profile= and its options (called at
 * the end of ml/kvcache/check.c): rules=mlperf makes kv_profile=mlperf the
 * default, and kv_system_prompt_probability defaults to the official 0.2
 * there; the mlperf-only options are refused under kv_profile=blocks,
 * prefill-only with decode-only, and direct=1 under kv_profile=mlperf (the
 * official benchmark does buffered I/O: np.save, np.load).  Every error
 * names file:line, the option and the fix. */
#include <stdio.h>

#include "lib/log.h"
#include "parse/jobparse.h"
#include "parse/specvals.h"
#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/opts.h"

static unsigned refuse(struct sb_jobctx *c, const struct sb_option *o, const char *what)
{
	char where[SB_WHERE_MAX];
	sb_err(sb_job_where(c, o, where, sizeof(where)), "job '%s': %s", c->spec.name, what);
	return 1;
}

unsigned sb_kv_check_mlperf(struct sb_jobctx *c)
{
	struct sb_jobspec *s = &c->spec;
	struct sb_kv_opts *o = sb_kv_opts_mut(s);
	const struct sb_option *only[] = {
		SB_KV_OPT(kv_gpu_mem), SB_KV_OPT(kv_gpus), SB_KV_OPT(kv_tensor_parallel),
		SB_KV_OPT(kv_decode_reread_tokens), SB_KV_OPT(kv_users), SB_KV_OPT(kv_think_time_us),
		SB_KV_OPT(kv_prefill_only), SB_KV_OPT(kv_decode_only), SB_KV_OPT(kv_max_turns),
	};
	char msg[320];
	if (!sb_job_isset(c, SB_KV_OPT(kv_profile)) && s->rules == SB_RULES_MLPERF)
		o->kv_profile = SB_KV_PROFILE_MLPERF;
	if (o->kv_profile != SB_KV_PROFILE_MLPERF) {
		for (unsigned i = 0; i < sizeof(only) / sizeof(only[0]); i++) {
			if (!sb_job_isset(c, only[i]))
				continue;
			snprintf(msg, sizeof(msg), "%s= applies to kv_profile=mlperf only, and this job runs "
				 "kv_profile=blocks: set kv_profile=mlperf, or remove %s=", only[i]->name,
				 only[i]->name);
			return refuse(c, only[i], msg);
		}
		return 0;
	}
	/* workload.py UserSimulator: what is not given is drawn per user */
	o->kv_templates = (sb_job_isset(c, SB_KV_OPT(prompt_tokens)) ? 0 : 1) |
			  (sb_job_isset(c, SB_KV_OPT(output_tokens)) ? 0 : 2) |
			  (sb_job_isset(c, SB_KV_OPT(kv_think_time_us)) ? 0 : 4);
	/* the official default (config.yaml prefix_cache.system_prompt_hit_probability,
	 * prefix_cache.py:63): 20% of requests carry a system prompt */
	if (!sb_job_isset(c, SB_KV_OPT(kv_sysprompt_prob)))
		o->kv_sysprompt_prob = 0.2;
	if (o->kv_prefill_only && o->kv_decode_only)
		return refuse(c, SB_KV_OPT(kv_decode_only), "kv_prefill_only=1 and kv_decode_only=1 leave "
			      "nothing to run: set one of them to 0");
	if (s->direct) {
		const char *d = SB_OPT(direct)->name;
		snprintf(msg, sizeof(msg), "%s=1 is not what kv_profile=mlperf measures: the official "
			 "benchmark reads and writes its .npy files buffered, dropping each file's page "
			 "cache before a read; set %s=0, or kv_profile=blocks for O_DIRECT block I/O", d, d);
		return refuse(c, SB_OPT(direct), msg);
	}
	return 0;
}
