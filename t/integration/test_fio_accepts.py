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

    def test_zoned_lists_as_fio(self):
        # fio 3.33 options.c:87-116 (split_parse_ddir): an empty entry ends
        # the list; "A/" or "A" leaves the size out, and so does "A/0"; and
        # options.c:1095-1103 gives the left-out zones (100 - sum) / count
        for val, shown in (("zoned:50/5:30/15:20/", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20/:", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20/0", "zoned:50/5:30/15:20/80"),
                           ("zoned:60/:40/", "zoned:60/50:40/50"),
                           ("zoned_abs:60/1m:40/2m:", "zoned_abs:60/1m:40/2m")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64m\nrw=randread\n"
                               f"random_distribution={val}\n")
            self.assertEqual(p.returncode, 0, (val, p.stderr))
            self.assertIn(f"random_distribution         = {shown}\n", p.stdout)
        # refused by fio too: a zoned_abs zone needs its bytes; an empty
        # entry in the middle (fio then finds the access shares short of 100)
        for val, what in (("zoned_abs:50/1m:30/2m:20/", "expected ACCESS/BYTES"),
                          ("zoned:50/5::30/15:20/", "expected ACCESS/SIZE")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64m\nrw=randread\n"
                               f"random_distribution={val}\n", fio_rc=1)
            self.assertEqual(p.returncode, 1, val)
            self.assertIn(f"storbench: {job}:5: random_distribution={val}: ", p.stderr)
            self.assertIn(what, p.stderr)
            self.assertIn("e.g. zoned", p.stderr)
        # bssplit: fio's /0 is a left-out share too (options.c:103-106)
        job, p = self.both("[t]\nfilename=tf\nsize=64m\nrw=randread\nbssplit=4k/50:8k/0\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("read 4096/50:8192/50,", p.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "tf")))

    def test_zoned_trailing_slash_runs_as_fio(self):
        # the third zone takes the rest (80% of the file), as fio's run does
        p = self.run_sb("--name=z", "--filename=zf", "--size=8m", "--rw=randread", "--bs=4k",
                        "--io_size=4m", "--random_distribution=zoned:50/5:30/15:20/",
                        "--write_iolog=zlog")
        self.assertEqual(p.returncode, 0, p.stderr)
        zones = [0, 0, 0]
        with open(os.path.join(self.dir, "zlog")) as f:
            for line in f:
                w = line.split()
                if len(w) == 5 and w[2] == "read":  # TIME FILE read OFFSET LEN
                    off = int(w[3])
                    zones[0 if off < 8 * 2**20 * 0.05 else 1 if off < 8 * 2**20 * 0.20 else 2] += 1
        self.assertEqual(sum(zones), 1024)
        for got, want in zip(zones, (512, 307, 205)):
            self.assertLess(abs(got - want), 60, zones)


if __name__ == "__main__":
    unittest.main()
