"""test_lostwrite.py: a write the device drops is caught even when the file
holds the same block from an earlier run of the same job.

Offset, generation, seed and digest of a block repeat from run to run of the
same job, so a lost write used to leave a block that checked as good.  Every
verify header carries the time its write was prepared (run/vblock.h); a run
that checks what it wrote refuses a block stamped before the run began:
"stale", an earlier run's block (a lost write).  A verify_only run checks
what earlier runs wrote and accepts any time.  Lost writes are injected with
the fault shim's LOST mode (t/faults/sbfault.c): pwrite/write return their
full count and store nothing (sync, psync); libaio's chosen write iocb,
io_uring's chosen write SQE and posixaio's chosen aiocb are pointed at
/dev/null before the kernel (glibc's AIO thread) sees them, so it
completes them in full and stores nothing.
Every engine x {a new file, a file an earlier run wrote} and the checkpoint
workload's checkpoint_verify on every engine must report each lost write as
one verify failure and exit 3; the train workload's dataset_verify must
find a lost write of the dataset generator (which writes with pwrite,
whatever ioengine=) on every engine's reads; an intact run reports 0.

mmap has no lost write to inject: a store into a shared mapping moves all
or faults (SIGBUS: test_faults.py), and its write-back is the kernel's.
"""
import json
import os
import subprocess
import time
import unittest

from sbtest import BIN
from test_faults import shim_env
from test_shortio import TRAIN, ShimCase, ckpt_args, fault_rule, run_shim


class LostWrites(ShimCase):
    def job(self, eng, *extra):
        return ["--output-format=json", "--name=v", "--filename=v.dat", "--ioengine=" + eng,
                "--rw=write", "--bs=16k", "--size=1m", "--verify=crc32c", "--unlink=0", *extra]

    def run_v(self, args, rules=None):
        env = dict(os.environ)
        if rules:
            env.update(shim_env(rules), SBFAULT_LOG="1")  # after the ASan runtime
        p = subprocess.run([BIN, *args], cwd=self.dir, env=env, capture_output=True, text=True,
                           timeout=120)
        return p, p.stderr.count("-> errno 100002")

    def test_lost_writes_to_a_new_file_are_caught(self):
        for eng in self.engines():
            for extra in ((), ("--iodepth=8",), ("--iodepth=8", "--direct=1"),
                          ("--iodepth=4", "--fixedbufs=1", "--registerfiles=1")):
                if (len(extra) > 1 and eng not in ("libaio", "io_uring", "posixaio")) or \
                   ("--fixedbufs=1" in extra and eng != "io_uring"):
                    continue
                path = os.path.join(self.dir, "v.dat")
                if os.path.exists(path):
                    os.unlink(path)
                what = "%s %s" % (eng, " ".join(extra))
                p, lost = self.run_v(self.job(eng, *extra),
                                     fault_rule(eng, "w", "LOST", ":skip=3:times=5"))
                self.assertEqual(lost, 5, what + ": " + p.stderr)
                self.assertEqual(p.returncode, 3, what + ": " + p.stderr)
                v = json.loads(p.stdout)["jobs"][0]["verify"]
                self.assertEqual((v["blocks_checked"], v["failures"], v["never_written"]),
                                 (64, 5, 5), what)
                p, _ = self.run_v(self.job(eng, *extra))  # intact: no false failure
                self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
                v = json.loads(p.stdout)["jobs"][0]["verify"]
                self.assertEqual((v["blocks_checked"], v["failures"]), (64, 0), what)

    def test_lost_writes_over_an_earlier_run_are_caught(self):
        for eng in self.engines():
            path = os.path.join(self.dir, "v.dat")
            if os.path.exists(path):
                os.unlink(path)
            p, _ = self.run_v(self.job(eng))
            self.assertEqual(p.returncode, 0, p.stderr)
            time.sleep(0.05)
            p, lost = self.run_v(self.job(eng), fault_rule(eng, "w", "LOST", ":skip=3:times=5"))
            self.assertEqual(lost, 5, p.stderr)
            self.assertEqual(p.returncode, 3, "%s: %s" % (eng, p.stderr))
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            self.assertEqual(v["failures"], 5, eng)   # every lost write, no other
            self.assertEqual(v["stale"], 5, eng)
            self.assertIn("a lost write", v["first_failures"][0]["found"])
            # no false failure: a clean run over the same file, and a
            # verify_only run of what an earlier run wrote
            p, _ = self.run_v(self.job(eng))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(json.loads(p.stdout)["jobs"][0]["verify"]["failures"], 0)
            p, _ = self.run_v(self.job(eng, "--verify_only=1"))
            self.assertEqual(p.returncode, 0, p.stderr)
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            self.assertEqual((v["blocks_checked"], v["failures"]), (64, 0), eng)

    def test_checkpoint_verify_catches_every_lost_write(self):
        """the write of each checkpoint file's 4 KiB block at 8 KiB is lost
        (a block inside every file of 12 KiB and more, so no file ends
        short): each is one never_written failure, on every engine"""
        for eng in self.engines():
            p, _ = run_shim(self, None, *ckpt_args(eng, "4k"), "--checkpoint_folder=clean-" + eng)
            self.assertEqual(p.returncode, 0, eng + ": " + p.stderr)
            self.assertEqual(json.loads(p.stdout)["jobs"][0]["verify"]["failures"], 0, eng)
            p, lost = run_shim(self, fault_rule(eng, "w", "LOST", ":offset=8k"),
                               *ckpt_args(eng, "4k"), "--checkpoint_folder=lost-" + eng,
                               log="100002")
            self.assertGreaterEqual(lost, 8, eng + ": " + p.stderr)
            self.assertEqual(p.returncode, 3, eng + ": " + p.stderr)
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            self.assertEqual((v["failures"], v["never_written"]), (lost, lost), eng)
            self.assertTrue(all(f["offset"] == 8192 for f in v["first_failures"]), eng)

    def test_train_verify_catches_a_lost_dataset_write(self):
        """the dataset generator's middle 1 MiB write of one file is lost:
        every engine's training reads report it (never_written, in that
        file, in that MiB) and exit 3; the intact dataset reads clean"""
        for eng in self.engines():
            ds = os.path.join(self.dir, "ds-" + eng)
            job = self.write_job(TRAIN % (ds, eng))
            p, lost = run_shim(self, "pwrite:LOST:offset=1052672:path=*img_1_of_3*", "--datagen",
                               job, log="100002")
            self.assertEqual((lost, p.returncode), (1, 0), eng + ": " + p.stderr)
            p, _ = run_shim(self, None, job)
            self.assertEqual(p.returncode, 3, eng + ": " + p.stderr)
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            self.assertGreater(v["failures"], 0, eng)
            self.assertEqual(v["failures"], v["never_written"], eng)
            for f in v["first_failures"]:
                self.assertTrue(f["file"].endswith("img_1_of_3.npz"), (eng, f))
                self.assertTrue(1 << 20 <= f["offset"] < 2 << 20, (eng, f))
            os.rename(os.path.join(ds, "train", "img_1_of_3.npz"), os.path.join(self.dir, "x"))
            self.run_sb("--datagen", job)  # made again, intact
            v = self.run_json(job)["jobs"][0]["verify"]
            # 3 files x 2 samples of int(sqrt(1500000))^2 = 1224^2 bytes: DLIO's
            # record size (dlioorder)
            self.assertEqual((v["failures"], v["bytes_checked"]), (0, 3 * 2 * 1224 ** 2), eng)


if __name__ == "__main__":
    unittest.main()
