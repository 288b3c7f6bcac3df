"""Engines through the real binary: queue depth is real, and
jobs/engine-compare.ini prints its side-by-side comparison."""
import json
import os
import subprocess

from sbtest import BIN, SRC, SbCase


def built_engines():
    out = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True).stdout
    return out.splitlines()[0].split(":", 1)[1].replace(" ", "").split(",")


class TestEngines(SbCase):
    def test_iodepth_32_is_held(self):
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else self.dir
        path = os.path.join(shm, f"sbint-depth-{os.getpid()}.dat")
        try:
            for eng in ("io_uring", "libaio"):
                if eng not in built_engines():
                    self.skipTest(f"{eng} not built")
                j = self.run_json(f"--name=depth-{eng}", f"--ioengine={eng}", "--rw=randread", "--bs=4k",
                                  "--size=16m", "--iodepth=32", "--runtime=500ms", "--time_based",
                                  f"--filename={path}")
                lvl = j["jobs"][0]["iodepth_level"]
                self.assertGreaterEqual(lvl["32"], 90.0, f"{eng}: {lvl}")
        finally:
            if os.path.exists(path):
                os.unlink(path)

    def test_engine_compare_job_prints_the_table(self):
        job = os.path.join(SRC, "jobs", "engine-compare.ini")
        env = {"RUNTIME": "300ms", "SIZE": "16m", "DIR": self.dir}
        p = self.run_sb("--output-format=normal,json", job, env=env, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        text, doc = p.stdout.split("\n{", 1)
        j = json.loads("{" + doc)
        engines = [e for e in ("psync", "libaio", "io_uring", "mmap") if e in built_engines()]
        self.assertIn("Comparison by ioengine", text)
        self.assertEqual(len(j["comparisons"]), 2)
        for cmp in j["comparisons"]:
            self.assertEqual(cmp["option"], "ioengine")
            self.assertEqual([r["value"] for r in cmp["rows"]], engines)
            self.assertEqual(cmp["rows"][0]["ratio"], 1.0)
            for r in cmp["rows"]:
                self.assertGreater(r["iops"], 0)
                self.assertGreater(r["clat_p99_ns"], 0)
        self.assertEqual(self.listing(), [], "unlink=1 removes the file the job created")

    def test_unknown_engine_names_the_available_ones(self):
        job = self.write_job("[j]\nioengine=spdk\nsize=1m\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:2", p.stderr)
        self.assertIn("spdk", p.stderr)
        self.assertIn("psync", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
