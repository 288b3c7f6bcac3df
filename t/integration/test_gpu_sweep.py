"""the sweep's GPU dimensions (DeepSpeed's `gpu` and
`use_gds`: sweep.iomem = malloc | cudamalloc, sweep.ioengine = ... |
libcufile).  Without the NVIDIA driver (no libcuda.so.1 on the library
path) the GPU points are skipped with a note naming the missing library,
do no I/O, and the rest of the sweep runs and ranks as before; with t/gpu's
stub driver and cuFile (LD_LIBRARY_PATH) the GPU points run and rank.
libcufile with iomem=cudamalloc is refused in a plain job (fio: the engine
keeps its own GPU buffers); in a sweep it is the iomem=malloc point again,
so it is skipped saying so."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import sbtest

STUBS = os.path.abspath(os.path.join(os.path.dirname(sbtest.BIN), "t", "gpu"))
if not os.path.exists(os.path.join(STUBS, "libcuda.so.1")):
    STUBS = os.path.join(sbtest.SRC, "build", "t", "gpu")

SWEEP = """[global]
directory={dir}
size=256k
bs=64k
iodepth=4
direct=1
loops=2
unlink=1
sweep.rw = read | write
sweep.iomem = malloc | cudamalloc
sweep.ioengine = libaio | libcufile

