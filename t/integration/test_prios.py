"""test_prios.py: per-priority latency, fio's "prios" arrays and "clat prio"
lines, run beside fio 3.33 where it is installed.

fio's facts used here (fio-3.33 source):
- stat.c:1497-1528: a read or write direction has "prios" when two or more
  priorities have samples; each entry is prioclass (ioprio >> 13), prio
  (ioprio & 7) and its latency under "lat_ns" with lat_percentiles, else
  "clat_ns", with percentiles (and json+ bins) when clat_percentiles or
  lat_percentiles is on.
- stat.c:3271-3310 add_clat_sample and add_lat_sample: the figure kept per
  priority is lat with lat_percentiles, else clat.
- engines/cmdprio.c:74: the job's own priority (prioclass/prio, 0 when
  unset) is always one of them; cmdprio_class defaults to 1 (realtime).
- stat.c:2104-2170 (sum_thread_stats): group_reporting and
  unified_rw_reporting merge entries of the same priority.
- stat.c:590-604, 620-650: the normal output's "clat prio C/L (unit):"
  lines after slat/clat/lat, and "clat prio C/L (P% of IOs) percentiles".
- t/latency_percentiles.py:500-581 (fio 3.42) check_prio_latencies: the
  entries' N add up to the direction's, their min and max are its min and
  max, their N-weighted means its mean, their json+ bins its bins.
Classes 2 (best-effort) and 3 (idle) need no privilege; 1 (realtime) does.
"""
import collections
import json
import os
import re
import shutil
import subprocess

from sbtest import BIN, SbCase

FIO = shutil.which("fio")


def check_sums(tc, ddir, key, plus):
    """fio's check_prio_latencies on one direction of a JSON job"""
    prios = ddir["prios"]
    whole = ddir[key]
    tc.assertEqual(sum(p[key]["N"] for p in prios), whole["N"])
    tc.assertEqual(min(p[key]["min"] for p in prios), whole["min"])
    tc.assertEqual(max(p[key]["max"] for p in prios), whole["max"])
    mean = sum(p[key]["mean"] * p[key]["N"] for p in prios) / whole["N"]
    tc.assertLess(abs(mean - whole["mean"]) / whole["mean"], 1e-4)
    if plus:
        bins = collections.Counter()
        for p in prios:
            bins.update(p[key]["bins"])
        tc.assertEqual(dict(bins), whole["bins"])


