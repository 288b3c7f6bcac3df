"""test_fio_fill.py: fill_device / fill_fs,
log_max_value and serialize_overlap do what fio 3.33 does on the same job files (fio's figures
are noted at each test).  Bad values are refused with file:line, the
option, the value and the way out, and nothing is written."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from sbtest import SbCase  # noqa: E402

ROOT = os.geteuid() == 0


class Fill(SbCase):
    def setUp(self):
        super().setUp()
        self.mounts = []

    def tearDown(self):
        for m in self.mounts:
            subprocess.run(["umount", m])
        super().tearDown()

    def small_fs(self):
        """an 8 MiB tmpfs under the scratch directory, unmounted at the end"""
        if not ROOT:
            self.skipTest("mounting a tmpfs needs root")
        mnt = os.path.join(self.dir, "mnt")
        os.mkdir(mnt)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "none", mnt], check=True)
        self.mounts.append(mnt)
        return mnt

    def test_writes_until_enospc(self):
        # fio 3.33, same job on an 8 MiB tmpfs: exit 0, error 0, write
        # io_bytes 8388608, total_ios 129 (128 written, the 129th met ENOSPC)
        mnt = self.small_fs()
        job = self.write_job("[f]\nfilename=%s/fillfile\nrw=write\nbs=64k\nfill_device=1\n" % mnt)
        w = self.run_json(job)["jobs"][0]
        self.assertEqual(w["error"], 0)
        self.assertEqual(w["write"]["io_bytes"], 8388608)
        self.assertEqual(w["write"]["total_ios"], 129)
        self.assertEqual(os.path.getsize(os.path.join(mnt, "fillfile")), 8388608)

    def test_fill_fs_alias_keeps_size_and_unlink(self):
        # fio 3.33 with size=1m: io_bytes 1048576, error 0
        mnt = self.small_fs()
        job = self.write_job("[f]\nfilename=%s/fillfile\nrw=write\nbs=64k\nsize=1m\nfill_fs=1\n"
                             "unlink=1\n" % mnt)
        w = self.run_json(job)["jobs"][0]
        self.assertEqual(w["error"], 0)
        self.assertEqual(w["write"]["io_bytes"], 1048576)
        self.assertEqual(os.listdir(mnt), [])  # storbench made it, unlink=1 removed it

    def test_random_or_read_refused(self):
        # fio 3.33 with rw=randwrite and fill_device=1 does no I/O at all
        # (io_bytes 0); with a read job it fills before reading
        for rw, line, shown in (("rw=randwrite\n", 4, "rw=randwrite"), ("", 3, "rw=read (default)")):
            job = self.write_job("[f]\nfilename=%s/x\n%sfill_fs=1\n" % (self.dir, rw))
            before = self.listing()
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("job.ini:%d: fill_device=1 with %s" % (line, shown), p.stderr)
            self.assertIn("rw=write", p.stderr)
            self.assertIn("stonewall", p.stderr)
            self.assertEqual(self.listing(), before)


class LogMax(SbCase):
    JOB = ("[lm]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based=1\nruntime=1\n"
           "rate_iops=2000\nwrite_lat_log=lm\nlog_avg_msec=250\nlog_max_value=%s\n")

    def lines(self, kind):
        with open(os.path.join(self.dir, "lm_%s.1.log" % kind)) as f:
            return [[int(x) for x in ln.split(",")] for ln in f if ln.strip()]

    def test_window_maximum(self):
        # fio 3.33, same job: 4 clat/lat lines at 250, 500, 750, 1000 ms,
        # the largest clat line == JSON read.clat_ns.max (14467 there) and
        # the largest lat line == read.lat_ns.max (34935)
        r = self.run_json(self.write_job(self.JOB % "1"))["jobs"][0]["read"]
        clat, lat = self.lines("clat"), self.lines("lat")
        # each line at the end of its 250 ms window; a window with no I/O (a stall under
        # load) has no line, and what completed after the last window's end is flushed
        # when the job stops, at the stop's time (1013 on one loaded run; 1000 when the
        # job stopped in that millisecond): window ends, then maybe the stop, never falling
        t = [x[0] for x in clat]
        self.assertTrue(t and all(x % 250 == 0 and x > 0 for x in t[:-1]), t)
        self.assertEqual(t, sorted(t), t)
        self.assertEqual(max(x[1] for x in clat), r["clat_ns"]["max"])
        self.assertEqual(max(x[1] for x in lat), r["lat_ns"]["max"])

    def test_bad_value(self):
        job = self.write_job(self.JOB % "maybe")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:11: log_max_value=maybe", p.stderr)
        self.assertIn("expected 1/0", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


class SerializeOverlap(SbCase):
    JOB = ("[so]\nioengine=%s\nfilename=sofile\nrw=randwrite\nbs=4k\nsize=4k\niodepth=8\n"
           "number_ios=20000\ntime_based=1\nruntime=2\nserialize_overlap=%s\n")

    def test_one_block_file_runs_at_depth_one(self):
        # fio 3.33, same job (one 4k block, so every I/O overlaps the one in
        # flight): libaio and io_uring iodepth_level {"1": 100.0}; with
        # serialize_overlap=0: {"8": 99.95}
        for eng in ("libaio", "io_uring"):
            p = self.run_sb("--enghelp=" + eng)
            if p.returncode != 0:
                continue  # engine not built here
            lv = self.run_json(self.write_job(self.JOB % (eng, "1")))["jobs"][0]["iodepth_level"]
            self.assertEqual(lv["1"], 100.0, eng)
            lv = self.run_json(self.write_job(self.JOB % (eng, "0")))["jobs"][0]["iodepth_level"]
            self.assertGreater(lv["8"], 99.0, eng)

    def test_bad_value(self):
        job = self.write_job(self.JOB % ("libaio", "sometimes"))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:11: serialize_overlap=sometimes", p.stderr)
        self.assertIn("expected 1/0", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
