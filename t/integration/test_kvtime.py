"""Time in workload=kvcache arrival waits, both profiles
(kv_profile=blocks and kv_profile=mlperf), trace replay (kv_trace=, BurstGPT
timestamps / kv_trace_speedup, ShareGPT i / arrival_rate) and Poisson
arrivals (arrival_rate= without a trace):

- the wait for a request's arrival ends at runtime= or at a stop, whichever
  comes first: a trace row at 30 s with runtime=2 ends the run at about 2 s
  (asserted: well under 30 s), not at 30 s;
- a request counts only when it ran: one whose arrival is past runtime=, or
  whose wait a SIGINT cut short, is not in the request counts (nor in the
  per-request system-prompt counts);
- arrival arithmetic saturates: an arrival past 2^64 ns from the clock's
  origin (a huge timestamp, a tiny arrival_rate) is "never", not wrapped
  round to "now" and served at once.

Before: runtime= was looked at only before a request was taken (30 s runs),
a request was counted when taken (SIGINT during its wait counted it), and
t0 + seconds x 1e9 wrapped (the request was served at once)."""
import json
import os
import signal
import subprocess
import time
import unittest

from sbtest import BIN, SbCase, catches

# the wall time a 2-second run must stay under (the bug ran 30 s or more):
# not a timing assertion, a bound no load reaches
BOUND_S = 20

BLOCKS = ["--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_block_tokens=16",
          "--ioengine=null", "--kv_memory_capacity=64g", "--kv_disk_capacity=0"]
MLPERF = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
          "--head_dim=16", "--kv_memory_capacity=0", "--kv_think_time=0",
          "--kv_disk_capacity=1g"]


def requests_of(doc):
    k = doc["jobs"][0]["kvcache"]
    return k["mlperf"]["total_requests"] if "mlperf" in k else k["requests"]


class KvTime(SbCase):
    def profiles(self, users):
        return (("blocks", BLOCKS + ["--concurrency=%d" % users]),
                ("mlperf", MLPERF + ["--kv_users=%d" % users, "--directory=" + self.dir]))

    def burst(self, stamps):
        csv = os.path.join(self.dir, "t.csv")
        with open(csv, "w") as f:
            f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
            for ts in stamps:
                f.write(f"{ts},ChatGPT,32,4,36,Conversation log\n")
        return csv

    def sharegpt(self, n):
        path = os.path.join(self.dir, "s.json")
        conv = [{"id": str(i), "conversations": [{"from": "human", "value": "x" * 64},
                                                 {"from": "gpt", "value": "y" * 16}]}
                for i in range(n)]
        with open(path, "w") as f:
            json.dump(conv, f)
        return path

    def timed(self, *args):
        t = time.monotonic()
        p = self.run_sb("--output-format=json", *args, timeout=300)
        took = time.monotonic() - t
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout), took

    def test_runtime_ends_the_arrival_wait(self):
        """rows at 0 and 0.1 s run; rows at 30 and 40 s never arrive before
        runtime=2: the run ends well before 30 s with 2 requests"""
        csv = self.burst([100, 100.1, 130, 140])
        for users in (1, 2):
            for name, base in self.profiles(users):
                with self.subTest(profile=name, users=users):
                    doc, took = self.timed(*base, "--kv_trace=" + csv, "--kv_trace_speedup=1",
                                           "--runtime=2", "--kv_system_prompt_probability=1")
                    self.assertLess(took, BOUND_S)
                    self.assertEqual(requests_of(doc), 2)
                    # the per-request extras count the same requests: every
                    # one looks up a system prompt (probability 1)
                    sp = doc["jobs"][0]["kvcache"]["system_prompt"]
                    self.assertEqual(sp["hits"] + sp["misses"], 2, sp)

    def test_sharegpt_rate_ends_at_runtime(self):
        """ShareGPT at arrival_rate=0.05: requests at 0, 20, 40 s; runtime=2
        serves the first only"""
        js = self.sharegpt(3)
        for name, base in self.profiles(2):
            with self.subTest(profile=name):
                doc, took = self.timed(*base, "--kv_trace=" + js, "--arrival_rate=0.05",
                                       "--runtime=2")
                self.assertLess(took, BOUND_S)
                self.assertEqual(requests_of(doc), 1)

    def test_huge_arrivals_do_not_wrap(self):
        """an arrival past 2^64 ns (1e11 s; 18446744073 s, whose ns fit in
        64 bits but not once added to the clock; inf after a huge / tiny
        step) is never reached: not served at once"""
        for far in ("1e11", "18446744073", "1e300"):
            csv = self.burst([0, far])
            for name, base in self.profiles(2):
                with self.subTest(far=far, profile=name):
                    doc, took = self.timed(*base, "--kv_trace=" + csv, "--kv_trace_speedup=1e-10",
                                           "--runtime=2") if far == "1e300" else \
                        self.timed(*base, "--kv_trace=" + csv, "--kv_trace_speedup=1",
                                   "--runtime=2")
                    self.assertLess(took, BOUND_S)
                    self.assertEqual(requests_of(doc), 1)

    def test_tiny_arrival_rate_is_never(self):
        """arrival_rate=1e-15 without a trace: the next arrival is 1e15 s
        away (1e24 ns): blocks serves none (its first arrival is that far),
        mlperf its first request only (its first slot is the start)"""
        want = {"blocks": 0, "mlperf": 1}
        for name, base in self.profiles(2):
            with self.subTest(profile=name):
                extra = ["--prompt_tokens=64", "--output_tokens=4"]
                doc, took = self.timed(*base, *extra, "--arrival_rate=1e-15", "--runtime=2")
                self.assertLess(took, BOUND_S)
                self.assertEqual(requests_of(doc), want[name])


    def test_interrupted_wait_does_not_count(self):
        """rows at 0 and 30 s, no runtime=: SIGINT while the second one is
        waited for ends the run (130) with the first request only"""
        csv = self.burst([0, 30])
        for name, base in self.profiles(1):
            with self.subTest(profile=name):
                p = subprocess.Popen([BIN, "--output-format=json", *base, "--kv_trace=" + csv,
                                      "--kv_trace_speedup=1"], cwd=self.dir,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                deadline = time.monotonic() + 30
                while not catches(p.pid, signal.SIGINT) and p.poll() is None and \
                        time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(2)
                t = time.monotonic()
                p.send_signal(signal.SIGINT)
                out, err = p.communicate(timeout=60)
                self.assertLess(time.monotonic() - t, BOUND_S)
                self.assertEqual(p.returncode, 130, err)
                doc = json.loads(out)
                self.assertTrue(doc.get("interrupted"), out[:200])
                self.assertLessEqual(requests_of(doc), 1)


if __name__ == "__main__":
    unittest.main()
