/* tools/mlpskv.c: the kv_cache run folder of results_dir= and its reading
 * by `storbench validate` (see tools/mlpskv.h). */
#include "os/outtree.h"
#include "tools/mlpskv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/log.h"
#include "ml/kvcache/result.h"
#include "ml/kvcache/rules.h"
#include "output/jsonw.h"
#include "parse/jobspec.h"

#define GIB 1073741824.0

static const char *model_of(const struct sb_jobspec *s)
{
	return s->ml_model && *s->ml_model ? s->ml_model : "custom";
}

/* the checker's parameters and storbench's guideline facts */
static void params(struct sb_jw *w, const struct sb_kv_facts *f)
{
	sb_jw_obj_begin(w, "parameters");
	sb_jw_str(w, "model", f->model && *f->model ? f->model : "custom");
	sb_jw_u64(w, "num_users", f->num_users);
	sb_jw_dbl(w, "duration", f->duration);
	sb_jw_dbl(w, "gpu_mem_gb", f->gpu_mem_gb);
	sb_jw_dbl(w, "cpu_mem_gb", f->cpu_mem_gb);
	sb_jw_str(w, "generation_mode", f->generation_mode);
	sb_jw_str(w, "performance_profile", f->performance_profile);
	sb_jw_bool(w, "shape_is_model", f->shape_is_model);
	sb_jw_bool(w, "nodiskio", f->nodiskio);
	sb_jw_u64(w, "io_bytes", f->io_bytes);
	sb_jw_obj_end(w);
}

/* the keys KVCacheBenchmark._process_results reads: kv_profile=mlperf's
 * figures (ms) when it ran, else the blocks profile's */
static void metrics(struct sb_jw *w, const struct sb_kv_result *kv)
{
	const struct sb_kv_mlres *ml = &kv->ml;
	double d = kv->duration_s > 0 ? kv->duration_s : 1e-9;
	if (ml->on) {
		double e = ml->elapsed_time > 0 ? ml->elapsed_time : 1e-9;
		sb_jw_bool(w, "overall_passed", ml->pass);
		sb_jw_u64(w, "total_requests", ml->total_requests);
		sb_jw_dbl(w, "avg_latency_ms", ml->e2e.mean);
		sb_jw_dbl(w, "p99_latency_ms", ml->e2e.p99);
		sb_jw_dbl(w, "throughput_req_per_sec", ml->requests_per_second);
		sb_jw_dbl(w, "storage_throughput_mbps",
			  (double)(ml->total_read_bytes + ml->total_write_bytes) / e / 1048576.0);
		sb_jw_dbl(w, "cache_hit_rate", ml->cache_hit_rate);
		return;
	}
	sb_jw_null(w, "overall_passed"); /* the official assessment: kv_profile=mlperf only */
	sb_jw_u64(w, "total_requests", kv->requests);
	sb_jw_dbl(w, "avg_latency_ms", kv->latency.mean_us / 1e3);
	sb_jw_dbl(w, "p99_latency_ms", kv->latency.p99_us / 1e3);
	sb_jw_dbl(w, "throughput_req_per_sec", kv->requests_per_s);
	sb_jw_dbl(w, "storage_throughput_mbps", (double)(kv->read_bytes + kv->write_bytes) / d / 1048576.0);
	sb_jw_dbl(w, "cache_hit_rate", kv->hit_ratio);
}

static void metadata(FILE *fp, const struct sb_results *res, const struct sb_job_result *jr,
		     const char *dir, const char *dt, const struct sb_kv_facts *f)
{
	const struct sb_ml_result *m = sb_ml_result_of(jr);
	const struct sb_kv_result *kv = sb_kv_result_of(jr);
	const struct sb_jobspec *s = jr->spec;
	static const char *const v[] = { "closed", "open", "invalid" }; /* PARAM_VALIDATION values */
	struct sb_jw w;
	char name[128];
	sb_jw_init(&w, fp);
	sb_jw_obj_begin(&w, NULL);
	sb_jw_str(&w, "benchmark_type", SB_MLPS_KV_BENCH);
	sb_jw_str(&w, "model", model_of(s));
	sb_jw_str(&w, "command", "run");
	sb_jw_str(&w, "run_datetime", dt);
	sb_jw_u64(&w, "num_processes", 1);
	sb_jw_str(&w, "storbench_version", res->version ? res->version : "");
	sb_jw_str(&w, "job", s->name);
	params(&w, f);
	sb_jw_str(&w, "kvcache_model", model_of(s));
	sb_jw_u64(&w, "num_users", f->num_users);
	sb_jw_dbl(&w, "duration", f->duration);
	sb_jw_dbl(&w, "gpu_mem_gb", f->gpu_mem_gb);
	sb_jw_dbl(&w, "cpu_mem_gb", f->cpu_mem_gb);
	sb_jw_str(&w, "cache_dir", kv && kv->path[0] ? kv->path : s->directory ? s->directory : "");
	sb_jw_str(&w, "generation_mode", f->generation_mode);
	sb_jw_str(&w, "performance_profile", f->performance_profile);
	if (kv) {
		sb_jw_obj_begin(&w, "kvcache_metrics");
		metrics(&w, kv);
		sb_jw_obj_end(&w);
	}
	sb_jw_str(&w, "run_result_output", dir);
	snprintf(name, sizeof(name), "%s_%s_metadata.json", SB_MLPS_KV_BENCH, dt);
	sb_jw_str(&w, "metadata_filename", name);
	if (m->has_rules) {
		sb_jw_str(&w, "verification", v[m->rules.verdict]);
		sb_jw_str(&w, "verdict", sb_ml_verdict_name(m->rules.verdict));
	}
	sb_jw_obj_end(&w);
	fputc('\n', fp);
}

