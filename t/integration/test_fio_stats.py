"""test_fio_stats.py: fio's think-time, sample-window and disk_util options,
with what fio 3.33 did on the same job files as expected values.
"""
import json
import os
import time
import unittest

from sbtest import CpuLoss, SbCase

THINK = ("[t]\nioengine=null\nsize=1g\nrw=read\nbs=4k\nruntime=2\ntime_based\n"
         "thinktime=300ms\nthinktime_iotime=200ms\nrate_iops=1000\n")


class TestThinktime(SbCase):
    def ios(self, extra):
        """the job's I/O count, and the fewest it may have done: the count
        less what the time other load took from it (CpuLoss) costs at 1000
        IOPS (the cap: never more)"""
        job = self.write_job(THINK + extra)
        with CpuLoss() as lost:
            n = self.run_json(job, cwd=self.dir)["jobs"][0]["read"]["total_ios"]
        return n, 1000 * lost.s

    def test_iotime_catches_up(self):
        # fio 3.33: 200 ms of I/O between 300 ms pauses, then the rate cap
        # catches up: 2001 I/Os in 2 s
        n, load = self.ios("")
        self.assertLessEqual(n, 2001 + 40)
        self.assertGreaterEqual(n, 2001 - 40 - load)

    def test_rate_ignore_thinktime(self):
        # fio 3.33: 1087 I/Os (no catching up after each 300 ms pause);
        # the pauses fall at 0.5, 1.0, 1.5 s: about 1100 I/Os
        n, load = self.ios("rate_ignore_thinktime=1\n")
        self.assertLessEqual(n, 1087 + 55)
        self.assertGreaterEqual(n, 1087 - 55 - load)

    def test_issue_type_parses(self):
        job = self.write_job(THINK + "thinktime_blocks_type=issue\nthinktime_blocks=8\n")
        p = self.run_sb("--parse-only=verbose", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"thinktime_blocks_type\s+= issue")


class TestSampleWindows(SbCase):
    JOB = "[t]\nioengine=null\nsize=1g\nrw=read\nbs=4k\nruntime=2\ntime_based\nrate_iops=1000\n"

    def samples(self, *args):
        job = self.write_job(self.JOB)
        r = self.run_json(*args, job, cwd=self.dir)["jobs"][0]["read"]
        return r["bw_samples"], r["iops_samples"], r["iops_mean"]

    def test_windows(self):
        # fio 3.33 on this job: default 4/4 samples; --bwavgtime=100: 11 bw
        # samples, 3 iops; --iopsavgtime=250 --bwavgtime=1000: 2 bw, 8 iops
        bw, iops, _ = self.samples()
        self.assertEqual(bw, iops)
        with CpuLoss() as lost:
            bw, iops, mean = self.samples("--bwavgtime=100")
        self.assertGreaterEqual(bw, 3 * iops)
        # 500 ms samples of 1000 IOPS: one moves by what load took from it
        self.assertAlmostEqual(mean, 1000, delta=50 + 1000 * lost.s / 0.5)
        bw, iops, _ = self.samples("--iopsavgtime=250", "--bwavgtime=1000")
        self.assertGreater(iops, 2 * bw)


class TestDiskUtil(SbCase):
    def test_off(self):
        # fio 3.33, disk_util=0: no "disk_util" key, no "Disk stats" block,
        # 121 terse fields instead of 130 with one disk
        base = "[d]\nioengine=psync\nfilename=du.dat\nsize=1m\nrw=write\n"
        job = self.write_job(base + "disk_util=0\n")
        d = self.run_json(job, cwd=self.dir)
        self.assertNotIn("disk_util", d)
        p = self.run_sb(job, cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("Disk stats", p.stdout)
        on = self.run_json(self.write_job(base, "on.ini"), cwd=self.dir)
        self.assertIn("disk_util", on)
        if not on["disk_util"]:
            self.skipTest("the test directory is on no block device: terse not compared")
        t0 = self.run_sb("--output-format=terse", job, cwd=self.dir).stdout.strip()
        t1 = self.run_sb("--output-format=terse", self.dir + "/on.ini", cwd=self.dir).stdout.strip()
        self.assertEqual(len(t1.split(";")) - len(t0.split(";")), 9 * len(on["disk_util"]))


class TestClocksource(SbCase):
    def clat(self, cs):
        job = self.write_job("[t]\nioengine=null\nsize=16m\nrw=randread\nclocksource=%s\n" % cs)
        return self.run_json(job, cwd=self.dir)["jobs"][0]["read"]["clat_ns"]

    def test_gettimeofday_microseconds(self):
        # gettimeofday() ticks in microseconds: every latency is a whole
        # number of them (the TSC and clock_gettime give ns)
        c = self.clat("gettimeofday")
        self.assertEqual(c["min"] % 1000, 0, c)
        self.assertEqual(c["max"] % 1000, 0, c)
        self.assertGreater(c["max"], 0)

    def test_others_run(self):
        for cs in ("cpu", "clock_gettime", "auto"):
            c = self.clat(cs)
            self.assertEqual(c["N"], 4096, cs)


class TestLogColumns(SbCase):
    def first(self, extra, name="lp"):
        job = self.write_job("[p]\nioengine=psync\nfilename=lp.dat\nsize=16k\nrw=write\n"
                             "write_lat_log=%s\n%s" % (name, extra))
        p = self.run_sb(job, cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, name + "_clat.1.log")) as f:
            return [c.strip() for c in f.readline().split(",")]

    def test_log_prio(self):
        # fio 3.33: "0, 26469, 1, 4096, 0" without log_prio; "..., 0x4003"
        # with log_prio=1 prioclass=2 prio=3; "0x0000" with no priority
        self.assertEqual(self.first("prioclass=2\nprio=3\n")[-1], "0")
        self.assertEqual(self.first("prioclass=2\nprio=3\nlog_prio=1\n", "b")[-1], "0x4003")
        self.assertEqual(self.first("log_prio=1\n", "c")[-1], "0x0000")

    def test_alternate_epoch(self):
        # fio 3.33: clock id 1 stamps in ms since boot (21929504 at an uptime
        # of 21929.57 s), the default clock in Unix ms
        with open("/proc/uptime") as f:
            up_ms = float(f.read().split()[0]) * 1000
        t = int(self.first("log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n")[0])
        self.assertAlmostEqual(t, up_ms, delta=5000)
        t = int(self.first("log_unix_epoch=1\nlog_alternate_epoch_clock_id=1\n", "b")[0])
        self.assertAlmostEqual(t, up_ms, delta=5000)
        t = int(self.first("log_alternate_epoch=1\n", "c")[0])
        self.assertAlmostEqual(t, time.time() * 1000, delta=5000)


class TestAcceptedKnobs(SbCase):
    def test_same_results(self):
        # log_entries, log_store_compressed, log_compression_cpus, gtod_cpu:
        # fio's ways of holding logs and reading the clock; parsed, no effect
        job = self.write_job("[k]\nioengine=null\nsize=4m\nrw=read\nlog_entries=4096\n"
                             "log_store_compressed=1\nlog_compression_cpus=0\ngtod_cpu=0\n")
        r = self.run_json(job, cwd=self.dir)["jobs"][0]["read"]
        self.assertEqual(r["total_ios"], 1024)


if __name__ == "__main__":
    unittest.main()
