"""workload=kvcache with results_dir= and `storbench validate`: the run
folder mlpstorage's KV-cache benchmark leaves (mlpstorage/benchmarks/kvcache.py
and generate_output_location, mlcommons/storage 23f2f93:
<results_dir>/kv_cache/<model>/run/<datetime>/ with
kv_cache_<datetime>_metadata.json, Benchmark.write_metadata's
"<BENCHMARK_TYPE.value>_<datetime>_metadata.json", and the benchmark's
--output kvcache_results_<datetime>.json), and validate's verdict on such
trees as mlpstorage/rules/run_checkers/kvcache.py gives it."""
import glob
import json
import os
import re
import shutil
import unittest

from sbtest import SbCase, validate_rc

RUN = ["--name=kv", "--workload=kvcache", "--model=tiny-1b", "--kv_block_tokens=4",
       "--prompt_tokens=48", "--output_tokens=4", "--bs=128k", "--kv_requests=20",
       "--kv_disk_capacity=4m", "--kv_memory_capacity=0", "--rules=mlperf"]

# KVCacheRunRulesChecker's parameters (kvcache.py:57,77,101,125-126,150,175)
CHECKER_PARAMS = {"model", "num_users", "duration", "gpu_mem_gb", "cpu_mem_gb",
                  "generation_mode", "performance_profile"}
# KVCacheBenchmark.metadata's own keys (benchmarks/kvcache.py metadata)
KV_META_KEYS = {"kvcache_model", "num_users", "duration", "gpu_mem_gb", "cpu_mem_gb",
                "cache_dir", "generation_mode", "performance_profile", "kvcache_metrics"}
# KVCacheBenchmark._process_results reads these from the results file
RESULT_KEYS = {"overall_passed", "total_requests", "avg_latency_ms", "p99_latency_ms",
               "throughput_req_per_sec", "storage_throughput_mbps", "cache_hit_rate"}


def meta_doc(model="tiny-1b", dt="20260101_120000", **params):
    """a metadata file as mlpstorage writes it for a kv_cache run"""
    p = {"model": model, "num_users": 100, "duration": 120, "gpu_mem_gb": 16.0,
         "cpu_mem_gb": 32.0, "generation_mode": "realistic", "performance_profile": "latency"}
    p.update(params)
    return {"benchmark_type": "kv_cache", "model": model, "command": "run", "run_datetime": dt,
            "num_processes": 1, "parameters": p, "kvcache_model": model}


