"""test_lostwrite.py: a write the device drops is caught even when the file
holds the same block from an earlier run of the same job (issue 28 item 11).

Offset, generation, seed and digest of a block repeat from run to run of the
same job, so a lost write used to leave a block that checked as good.  Every
verify header carries the time its write was prepared (run/vblock.h); a run
that checks what it wrote refuses a block stamped before the run began:
"stale", an earlier run's block (a lost write).  A verify_only run checks
what earlier runs wrote and accepts any time.  Lost writes are injected with
the fault shim's LOST mode (t/faults/sbfault.c: the write returns its full
count and stores nothing).
"""
import json
import os
import subprocess
import time
import unittest

from sbtest import BIN, SbCase
from test_faults import SHIM, shim_env


class LostWrites(SbCase):
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

    def test_lost_writes_over_an_earlier_run_are_caught(self):
        if not os.path.exists(SHIM):
            self.skipTest("fault shim not built: " + SHIM)
        for eng, call in (("psync", "pwrite"), ("sync", "write")):
            path = os.path.join(self.dir, "v.dat")
            if os.path.exists(path):
                os.unlink(path)
            p, _ = self.run_v(self.job(eng))
            self.assertEqual(p.returncode, 0, p.stderr)
            time.sleep(0.05)
            p, lost = self.run_v(self.job(eng), "%s:LOST:skip=3:times=5" % call)
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


if __name__ == "__main__":
    unittest.main()
