"""test_fio_accepts.py: job-file syntax fio 3.33 accepts and storbench must
too (issue 23 items 5, 8, 9), each run side by side with fio --parse-only
where fio is installed."""
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase

FIO = shutil.which("fio")


class FioAccepts(SbCase):
    def both(self, text, name="job.fio", fio_rc=0):
        """storbench --parse-only's result; fio's return code checked"""
        job = self.write_job(text, name=name)
        if FIO:
            r = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(r.returncode, fio_rc, r.stdout + r.stderr)
        return job, self.run_sb("--parse-only", job)

    def test_threads_alias(self):
        # fio 3.33 accepts threads=N (profiles/tiobench.c:76, an int read by
        # the tiobench profile only); its examples/steadystate.fio and
        # waitfor.fio write threads=1 meaning thread
        for val, want in (("1", "1"), ("0", "0")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64k\nthreads={val}\n")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertRegex(p.stdout, rf"\n  thread += {want}\n")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "tf")))


if __name__ == "__main__":
    unittest.main()
