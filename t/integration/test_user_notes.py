"""test_user_notes.py: what a fio user is told: fio 3.33's
note that a synchronous engine caps the queue depth at 1, did-you-mean for
swapped letters and for storbench's own flags, and bench/run.sh's message
for a benchmark name it does not know."""
import json
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase, SRC

FIO = shutil.which("fio")
NOTE = ("note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be "
        "capped at 1")


class DepthNote(SbCase):
    def engines(self):
        return self.run_sb("--enghelp").stdout.split("\n")[0]

    def job(self, engine, depth, name="j", extra=""):
        return ("[%s]\nrw=read\nsize=256k\nfilename=f\nioengine=%s\niodepth=%d\n%s"
                % (name, engine, depth, extra))

    def test_sync_engines_say_the_depth_is_capped(self):
        have = self.engines()
        for engine in ("psync", "sync", "pvsync", "vsync", "pvsync2", "mmap"):
            if engine not in have:
                continue
            with self.subTest(engine=engine):
                job = self.write_job(self.job(engine, 32))
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(p.stderr.count(NOTE), 1, p.stderr)
                self.assertIn(NOTE + " (job j: ioengine=%s, iodepth=32)\n" % engine, p.stderr)
                self.assertNotIn(NOTE, p.stdout)
                if FIO:  # fio 3.33 prints the same note
                    os.unlink(os.path.join(self.dir, "f"))
                    f = subprocess.run([FIO, job], cwd=self.dir, capture_output=True,
                                       text=True, timeout=120)
                    self.assertIn(NOTE, f.stdout + f.stderr)
                os.unlink(os.path.join(self.dir, "f"))

    def test_null_engine_has_no_note(self):
        """fio 3.33's null engine queues at iodepth > 1 (engines/null.c:113-118):
        no note, and fio's t0016 (null, iodepth=16) fails on any stderr"""
        job = self.write_job("[j]\nioengine=null\nsize=1M\niodepth=16\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        if FIO:
            f = subprocess.run([FIO, job], cwd=self.dir, capture_output=True, text=True,
                               timeout=120)
            self.assertNotIn(NOTE, f.stdout + f.stderr)

    def test_one_note_per_job_and_none_without_a_cap(self):
        text = (self.job("psync", 8, "a", "numjobs=2\n") + self.job("psync", 1, "b")
                + self.job("psync", 4, "c"))
        if "libaio" in self.engines():
            text += self.job("libaio", 32, "d")
        job = self.write_job(text)
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        json.loads(p.stdout)  # the note is on stderr: the document stays whole
        self.assertEqual(p.stderr.count(NOTE), 2, p.stderr)
        self.assertIn("(job a: ioengine=psync, iodepth=8)", p.stderr)
        self.assertIn("(job c: ioengine=psync, iodepth=4)", p.stderr)
        self.assertNotIn("job b:", p.stderr)
        self.assertNotIn("job d:", p.stderr)
        os.unlink(os.path.join(self.dir, "f"))
        p = self.run_sb("--parse-only", job)  # as fio: at the run, not while parsing
        self.assertEqual((p.returncode, p.stderr), (0, ""))


class DidYouMean(SbCase):
    def refused(self, *args):
        p = self.run_sb("--size=1m", "--rw=read", *args)
        self.assertEqual(p.returncode, 1, p.stderr)
        return p.stderr

    def test_swapped_letters(self):
        """two neighbouring letters swapped are one edit, as one left out
        (blocksze) is: --nmae got no suggestion"""
        for typo, want in (("nmae", "name"), ("szie", "size"), ("ruintme", "runtime"),
                           ("iodetph", "iodepth"), ("ioegnine", "ioengine"),
                           ("blocksze", "blocksize"), ("driect", "direct")):
            with self.subTest(typo=typo):
                err = self.refused("--name=j", "--%s=1" % typo)
                self.assertIn("unknown option '%s' (did you mean '%s'?)" % (typo, want), err)
                job = self.write_job("[j]\nsize=1m\n%s=1\n" % typo)
                p = self.run_sb("--parse-only", job)
                self.assertIn("%s:3: unknown option '%s' (did you mean '%s'?)" % (job, typo, want),
                              p.stderr)

    def test_storbench_flags_on_the_command_line(self):
        for typo, want in (("parse-onyl", "--parse-only"), ("warnigns-fatal", "--warnings-fatal"),
                           ("outptu", "--output"), ("readonyl", "--readonly")):
            with self.subTest(typo=typo):
                err = self.refused("--name=j", "--" + typo)
                self.assertIn("unknown option '%s' (did you mean '%s'?)" % (typo, want), err)
        # in a job file a flag is no option to suggest
        job = self.write_job("[j]\nsize=1m\nparse-onyl=1\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("did you mean", p.stderr)
        self.assertIn("unknown option 'parse-onyl'", p.stderr)


class BenchNames(unittest.TestCase):
    def test_unknown_name_lists_the_names(self):
        if not FIO:
            self.skipTest("fio not installed: bench/run.sh stops before the names")
        for name, near in (("no-such-bench", None), ("null-4k-randreed", "null-4k-randread")):
            p = subprocess.run(["sh", os.path.join(SRC, "bench", "run.sh"), name],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertNotIn("Traceback", p.stderr)
            self.assertIn("unknown benchmark '%s'" % name, p.stderr)
            self.assertIn("the benchmarks are: null-4k-randread, ", p.stderr)
            if near:
                self.assertIn("(did you mean '%s'?)" % near, p.stderr)
            self.assertEqual(p.stdout, "")


if __name__ == "__main__":
    unittest.main()
