"""workload=kvcache: LLM inference with its KV cache offloaded to a memory
tier and a disk tier (HOWTO section 9).  The cache model decides every
request in request order from the seed (ml/kvcache/kvmodel.h), so hit ratios and
block counts do not depend on timing: the hit-ratio check runs a fixed
number of requests on the null engine instead of a 60 s run."""
import json
import os
import unittest

from sbtest import SRC, SbCase

# the Llama 3 configs (config.json: num_hidden_layers, num_key_value_heads,
# hidden_size / num_attention_heads)
LLAMA3 = {"llama3-8b": (32, 8, 4096 // 32), "llama3-70b": (80, 8, 8192 // 64),
          "llama3-405b": (126, 8, 16384 // 128)}

SMALL = ["--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_block_tokens=4",
         "--prompt_tokens=48", "--prompt_tokens_stdev=8", "--output_tokens=12", "--bs=128k",
         "--kv_requests=150", "--prefix_reuse=0.5"]


class KvCache(SbCase):
    def kv(self, *args):
        d = self.run_json(*args, f"--directory={self.dir}")
        return d["jobs"][0], d["jobs"][0]["kvcache"]

    def test_bytes_per_token(self):
        for model, (layers, kv_heads, head_dim) in LLAMA3.items():
            for elem in (2, 1):
                _, k = self.kv("--name=kv", "--workload=kvcache", f"--model={model}",
                               "--ioengine=null", "--kv_requests=5", f"--kv_bytes_per_element={elem}")
                want = 2 * layers * kv_heads * head_dim * elem
                self.assertEqual(k["bytes_per_token"], want, model)
                self.assertEqual(k["block_bytes"], want * 256, model)
                self.assertEqual((k["shape_layers"], k["shape_kv_heads"], k["shape_head_dim"]),
                                 (layers, kv_heads, head_dim))
        self.assertEqual(2 * 32 * 8 * 128 * 2, 128 * 1024)  # 128 KiB per token

    def test_official_models(self):
        """the official benchmark's models (kv_cache_benchmark/kv_cache/models.py:70-81)
        with its kv_cache_size_per_token (:56-67): MLA for deepseek-v3"""
        want = {"tiny-1b": (12, 4, 128, 24576), "llama2-7b": (32, 32, 128, 524288),
                "llama3.1-70b-instruct": (80, 8, 128, 327680),
                "deepseek-v3": (61, 128, 56, 61 * (512 + 64) * 2),
                "qwen3-32b": (64, 8, 128, 262144), "gpt-oss-120b": (36, 8, 64, 73728)}
        for model, (layers, kv_heads, head_dim, bpt) in want.items():
            _, k = self.kv("--name=kv", "--workload=kvcache", f"--model={model}",
                           "--ioengine=null", "--kv_requests=5")
            self.assertEqual(k["bytes_per_token"], bpt, model)
            self.assertEqual((k["shape_layers"], k["shape_kv_heads"], k["shape_head_dim"]),
                             (layers, kv_heads, head_dim), model)
        p = self.run_sb("--name=kv", "--workload=kvcache", "--model=llama3.1-7b", "--ioengine=null")
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"<cmdline>.*model=llama3\.1-7b: unknown model; expected one of "
                                   r"tiny-1b, .*deepseek-v3, qwen3-32b, gpt-oss-120b, gpt-oss-20b, llama3-8b")

    def test_memory_holds_everything(self):
        job, k = self.kv(*SMALL, "--kv_memory_capacity=64g", "--kv_disk_capacity=16m")
        self.assertGreater(k["blocks_looked_up"], 0)
        self.assertEqual(k["memory_hits"], k["blocks_looked_up"])
        for key in ("disk_hits", "disk_reads", "disk_writes", "read_bytes", "write_bytes"):
            self.assertEqual(k[key], 0, key)
        self.assertEqual(job["read"]["io_bytes"], 0)
        self.assertEqual(job["write"]["io_bytes"], 0)
        self.assertEqual(self.listing(), [])  # the tier file and folder are gone

    def test_no_memory_tier(self):
        job, k = self.kv(*SMALL, "--kv_memory_capacity=0", "--kv_disk_capacity=1g")
        self.assertGreater(k["blocks_looked_up"], 0)
        self.assertEqual(k["memory_hits"], 0)
        self.assertEqual(k["misses"], 0)
        self.assertEqual(k["disk_hits"], k["blocks_looked_up"])
        self.assertEqual(k["disk_reads"], k["blocks_looked_up"])
        self.assertEqual(k["read_bytes"], k["disk_hits"] * k["block_bytes"])
        self.assertEqual(k["write_bytes"], k["blocks_new"] * k["block_bytes"])
        self.assertEqual(job["read"]["io_bytes"], k["read_bytes"])
        self.assertEqual(k["disk_hit_ratio"], 1.0)
        self.assertEqual(k["storage_ttft_us"]["N"], k["requests"])

    def test_no_disk_tier(self):
        # kv_disk_capacity=0 is "no disk tier" (HOWTO); it
        # opened a file named "(no disk tier)" and failed.  A capacity under one
        # block is no disk tier as well.  No I/O, no file, no folder.
        for cap in ("0", "1k"):
            p = self.run_sb(*SMALL, "--output-format=json", f"--directory={self.dir}",
                            "--kv_memory_capacity=1m", f"--kv_disk_capacity={cap}")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("no disk tier", p.stderr)
            job = json.loads(p.stdout)["jobs"][0]
            k = job["kvcache"]
            self.assertEqual(job["error"], 0)
            self.assertEqual(k["requests"], 150)
            self.assertEqual(k["disk_capacity_blocks"], 0)
            self.assertGreater(k["misses"], 0)  # what memory cannot hold is lost, not read
            for key in ("disk_hits", "disk_reads", "disk_writes", "read_bytes", "write_bytes",
                        "file_bytes"):
                self.assertEqual(k[key], 0, key)
            self.assertEqual(k["path"], "")
            self.assertEqual(job["read"]["io_bytes"] + job["write"]["io_bytes"], 0)
            self.assertEqual(self.listing(), [])

    def test_hit_ratio_follows_prefix_reuse(self):
        for p in (0.2, 0.5, 0.8):
            _, k = self.kv("--name=kv", "--workload=kvcache", "--model=llama3-8b", "--ioengine=null",
                           "--kv_requests=20000", "--prompt_tokens=300", "--prompt_tokens_stdev=100",
                           "--output_tokens=50", f"--prefix_reuse={p}", "--kv_memory_capacity=2g",
                           "--kv_disk_capacity=1p", "--bs=32m")  # one request per block
            self.assertEqual(k["requests"], 20000)
            self.assertLessEqual(abs(k["hit_ratio"] - p), 0.02, (p, k["hit_ratio"]))
            self.assertGreater(k["disk_hits"], 0)
            self.assertGreater(k["memory_hits"], 0)

    def test_counts_do_not_depend_on_concurrency(self):
        keys = ("requests", "prefix_hits", "memory_hits", "disk_hits", "misses", "disk_writes",
                "tokens_computed", "read_bytes", "write_bytes")
        _, a = self.kv(*SMALL, "--kv_memory_capacity=2m", "--kv_disk_capacity=8m", "--concurrency=1")
        _, b = self.kv(*SMALL, "--kv_memory_capacity=2m", "--kv_disk_capacity=8m", "--concurrency=4")
        self.assertEqual([a[x] for x in keys], [b[x] for x in keys])
        self.assertGreater(a["disk_evictions"], 0)
        self.assertGreater(a["misses"], 0)

    def test_keep_and_refuse(self):
        _, k = self.kv(*SMALL, "--kv_memory_capacity=1m", "--kv_disk_capacity=4m", "--keep_kvcache=1")
        path = os.path.join(self.dir, "kvcache", "kvtier.0")
        self.assertEqual(os.path.getsize(path), 4 * 1024 * 1024 // k["block_bytes"] * k["block_bytes"])
        before = open(path, "rb").read()
        p = self.run_sb(*SMALL, f"--directory={self.dir}")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(path, p.stderr)
        self.assertIn("refusing to overwrite", p.stderr)
        self.assertEqual(open(path, "rb").read(), before)

    def test_bad_input(self):
        job = self.write_job("[kv]\nworkload=kvcache\nmodel=llama3-8b\nprompt_tokens_min=900\n"
                             "prompt_tokens_max=100\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"job\.ini:4: .*prompt_tokens_min=900 is above prompt_tokens_max=100")
        self.assertIn("lower prompt_tokens_min= or raise prompt_tokens_max=", p.stderr)
        job = self.write_job("[kv]\nworkload=kvcache\nlayers=4\nkv_heads=2\n", "b.ini")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"b\.ini:1: .*needs model=.*head_dim= is missing")
        job = self.write_job("[io]\nrw=read\nsize=1m\nprefix_reuse=0.5\n", "c.ini")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"c\.ini:4: prefix_reuse=0\.5 applies to workload=kvcache.*add workload=kvcache")
        p = self.run_sb("--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_requests=0")
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"<cmdline>.*kv_requests=0 runs until runtime=.*set runtime=")
        self.assertEqual(sorted(self.listing()), ["b.ini", "c.ini", "job.ini"])

    def test_rules_mlperf(self):
        """rules=mlperf gives what mlpstorage's run checker gives
        (mlpstorage/rules/run_checkers/kvcache.py): never CLOSED (:188-199
        check_preview_status); llama3-8b is not in config.py KVCACHE_MODELS
        (:65-72: INVALID); a short run is INVALID (:103-110); 1 user is OPEN
        (:88-95); no GPU tier is INVALID (:128-135); ioengine=null fails
        storbench's guidelines only."""
        # kv_profile=blocks: under rules=mlperf the default profile is mlperf,
        # whose user templates think for seconds between turns (45 s here)
        job, _ = self.kv(*SMALL, "--rules=mlperf", "--ioengine=null", "--kv_profile=blocks")
        rules = {c["name"]: c for c in job["rules"]["checks"]}
        self.assertEqual(job["rules"]["verdict"], "INVALID")
        self.assertEqual(job["rules"]["guidelines"], "INVALID")
        self.assertFalse(rules["model"]["pass"])
        self.assertIn("Invalid KV Cache model", rules["model"]["fix"])
        self.assertFalse(rules["duration"]["pass"])
        self.assertIn("Duration must be at least 30 seconds", rules["duration"]["fix"])
        self.assertIn("runtime=60", rules["duration"]["fix"])
        self.assertEqual(rules["num_users"]["actual"], "1")
        self.assertFalse(rules["gpu_mem_gb"]["pass"])
        self.assertFalse(rules["storage_io"]["pass"])
        self.assertEqual(rules["storage_io"]["checker_fails_as"], "CLOSED")
        self.assertFalse(rules["benchmark_status"]["pass"])
        self.assertEqual(rules["benchmark_status"]["checker_fails_as"], "OPEN")
        # an official model with everything the checker asks is OPEN, not CLOSED
        job, _ = self.kv(*SMALL[:2], "--model=llama3.1-8b", "--kv_block_tokens=4",
                         "--prompt_tokens=48", "--output_tokens=4", "--bs=128k",
                         "--kv_requests=0", "--runtime=0.2", "--rules=mlperf",
                         "--kv_profile=blocks")
        rules = {c["name"]: c for c in job["rules"]["checks"]}
        self.assertTrue(rules["model"]["pass"])
        self.assertTrue(rules["model_shape"]["pass"])
        self.assertNotEqual(job["rules"]["verdict"], "CLOSED")

    def test_shipped_job(self):
        job = os.path.join(SRC, "jobs", "kvcache-llama3-8b.ini")
        p = self.run_sb("--output-format=json", job, "--runtime=3", timeout=90)
        self.assertEqual(p.returncode, 0, p.stderr)
        k = json.loads(p.stdout)["jobs"][0]["kvcache"]
        self.assertEqual(k["bytes_per_token"], 131072)
        self.assertGreater(k["requests"], 0)
        self.assertEqual(self.listing(), [])


if __name__ == "__main__":
    unittest.main()