class Prios(SbCase):

    def setUp(self):
        super().setUp()
        self.path = os.path.join(self.dir, "f")
        with open(self.path, "wb") as f:
            f.write(os.urandom(4 << 20))

    def job(self, *extra, eng="libaio"):
        return ["--name=x", "--ioengine=" + eng, "--filename=" + self.path, "--size=4m",
                "--iodepth=4", *extra]

    def both(self, args, fmt="json"):
        """storbench's JSON, and fio's where installed (None otherwise)"""
        out = []
        for prog in [BIN] + ([FIO] if FIO else []):
            p = subprocess.run([prog, "--output-format=" + fmt, *args], cwd=self.dir,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            out.append(json.loads(p.stdout[p.stdout.index("{"):]))
        return out[0], (out[1] if FIO else None)

    @staticmethod
    def keys(ddir, key):
        return sorted((p["prioclass"], p["prio"]) for p in ddir.get("prios", []) if p[key]["N"])

    def test_cmdprio_percentage_clat(self):
        args = self.job("--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=3",
                        "--cmdprio=5")
        sb, fio = self.both(args, "json+")
        r = sb["jobs"][0]["read"]
        self.assertEqual(self.keys(r, "clat_ns"), [(0, 0), (3, 5)])
        for p in r["prios"]:
            self.assertEqual(sorted(p), ["clat_ns", "prio", "prioclass"])
            self.assertIn("percentile", p["clat_ns"])
        check_sums(self, r, "clat_ns", plus=True)
        self.assertNotIn("prios", sb["jobs"][0]["write"])  # no writes: no samples
        if fio:
            f = fio["jobs"][0]["read"]
            self.assertEqual(self.keys(f, "clat_ns"), self.keys(r, "clat_ns"))
            self.assertEqual(sorted(f["prios"][0]), sorted(r["prios"][0]))
            self.assertEqual(sorted(f["prios"][0]["clat_ns"]), sorted(r["prios"][0]["clat_ns"]))

    def test_lat_percentiles_keeps_lat(self):
        args = self.job("--rw=randrw", "--cmdprio_percentage=40", "--cmdprio_class=2",
                        "--cmdprio=7", "--lat_percentiles=1", "--clat_percentiles=0")
        sb, fio = self.both(args, "json+")
        for d in ("read", "write"):
            x = sb["jobs"][0][d]
            self.assertEqual(self.keys(x, "lat_ns"), [(0, 0), (2, 7)])
            self.assertTrue(all("clat_ns" not in p for p in x["prios"]))
            check_sums(self, x, "lat_ns", plus=True)
            if fio:
                self.assertEqual(self.keys(fio["jobs"][0][d], "lat_ns"), self.keys(x, "lat_ns"))

    def test_no_percentiles_no_bins(self):
        args = self.job("--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=3",
                        "--clat_percentiles=0")
        sb, fio = self.both(args, "json+")
        r = sb["jobs"][0]["read"]
        for p in r["prios"]:
            self.assertEqual(sorted(p["clat_ns"]), ["N", "max", "mean", "min", "stddev"])
        check_sums(self, r, "clat_ns", plus=False)
        if fio:
            self.assertEqual(sorted(fio["jobs"][0]["read"]["prios"][0]["clat_ns"]),
                             sorted(r["prios"][0]["clat_ns"]))

    def test_job_priority_is_the_default_entry(self):
        args = self.job("--rw=randread", "--prioclass=2", "--prio=3", "--cmdprio_bssplit=4k/30/3/1")
        sb, fio = self.both(args)
        r = sb["jobs"][0]["read"]
        self.assertEqual(self.keys(r, "clat_ns"), [(2, 3), (3, 1)])
        check_sums(self, r, "clat_ns", plus=False)
        if fio:
            self.assertEqual(self.keys(fio["jobs"][0]["read"], "clat_ns"), [(2, 3), (3, 1)])

    def test_one_priority_has_none(self):
        for extra in ([], ["--prioclass=2", "--prio=1"], ["--cmdprio_percentage=100", "--cmdprio_class=3"]):
            args = self.job("--rw=randread", *extra)
            sb, fio = self.both(args)
            self.assertNotIn("prios", sb["jobs"][0]["read"], extra)
            if fio:
                self.assertNotIn("prios", fio["jobs"][0]["read"], extra)

    def test_group_reporting_merges_jobs_by_priority(self):
        """two psync jobs of different priorities: one group, two entries (no
        cmdprio at all); a third job at the first's priority adds to it"""
        job = self.write_job(f"""[global]
filename={self.path}
size=4m
rw=randread
group_reporting
[a]
prioclass=2
prio=4
[b]
prioclass=3
prio=6
[c]
prioclass=2
prio=4
""")
        sb, fio = self.both([job])
        r = sb["jobs"][0]["read"]
        self.assertEqual(self.keys(r, "clat_ns"), [(2, 4), (3, 6)])
        n = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in r["prios"]}
        self.assertEqual(n[(2, 4)], 2 * 1024)
        self.assertEqual(n[(3, 6)], 1024)
        check_sums(self, r, "clat_ns", plus=False)
        if fio:
            self.assertEqual(self.keys(fio["jobs"][0]["read"], "clat_ns"), self.keys(r, "clat_ns"))

    def test_unified_merges_directions_by_priority(self):
        args = self.job("--rw=randrw", "--unified_rw_reporting=1", "--cmdprio_percentage=30,60",
                        "--cmdprio_class=3", "--cmdprio=2,5")
        sb, fio = self.both(args, "json+")
        m = sb["jobs"][0]["mixed"]
        self.assertEqual(self.keys(m, "clat_ns"), [(0, 0), (3, 2), (3, 5)])
        check_sums(self, m, "clat_ns", plus=True)
        self.assertEqual(m["clat_ns"]["N"], 1024)
        if fio:
            self.assertEqual(self.keys(fio["jobs"][0]["mixed"], "clat_ns"), self.keys(m, "clat_ns"))

    def test_numjobs_merge(self):
        args = self.job("--rw=randread", "--numjobs=3", "--group_reporting",
                        "--cmdprio_percentage=50", "--cmdprio_class=2", "--cmdprio=0")
        sb, _ = self.both(args, "json+")
        r = sb["jobs"][0]["read"]
        self.assertEqual(self.keys(r, "clat_ns"), [(0, 0), (2, 0)])
        self.assertEqual(r["clat_ns"]["N"], 3 * 1024)
        check_sums(self, r, "clat_ns", plus=True)

    def test_normal_output_lines(self):
        args = self.job("--rw=randread", "--cmdprio_percentage=50", "--cmdprio_class=3",
                        "--cmdprio=5")
        outs = []
        for prog in [BIN] + ([FIO] if FIO else []):
            p = subprocess.run([prog, *args], cwd=self.dir, capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            outs.append(p.stdout)
        for out in outs:
            summary = re.findall(r"^    clat prio (\d)/(\d) \(\w+\): min=", out, re.M)
            self.assertEqual(summary, [("0", "0"), ("3", "5")], out)
            shares = re.findall(r"^    clat prio (\d)/(\d) \((\d+\.\d\d)% of IOs\) percentiles \(\w+\):$",
                                out, re.M)
            self.assertEqual([s[:2] for s in shares], [("0", "0"), ("3", "5")], out)
            self.assertAlmostEqual(sum(float(s[2]) for s in shares), 100.0, delta=0.02)
            # the summary lines come after the direction's clat line, the
            # tables after its clat percentiles (fio's order)
            self.assertLess(out.index("    clat ("), out.index("    clat prio 0/0 ("))
            self.assertLess(out.index("    clat percentiles"), out.index("% of IOs) percentiles"))

    def test_too_many_priorities_refused(self):
        split = ":".join(f"4k/10/3/{lvl}" for lvl in range(8))
        job = self.write_job(f"""[x]
ioengine=libaio
filename={self.dir}/new
size=1m
rw=randread
cmdprio_bssplit={split}
""")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(f"{job}:6", p.stderr)
        self.assertIn("8 different priorities", p.stderr)
        self.assertIn("at most 7", p.stderr)
        self.assertIn("use fewer", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "new")))

    def test_five_field_bssplit_hint_ignored(self):
        """fio 3.42's BS/PCT/CLASS/LEVEL/HINT (examples/cmdprio-bssplit.fio):
        fio 3.33 reads four fields (options.c:295) and ignores the hint"""
        args = self.job("--rw=randread", "--cmdprio_bssplit=4k/40/3/1/2:4k/30/2/5/0")
        sb, fio = self.both(args)
        r = sb["jobs"][0]["read"]
        self.assertEqual(self.keys(r, "clat_ns"), [(0, 0), (2, 5), (3, 1)])
        if fio:
            self.assertEqual(self.keys(fio["jobs"][0]["read"], "clat_ns"), self.keys(r, "clat_ns"))
        job = self.write_job("[x]\nioengine=libaio\nfilename=%s/new\nsize=1m\n"
                             "cmdprio_bssplit=4k/40/3/1/9\n" % self.dir)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(job + ":5:", p.stderr)
        self.assertIn("hint '9'", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "new")))
