"""ioengine=cpuio, fio's engine (fio 3.33 engines/cpu.c): each I/O burns CPU
for cpuchunks us (cpumode=noop) or sorts 256 Ki integers four times
(cpumode=qsort), then the thread thinks burn x (100 - cpuload) / cpuload,
apart from the I/O's latency (cpu.c fio_cpuio_init and do_qsort set
o->thinktime, thinktime_blocks=1); its I/Os are counted without bytes or
runtime (FIO_NOIO: fio 3.33 reports total_ios with io_bytes 0 and runtime 0,
and shows no read block in the normal output).  Times here are lower and
upper bounds that load cannot break: a burn lasts at least cpuchunks by the
clock, and a pause never ends early, so a busy machine gives fewer I/Os,
never more."""
import json
import os
import unittest

from sbtest import SbCase


class CpuIo(SbCase):
    def job(self, body, name="c.ini"):
        return self.write_job("[c]\nioengine=cpuio\n" + body, name)

    def test_duty_cycle_and_what_is_counted(self):
        # 20 ms burns at 40%: a burn, then 30 ms of think time, 50 ms a cycle
        p = self.run_sb("--output-format=json,normal",
                        self.job("cpuload=40\ncpuchunks=20000\ntime_based\nruntime=2\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        text, doc = p.stdout.split("\n{", 1)
        j = json.loads("{" + doc)["jobs"][0]
        r = j["read"]
        n = r["total_ios"]
        self.assertGreaterEqual(n, 2)
        self.assertLessEqual(n, 2000 // 50 + 1)          # the pauses are real: at most one I/O per 50 ms
        self.assertGreaterEqual(r["clat_ns"]["min"], 20000 * 1000)   # each burn at least cpuchunks
        self.assertEqual(r["clat_ns"]["N"], n)
        # the pauses (at least 30 ms after each I/O but the last) are apart
        # from the latencies: both fit in the job's time
        burns_ms = r["clat_ns"]["mean"] * n / 1e6
        self.assertLessEqual(burns_ms + (n - 1) * 30, j["job_runtime"] + 1)
        self.assertEqual((r["io_bytes"], r["runtime"], r["bw"]), (0, 0, 0))
        self.assertEqual(j["write"]["total_ios"], 0)
        self.assertIn("issued rwts: total=%d,0,0,0" % n, text)
        self.assertNotIn("read: IOPS", text)                         # fio shows no timeless block
        self.assertEqual(self.listing(), ["c.ini"])                   # no file

    def test_qsort_mode(self):
        j = self.run_json(self.job("cpuload=100\ncpumode=qsort\nnumber_ios=2\n"))["jobs"][0]
        self.assertEqual(j["read"]["total_ios"], 2)
        self.assertGreater(j["read"]["clat_ns"]["min"], 0)
        self.assertEqual(j["read"]["io_bytes"], 0)

    def test_fio_example_runs(self):
        """fio's examples/cpuio.fio (two stonewalled groups of two threads
        at 50%, noop then qsort), its runtime shortened"""
        job = self.write_job("[global]\nioengine=cpuio\ntime_based\nruntime=1\n\n[burn_2x50_noop]\n"
                             "cpuload=50\nnumjobs=2\ncpumode=noop\n\n[burn_2x50%_qsort]\nstonewall\n"
                             "cpuload=50\nnumjobs=2\ncpumode=qsort\n", "cpuio.fio")
        j = self.run_json(job)
        self.assertEqual(len(j["jobs"]), 4)
        self.assertTrue(all(x["read"]["total_ios"] >= 1 and x["error"] == 0 for x in j["jobs"]))

    def test_bad_inputs_name_file_line_and_fix(self):
        for body, where, want in (
                ("time_based\nruntime=1\n", "c.ini:2", "needs cpuload="),
                ("cpuload=50\nexit_on_io_done=1\nruntime=1\n", "c.ini:4", "exit_on_io_done=1"),
                ("cpuload=50\n", "c.ini:1", "nothing ends it"),
                ("cpuload=50\nruntime=1\nrw=write\nverify=crc32c\n", "c.ini:6", "nothing for verify="),
                ("cpuload=50\ncpumode=spin\nruntime=1\n", "c.ini:4", "noop"),
                ("cpuload=50\nworkload=checkpoint\nmodel=llama3-8b\ncheckpoint_folder=ck\n", "c.ini:2",
                 "burst of CPU work")):
            with self.subTest(body=body):
                p = self.run_sb(self.job(body))
                self.assertEqual(p.returncode, 1, body + p.stderr)
                self.assertIn(where, p.stderr)
                self.assertIn(want, p.stderr)
                self.assertEqual(sorted(os.listdir(self.dir)), ["c.ini"])


if __name__ == "__main__":
    unittest.main()
