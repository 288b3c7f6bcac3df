"""kv_trace= under kv_profile=mlperf: test_kvtrace.py's
50-request BurstGPT trace replayed by the mlperf users gives exactly those
requests (token counts, arrivals kept, checked through kv_request_log= and
the JSON), and the trace's end ends the run.  The official benchmark feeds
its request queue from the trace the same way (mlcommons/storage
kv_cache_benchmark/kv_cache/benchmark.py _generate_requests_from_trace:
context_tokens = Request tokens, generate_tokens = Response tokens, a sleep
of delta / speedup between rows when delta > 0)."""
import os
import unittest

from sbtest import SbCase
from test_kvtrace import burst_arrivals, burst_rows

BASE = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
        "--head_dim=16", "--kv_users=4", "--kv_memory_capacity=0", "--kv_think_time=0",
        "--kv_disk_capacity=1g"]


class MlperfTrace(SbCase):
    def write_csv(self, rows):
        csv = os.path.join(self.dir, "t.csv")
        with open(csv, "w") as f:
            f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
            for ts, req, resp in rows:
                f.write(f'{ts},"ChatGPT, 4",{req},{resp},{req + resp},Conversation log\n')
        return csv

    def log(self, path):
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "# index arrival_s prompt_tokens output_tokens conversation turn user")
        return [l.split() for l in lines[1:]]

    def test_fifty_requests(self):
        rows = burst_rows(50, 7)
        csv = self.write_csv(rows)
        log = os.path.join(self.dir, "req.log")
        d = self.run_json(*BASE, f"--directory={self.dir}", f"--kv_trace={csv}",
                          "--kv_trace_speedup=2", f"--kv_request_log={log}")
        m = d["jobs"][0]["kvcache"]["mlperf"]
        got = self.log(log)
        self.assertEqual(len(got), 50)
        want_at = burst_arrivals(rows, 2.0)
        for i, (g, (ts, req, resp)) in enumerate(zip(got, rows)):
            self.assertEqual(int(g[0]), i)
            self.assertEqual((int(g[2]), int(g[3])), (req, resp), f"request {i}")
            self.assertAlmostEqual(float(g[1]), want_at[i], places=6, msg=f"request {i}")
            self.assertEqual(int(g[5]), 1)
        self.assertEqual(m["total_requests"], 50)  # the trace's end ends the run
        self.assertEqual(m["total_tokens"], sum(r[2] for r in rows))
        self.assertGreaterEqual(m["elapsed_time"], want_at[-1])  # the arrivals were waited for
        self.assertEqual(m["multi_turn_stats"]["cache_hits"] + m["multi_turn_stats"]["cache_misses"], 0)
        # kv_requests smaller than the trace: its first requests; speedup 0: closed loop
        d = self.run_json(*BASE, f"--directory={self.dir}", f"--kv_trace={csv}",
                          "--kv_trace_speedup=0", "--kv_requests=20", f"--kv_request_log={log}")
        self.assertEqual(d["jobs"][0]["kvcache"]["mlperf"]["total_requests"], 20)
        got = self.log(log)
        self.assertEqual([(int(g[2]), int(g[3])) for g in got], [(r[1], r[2]) for r in rows[:20]])
        self.assertEqual({float(g[1]) for g in got}, {0.0})


class Extras(SbCase):
    """kv_system_prompt_probability and kv_rag_* counts in the JSON "kvcache"
    object, both profiles (prefix_cache.py PrefixMatcher: 3 common system
    prompts; rag.py retrieve_chunks: top_k chunks of one document)"""
    OPTS = ["--kv_system_prompt_probability=1", "--kv_rag_docs=2", "--kv_rag_probability=1",
            "--kv_rag_top_k=3", "--kv_requests=40"]

    def test_mlperf_counts(self):
        d = self.run_json(*BASE, f"--directory={self.dir}", "--prompt_tokens=512",
                          "--output_tokens=16", *self.OPTS)
        k = d["jobs"][0]["kvcache"]
        sp, rag = k["system_prompt"], k["rag"]
        # prefix_cache.py record_prefix_result: a detected system prompt is a hit
        self.assertEqual((sp["hits"], sp["misses"]), (40, 0))  # probability 1
        self.assertGreaterEqual(sp["tokens_saved"], 40 * 5)     # 5, 9 or 6 tokens each
        self.assertEqual(rag["documents"], 2)
        self.assertGreaterEqual(rag["chunks"], 2)
        self.assertEqual(rag["retrievals"], 40)
        self.assertEqual(rag["chunks_read"], rag["memory_hits"] + rag["disk_hits"] + rag["misses"])
        self.assertGreaterEqual(rag["chunks_read"], 40)
        p = self.run_sb(*BASE, f"--directory={self.dir}", "--prompt_tokens=512",
                        "--output_tokens=16", *self.OPTS)
        self.assertIn("system prompts: ", p.stdout)
        self.assertIn("rag: 2 documents", p.stdout)

    def test_blocks_counts(self):
        d = self.run_json("--name=kv", "--workload=kvcache", "--model=llama3-8b",
                          "--kv_block_tokens=16", "--ioengine=null", "--kv_memory_capacity=64g",
                          "--kv_disk_capacity=0", *self.OPTS)
        k = d["jobs"][0]["kvcache"]
        self.assertEqual(k["profile"], "blocks")
        self.assertGreater(k["system_prompt"]["hits"] + k["system_prompt"]["misses"], 0)
        self.assertEqual(k["rag"]["documents"], 2)
        self.assertGreater(k["rag"]["retrievals"], 0)


if __name__ == "__main__":
    unittest.main()
