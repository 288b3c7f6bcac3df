"""unified_rw_reporting: none|mixed|both and fio's 0|1|2 in JSON,
json+, terse, normal output and the CSV export; what the report and compare
tools make of a "mixed" job; bad values.

Expected values marked "fio:" were printed by fio 3.33 on the same job files
(ioengine=null, so nothing is written); when fio 3.x is installed the
side-by-side test runs it again and compares."""
import json
import os
import shutil
import subprocess

from test_fio_compat import key_paths
from sbtest import SbCase, CpuLoss

FIO = shutil.which("fio")

JOB = """[j]
ioengine=null
rw=randrw
bs=4k
size=16m
{opt}
"""

# fio: the direction objects of a job, in order
FIO_DIRS = {
    "none": ["read", "write", "trim", "sync"],
    "mixed": ["mixed"],
    "both": ["read", "write", "trim", "sync", "mixed"],
}
FIO_DIRS["0"], FIO_DIRS["1"], FIO_DIRS["2"] = FIO_DIRS["none"], FIO_DIRS["mixed"], FIO_DIRS["both"]
# fio: terse version 3 fields of one job without disk_util (null engine)
FIO_TERSE = {"none": 121, "mixed": 80, "both": 162, "0": 121, "1": 80, "2": 162}
# fio: the keys of "mixed" (the same as of "read")
FIO_MIXED_KEYS = {
    "io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios",
    "drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max", "bw_agg", "bw_mean",
    "bw_dev", "bw_samples", "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples"}
DIR_KEYS = ("read", "write", "trim", "sync", "mixed")


def dirs_of(job):
    return [k for k in job if k in DIR_KEYS]


