/* rules.c: the MLPerf verdict of a workload=kvcache run (see rules.h): the
 * official run checker's conditions, storbench's stricter guidelines, and
 * the facts of a finished job. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ml/kvcache/kvcache.h"
#include "ml/kvcache/models.h"
#include "ml/kvcache/result.h"
#include "ml/kvcache/rules.h"
#include "ml/kvcache/opts.h"
#include "ml/rules.h"
#include "ml/run.h"
#include "parse/options.h"

#define GIB 1073741824.0

/* Appends a rule (ml/rules.h) with its source; checker_as: what the
 * official checker makes of a failure (CLOSED: it does not check it);
 * fail_as: storbench's guidelines (never milder than the checker). */
static struct sb_ml_rule *add(struct sb_ml_rule_report *rep, const char *name, bool pass,
			      enum sb_ml_verdict checker_as, enum sb_ml_verdict fail_as,
			      const char *cite, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static struct sb_ml_rule *add(struct sb_ml_rule_report *rep, const char *name, bool pass,
			      enum sb_ml_verdict checker_as, enum sb_ml_verdict fail_as,
			      const char *cite, const char *fmt, ...)
{
	char fix[sizeof(rep->rules[0].fix)] = "";
	if (!pass) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(fix, sizeof(fix), fmt, ap);
		va_end(ap);
	}
	struct sb_ml_rule *r = sb_ml_rule_add(rep, name, pass, fail_as > checker_as ? fail_as : checker_as,
					      "%s", fix);
	sb_ml_rule_cite(r, checker_as, cite);
	return r;
}

static void ea(struct sb_ml_rule *r, const char *expected, const char *actual_fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ea(struct sb_ml_rule *r, const char *expected, const char *actual_fmt, ...)
{
	va_list ap;
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	va_start(ap, actual_fmt);
	vsnprintf(r->actual, sizeof(r->actual), actual_fmt, ap);
	va_end(ap);
}

const char *sb_kv_generation_mode(uint64_t us)
{
	return us == 0 ? "none" : us == 2000 ? "fast" : us == 30000 ? "realistic" : "custom";
}

/* kvcache.py:55-73 check_model: missing or not in config.py KVCACHE_MODELS: INVALID */
static void model_rules(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_kv_arch m;
	bool named = f->model && *f->model, known = named && !sb_kv_arch_find(f->model, &m);
	bool listed = known && m.checker;
	struct sb_ml_rule *r;
	r = add(rep, "model", listed, SB_ML_INVALID, SB_ML_INVALID, "kvcache.py:55-73; config.py KVCACHE_MODELS",
		"%s: the checker knows tiny-1b, mistral-7b, llama2-7b, llama3.1-8b, "
		"llama3.1-70b-instruct: set %s= to one of them",
		!named ? "Missing model parameter" : "Invalid KV Cache model", SB_OPT(ml_model)->name);
	ea(r, "one of KVCACHE_MODELS", "%s", named ? f->model : "(none: explicit shape)");
	/* storbench: the model's own KV shape (a changed shape is another model) */
	if (listed) {
		r = add(rep, "model_shape", f->shape_is_model, SB_ML_CLOSED, SB_ML_OPEN,
			"storbench guidelines (kv_cache/models.py:70-81)",
			"the KV shape differs from %s's: remove layers=, kv_heads=, head_dim= and "
			"kv_bytes_per_element=", f->model);
		ea(r, "the model's", "%s", f->shape_is_model ? "the model's" : "changed");
	}
}

/* kvcache.py:75-97 check_num_users and :99-121 check_duration */
static void load_rules(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_ml_rule *r;
	bool low = f->num_users < SB_KV_MIN_USERS;
	r = add(rep, "num_users", f->num_users >= SB_KV_REC_USERS, low ? SB_ML_INVALID : SB_ML_OPEN,
		SB_ML_CLOSED, low ? "kvcache.py:79-86" : "kvcache.py:88-95",
		low ? "num_users must be at least %u: set kv_users=%u or more" :
		      "num_users below recommended minimum of %u: set kv_users=%u or more",
		low ? SB_KV_MIN_USERS : SB_KV_REC_USERS, SB_KV_REC_USERS);
	ea(r, ">= 10", "%u", f->num_users);
	low = f->duration < SB_KV_MIN_DURATION_S;
	r = add(rep, "duration", f->duration >= SB_KV_REC_DURATION_S, low ? SB_ML_INVALID : SB_ML_OPEN,
		SB_ML_CLOSED, low ? "kvcache.py:103-110" : "kvcache.py:112-119",
		low ? "Duration must be at least %.0f seconds: set %s=60 or more (and %s=0)" :
		      "Duration below recommended minimum of %.0fs: set %s=60 or more (and %s=0)",
		low ? SB_KV_MIN_DURATION_S : SB_KV_REC_DURATION_S, SB_OPT(runtime_us)->name,
		SB_KV_OPT(kv_requests)->name);
	ea(r, ">= 60 s", "%.1f s", f->duration);
}

/* kvcache.py:123-146 check_cache_configuration: the first tier under 1 GB */
static void tier_rules(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep)
{
	struct sb_ml_rule *r;
	r = add(rep, "gpu_mem_gb", f->gpu_mem_gb >= SB_KV_MIN_GPU_MEM_GB, SB_ML_INVALID, SB_ML_INVALID,
		"kvcache.py:128-135", "GPU memory must be at least %.0f GB: set kv_gpu_mem=1g or more",
		SB_KV_MIN_GPU_MEM_GB);
	ea(r, ">= 1 GB", "%.3g GB", f->gpu_mem_gb);
	/* the checker returns the GPU issue alone: the CPU tier counts only after it */
	bool gpu_ok = f->gpu_mem_gb >= SB_KV_MIN_GPU_MEM_GB;
	r = add(rep, "cpu_mem_gb", f->cpu_mem_gb >= SB_KV_MIN_CPU_MEM_GB,
		gpu_ok ? SB_ML_INVALID : SB_ML_CLOSED, SB_ML_INVALID, "kvcache.py:137-144",
		"CPU memory must be at least %.0f GB: set %s=1g or more", SB_KV_MIN_CPU_MEM_GB,
		SB_KV_OPT(kv_memory_capacity)->name);
	ea(r, ">= 1 GB", "%.3g GB", f->cpu_mem_gb);
}

/* kvcache.py:148-171 check_generation_mode, :173-186 check_performance_profile */
static void mode_rules(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep)
{
	const char *g = f->generation_mode ? f->generation_mode : "realistic";
	const char *p = f->performance_profile ? f->performance_profile : "latency";
	bool known = !strcmp(g, "none") || !strcmp(g, "fast") || !strcmp(g, "realistic");
	struct sb_ml_rule *r;
	r = add(rep, "generation_mode", known && strcmp(g, "none"), known ? SB_ML_OPEN : SB_ML_INVALID,
		SB_ML_CLOSED, known ? "kvcache.py:161-169" : "kvcache.py:152-159",
		known ? "Generation mode 'none' skips token simulation: set %s=2ms (fast) or 30ms (realistic)" :
			"Invalid generation mode: set %s=2ms (fast) or 30ms (realistic)",
		SB_KV_OPT(decode_time_per_token_us)->name);
	ea(r, "'fast' or 'realistic'", "%s", g);
	r = add(rep, "performance_profile", !strcmp(p, "latency") || !strcmp(p, "throughput"),
		SB_ML_INVALID, SB_ML_INVALID, "kvcache.py:173-186",
		"Invalid performance profile: latency or throughput");
	ea(r, "latency|throughput", "%s", p);
}

int sb_kv_rules_judge(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	model_rules(f, rep);
	load_rules(f, rep);
	tier_rules(f, rep);
	mode_rules(f, rep);
	if (f->io_known) { /* storbench: a storage benchmark does storage I/O */
		struct sb_ml_rule *r = add(rep, "storage_io", !f->nodiskio && f->io_bytes > 0, SB_ML_CLOSED,
					   SB_ML_INVALID, "storbench guidelines",
					   f->nodiskio ? "ioengine=null does no storage I/O: use a real engine"
						       : "the run moved no bytes: give the disk tier a size");
		ea(r, "> 0 bytes to storage", "%s", f->nodiskio ? "none (ioengine=null)" :
		   f->io_bytes ? "done" : "0 bytes");
	}
	/* kvcache.py:188-199 check_preview_status: always OPEN */
	struct sb_ml_rule *r = add(rep, "benchmark_status", false, SB_ML_OPEN, SB_ML_OPEN, "kvcache.py:188-199",
				   "KV Cache benchmark is in preview status - not accepted for closed "
				   "submissions: nothing to fix");
	ea(r, "closed", "preview");
	sb_ml_rules_finish(rep);
	return 0;
}

unsigned sb_kv_users(const struct sb_jobspec *s)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	return o->kv_users ? o->kv_users : o->kv_concurrency ? o->kv_concurrency : 1;
}