class KvResults(SbCase):
    def fixture(self, runs):
        """a results tree written by hand: runs = [(model, dt, params)]"""
        root = os.path.join(self.dir, "results")
        for model, dt, params in runs:
            d = os.path.join(root, "kv_cache", model, "run", dt)
            os.makedirs(d)
            with open(os.path.join(d, f"kv_cache_{dt}_metadata.json"), "w") as f:
                json.dump(meta_doc(model, dt, **params), f)
            with open(os.path.join(d, f"kvcache_results_{dt}.json"), "w") as f:
                json.dump({k: 1 for k in RESULT_KEYS}, f)
        return root

    def test_tree_layout(self):
        root = os.path.join(self.dir, "res")
        p = self.run_sb("--output-format=json", *RUN, f"--directory={self.dir}", f"--results_dir={root}")
        self.assertEqual(p.returncode, 0, p.stderr)
        job = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(os.listdir(root), ["kv_cache"])  # not checkpointing/custom
        runs = glob.glob(os.path.join(root, "kv_cache", "tiny-1b", "run", "*"))
        self.assertEqual(len(runs), 1)
        dt = os.path.basename(runs[0])
        self.assertRegex(dt, r"^\d{8}_\d{6}$")
        self.assertIn(f"results: {runs[0]}", p.stderr)
        self.assertEqual(sorted(os.listdir(runs[0])),
                         sorted([f"kv_cache_{dt}_metadata.json", f"kvcache_results_{dt}.json"]))
        with open(os.path.join(runs[0], f"kv_cache_{dt}_metadata.json")) as f:
            meta = json.load(f)
        self.assertEqual(meta["benchmark_type"], "kv_cache")
        self.assertEqual((meta["model"], meta["command"], meta["run_datetime"]), ("tiny-1b", "run", dt))
        self.assertEqual(meta["num_processes"], 1)
        self.assertLessEqual(CHECKER_PARAMS, set(meta["parameters"]))
        self.assertLessEqual(KV_META_KEYS, set(meta))
        prm = meta["parameters"]
        self.assertEqual(prm["model"], "tiny-1b")
        self.assertEqual(prm["num_users"], 1)        # concurrency=1
        self.assertEqual(prm["cpu_mem_gb"], 0)       # kv_memory_capacity=0
        self.assertEqual(prm["generation_mode"], "none")
        self.assertEqual(prm["performance_profile"], "latency")
        self.assertAlmostEqual(prm["duration"], job["kvcache"]["duration_s"], places=3)
        self.assertEqual(meta["kvcache_model"], "tiny-1b")
        self.assertEqual(meta["kvcache_metrics"]["total_requests"], 20)
        self.assertEqual(meta["verification"], "invalid")  # PARAM_VALIDATION value
        self.assertEqual(meta["verdict"], job["rules"]["verdict"])
        with open(os.path.join(runs[0], f"kvcache_results_{dt}.json")) as f:
            res = json.load(f)
        self.assertLessEqual(RESULT_KEYS, set(res))
        self.assertEqual(res["total_requests"], 20)
        self.assertEqual(res["cache_hit_rate"], job["kvcache"]["hit_ratio"])
        # the official assessment (cache.py _evaluate_storage_performance)
        # of the mlperf profile (rules=mlperf's default) is overall_passed
        ml = job["kvcache"]["mlperf"]
        self.assertEqual(res["overall_passed"], ml["cache_stats"]["storage_health"]["overall_status"] == "PASS")
        self.assertEqual(res["total_requests"], ml["total_requests"])
        # validate reads the tree back with the same verdict
        v = self.run_sb("validate", root)
        self.assertEqual(v.returncode, validate_rc(v.stdout), v.stderr)
        self.assertIn(f"run {dt}: {job['rules']['verdict']}", v.stdout)
        self.assertIn("overall: INVALID", v.stdout)

    def test_validate_fixtures(self):
        """one hand-written run per checker condition, with the verdict
        KVCacheRunRulesChecker gives (kvcache.py line in the comment)"""
        cases = [
            ("tiny-1b", "20260101_120000", {}, "OPEN", None),                    # :188-199 preview
            ("deepseek-v3", "20260101_120001", {}, "INVALID", "model"),           # :65-72
            ("mistral-7b", "20260101_120002", {"duration": 29}, "INVALID", "duration"),  # :103-110
            ("llama2-7b", "20260101_120003", {"duration": 45}, "OPEN", "duration"),      # :112-119
            ("llama3.1-8b", "20260101_120004", {"num_users": 0}, "INVALID", "num_users"),  # :79-86
            ("llama3.1-70b-instruct", "20260101_120005", {"num_users": 5}, "OPEN", "num_users"),  # :88-95
            ("tiny-1b", "20260101_120006", {"gpu_mem_gb": 0.5}, "INVALID", "gpu_mem_gb"),  # :128-135
            ("tiny-1b", "20260101_120007", {"cpu_mem_gb": 0}, "INVALID", "cpu_mem_gb"),    # :137-144
            ("tiny-1b", "20260101_120008", {"generation_mode": "none"}, "OPEN", "generation_mode"),  # :161-169
            ("tiny-1b", "20260101_120009", {"generation_mode": "turbo"}, "INVALID", "generation_mode"),  # :152-159
            ("tiny-1b", "20260101_120010", {"performance_profile": "x"}, "INVALID", "performance_profile"),  # :177-184
        ]
        for model, dt, params, want, rule in cases:
            with self.subTest(model=model, params=params):
                root = self.fixture([(model, dt, params)])
                p = self.run_sb("validate", root)
                self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
                self.assertRegex(p.stdout, rf"run {dt}: {want}\b")
                self.assertIn(f"overall: {want}", p.stdout)
                self.assertIn("benchmark_status: expected closed, actual preview -> OPEN", p.stdout)
                failed = re.findall(r"^    (\w+): expected", p.stdout, re.M)
                self.assertEqual(failed, ([rule] if rule else []) + ["benchmark_status"])
                shutil.rmtree(root)

    def test_validate_defaults_and_bad_tree(self):
        # mlpstorage's checker defaults for missing parameters (kvcache.py:77 100 users,
        # :101 60 s, :125-126 16/32 GB, :150 realistic, :175 latency): OPEN
        root = os.path.join(self.dir, "r", "kv_cache", "tiny-1b", "run", "20260101_000000")
        os.makedirs(root)
        with open(os.path.join(root, "kv_cache_20260101_000000_metadata.json"), "w") as f:
            json.dump({"benchmark_type": "kv_cache", "run_datetime": "20260101_000000",
                       "num_processes": 1, "parameters": {"model": "tiny-1b"}}, f)
        p = self.run_sb("validate", os.path.join(self.dir, "r"))
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        self.assertIn("kv_cache/tiny-1b: 1 run", p.stdout)
        self.assertIn("overall: OPEN", p.stdout)
        # a metadata file with no parameters is refused, naming the file
        with open(os.path.join(root, "kv_cache_20260101_000000_metadata.json"), "w") as f:
            json.dump({"benchmark_type": "kv_cache", "run_datetime": "20260101_000000"}, f)
        p = self.run_sb("validate", os.path.join(self.dir, "r"))
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"kv_cache_20260101_000000_metadata\.json: no \"parameters\"")


if __name__ == "__main__":
    unittest.main()
