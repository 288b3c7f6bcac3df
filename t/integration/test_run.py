"""End-to-end checks of the runner: the storbench binary (env SB_BIN) runs
job files on real files in a temporary directory; its --output-format=json
must account for exactly the bytes the job asked for, exit codes follow
DESIGN.md, and an interrupted run exits 130 with valid JSON."""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

from sbtest import CpuLoss

MiB = 1024 * 1024


def sb_bin():
    return os.environ.get("SB_BIN", "storbench")


class RunTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="sbrun.")
        self.dir = self.tmp.name
        if not os.access(sb_bin(), os.X_OK):
            self.skipTest("storbench binary not built: " + sb_bin())

    def tearDown(self):
        self.tmp.cleanup()

    def jobfile(self, text):
        path = os.path.join(self.dir, "job.ini")
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_sb(self, *args, timeout=60):
        return subprocess.run([sb_bin(), "--output-format=json", *args], cwd=self.dir,
                              capture_output=True, text=True, timeout=timeout)

    def json_of(self, out):
        start = out.find("{")
        self.assertGreaterEqual(start, 0, "no JSON in output: " + out[:500])
        return json.loads(out[start:])

    def run_ok(self, text):
        p = self.run_sb(self.jobfile(text))
        self.assertEqual(p.returncode, 0, p.stderr)
        return self.json_of(p.stdout)

    def test_bytes_equal_size(self):
        for engine, rw, key in [("psync", "write", "write"), ("psync", "read", "read"),
                                ("sync", "randwrite", "write"), ("sync", "randread", "read")]:
            with self.subTest(engine=engine, rw=rw):
                fn = os.path.join(self.dir, "data-%s-%s" % (engine, rw))
                doc = self.run_ok("[j]\nioengine=%s\nrw=%s\nbs=4k\nsize=2m\nfilename=%s\n"
                                  % (engine, rw, fn))
                job = doc["jobs"][0]
                self.assertEqual(job["jobname"], "j")
                self.assertEqual(job["error"], 0)
                self.assertEqual(job[key]["io_bytes"], 2 * MiB)
                self.assertEqual(job[key]["total_ios"], 512)
                other = "read" if key == "write" else "write"
                self.assertEqual(job[other]["io_bytes"], 0)
                self.assertEqual(job[key]["clat_ns"]["N"], 512)
                self.assertEqual(os.path.getsize(fn), 2 * MiB)

    def test_generated_names_and_unlink(self):
        doc = self.run_ok("[global]\nioengine=psync\nbs=4k\nsize=1m\n"
                          "[keep]\nrw=write\nnrfiles=2\n"
                          "[gone]\nrw=write\nunlink=1\n")
        self.assertEqual(doc["jobs"][0]["write"]["io_bytes"], MiB)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "keep.0.0")))
        self.assertTrue(os.path.exists(os.path.join(self.dir, "keep.0.1")))
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "keep.0.0")), MiB // 2)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "gone.0.0")))

    def test_existing_file_kept(self):
        fn = os.path.join(self.dir, "mine")
        with open(fn, "wb") as f:
            f.write(b"\x01" * (3 * MiB))
        self.run_ok("[j]\nioengine=psync\nrw=write\nbs=4k\nsize=1m\nunlink=1\nfilename=%s\n" % fn)
        self.assertEqual(os.path.getsize(fn), 3 * MiB)
        with open(fn, "rb") as f:
            f.seek(2 * MiB)
            self.assertEqual(f.read(16), b"\x01" * 16)

    def test_group_reporting(self):
        doc = self.run_ok("[g]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\n"
                          "numjobs=3\ngroup_reporting\n")
        self.assertEqual(len(doc["jobs"]), 1)
        self.assertEqual(doc["jobs"][0]["read"]["io_bytes"], 3 * 64 * MiB)

    def test_cmdline_job(self):
        p = self.run_sb("--name=a", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=64m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.json_of(p.stdout)["jobs"][0]["read"]["io_bytes"], 64 * MiB)

    def test_no_space_creates_nothing(self):
        p = self.run_sb(self.jobfile("[big]\nioengine=psync\nrw=read\nbs=4k\nsize=4p\n"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("not enough free space", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["job.ini"])

    def test_sigint_partial_results(self):
        self.check_signal_partial_results(signal.SIGINT)

    def test_sigusr2_partial_results(self):
        """SIGUSR2 is an interrupt as SIGINT (the one mpirun forwards to the ranks)"""
        self.check_signal_partial_results(signal.SIGUSR2)

    @staticmethod
    def running(pid, sig):
        """whether pid has its handler for sig and a job thread (a fixed
        delay from the start races a loaded machine's slow start-up)"""
        try:
            with open("/proc/%d/status" % pid) as f:
                st = dict(line.split(":", 1) for line in f if ":" in line)
            return bool(int(st["SigCgt"], 16) >> (sig - 1) & 1) and int(st["Threads"]) >= 2
        except (OSError, KeyError, ValueError):
            return False

    def check_signal_partial_results(self, sig):
        with CpuLoss() as lost:
            proc = subprocess.Popen([sb_bin(), "--output-format=json", self.jobfile(
                "[spin]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based\nruntime=60\n")],
                cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 30
            while not self.running(proc.pid, sig) and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(1.0)
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=20)
        self.assertEqual(proc.returncode, 130, err)
        doc = self.json_of(out)
        job = doc["jobs"][0]
        # a second of I/O before the signal, less what other load took
        self.assertTrue(job["read"]["io_bytes"] > 0 or lost.s >= 1.0, lost.s)
        self.assertGreater(job["read"]["runtime"], 500 - 1000 * lost.s)
        self.assertLess(job["read"]["runtime"], 20000)


if __name__ == "__main__":
    unittest.main()