/* the GPU tier per GPU, as the official --gpu-mem-gb */
static uint64_t spec_gpu_mem(const struct sb_jobspec *s)
{
	return sb_kv_opts(s)->kv_gpu_mem;
}

void sb_kv_facts_of(const struct sb_jobspec *s, const struct sb_kv_result *kv, bool nodiskio,
		    struct sb_kv_facts *f)
{
	const struct sb_kv_opts *o = sb_kv_opts(s);
	struct sb_kv_arch m;
	bool named = s->ml_model && !sb_kv_arch_find(s->ml_model, &m);
	*f = (struct sb_kv_facts){
		.model = s->ml_model, .num_users = sb_kv_users(s), .duration = kv->duration_s,
		.gpu_mem_gb = (double)spec_gpu_mem(s) / GIB,
		.cpu_mem_gb = (double)o->kv_memory_capacity / GIB,
		.generation_mode = sb_kv_generation_mode(o->decode_time_per_token_us),
		.performance_profile = "latency",
		.shape_is_model = named && sb_kv_spec_shape_is_model(s, &m),
		.io_known = true, .nodiskio = nodiskio, .io_bytes = kv->read_bytes + kv->write_bytes,
	};
}

void sb_kv_rules(struct sb_wl_job *j, const struct sb_kv_result *kv)
{
	struct sb_kv_facts f;
	sb_kv_facts_of(j->spec, kv, j->nodiskio, &f);
	sb_kv_rules_judge(&f, &sb_ml_res(j)->rules);
	sb_ml_res(j)->has_rules = true;
	sb_ml_res(j)->nodiskio = j->nodiskio;
}