[gs]
"""


def no_gpu_env():
    """the library path without any stub (and no system driver here)"""
    keep = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p and "t/gpu" not in p]
    return {"LD_LIBRARY_PATH": ":".join(keep)}


class GpuSweepCase(sbtest.SbCase):
    def sweep(self, env):
        job = self.write_job(SWEEP.format(dir=self.dir), "gs.ini")
        p = self.run_sb("--output-format=json,normal", job, env=env)
        self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
        text = p.stdout
        start = text.index("{")
        dec = json.JSONDecoder()
        doc, end = dec.raw_decode(text[start:])
        return doc["sweep"], text[:start] + text[start + end:]

    @staticmethod
    def by_values(points):
        return {(q["values"]["rw"], q["values"]["iomem"], q["values"]["ioengine"]): q
                for q in points}


class TestWithoutGpu(GpuSweepCase):
    def setUp(self):
        super().setUp()
        if os.path.exists("/dev/nvidiactl"):
            self.skipTest("this machine has an NVIDIA driver")

    def test_gpu_points_skipped_rest_ranked(self):
        sw, normal = self.sweep(no_gpu_env())
        self.assertEqual(sw["total_points"], 8)
        self.assertEqual(sw["finished_points"], 2)
        self.assertEqual(sw["skipped_points"], 6)
        run = self.by_values(sw["points"])
        self.assertEqual(sorted(run), [("read", "malloc", "libaio"), ("write", "malloc", "libaio")])
        for q in sw["points"]:
            self.assertEqual(q["error"], 0)
            self.assertEqual(q["read" if q["values"]["rw"] == "read" else "write"]["io_bytes"],
                             256 << 10)
        skipped = self.by_values(sw["skipped"])
        self.assertEqual(len(skipped), 6)
        for key, q in skipped.items():
            self.assertIs(q["skipped"], True)
            if key[1:] == ("cudamalloc", "libcufile"):
                self.assertIn("the same as this point with iomem=malloc", q["reason"])
            else:  # the driver is loaded first, for both GPU paths
                self.assertIn("libcuda.so.1 not found", q["reason"])
                self.assertIn("install the NVIDIA driver", q["reason"])
        # the ranking is over the points that ran
        self.assertEqual(sw["best"]["read"]["values"], {"rw": "read", "iomem": "malloc",
                                                         "ioengine": "libaio"})
        self.assertEqual(sw["best"]["write"]["values"]["iomem"], "malloc")
        # normal output: the count, each reason once with its points
        self.assertIn("Sweep: 2 of 8 points, 6 skipped", normal)
        m = re.search(r"Skipped (\d+) points \(not run, no I/O\): iomem=cudamalloc: "
                      r"libcuda.so.1 not found.*\n  points ([\d, ]+)\n", normal)
        self.assertTrue(m, normal)
        self.assertEqual(m.group(1), "2")
        self.assertEqual(m.group(2), "3, 7")
        self.assertIn("ioengine=libcufile: libcuda.so.1 not found", normal)
        self.assertEqual(self.listing(), ["gs.ini"])

    def test_skipped_points_do_no_io(self):
        """the skipped points lay out and touch no file: a sweep of GPU
        points only finishes with nothing run and nothing written"""
        job = self.write_job("[global]\ndirectory=%s\nsize=256k\nunlink=0\n"
                             "sweep.iomem = cudamalloc\nsweep.rw = read | write\n[gs]\n"
                             % self.dir, "gs.ini")
        p = self.run_sb("--output-format=json", job, env=no_gpu_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        sw = json.loads(p.stdout)["sweep"]
        self.assertEqual((sw["finished_points"], sw["skipped_points"]), (0, 2))
        self.assertEqual(sw["best"], {})
        self.assertEqual(self.listing(), ["gs.ini"])

    def test_skipped_points_drop_no_cache(self):
        """a skipped point costs nothing: no sync-and-drop, no run (the page
        cache is dropped once per direct point that ran: 2, not 8)"""
        if not shutil.which("strace"):
            self.skipTest("strace not installed")
        job = self.write_job(SWEEP.format(dir=self.dir) + "drop_caches=1\n", "gs.ini")
        log = os.path.join(self.dir, "strace.txt")
        env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                             ":detect_leaks=0").lstrip(":"), **no_gpu_env())
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log, sbtest.BIN,
                            "--output-format=json", job], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(log) as f:
            opens = f.read()
        self.assertEqual(opens.count('"/proc/sys/vm/drop_caches"'), 2)
        self.assertEqual(json.loads(p.stdout)["sweep"]["skipped_points"], 6)

    def test_checkpoint_source_point_skipped(self):
        """sweep.checkpoint_source = host | gpu without the
        driver: the gpu point is skipped the same way"""
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\n"
                             "drop_caches=0\ncheckpoint_folder=%s/ck\nmodel=llama3-8b\n"
                             "checkpoint_scale=0.00002\nnum_checkpoints_write=1\n"
                             "num_checkpoints_read=1\nsweep.checkpoint_source = host | gpu\n"
                             % self.dir, "gs.ini")
        p = self.run_sb("--output-format=json", job, env=no_gpu_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        sw = json.loads(p.stdout)["sweep"]
        self.assertEqual((sw["finished_points"], sw["skipped_points"]), (1, 1))
        self.assertEqual(sw["skipped"][0]["values"], {"checkpoint_source": "gpu"})
        self.assertIn("checkpoint_source=gpu: libcuda.so.1 not found", sw["skipped"][0]["reason"])
        self.assertEqual(self.listing(), ["gs.ini"])

    def test_plain_job_still_refused(self):
        """outside a sweep the missing driver stays an error (exit 1)"""
        job = self.write_job("[j]\nfilename=%s/f\nsize=64k\niomem=cudamalloc\n" % self.dir)
        p = self.run_sb(job, env=no_gpu_env())
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:4: iomem=cudamalloc: libcuda.so.1 not found", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


@unittest.skipUnless(os.path.exists(os.path.join(STUBS, "libcuda.so.1")), "no stub driver")
class TestWithStubs(GpuSweepCase):
    def stub_env(self, libdir=STUBS):
        self.stats = os.path.join(self.dir, "stubcuda.json")
        return {"LD_LIBRARY_PATH": libdir, "SB_STUBCUDA_STATS": self.stats}

    def test_gpu_points_run_and_rank(self):
        sw, normal = self.sweep(self.stub_env())
        self.assertEqual((sw["total_points"], sw["finished_points"], sw["skipped_points"]),
                         (8, 6, 2))
        run = self.by_values(sw["points"])
        for rw in ("read", "write"):
            for key in ((rw, "malloc", "libaio"), (rw, "cudamalloc", "libaio"),
                        (rw, "malloc", "libcufile")):
                q = run[key]
                self.assertEqual(q["error"], 0, key)
                self.assertEqual(q[rw]["io_bytes"], 256 << 10, key)
                self.assertGreater(q["score"], 0)
        for q in sw["skipped"]:
            self.assertEqual(q["values"]["iomem"], "cudamalloc")
            self.assertEqual(q["values"]["ioengine"], "libcufile")
        # the best point is picked among all six that ran, GPU ones included
        best = max((q for q in sw["points"] if q["values"]["rw"] == "read"),
                   key=lambda q: q["read"]["bw_bytes"])
        self.assertEqual(sw["best"]["read"]["point"], best["point"])
        self.assertIn("cudamalloc", normal)
        with open(self.stats) as f:
            st = json.load(f)
        # cudamalloc through libaio: every read copied H2D, every write D2H,
        # 2 repetitions of 256 KiB each (libcufile's cuda_io=cufile moves its
        # bytes in the cuFile stub, not through these copies)
        self.assertGreaterEqual(st["h2d_bytes"], 2 * (256 << 10))
        self.assertGreaterEqual(st["d2h_bytes"], 2 * (256 << 10))
        self.assertEqual(st["live_allocs"], 0)

    def test_driver_without_cufile(self):
        """libcuda present, libcufile.so.0 absent: only the GDS points skip,
        naming libcufile.so.0"""
        with tempfile.TemporaryDirectory() as lib:
            os.symlink(os.path.join(STUBS, "libcuda.so.1"), os.path.join(lib, "libcuda.so.1"))
            sw, normal = self.sweep(self.stub_env(lib))
        self.assertEqual((sw["finished_points"], sw["skipped_points"]), (4, 4))
        for q in sw["skipped"]:
            self.assertEqual(q["values"]["ioengine"], "libcufile")
            if q["values"]["iomem"] == "malloc":
                self.assertIn("libcufile.so.0", q["reason"])
        self.assertIn("ioengine=libcufile: libcufile.so.0", normal)


class TestNvmeSweepJob(sbtest.SbCase):
    def test_dimensions(self):
        """jobs/nvme-sweep.ini carries DeepSpeed's gpu and use_gds dimensions"""
        p = self.run_sb("--parse-only=verbose", os.path.join(sbtest.SRC, "jobs", "nvme-sweep.ini"),
                        env={"DIR": self.dir})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("1152 points", p.stdout)
        self.assertRegex(p.stdout, r"iomem=cudamalloc")
        self.assertRegex(p.stdout, r"ioengine=libcufile")


if __name__ == "__main__":
    unittest.main()
