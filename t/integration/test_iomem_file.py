"""iomem=mmap:FILE, mmaphuge:FILE, mmapshared:FILE: the I/O
buffers are a shared mapping of FILE, which storbench creates (O_EXCL) and
removes at the end; with numjobs>1 each thread has FILE.N.

fio 3.33 on the same job (iomem=mmap:/tmp/x with /tmp/x holding "keep"):
opens it with O_CREAT, truncates it to the buffer size and leaves it behind
with I/O data in it.  storbench refuses a path that exists (the user's file
is never touched) and leaves nothing behind."""
import os
import shutil
import subprocess
import time
import unittest

from sbtest import BIN, SbCase

JOB = """[j]
ioengine=psync
filename={dir}/data.sb
size=1m
bs=64k
rw=write
{extra}
"""


class IomemFile(SbCase):
    def job(self, extra):
        return self.write_job(JOB.format(dir=self.dir, extra=extra))

    def test_file_made_mapped_and_removed(self):
        """the run creates the buffer file, maps it shared, removes it"""
        if not shutil.which("strace"):
            self.skipTest("strace is not installed")
        buf = os.path.join(self.dir, "buf")
        job = self.job("iomem=mmap:%s\n" % buf)
        log = os.path.join(self.dir, "st.txt")
        p = subprocess.run(["strace", "-f", "-o", log, "-e", "trace=openat,mmap,unlink",
                            BIN, "--output-format=json", job], cwd=self.dir,
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                                              ":detect_leaks=0").lstrip(":")))  # LSan cannot run traced
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(log) as f:
            lines = f.read().splitlines()
        opens = [l for l in lines if '"%s", O_RDWR|O_CREAT|O_EXCL' % buf in l]
        self.assertTrue(opens, "no O_EXCL create of the buffer file")
        fd = opens[-1].rsplit("=", 1)[1].strip()
        self.assertTrue(any("MAP_SHARED, %s, 0)" % fd in l for l in lines), "not mapped shared")
        self.assertTrue(any('unlink("%s")' % buf in l for l in lines), "not removed")
        self.assertFalse(os.path.exists(buf))
        self.assertEqual(sorted(os.listdir(self.dir)), ["data.sb", "job.ini", "st.txt"])

    def test_numjobs_one_file_per_thread(self):
        """numjobs=2: buf.0 and buf.1 exist while the job runs, none after"""
        buf = os.path.join(self.dir, "buf")
        job = self.job("iomem=mmapshared:%s\nnumjobs=2\ntime_based\nruntime=3s\nrate=1m\n" % buf)
        p = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        seen = set()
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            seen |= {n for n in os.listdir(self.dir) if n.startswith("buf")}
            time.sleep(0.05)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 0, err)
        self.assertEqual(seen, {"buf.0", "buf.1"})
        self.assertFalse([n for n in os.listdir(self.dir) if n.startswith("buf")])

    def test_existing_file_refused_untouched(self):
        """a path that exists: refused with file:line, the option, the value
        and the fix; the user's file keeps its bytes; nothing written"""
        buf = os.path.join(self.dir, "buf")
        with open(buf, "w") as f:
            f.write("keep")
        for extra, named in (("iomem=mmap:%s\n" % buf, buf),
                             ("iomem=mmaphuge:%s\nnumjobs=3\n" % buf, buf),
                             ("iomem=mmap:%s\nnumjobs=2\n" % os.path.join(self.dir, "b"), None)):
            with self.subTest(extra=extra):
                if named is None:  # FILE.1 exists, FILE.0 not
                    with open(os.path.join(self.dir, "b.1"), "w") as f:
                        f.write("keep")
                    named = os.path.join(self.dir, "b.1")
                elif "numjobs" in extra:
                    with open(buf + ".2", "w") as f:
                        f.write("keep")
                    named = buf + ".2"
                job = self.job(extra)
                before = {n: open(os.path.join(self.dir, n), "rb").read() for n in os.listdir(self.dir)}
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("job.ini:7: iomem=", p.stderr)
                self.assertIn(named + ": the file exists", p.stderr)
                self.assertIn("name a path that does not exist", p.stderr)
                self.assertEqual(p.stdout, "")
                after = {n: open(os.path.join(self.dir, n), "rb").read() for n in os.listdir(self.dir)}
                self.assertEqual(after, before)

    def test_bad_values(self):
        """a file after a kind that takes none, or an empty file: refused
        with <cmdline> or file:line; nothing written"""
        for value, msg in (("shm:/tmp/x", "only mmap, mmaphuge and mmapshared take a file"),
                           ("malloc:/tmp/x", "only mmap, mmaphuge and mmapshared take a file"),
                           ("mmap:", "the file after ':' must be 1 to 255 characters"),
                           ("mmap:" + "x" * 300, "the file after ':' must be 1 to 255 characters")):
            with self.subTest(value=value):
                job = self.job("iomem=%s\n" % value)
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("job.ini:7: iomem=%s" % value, p.stderr)
                self.assertIn(msg, p.stderr)
                p = self.run_sb("--iomem=%s" % value, job)
                self.assertIn("<cmdline>", p.stderr)
                self.assertIn(msg, p.stderr)
                self.assertEqual(sorted(os.listdir(self.dir)), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
