"""test_dedupe_global.py: dedupe_global and
block_error_percentiles, side by side with fio 3.33.

dedupe_global=1 (dedupe_mode=working_set): the writers of all jobs that set
it share one working set, so a block one job writes duplicates blocks of the
other.  Measured by hashing every 4 KiB block of both jobs' files: the share
of distinct blocks over both files, and the share of job b's blocks that
also appear in job a's file.  fio 3.33's figures on the same job file (two
jobs, 8 MiB each, bs=4k, dedupe_percentage=50, working set 10%) are written
below; when fio is installed it is also run here.

block_error_percentiles: fio 3.33 records nothing usable (see HOWTO):
storbench accepts it and records and prints nothing; a failing write is
reported exactly as without it (the LD_PRELOAD fault shim fails one)."""
import hashlib
import json
import os
import shutil
import subprocess

from sbtest import SbCase
from test_faults import SHIM, shim_env

JOB = """[global]
rw=write
bs=4k
size=8m
dedupe_percentage=50
dedupe_mode=working_set
dedupe_working_set_percentage=10
dedupe_global=%d
%s
[a]
filename=%s
[b]
filename=%s
"""

# fio 3.33, JOB with dedupe_global=1: 4096 blocks, 2095 distinct (0.511),
# 53.6% of b's blocks also in a; with dedupe_global=0: 2095 distinct, 0% of
# b's blocks in a
FIO = {1: (0.511, 0.536), 0: (0.511, 0.0)}


def measure(a, b):
    """(distinct blocks / blocks over both files, share of b's blocks found in a)"""
    def blocks(p):
        with open(p, "rb") as f:
            d = f.read()
        return [hashlib.blake2b(d[i:i + 4096], digest_size=16).digest()
                for i in range(0, len(d), 4096)]
    ba, bb = blocks(a), blocks(b)
    sa = set(ba)
    return len(sa | set(bb)) / (len(ba) + len(bb)), sum(x in sa for x in bb) / len(bb)


class DedupeGlobalTest(SbCase):
    def files(self):
        a, b = os.path.join(self.dir, "a.dat"), os.path.join(self.dir, "b.dat")
        for p in (a, b):
            if os.path.exists(p):
                os.unlink(p)
        return a, b

    def test_ratio_across_jobs_as_fio(self):
        for glob in (1, 0):
            with self.subTest(dedupe_global=glob):
                a, b = self.files()
                self.run_json(self.write_job(JOB % (glob, "", a, b)))
                uniq, cross = measure(a, b)
                self.assertAlmostEqual(uniq, FIO[glob][0], delta=0.03)
                self.assertAlmostEqual(cross, FIO[glob][1], delta=0.03)
                if shutil.which("fio"):
                    a, b = self.files()
                    subprocess.run(["fio", "--output=/dev/null",
                                    self.write_job(JOB % (glob, "", a, b), "fio.ini")],
                                   check=True, timeout=120)
                    fu, fc = measure(a, b)
                    self.assertAlmostEqual(uniq, fu, delta=0.03)
                    self.assertAlmostEqual(cross, fc, delta=0.03)

    def test_verify_passes(self):
        """verify= jobs write verify blocks (as in fio): dedupe_global changes nothing there"""
        a, b = self.files()
        d = self.run_json(self.write_job(JOB % (1, "verify=crc32c", a, b)))
        self.assertEqual([j["error"] for j in d["jobs"]], [0, 0])
        self.assertGreater(d["jobs"][0]["read"]["io_bytes"], 0)   # the verify pass read

    def test_repeat_mode_ignores_it(self):
        """fio: dedupe_global needs dedupe_mode=working_set; in repeat mode it does nothing"""
        a, b = self.files()
        self.run_json(self.write_job((JOB % (1, "", a, b)).replace("dedupe_mode=working_set", "dedupe_mode=repeat")))
        uniq, cross = measure(a, b)
        self.assertAlmostEqual(uniq, 0.5, delta=0.03)
        self.assertEqual(cross, 0)


class BlockErrorPercentilesTest(SbCase):
    def test_accepted_records_nothing(self):
        # fio 3.33 on this job: a "block lifetime percentiles" block with all
        # states 0 in normal output, nothing in JSON
        job = self.write_job("[w]\nfilename=%s\nsize=1m\nrw=write\nblock_error_percentiles=1\n"
                             % os.path.join(self.dir, "f"))
        d = self.run_json(job)
        self.assertEqual(d["jobs"][0]["error"], 0)
        self.assertFalse([k for k in d["jobs"][0] if "block" in k])
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("block lifetime", p.stdout)

    def test_write_error_reported_as_without_it(self):
        if not os.path.exists(SHIM):
            self.skipTest("fault shim not built: make %s" % SHIM)
        spec = "pwrite:EIO:offset=%d:path=*/f" % (1 << 20)
        out = {}
        for on in (0, 1):
            job = self.write_job("[w]\nioengine=psync\nfilename=%s\nsize=4m\nbs=64k\nrw=write\n"
                                 "block_error_percentiles=%d\n" % (os.path.join(self.dir, "f"), on))
            p = self.run_sb("--output-format=json", job, env=shim_env(spec))
            self.assertEqual(p.returncode, 3, p.stderr)
            j = json.loads(p.stdout)["jobs"][0]
            out[on] = (j["error"], j["write"]["io_bytes"])
        self.assertEqual(out[0], out[1])
        self.assertEqual(out[1][0], 5)   # EIO


class BadInputTest(SbCase):
    def refused(self, text, *needles):
        job = self.write_job(text)
        before = sorted(os.listdir(self.dir))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before)   # nothing written
        return p

    IO = "[w]\nfilename=data\nsize=1m\nrw=write\n"

    def test_bad_bool(self):
        for opt in ("dedupe_global", "block_error_percentiles"):
            with self.subTest(opt=opt):
                self.refused(self.IO + "%s=maybe\n" % opt, "job.ini:5", opt, "maybe")

    def test_dedupe_global_on_ml_workload(self):
        self.refused("[c]\nworkload=checkpoint\nmodel=llama3-8b\ncheckpoint_scale=0.00001\n"
                     "checkpoint_folder=ck\ndedupe_percentage=20\ndedupe_global=1\n",
                     "job.ini:7", "dedupe_global=1", "ML workload", "drop dedupe_global")
