/* tools/mlpskv.h: mlpstorage's results tree of a workload=kvcache run
 * (results_dir=), as mlpstorage/benchmarks/kvcache.py (KVCacheBenchmark,
 * mlcommons/storage 23f2f93) and its generate_output_location lay it out:
 *   <results_dir>/kv_cache/<model>/run/<YYYYmmdd_HHMMSS>/
 *     kv_cache_<datetime>_metadata.json   Benchmark.write_metadata:
 *         "<BENCHMARK_TYPE.value>_<run_datetime>_metadata.json"; its keys:
 *         benchmark_type "kv_cache", model, command "run", run_datetime,
 *         num_processes, parameters (what KVCacheRunRulesChecker reads:
 *         model, num_users, duration, gpu_mem_gb, cpu_mem_gb,
 *         generation_mode, performance_profile; and storbench's guideline
 *         facts), KVCacheBenchmark.metadata's kvcache_model, num_users,
 *         duration, gpu_mem_gb, cpu_mem_gb, cache_dir, generation_mode,
 *         performance_profile, kvcache_metrics, and verification
 *     kvcache_results_<datetime>.json     the benchmark's --output file, with
 *         the keys _process_results reads: overall_passed, total_requests,
 *         avg_latency_ms, p99_latency_ms, throughput_req_per_sec,
 *         storage_throughput_mbps, cache_hit_rate
 * No summary.json: a kv_cache run folder is its metadata file. */
#ifndef SB_TOOLS_MLPSKV_H
#define SB_TOOLS_MLPSKV_H
#include "lib/jsonr.h"
#include "ml/result.h"
#include "stats/results.h"

#define SB_MLPS_KV_BENCH "kv_cache"              /* BENCHMARK_TYPES.kv_cache's value */
#define SB_MLPS_KV_RESULTS "kvcache_results_"    /* + <datetime>.json */

/* Write the two files of a kvcache job into its run folder dir (made by
 * tools/mlps.c) for run datetime dt; 0 or -errno after an sb_err. */
int sb_mlps_write_kv(const struct sb_results *res, const struct sb_job_result *jr, const char *dir,
		     const char *dt);

/* Judge a kv_cache run folder from its metadata's parameters (mlpstorage's
 * names; missing ones take KVCacheRunRulesChecker's defaults: num_users 100,
 * duration 60, gpu_mem_gb 16, cpu_mem_gb 32, realistic, latency). */
void sb_mlps_kv_judge(const struct sb_jval *params, struct sb_ml_rule_report *rep);
#endif