class TestUnifiedRw(SbCase):
    def job(self, value, extra=""):
        opt = f"unified_rw_reporting={value}" if value is not None else ""
        return self.write_job(JOB.format(opt=opt + "\n" + extra))

    def test_json_keys_per_value(self):
        for v in ("none", "mixed", "both", "0", "1", "2"):
            with self.subTest(value=v):
                j = self.run_json(self.job(v))["jobs"][0]
                self.assertEqual(dirs_of(j), FIO_DIRS[v])
                if "mixed" in j:
                    self.assertEqual(set(j["mixed"]), FIO_MIXED_KEYS)
                    self.assertEqual(set(j["mixed"]["clat_ns"]),
                                     {"min", "max", "mean", "stddev", "N", "percentile"})

    def test_mixed_sums_the_directions(self):
        # size-bound: every byte is read or written once; fio: mixed
        # io_bytes 16 MiB, total_ios 4096, runtime the longest direction's
        j = self.run_json(self.job("both"))["jobs"][0]
        r, w, m = j["read"], j["write"], j["mixed"]
        self.assertEqual(m["io_bytes"], 16 << 20)
        self.assertEqual(m["io_bytes"], r["io_bytes"] + w["io_bytes"])
        self.assertEqual(m["total_ios"], r["total_ios"] + w["total_ios"])
        self.assertEqual(m["io_kbytes"], m["io_bytes"] >> 10)
        self.assertEqual(m["runtime"], max(r["runtime"], w["runtime"]))
        if m["runtime"]:
            self.assertAlmostEqual(m["iops"], m["total_ios"] * 1000.0 / m["runtime"], delta=1e-3)
        for k in ("clat_ns", "lat_ns"):
            self.assertEqual(m[k]["N"], r[k]["N"] + w[k]["N"])
            self.assertEqual(m[k]["min"], min(r[k]["min"], w[k]["min"]))
            self.assertEqual(m[k]["max"], max(r[k]["max"], w[k]["max"]))
            mean = (r[k]["mean"] * r[k]["N"] + w[k]["mean"] * w[k]["N"]) / m[k]["N"]
            self.assertAlmostEqual(m[k]["mean"], mean, delta=1e-3 * max(1.0, mean))
        # bandwidth samples add as fio's pure sums do
        self.assertEqual(m["bw_samples"], r["bw_samples"] + w["bw_samples"])
        self.assertAlmostEqual(m["bw_mean"], r["bw_mean"] + w["bw_mean"], delta=1e-3)

    def test_mixed_iops_is_read_plus_write(self):
        # fio (rate_iops=3000,1000, 2 s, =both): read 2999.0, write 999.5,
        # mixed 3998.5 IOPS; bw_mean 12008 + 4002.67 = 16010.67
        text = JOB.format(opt="unified_rw_reporting=both\nrwmixread=70\nrate_iops=3000,1000\n"
                          "time_based\nruntime=1500ms")
        with CpuLoss() as lost:
            j = self.run_json(self.write_job(text))["jobs"][0]
        r, w, m = j["read"], j["write"], j["mixed"]
        # the directions' runtimes differ by their last I/Os' times: by what
        # other load took from the 1.5 s run at most (CpuLoss)
        self.assertAlmostEqual(m["iops"] / (r["iops"] + w["iops"]), 1.0, delta=0.02 + lost.s / 1.5)
        self.assertAlmostEqual(m["iops_mean"], r["iops_mean"] + w["iops_mean"], delta=1e-3)

    def test_json_plus_bins_cover_every_io(self):
        p = self.run_sb("--output-format=json+", self.job("mixed"))
        self.assertEqual(p.returncode, 0, p.stderr)
        m = json.loads(p.stdout)["jobs"][0]["mixed"]
        self.assertEqual(sum(m["clat_ns"]["bins"].values()), m["clat_ns"]["N"])
        self.assertEqual(m["clat_ns"]["N"], 4096)

    def test_terse_fields(self):
        for v, n in FIO_TERSE.items():
            with self.subTest(value=v):
                p = self.run_sb("--output-format=terse", "--disk_util=0", self.job(v))
                self.assertEqual(p.returncode, 0, p.stderr)
                f = p.stdout.strip().split(";")
                self.assertEqual(len(f), n)
                if v in ("mixed", "1"):  # field 6: the mixed io_kbytes
                    self.assertEqual(int(f[5]), 16 << 10)
                if v in ("both", "2"):   # read, write, then mixed (fio: no trim in v3)
                    self.assertEqual(int(f[5]) + int(f[46]), int(f[87]))

    def test_normal_lines(self):
        for v, has, hasnt in (
                ("none", ["  read: IOPS=", "   READ: bw=", "  WRITE: bw="], ["mixed:", "MIXED:"]),
                ("mixed", ["  mixed: IOPS=", "  MIXED: bw=", "issued rwts: total=4096,0,0,0"],
                 ["  read: IOPS=", "READ: bw=", "WRITE: bw="]),
                ("both", ["  read: IOPS=", "  write: IOPS=", "  mixed: IOPS=", "   READ: bw=",
                          "  WRITE: bw=", "  MIXED: bw="], [])):
            with self.subTest(value=v):
                p = self.run_sb(self.job(v))
                self.assertEqual(p.returncode, 0, p.stderr)
                for s in has:
                    self.assertIn(s, p.stdout)
                for s in hasnt:
                    self.assertNotIn(s, p.stdout)
        # fio: MIXED: ..., io=16.0MiB (16.8MB)
        self.assertIn("io=16.0MiB (16.8MB)", p.stdout.split("MIXED:")[1].splitlines()[0])

    def test_group_mixed_line(self):
        # fio, group_reporting of a read job (8 MiB) and a write job (4 MiB):
        # one entry, "mixed" io_bytes 12 MiB; MIXED: io=12.0MiB
        text = ("[global]\nioengine=null\nbs=4k\ngroup_reporting\nunified_rw_reporting=mixed\n"
                "[a]\nrw=read\nsize=8m\n[b]\nrw=write\nsize=4m\n")
        job = self.write_job(text)
        got = self.run_json(job)
        self.assertEqual(len(got["jobs"]), 1)
        self.assertEqual(got["jobs"][0]["mixed"]["io_bytes"], 12 << 20)
        self.assertEqual(got["jobs"][0]["mixed"]["total_ios"], 3072)
        p = self.run_sb(job)
        self.assertIn("io=12.0MiB", p.stdout.split("MIXED:")[1])

    def test_cmdline_does_not_override_the_job_file(self):
        # fio 3.33: --unified_rw_reporting=none with a job file saying mixed
        # still reports "mixed"; given on the command line only, it applies
        j = self.run_json("--unified_rw_reporting=none", self.job("mixed"))["jobs"][0]
        self.assertEqual(dirs_of(j), ["mixed"])
        j = self.run_json("--unified_rw_reporting=mixed", self.job(None))["jobs"][0]
        self.assertEqual(dirs_of(j), ["mixed"])
        j = self.run_json(self.job(None), "--unified_rw_reporting=both")["jobs"][0]
        self.assertEqual(dirs_of(j), FIO_DIRS["both"])

    def test_bad_values(self):
        for v in ("3", "mix", "yes", "-1"):
            with self.subTest(value=v):
                job = self.job(v, extra="filename=data.bin")
                before = self.listing()
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("job.ini:6", p.stderr)
                self.assertIn(f"unified_rw_reporting={v}", p.stderr)
                self.assertIn(f"'{v}'", p.stderr)
                self.assertIn("none, mixed, both", p.stderr)
                self.assertEqual(p.stdout, "")
                self.assertEqual(self.listing(), before)
        p = self.run_sb("--name=x", "--ioengine=null", "--size=1m", "--filename=x.bin",
                        "--unified_rw_reporting=mixd")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>", p.stderr)
        self.assertIn("unified_rw_reporting=mixd", p.stderr)
        self.assertIn("none, mixed, both", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_csv_export(self):
        for v, cols in (("mixed", ["time_ms", "dur_ms", "mixed_iops"]),
                        ("both", ["time_ms", "dur_ms", "read_iops", "write_iops", "mixed_iops"])):
            with self.subTest(value=v):
                out = os.path.join(self.dir, "csv-" + v)
                text = JOB.format(opt=f"unified_rw_reporting={v}\nrate_iops=2000\ntime_based\n"
                                  "runtime=1200ms")
                p = self.run_sb(f"--export=csv:{out}", self.write_job(text, v + ".ini"))
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(os.path.join(out, "job1-j.iops.csv")) as f:
                    rows = [line.strip().split(",") for line in f]
                self.assertEqual(rows[0], cols)
                if v == "both":
                    for row in rows[1:]:
                        self.assertAlmostEqual(float(row[4]), float(row[2]) + float(row[3]), delta=1e-3)
                with open(os.path.join(out, "job1-j.clat_hist.csv")) as f:
                    head = f.readline().strip().split(",")
                    total = sum(int(line.split(",")[-1]) for line in f)
                self.assertEqual(head[-1], "mixed_count")
                self.assertGreater(total, 0)

    def test_tools_read_a_mixed_job(self):
        res = os.path.join(self.dir, "m.json")
        p = self.run_sb("--output-format=json", f"--output={res}", self.job("mixed"))
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_sb("compare", res, res)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("mixed IOPS", p.stdout)
        html = os.path.join(self.dir, "r.html")
        p = self.run_sb("report", res, "-o", html)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(html) as f:
            self.assertIn("<td>mixed</td>", f.read())


class TestSideBySide(SbCase):
    def setUp(self):
        super().setUp()
        if not FIO:
            self.skipTest("fio is not installed (apt-get install fio): no side-by-side run")
        v = subprocess.run([FIO, "--version"], capture_output=True, text=True).stdout
        if not v.startswith("fio-3."):
            self.skipTest(f"fio 3.x needed, found {v.strip()!r}")

    def fio(self, *args):
        p = subprocess.run([FIO, *args], cwd=self.dir, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_against_fio(self):
        for v in ("none", "mixed", "both", "1", "2"):
            with self.subTest(value=v):
                job = self.write_job(JOB.format(opt=f"unified_rw_reporting={v}"))
                t = self.fio("--output-format=json", job)
                ref = json.loads(t[t.index("{"):])["jobs"][0]
                got = self.run_json(job)["jobs"][0]
                self.assertEqual(dirs_of(got), dirs_of(ref))
                for d in dirs_of(ref):
                    if d == "sync":
                        continue
                    self.assertEqual(key_paths(ref[d]) - key_paths(got[d]), set(), d)
                # the random read/write split differs run by run; the sum not
                if "mixed" in ref:
                    self.assertEqual(got["mixed"]["io_bytes"], ref["mixed"]["io_bytes"])
                    self.assertEqual(got["mixed"]["total_ios"], ref["mixed"]["total_ios"])
                terse_ref = self.fio("--minimal", job).strip().split(";")
                p = self.run_sb("--output-format=terse", "--disk_util=0", job)
                self.assertEqual(len(p.stdout.strip().split(";")), len(terse_ref))
                normal_ref = self.fio(job)
                normal = self.run_sb(job).stdout
                for s in ("  mixed: IOPS=", "MIXED: bw=", "  read: IOPS=", "READ: bw="):
                    self.assertEqual(s in normal, s in normal_ref, s)
