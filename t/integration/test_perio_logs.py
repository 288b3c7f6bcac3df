"""test_perio_logs.py: per-I/O logs (write_lat_log, write_bw_log,
write_iops_log, write_iolog with log_avg_msec=0) are lossless at any IOPS.

A per-I/O ring holds 65536 entries a thread (stats/iolog.h SB_IOLOG_RING);
drained only every stats tick (at most 50 ms), it would drop what did not
fit, and a null-engine job doing millions of I/Os a second would lose most
of its lines ("N per-I/O log entries were dropped").  The I/O thread waits
for the log writer instead: every
log has exactly one line per counted I/O, each direction's lines match that
direction's total_ios in the JSON (as fio's t/latency_percentiles.py
checks), and the slat log matches slat_ns.N (0 for a synchronous engine).

A log that cannot be written (ENOSPC or EIO from the fault shim, at the
first write, part way through, or at the fsync before the rename; a real
full tmpfs as root) makes the run exit 3 naming that log; the file that
was there is left as it was and no temporary is left beside it; the other
logs of the run are complete."""
import json
import os
import signal
import subprocess
import time
import unittest

from sbtest import BIN, SbCase
from test_faults import IS_ROOT, SHIM, shim_env

N = 600000          # per thread: nine rings' worth, far more than a tick's worth
DIRS = {0: "read", 1: "write"}


def log_lines(path):
    """{ddir: lines} of an fio log file"""
    out = {}
    with open(path) as f:
        for line in f:
            d = int(line.split(",")[2])
            out[d] = out.get(d, 0) + 1
    return out


def job(name, extra="", n=N, numjobs=1, per_job=1):
    return (f"[{name}]\nioengine=null\nfilename=nul\nrw=randrw\nbs=4k\nsize=64g\niodepth=4\n"
            f"number_ios={n}\nnumjobs={numjobs}\nper_job_logs={per_job}\n{extra}")