static int put(const struct sb_job_result *jr, const char *path, FILE **fp)
{
	*fp = sb_outtree_file(jr->spec->name, path); /* new, whole or not at all */
	return *fp ? 0 : -errno;
}

static int done(const struct sb_job_result *jr, const char *path, FILE *fp)
{
	(void)path;
	return sb_outtree_close(jr->spec->name, fp); /* fsync, rename; or printed */
}

int sb_mlps_write_kv(const struct sb_results *res, const struct sb_job_result *jr, const char *dir,
		     const char *dt)
{
	const struct sb_ml_result *m = sb_ml_result_of(jr);
	const struct sb_kv_result *kv = sb_kv_result_of(jr);
	static const struct sb_kv_result none;
	struct sb_kv_facts f;
	char path[PATH_MAX + 128];
	FILE *fp;
	/* the engine's no-disk flag reaches the ML result under rules=mlperf only */
	sb_kv_facts_of(jr->spec, kv ? kv : &none, m->nodiskio || !strcmp(jr->spec->ioengine, "null"),
		       &f);
	snprintf(path, sizeof(path), "%s/%s_%s_metadata.json", dir, SB_MLPS_KV_BENCH, dt);
	int e = put(jr, path, &fp);
	if (e)
		return e;
	metadata(fp, res, jr, dir, dt, &f);
	if ((e = done(jr, path, fp)))
		return e;
	snprintf(path, sizeof(path), "%s/%s%s.json", dir, SB_MLPS_KV_RESULTS, dt);
	if ((e = put(jr, path, &fp)))
		return e;
	struct sb_jw w;
	sb_jw_init(&w, fp);
	sb_jw_obj_begin(&w, NULL);
	metrics(&w, kv ? kv : &none);
	sb_jw_obj_begin(&w, "units");
	sb_jw_str(&w, "storage_throughput_mbps", "2^20 bytes per second, reads and writes of the tiers");
	sb_jw_obj_end(&w);
	sb_jw_obj_end(&w);
	fputc('\n', fp);
	return done(jr, path, fp);
}

void sb_mlps_kv_judge(const struct sb_jval *p, struct sb_ml_rule_report *rep)
{
	const struct sb_jval *io = sb_jv_get(p, "io_bytes");
	const char *model = sb_jv_str(sb_jv_get(p, "model"), NULL);
	const struct sb_jval *shape = sb_jv_get(p, "shape_is_model"), *nd = sb_jv_get(p, "nodiskio");
	struct sb_kv_facts f = {
		.model = model && strcmp(model, "custom") ? model : NULL,
		.num_users = (unsigned)sb_jv_num(sb_jv_get(p, "num_users"), 100),
		.duration = sb_jv_num(sb_jv_get(p, "duration"), 60),
		.gpu_mem_gb = sb_jv_num(sb_jv_get(p, "gpu_mem_gb"), 16),
		.cpu_mem_gb = sb_jv_num(sb_jv_get(p, "cpu_mem_gb"), 32),
		.generation_mode = sb_jv_str(sb_jv_get(p, "generation_mode"), "realistic"),
		.performance_profile = sb_jv_str(sb_jv_get(p, "performance_profile"), "latency"),
		/* mlpstorage's own trees lack storbench's facts: not judged */
		.shape_is_model = !shape || (shape->type == SB_JBOOL && shape->b),
		.io_known = io != NULL, .nodiskio = nd && nd->type == SB_JBOOL && nd->b,
		.io_bytes = (uint64_t)sb_jv_num(io, 0),
	};
	sb_kv_rules_judge(&f, rep);
}
