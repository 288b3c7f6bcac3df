/* rules.h: the MLPerf verdict of a workload=kvcache run (rules=mlperf).
 *
 * The headline (rep->verdict) is what mlpstorage's run checker
 * mlpstorage/rules/run_checkers/kvcache.py (KVCacheRunRulesChecker,
 * mlcommons/storage 23f2f93) gives on the same parameters: never CLOSED
 * (check_preview_status, :188-199, always OPEN), INVALID for a model outside
 * mlpstorage/config.py KVCACHE_MODELS (:55-73), duration < 30 s (:99-110),
 * num_users < 1 (:75-86), gpu_mem_gb or cpu_mem_gb < 1 GB (:123-146), a
 * generation mode not none|fast|realistic (:148-159) or a performance
 * profile not latency|throughput (:173-186); OPEN for duration < 60 s
 * (:112-119), num_users < 10 (:88-95), generation_mode none (:161-169).
 * Each rule carries the checker's parameter name.  storbench's stricter
 * checks (the KV shape left as the model's, storage I/O done) only move
 * rep->guidelines, as for training and checkpointing (ml/rules.h). */
#ifndef SB_ML_KV_RULES_H
#define SB_ML_KV_RULES_H
#include <stdbool.h>
#include <stdint.h>

#include "ml/result.h"

#define SB_KV_MIN_DURATION_S 30.0   /* kvcache.py:34 MIN_DURATION_SECONDS */
#define SB_KV_MIN_USERS 1u          /* :35 MIN_NUM_USERS */
#define SB_KV_MIN_GPU_MEM_GB 1.0    /* :36 MIN_GPU_MEM_GB */
#define SB_KV_MIN_CPU_MEM_GB 1.0    /* :37 MIN_CPU_MEM_GB */
#define SB_KV_REC_DURATION_S 60.0   /* :40 RECOMMENDED_DURATION_SECONDS */
#define SB_KV_REC_USERS 10u         /* :41 RECOMMENDED_MIN_USERS */

/* The checker's parameters (its names) and storbench's own facts. */
struct sb_kv_facts {
	const char *model;            /* model= (NULL or "": none given) */
	unsigned num_users;
	double duration;              /* seconds */
	double gpu_mem_gb, cpu_mem_gb; /* GiB (the benchmark's GB: 1024^3 bytes) */
	const char *generation_mode;  /* none|fast|realistic, or storbench's "custom" */
	const char *performance_profile; /* latency|throughput */
	/* storbench's guidelines only */
	bool shape_is_model;          /* layers/kv_heads/head_dim/bytes are the model's */
	bool io_known, nodiskio;      /* as sb_ml_train_facts */
	uint64_t io_bytes;
};

/* The generation mode a decode time per token (us) stands for in the
 * official benchmark (kv_cache/models.py GENERATION_TIMING: none 0, fast
 * 2 ms, realistic 30 ms); "custom" for any other. */
const char *sb_kv_generation_mode(uint64_t decode_us_per_token);

/* The facts of a finished job (spec s, result kv; nodiskio: ioengine=null).
 * kv_users= and kv_gpu_mem= are read in rules.c alone (spec_users,
 * spec_gpu_mem). */
struct sb_jobspec;
struct sb_kv_result;
void sb_kv_facts_of(const struct sb_jobspec *s, const struct sb_kv_result *kv, bool nodiskio,
		    struct sb_kv_facts *f);

/* Fill rep from f (both verdicts); 0. */
int sb_kv_rules_judge(const struct sb_kv_facts *f, struct sb_ml_rule_report *rep);
#endif