class LosslessTest(SbCase):
    def check_logs(self, res, name, kinds):
        """each log of job `name` against its threads' JSON counts; a
        thread's files are numbered by its place in the run (fio's N)"""
        idx = [i for i, j in enumerate(res["jobs"]) if j["jobname"] == name]
        self.assertTrue(idx)
        per_job = not os.path.exists(os.path.join(self.dir, f"{name}_{kinds[0]}.log"))
        for kind in kinds:
            got = {}
            for i in idx if per_job else idx[:1]:
                fn = f"{name}_{kind}.{i + 1}.log" if per_job else f"{name}_{kind}.log"
                lines = log_lines(os.path.join(self.dir, fn))
                t = res["jobs"][i]
                for d, dn in DIRS.items():
                    want = t[dn]["slat_ns"]["N"] if kind == "slat" else t[dn]["total_ios"]
                    if per_job:
                        self.assertEqual(lines.get(d, 0), want, f"{fn}: {dn} lines")
                    got[d] = got.get(d, 0) + lines.get(d, 0)
            for d, dn in DIRS.items():
                threads = [res["jobs"][i] for i in idx]
                want = sum(t[dn]["slat_ns"]["N"] if kind == "slat" else t[dn]["total_ios"]
                           for t in threads)
                if kind != "slat":
                    self.assertGreater(want, 0)
                self.assertEqual(got.get(d, 0), want, f"{name} {kind}: {dn} lines")

    def test_every_io_has_its_line(self):
        text = (job("a", "write_lat_log=a\nwrite_bw_log=a\nwrite_iops_log=a\n", numjobs=2) +
                job("b", "write_lat_log=b\nwrite_bw_log=b\nlog_offset=1\n", numjobs=2, per_job=0) +
                job("c", "write_lat_log=c\nwrite_iolog=c.iolog\nlog_prio=1\n"))
        p = self.run_sb("--output-format=json", self.write_job(text), timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("dropped", p.stderr)
        res = json.loads(p.stdout)
        self.check_logs(res, "a", ["clat", "slat", "lat", "bw", "iops"])
        self.check_logs(res, "b", ["clat", "slat", "lat", "bw"])
        self.check_logs(res, "c", ["clat", "slat", "lat"])
        c = [j for j in res["jobs"] if j["jobname"] == "c"][0]
        with open(os.path.join(self.dir, "c.iolog")) as f:
            ios = sum(1 for line in f if line.split()[2] in ("read", "write"))
        self.assertEqual(ios, c["read"]["total_ios"] + c["write"]["total_ios"])

    def test_interrupted_run_keeps_every_line(self):
        """SIGINT part way (exit 130): the logs still match the JSON"""
        text = job("s", "write_lat_log=s\ntime_based=1\nruntime=120\n", numjobs=2)
        p = subprocess.Popen([os.path.abspath(BIN), "--output-format=json",
                              self.write_job(text)], cwd=self.dir, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:  # wait until lines are being written (a temporary beside each log)
            t0 = time.monotonic()
            while time.monotonic() - t0 < 60 and not any(
                    n.startswith(".s_clat") and os.path.getsize(os.path.join(self.dir, n)) > 1 << 20
                    for n in os.listdir(self.dir)):
                time.sleep(0.05)
        finally:
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 130, err)
        self.check_logs(json.loads(out), "s", ["clat", "slat", "lat"])

    def test_log_max_value_window_and_iolog(self):
        """log_avg_msec with log_max_value: the stats thread drains the ring
        too; write_iolog beside it still has every I/O"""
        text = job("m", "write_lat_log=m\nlog_avg_msec=100\nlog_max_value=1\nwrite_iolog=m.iolog\n")
        res = self.run_json(self.write_job(text), timeout=300)
        m = res["jobs"][0]
        with open(os.path.join(self.dir, "m.iolog")) as f:
            ios = sum(1 for line in f if line.split()[2] in ("read", "write"))
        self.assertEqual(ios, m["read"]["total_ios"] + m["write"]["total_ios"])
        with open(os.path.join(self.dir, "m_clat.1.log")) as f:
            top = max(int(line.split(",")[1]) for line in f)
        self.assertEqual(top, max(m[d]["clat_ns"]["max"] for d in DIRS.values()))


@unittest.skipUnless(os.path.exists(SHIM), "the fault shim is not built")
class LogFaultTest(SbCase):
    KINDS = ["clat", "lat", "bw", "iops"]

    def fail_log(self, kind, rule):
        old = f"x_{kind}.1.log was here\n"
        with open(os.path.join(self.dir, f"x_{kind}.1.log"), "w") as f:
            f.write(old)
        text = job("x", "write_lat_log=x\nwrite_bw_log=x\nwrite_iops_log=x\n", n=200000)
        p = self.run_sb("--output-format=json", self.write_job(text),
                        env=shim_env(f"{rule}:path=*x_{kind}.1.log*"), timeout=300)
        what = f"{kind} {rule}: exit {p.returncode}\n{p.stderr}"
        self.assertEqual(p.returncode, 3, what)
        self.assertIn(f"x_{kind}.1.log", p.stderr, what)
        res = json.loads(p.stdout)  # the results stand
        with open(os.path.join(self.dir, f"x_{kind}.1.log")) as f:
            self.assertEqual(f.read(), old, what)
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(".")], [], what)
        others = [k for k in self.KINDS + ["slat"] if k != kind]
        LosslessTest.check_logs(self, res, "x", others)

    def test_enospc_at_first_write(self):
        for kind in self.KINDS:
            self.fail_log(kind, "write:ENOSPC")

    def test_eio_part_way(self):
        for kind in self.KINDS:
            self.fail_log(kind, "write:EIO:skip=5")

    def test_enospc_part_way(self):
        self.fail_log("clat", "write:ENOSPC:skip=20")

    def test_fsync_eio(self):
        for kind in self.KINDS:
            self.fail_log(kind, "fsync:EIO")


@unittest.skipUnless(IS_ROOT, "needs root (mounts a small tmpfs)")
class FullFsTest(SbCase):
    def test_log_fills_tmpfs(self):
        mnt = os.path.join(self.dir, "small")
        os.mkdir(mnt)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt],
                           capture_output=True, text=True)
        if r.returncode:
            self.skipTest("cannot mount a tmpfs: " + r.stderr.strip())
        try:
            with open(os.path.join(mnt, "l_lat.1.log"), "w") as f:
                f.write("kept\n")
            text = job("l", f"write_lat_log={mnt}/l\n", n=200000)
            p = self.run_sb("--output-format=json", self.write_job(text), timeout=300)
            self.assertEqual(p.returncode, 3, p.stderr)
            self.assertIn("l_lat.1.log", p.stderr)
            json.loads(p.stdout)
            with open(os.path.join(mnt, "l_lat.1.log")) as f:
                self.assertEqual(f.read(), "kept\n")
            self.assertEqual([n for n in os.listdir(mnt) if n.startswith(".")], [])
        finally:
            subprocess.run(["umount", mnt], capture_output=True)


if __name__ == "__main__":
    unittest.main()
