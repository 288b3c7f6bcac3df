"""test_fio_bwlog.py: --bandwidth-log as fio 3.33 has it (fio's
t/jobs/t0030 runs with it): the aggregate bandwidth of all jobs in
agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log in the working
directory.

fio's facts used here (fio-3.33 source):
- init.c:111 the flag, init.c:2591 it sets write_bw_log; backend.c:2588-2596
  the three logs by those names, made even when no sample comes;
  backend.c:2624 written at the end.
- eta.c:508-516: every bw_avg_time (500 ms) one sample per direction
  (read 0, write 1, trim 2), the bandwidth of all jobs in KiB/s, as the
  bw logs' lines "msec, value, ddir, bs, prio" (stat.c __add_log_sample;
  agg samples with bs 0).
"""
import os
import re

from sbtest import SbCase

NAMES = ["agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"]


class TestBandwidthLog(SbCase):
    def lines(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return [l.rstrip("\n") for l in f if l.strip()]

    def test_three_logs(self):
        f = os.path.join(self.dir, "data")
        p = self.run_sb("--bandwidth-log", "--name=w", "--filename=" + f, "--size=8M",
                        "--rw=write", "--time_based", "--runtime=2", "--output=/dev/null",
                        "--name=r", "--ioengine=null", "--size=1G", "--rw=read",
                        "--time_based", "--runtime=2")
        self.assertEqual(p.returncode, 0, p.stderr)
        for d, name in enumerate(NAMES):
            got = self.lines(name)
            self.assertGreaterEqual(len(got), 1, name)
            times = []
            for l in got:
                m = re.fullmatch(r"(\d+), (\d+), (\d), 0, 0", l)
                self.assertIsNotNone(m, "%s: %r" % (name, l))
                self.assertEqual(int(m.group(3)), d)
                times.append(int(m.group(1)))
            # at most one line per 500 ms step, never before its step (a stalled
            # stats thread makes fewer, not earlier ones), in order
            self.assertEqual(times, sorted(set(times)))
            self.assertTrue(all(t >= 500 * (i + 1) for i, t in enumerate(times)), times)
            self.assertLessEqual(times[-1], 60000)
        # both jobs ran all the time: reads and writes moved, no trims
        self.assertTrue(any(int(l.split(",")[1]) > 0 for l in self.lines(NAMES[0])))
        self.assertTrue(any(int(l.split(",")[1]) > 0 for l in self.lines(NAMES[1])))
        self.assertTrue(all(int(l.split(",")[1]) == 0 for l in self.lines(NAMES[2])))

    def test_t0030_and_empty(self):
        # fio's t0030: a 2 s null-engine read, exit 0
        job = self.write_job("[test]\nioengine=null\nfilesize=1T\nrw=read\ntime_based\n"
                             "runtime=2s\n")
        p = self.run_sb("--bandwidth-log", "--output=/dev/null", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(self.lines(NAMES[0]))
        # a run shorter than one sample: the files are there, empty (fio's too)
        for n in NAMES:
            os.unlink(os.path.join(self.dir, n))
        p = self.run_sb("--bandwidth-log", "--name=q", "--ioengine=null", "--size=4k",
                        "--output=/dev/null")
        self.assertEqual(p.returncode, 0, p.stderr)
        for n in NAMES:
            self.assertTrue(os.path.exists(os.path.join(self.dir, n)), n)
        # without the flag: none
        for n in NAMES:
            os.unlink(os.path.join(self.dir, n))
        p = self.run_sb("--name=q", "--ioengine=null", "--size=4k", "--output=/dev/null")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertFalse(any(os.path.exists(os.path.join(self.dir, n)) for n in NAMES))

    def test_refused_place(self):
        # through the writer gate: a folder in a log's place is refused before any I/O
        os.mkdir(os.path.join(self.dir, NAMES[1]))
        p = self.run_sb("--bandwidth-log", "--name=q", "--ioengine=null", "--size=4k")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--bandwidth-log", p.stderr)
