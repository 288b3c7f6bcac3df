"""test_lattgt.py: latency_target, latency_window, latency_percentile and
latency_run (run/lattgt.c) do what fio 3.33's do, seen from outside: the
depth found in JSON and the normal output, the run ending once the depth is
confirmed (and its statistics covering only the final window), a miss at
depth 1, and the bad values.

The device: buffered reads of 256 KiB through libaio from a file in the page
cache.  io_submit copies each read before it returns, so an I/O waits for
the ones queued with it: its latency grows with the queue depth, and even at
depth 1 it is far above 1 us (a 256 KiB copy), far below 10 s.  So a 1 us
target is missed at every depth and a 10 s one at none, whatever the load."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from sbtest import SbCase  # noqa: E402

KEYS = ("latency_depth", "latency_target", "latency_percentile", "latency_window")


def lat_keys(job):
    return {k: job[k] for k in KEYS}


class LatencyTarget(SbCase):
    def job(self, extra, engine="libaio", runtime="20s"):
        return self.write_job("[lt]\nfilename=f\nsize=16m\nbs=256k\nrw=randread\nioengine=%s\n"
                              "iodepth=16\ntime_based\nruntime=%s\nlatency_window=100ms\n%s\n"
                              % (engine, runtime, extra))

    def test_loose_target_finds_iodepth_and_ends(self):
        # fio 3.33, same job with latency_target=1s, window 200ms, runtime 3s: depth 1, 2,
        # 4, 8, 16, 16 (the stats start again), 16 -> ends; JSON latency_depth=16,
        # latency_target=1000000000 (ns), latency_percentile=100.0, latency_window=200000
        # (us), job_runtime=200 (one window), error 0
        j = self.run_json(self.job("latency_target=10s"))["jobs"][0]
        self.assertEqual(lat_keys(j), {"latency_depth": 16, "latency_target": 10 ** 10,
                                       "latency_percentile": 100.0, "latency_window": 100000})
        self.assertEqual(j["error"], 0)
        # 7 windows of 100 ms, not the 20 s runtime; the statistics are the final window's
        self.assertLess(j["job_runtime"], 10000)
        self.assertLess(j["elapsed"], 15)
        self.assertGreaterEqual(j["iodepth_level"]["16"], 50.0)

    def test_tight_target_keeps_depth_1(self):
        # fio 3.33, latency_target=1us latency_percentile=50, runtime 3s: every window
        # misses, depth 1 for the whole runtime (job_runtime 3010), error 0
        j = self.run_json(self.job("latency_target=1us\nlatency_percentile=50", runtime="1500ms"))
        j = j["jobs"][0]
        self.assertEqual(lat_keys(j), {"latency_depth": 1, "latency_target": 1000,
                                       "latency_percentile": 50.0, "latency_window": 100000})
        self.assertEqual(j["error"], 0)
        self.assertGreaterEqual(j["job_runtime"], 1400)
        self.assertEqual(j["iodepth_level"]["1"], 100.0)

    def test_tight_target_at_100_percent_ends_with_etimedout(self):
        # fio 3.33: "latency of N nsec exceeds specified max (M nsec)", err=110: at depth 1
        # one late I/O ends the job
        p = self.run_sb("--output-format=json", self.job("latency_target=1us"))
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("latency_target missed at queue depth 1", p.stderr)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["error"], 110)
        self.assertEqual(j["latency_depth"], 1)

    def test_latency_run_keeps_going(self):
        # fio 3.33, latency_target=1s latency_run=1, runtime 3s: job_runtime 3000, depth 16
        j = self.run_json(self.job("latency_target=10s\nlatency_run=1", runtime="1500ms"))
        j = j["jobs"][0]
        self.assertEqual(j["latency_depth"], 16)
        self.assertGreaterEqual(j["job_runtime"], 1400)

    def test_sync_engine_depth_1(self):
        # fio 3.33, psync, latency_target=10s window 100ms: depth 1, job_runtime 100
        j = self.run_json(self.job("latency_target=10s", engine="psync"))["jobs"][0]
        self.assertEqual(j["latency_depth"], 1)
        self.assertLess(j["job_runtime"], 10000)

    def test_normal_output_line(self):
        # fio 3.33: "     latency   : target=1000000000, window=200000, percentile=100.00%,
        # depth=16" after "issued rwts"; without a target "target=0, window=0,
        # percentile=100.00%, depth=<iodepth>"
        p = self.run_sb(self.job("latency_target=10s\nlatency_percentile=99.5"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("     latency   : target=10000000000, window=100000, percentile=99.50%, "
                      "depth=16\n", p.stdout)

    def test_unset_keys_as_fio(self):
        j = self.run_json("--name=x", "--ioengine=null", "--size=1m", "--iodepth=4")["jobs"][0]
        self.assertEqual(lat_keys(j), {"latency_depth": 4, "latency_target": 0,
                                       "latency_percentile": 100.0, "latency_window": 0})

    def test_gtod_reduce_never_misses(self):
        # fio 3.33 accepts it and takes no latencies: no window misses (depth = iodepth)
        j = self.run_json("--name=x", "--ioengine=null", "--size=64m", "--latency_target=1us",
                          "--latency_window=10ms", "--gtod_reduce=1")["jobs"][0]
        self.assertEqual((j["latency_depth"], j["error"]), (1, 0))

    BAD = [  # fio 3.33 refuses each too ("value out of range: 101.000000 (range max: 100.0)")
        ("latency_percentile=101", "expected a number from 0 to 100"),
        ("latency_percentile=x", "expected a number from 0 to 100"),
        ("latency_target=abc", "expected a time such as"),
        ("latency_window=-5", "expected a time such as"),
        ("latency_run=7", "expected 1/0, true/false"),
    ]

    def test_bad_values(self):
        for text, fix in self.BAD:
            with self.subTest(text=text):
                job = self.write_job("[x]\nioengine=psync\nfilename=new.dat\nsize=1m\n%s\n" % text)
                before = self.listing()
                p = self.run_sb("--output-format=json", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("%s:5: %s:" % (job, text), p.stderr)
                self.assertIn(fix, p.stderr)
                self.assertEqual(self.listing(), before)
                self.assertEqual(p.stdout, "")

    def test_bad_value_on_the_command_line(self):
        p = self.run_sb("--name=x", "--ioengine=null", "--size=1m", "--latency_percentile=101")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>", p.stderr)
        self.assertIn("latency_percentile=101", p.stderr)


if __name__ == "__main__":
    unittest.main()
