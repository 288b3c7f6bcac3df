"""test_genfio.py: job files written by fio's own tools/genfio (t/jobs/genfio,
origin in its README) run in storbench unchanged.  Sized down in a
copy (ramp_time=0, runtime=200ms instead of genfio's 5 s ramp and 1-2 s per
job).  Not from the command line: there, as in fio, an option given before
the job file is a default that the file's [global] section overrides (fio
3.33 --runtime=200ms on a file whose [global] says runtime=1: job_runtime
1000 ms, and storbench the same), and the
17 jobs of the first file then took 72 s of mostly system CPU."""
import glob
import os
import re

from sbtest import CpuLoss, SbCase, SRC

GENFIO = sorted(glob.glob(os.path.join(SRC, "t", "jobs", "genfio", "*.fio")))
SHORT = {"ramp_time": "0", "runtime": "200ms"}


class Genfio(SbCase):
    def run_file(self, src):
        name = os.path.basename(src)
        with open(src) as f:
            text = f.read()
        for k, v in SHORT.items():
            text, n = re.subn(r"(?m)^%s=.*$" % k, "%s=%s" % (k, v), text)
            self.assertEqual(n, 1, "%s: %s= once in [global]" % (name, k))
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)
        p = self.run_sb("--allow-exec", "--output-format=json", name)
        if "'invalidate' is a fio option not supported" in p.stderr:
            self.skipTest("invalidate= (written by genfio) is not accepted by this build")
        return p

    def test_genfio_files_run(self):
        self.assertEqual(len(GENFIO), 2)
        for src in GENFIO:
            with self.subTest(os.path.basename(src)):
                with open(src) as f:
                    text = f.read()
                sections = [s for s in re.findall(r"(?m)^\[([^\]]+)\]", text) if s != "global"]
                with CpuLoss() as lost:
                    p = self.run_file(src)
                self.assertEqual(p.returncode, 0, p.stderr)
                import json
                d = json.loads(p.stdout)
                self.assertEqual([j["jobname"] for j in d["jobs"]], sections)
                for j in d["jobs"]:
                    self.assertEqual(j["error"], 0, j["jobname"])
                    # some I/O in runtime=200ms, unless other load kept the
                    # job off the CPU that long (CpuLoss)
                    self.assertTrue(j["read"]["io_bytes"] + j["write"]["io_bytes"] > 0
                                    or lost.s >= 0.2, j["jobname"])
                for log in re.findall(r"(?m)^write_bw_log=(.*)$", text):
                    self.assertTrue(glob.glob(os.path.join(self.dir, log + "_bw.*.log")), log)
                if "exec_prerun" in text:
                    with open(os.path.join(self.dir, sections[0] + ".prerun.txt")) as f:
                        self.assertEqual(f.read(), "pre\n")
