"""The stats thread end to end: per-job time series in JSON, fio-format log
files, --status-interval snapshots (JSON stays one document), and the host
object on this machine (checked once the host output is in the JSON)."""
import json
import math
import os
import re

from sbtest import CpuLoss, SbCase

LOG_JOB = """
[global]
ioengine=psync
size=4m
runtime=3s
time_based
stats_interval=500ms
unlink=1

[mixed]
rw=randrw
bs=4k
rate_iops=4000
write_bw_log=mixed
write_iops_log=mixed
write_lat_log=mixed
log_avg_msec=500
"""


def log_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            rows.append([int(x) for x in line.split(",")])
    return rows


class TimeSeriesTest(SbCase):
    @classmethod
    def setUpClass(cls):
        # one 3 s run serves the time-series, log, interim and host checks
        import tempfile
        import subprocess
        from sbtest import BIN
        cls._tmp = tempfile.TemporaryDirectory(prefix="sbts.")
        cls.rundir = cls._tmp.name
        with open(os.path.join(cls.rundir, "job.ini"), "w") as f:
            f.write(LOG_JOB)
        # what other load took from the run (CpuLoss) widens the bounds that
        # load moves: late samples, late ends, stalled windows
        with CpuLoss() as cls.lost:
            cls.proc = subprocess.run([BIN, "--output-format=json", "--status-interval=1", "job.ini"],
                                      cwd=cls.rundir, capture_output=True, text=True, timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def doc(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        return json.loads(self.proc.stdout)  # one valid document, nothing else

    def test_samples_per_interval(self):
        job = self.doc()["jobs"][0]
        ts = job["timeseries"]
        lost = self.lost.s
        # the samples cover the run the job reports, 500 ms each: no more
        # than fit in it; fewer only where other load delayed the sampler
        runtime = job["read"]["runtime"]
        self.assertTrue(5 - 2 * lost <= len(ts) <= runtime / 500 + 2,
                        f"{len(ts)} samples for {runtime} ms at 500 ms")
        self.assertAlmostEqual(sum(s["dur_ms"] for s in ts), runtime, delta=600 + 1000 * lost)
        times = [s["t_ms"] for s in ts]
        self.assertEqual(times, sorted(set(times)), "t_ms must increase")
        self.assertTrue(2500 <= times[-1] <= 3600 + 1000 * lost, times)
        for s in ts[:-1]:  # whole intervals: rate_iops=4000 caps each direction
            for d in ("read", "write"):
                # every whole interval holds I/O of both directions, unless
                # other load stalled the run for a whole window
                self.assertTrue(s[d]["iops"] > 0 or lost >= 0.5, s)
                # the rate limiter may catch up what load delayed
                self.assertLess(s[d]["iops"], max(8000, 4000 + 8000 * lost), s)
                self.assertAlmostEqual(s[d]["bw_bytes"], s[d]["iops"] * 4096, delta=s[d]["bw_bytes"] * 0.01 + 1)
                self.assertGreater(s[d]["clat_mean_ns"], 0)
                self.assertGreaterEqual(s[d]["clat_max_ns"], s[d]["clat_p99_ns"])
                self.assertGreater(s[d]["clat_p99_ns"], 0)
        total = sum(s["read"]["iops"] * s["dur_ms"] / 1000 for s in ts)
        ios = job["read"]["total_ios"]
        self.assertAlmostEqual(total, ios, delta=ios * 0.02 + 5)

    def test_interim_in_the_document(self):
        interim = self.doc()["interim"]
        # one a second in a 3 s run, and one more a second load added to it
        self.assertTrue(2 <= len(interim) <= 4 + self.lost.s, len(interim))
        prev = 0
        for snap in interim:
            self.assertGreater(snap["t_ms"], prev)
            prev = snap["t_ms"]
            j = snap["jobs"][0]
            self.assertEqual(j["jobname"], "mixed")
            self.assertGreater(j["read"]["total_ios"], 0)
        self.assertGreater(interim[-1]["jobs"][0]["read"]["io_bytes"],
                           interim[0]["jobs"][0]["read"]["io_bytes"])

    def test_log_files_fio_columns(self):
        self.doc()
        for kind in ("bw", "iops", "clat", "lat"):
            path = os.path.join(self.rundir, f"mixed_{kind}.1.log")
            self.assertTrue(os.path.exists(path), kind)
            rows = log_rows(path)
            self.assertTrue(10 <= len(rows) <= 16, f"{kind}: {len(rows)} rows")
            times = [r[0] for r in rows]
            for r in rows:
                self.assertEqual(len(r), 5, r)  # time, value, ddir, bs, prio
                self.assertIn(r[2], (0, 1))
                self.assertEqual(r[3], 0)      # averaged entries carry bs 0, as fio's
                if r[0] != times[-1] and self.lost.s < 0.5:   # the last window may be a
                    self.assertGreater(r[1], 0)                # sliver; load may stall one
            self.assertEqual(times, sorted(times))
        iops = [r[1] for r in log_rows(os.path.join(self.rundir, "mixed_iops.1.log"))[:-2]]
        # rate_iops=4000: never above (the whole windows' mean); below only
        # by what other load took from the run
        self.assertTrue(3000 - 4000 * self.lost.s < sum(iops) / len(iops) < 4500, iops)
        self.assertTrue(os.path.exists(os.path.join(self.rundir, "mixed_slat.1.log")))

    def test_p50_per_interval(self):
        # clat_p50_ns beside the other percentiles: p50 <= p99 <= max, and a
        # whole interval with I/O has one
        ts = self.doc()["jobs"][0]["timeseries"]
        for s in ts:
            for d in ("read", "write"):
                self.assertIn("clat_p50_ns", s[d], s)
                self.assertLessEqual(s[d]["clat_p50_ns"], s[d]["clat_p99_ns"], s)
                if s is not ts[-1]:
                    self.assertGreater(s[d]["clat_p50_ns"], 0, s)

    def test_host_per_cpu(self):
        # every host sample has each CPU's busy % (one per cpuN line of
        # /proc/stat at the start), null only for a CPU without a reading
        # (all of them in a sample shorter than a tick, which the run's end can close)
        series = self.doc()["host"]["series"]
        with open("/proc/stat") as f:
            idx = [int(l.split()[0][3:]) for l in f if l.startswith("cpu") and l[3].isdigit()]
        for s in series:
            self.assertEqual(len(s["cpus"]), max(idx) + 1, s)
            got = [v for v in s["cpus"] if v is not None]
            # a closing sample shorter than the kernel's CPU-time tick (10 ms
            # with USER_HZ=100) may see no tick on any CPU: no busy % (0 and
            # 1 ms seen in CI)
            if s["dur_ms"] < 20:
                continue
            self.assertTrue(got, s)
            for v in got:
                self.assertTrue(0 <= v <= 100, s)
            # the per-sample min and max are those of the CPUs (2 decimals)
            self.assertAlmostEqual(min(got), s["cpu_min"], delta=0.006)
            self.assertAlmostEqual(max(got), s["cpu_max"], delta=0.006)

    def test_host_object(self):
        host = self.doc()["host"]
        for src in ("cpu", "mem", "net"):
            self.assertIn(src, host)
            self.assertFalse(host[src].get("absent", False), src)
        # sources this machine lacks are marked absent with a reason, never zero
        lacking = {"rapl": not os.path.isdir("/sys/class/powercap"),
                   "ib": not os.path.isdir("/sys/class/infiniband"),
                   "gpu": not os.path.exists("/dev/nvidiactl")}
        for src, missing in lacking.items():
            self.assertIn(src, host)
            if missing:
                self.assertTrue(host[src].get("absent"), src)
                self.assertTrue(host[src].get("reason"), src)
        # software perf events work everywhere; per-I/O figures come with them
        ev = {e["name"]: e for e in host["perf"]["events"]}
        if not ev["context-switches"].get("absent"):
            self.assertGreater(ev["context-switches"]["count"], 0)
            self.assertIn("context-switches", host["perf_per_io"])
            self.assertGreater(host["perf_per_io"]["context-switches"], 0)


class PerIoLogTest(SbCase):
    def test_per_io_entries(self):
        job = self.write_job("""
[one]
ioengine=psync
rw=write
bs=8k
size=1m
rate_iops=1000
runtime=1s
time_based
unlink=1
write_lat_log=p
write_iops_log=p
log_offset=1
""")
        doc = self.run_json(job)
        ios = doc["jobs"][0]["write"]["total_ios"]
        rows = log_rows(os.path.join(self.dir, "p_clat.1.log"))
        self.assertEqual(len(rows), ios)  # one entry per I/O
        for r in rows:
            self.assertEqual(len(r), 6, r)  # time, value, ddir, bs, offset, prio
            self.assertEqual((r[2], r[3]), (1, 8192))
            self.assertEqual(r[4] % 8192, 0)
            self.assertLess(r[4], 1024 * 1024)
        self.assertEqual({r[1] for r in log_rows(os.path.join(self.dir, "p_iops.1.log"))}, {1})
        # psync has no submission step: the slat log is empty, as fio's
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "p_slat.1.log")), 0)

    def test_normal_interim_text(self):
        with CpuLoss() as lost:
            p = self.run_sb("--status-interval=500ms", "--name=n", "--ioengine=null", "--size=1m",
                            "--runtime=1200ms", "--time_based", "--host_counters=none")
        self.assertEqual(p.returncode, 0, p.stderr)
        # one every 500 ms of a run of 1.2 s: two, and one more for each
        # 500 ms that other load added to the run (CpuLoss)
        at = [float(x) for x in re.findall(r"Interim results at (\d+\.\d+)s", p.stdout)]
        self.assertEqual(len(at), p.stdout.count("Interim results at"), p.stdout)
        self.assertTrue(2 <= len(at) <= 2 + math.ceil(2 * lost.s), (at, lost.s, p.stdout))
        self.assertEqual(at, sorted(set(at)), p.stdout)
        self.assertGreaterEqual(at[0], 0.5)
        self.assertLess(p.stdout.index("Interim results"), p.stdout.index("n: (groupid=0"))
        self.assertNotIn("\r", p.stderr)  # no status line when stderr is not a terminal

    def test_bad_host_counters(self):
        p = self.run_sb("--name=n", "--ioengine=null", "--size=1m", "--host_counters=cpu,disco")
        self.assertEqual(p.returncode, 1)
        self.assertIn("disco", p.stderr)
