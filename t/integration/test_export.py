"""--export=csv:DIR and the system inventory ("system" in every result).

The CSV files are loaded with python's csv module and compared with the JSON
document of the same run (json+, for the histogram bins): same rows, same
values.  Bad folders and files storbench did not write are refused before
the run (exit 2) with nothing written."""
import csv
import json
import os
import re
import shutil
import socket
import tempfile

from sbtest import SbCase

JOB = """[global]
ioengine=psync
size=4m
bs=4k
runtime=1500ms
time_based
stats_interval=250ms

[mixed job]
rw=randrw
filename={dir}/data.bin
"""


def load_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def host_key(col, series_keys):
    """the JSON key of a CSV host column: the same name, or without the unit
    the CSV added"""
    if col in series_keys:
        return col
    for unit in ("_pct", "_bytes"):
        if col.endswith(unit) and col[: -len(unit)] in series_keys:
            return col[: -len(unit)]
    raise AssertionError(f"CSV column {col} has no JSON series key")


class ExportCase(SbCase):
    def export(self, out, *extra):
        job = self.write_job(JOB.format(dir=self.dir))
        p = self.run_sb("--output-format=json+", f"--export=csv:{out}", *extra, job)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_csv_matches_json(self):
        out = os.path.join(self.dir, "csv", "run1")   # two levels created
        doc = self.export(out)
        files = sorted(os.listdir(out))
        job = doc["jobs"][0]
        ts = job["timeseries"]
        self.assertGreaterEqual(len(ts), 3)
        pre = "job1-mixed_job."
        for name in ("bw", "iops", "clat", "clat_hist"):
            self.assertIn(pre + name + ".csv", files)

        head, rows = load_csv(os.path.join(out, pre + "bw.csv"))
        self.assertEqual(head, ["time_ms", "dur_ms", "read_bw_KiBps", "write_bw_KiBps"])
        self.assertEqual(len(rows), len(ts))
        for r, s in zip(rows, ts):
            self.assertEqual(int(r[0]), s["t_ms"])
            self.assertEqual(int(r[1]), s["dur_ms"])
            self.assertLessEqual(abs(float(r[2]) * 1024 - s["read"]["bw_bytes"]), 1)
            self.assertLessEqual(abs(float(r[3]) * 1024 - s["write"]["bw_bytes"]), 1)

        head, rows = load_csv(os.path.join(out, pre + "iops.csv"))
        self.assertEqual(head, ["time_ms", "dur_ms", "read_iops", "write_iops"])
        self.assertEqual(len(rows), len(ts))
        for r, s in zip(rows, ts):
            self.assertAlmostEqual(float(r[2]), s["read"]["iops"], places=6)
            self.assertAlmostEqual(float(r[3]), s["write"]["iops"], places=6)

        head, rows = load_csv(os.path.join(out, pre + "clat.csv"))
        # p50 as in the JSON time series
        self.assertEqual(head[2:], [d + k for d in ("read", "write")
                                    for k in ("_clat_mean_ns", "_clat_p50_ns", "_clat_p99_ns",
                                              "_clat_max_ns")])
        self.assertEqual(len(rows), len(ts))
        for r, s in zip(rows, ts):
            self.assertEqual([int(x) for x in r[2:]],
                             [s[d][k] for d in ("read", "write")
                              for k in ("clat_mean_ns", "clat_p50_ns", "clat_p99_ns", "clat_max_ns")])

        # the histogram: json+ "bins" (bucket value -> count) per direction
        head, rows = load_csv(os.path.join(out, pre + "clat_hist.csv"))
        self.assertEqual(head, ["low_ns", "high_ns", "value_ns", "read_count", "write_count"])
        for i, d in enumerate(("read", "write")):
            got = {r[2]: int(r[3 + i]) for r in rows if int(r[3 + i])}
            self.assertEqual(got, {k: v for k, v in job[d]["clat_ns"]["bins"].items()})
            self.assertEqual(sum(got.values()), job[d]["clat_ns"]["N"])
        for r in rows:
            self.assertLessEqual(int(r[0]), int(r[2]))
            self.assertLess(int(r[2]), int(r[1]))

        # host: one file per present source with a series, the JSON's rows
        series = doc["host"]["series"]
        self.assertGreater(len(series), 0)
        host_files = [f for f in files if f.startswith("host.")]
        self.assertIn("host.cpu.csv", host_files)
        for f in host_files:
            head, rows = load_csv(os.path.join(out, f))
            self.assertEqual(head[:2], ["time_ms", "dur_ms"])
            self.assertEqual(len(rows), len(series), f)
            for c in head[2:]:
                self.assertTrue(c.endswith(("_pct", "_bytes", "_watts", "_w")), f"{f}: {c} has no unit")
            if f == "host.cpu.csv":  # each CPU's busy %: cpuN_pct, the JSON's cpus[N]
                self.assertEqual([c for c in head if re.fullmatch(r"cpu\d+_pct", c)],
                                 ["cpu%d_pct" % n for n in range(len(series[0]["cpus"]))])
            for r, s in zip(rows, series):
                self.assertEqual(int(r[0]), s["t_ms"])
                for c, v in zip(head[2:], r[2:]):
                    m = re.fullmatch(r"cpu(\d+)_pct", c)
                    want = s["cpus"][int(m.group(1))] if m else s[host_key(c, s)]
                    if want is None:
                        self.assertEqual(v, "")
                    else:
                        self.assertAlmostEqual(float(v), want, places=6, msg=f"{f} {c}")

        # the manifest lists every CSV file
        with open(os.path.join(out, "storbench-export.txt")) as m:
            listed = sorted(line.split()[0] for line in m if not line.startswith("#"))
        self.assertEqual(listed, sorted(f for f in files if f.endswith(".csv")))

    def test_rerun_replaces_own_files_only_while_unchanged(self):
        out = os.path.join(self.dir, "csv")
        self.export(out)
        self.export(out)  # storbench's own, unchanged files: replaced
        bw = os.path.join(out, "job1-mixed_job.bw.csv")
        with open(bw, "a") as f:
            f.write("my note\n")
        before = open(bw).read()
        job = self.write_job(JOB.format(dir=self.dir), name="again.ini")
        os.unlink(os.path.join(self.dir, "data.bin"))
        p = self.run_sb(f"--export=csv:{out}", job)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"--export=csv:{out}: {out}/job1-mixed_job.bw.csv exists and storbench "
                      "did not write it", p.stderr)
        self.assertIn("export to a new or empty folder, or move the file away", p.stderr)
        self.assertEqual(open(bw).read(), before)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "data.bin")), "the job ran")

    def test_refuses_a_csv_file_it_did_not_write(self):
        out = os.path.join(self.dir, "mine")
        os.mkdir(out)
        with open(os.path.join(out, "results.csv"), "w") as f:
            f.write("a,b\n1,2\n")
        job = self.write_job(JOB.format(dir=self.dir))
        p = self.run_sb(f"--export=csv:{out}", job)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"{out}/results.csv exists and storbench did not write it", p.stderr)
        self.assertEqual(os.listdir(out), ["results.csv"])
        self.assertEqual(self.listing(), ["job.ini", "mine"])
        # a manifest storbench did not write is refused as well
        os.unlink(os.path.join(out, "results.csv"))
        with open(os.path.join(out, "storbench-export.txt"), "w") as f:
            f.write("my notes\n")
        p = self.run_sb(f"--export=csv:{out}", job)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("storbench-export.txt exists and storbench did not write it", p.stderr)
        self.assertEqual(open(os.path.join(out, "storbench-export.txt")).read(), "my notes\n")

    def test_bad_folder(self):
        job = self.write_job(JOB.format(dir=self.dir))
        with open(os.path.join(self.dir, "plain"), "w") as f:
            f.write("x")
        cases = [
            ("csv:" + os.path.join(self.dir, "plain"), "is not a folder: give a folder"),
            ("csv:" + os.path.join(self.dir, "plain", "sub"), "Not a directory: give a folder"),
            ("csv:", "not an export: use --export=csv:DIR"),
            ("json:" + self.dir, "not an export: use --export=csv:DIR"),
        ]
        for arg, msg in cases:
            with self.subTest(arg=arg):
                p = self.run_sb(f"--export={arg}", job)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("storbench: <cmdline>: --export=", p.stderr)
                self.assertIn(arg.split(":", 1)[1] if arg.split(":", 1)[1] else "--export=csv:",
                              p.stderr)
                self.assertIn(msg, p.stderr)
                self.assertEqual(self.listing(), ["job.ini", "plain"])
                self.assertEqual(p.stdout, "")


class SystemCase(SbCase):
    def test_system_inventory(self):
        job = self.write_job(JOB.format(dir=self.dir))
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        sysinv = json.loads(p.stdout)["system"]
        self.assertEqual(sysinv["hostname"], socket.gethostname())
        self.assertEqual(sysinv["kernel"], os.uname().release)
        self.assertGreaterEqual(sysinv["threads"], len(os.sched_getaffinity(0)))
        self.assertLessEqual(sysinv["cores"], sysinv["threads"])
        self.assertGreaterEqual(sysinv["sockets"], 1)
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        self.assertEqual(sysinv["mem_total_bytes"], kb * 1024)
        # the data file's file system: the longest mount point holding it
        real = os.path.realpath(os.path.join(self.dir, "data.bin"))
        best = ("", "")
        with open("/proc/self/mountinfo") as f:
            for line in f:
                parts = line.split()
                mnt = parts[4].replace("\\040", " ")
                fstype = parts[parts.index("-") + 1]
                if (real == mnt or real.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best[0]):
                    best = (mnt, fstype)
        fs = sysinv["filesystems"][0]
        self.assertEqual(fs["path"], real)
        self.assertEqual((fs["mount_point"], fs["fstype"]), best)
        for d in sysinv["devices"]:
            self.assertIn(d["name"], fs["disks"] + [n for x in sysinv["filesystems"] for n in x["disks"]])
            self.assertTrue(os.path.exists(f"/sys/class/block/{d['name']}"))
            with open(f"/sys/class/block/{d['name']}/size") as f:
                self.assertEqual(d["size_bytes"], int(f.read()) * 512)
        self.assertIn("gpu", sysinv)

    def test_inventory_has_each_workloads_folders(self):
        """every folder a job's workload writes to is described: the
        checkpoint cache tier and the training data folder on a file system
        of their own (tmpfs) each get an entry"""
        shm = "/dev/shm"
        if not os.path.isdir(shm) or os.stat(shm).st_dev == os.stat(self.dir).st_dev:
            self.skipTest("needs /dev/shm on a file system other than the test folder's")
        other = tempfile.mkdtemp(dir=shm)
        self.addCleanup(shutil.rmtree, other, True)
        jobs = {
            "ckpt": "[c]\nioengine=psync\nbs=64k\nworkload=checkpoint\nmodel=llama3-8b\n"
                    "ranks=4\nsubset=1\ncheckpoint_scale=0.00001\ncheckpoint_folder={d}/ck\n"
                    "checkpoint_cache_folder={o}/cache\nnum_checkpoints_write=1\n"
                    "num_checkpoints_read=0\n",
            "train": "[t]\nioengine=psync\nbs=64k\nworkload=train\ntrain_model=unet3d\n"
                     "train_scale=0.0005\ndataset_files=16\nbatch_size=2\nepochs=1\ndata_dir={o}/data\n"
                     "directory={d}\n",
        }
        for name, text in jobs.items():
            with self.subTest(workload=name):
                job = self.write_job(text.format(d=self.dir, o=other))
                p = self.run_sb("--output-format=json", job)
                self.assertEqual(p.returncode, 0, p.stderr)
                paths = [f["path"] for f in json.loads(p.stdout)["system"]["filesystems"]]
                real = os.path.realpath(other)
                self.assertTrue(any(x == real or x.startswith(real + "/") for x in paths), (name, paths))

    def test_normal_has_block_terse_unchanged(self):
        job = self.write_job(JOB.format(dir=self.dir))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\nSystem: ", p.stdout)
        self.assertGreater(p.stdout.index("\nSystem: "), p.stdout.index("Run status group"))
        p = self.run_sb("--output-format=terse", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("System", p.stdout)
        self.assertEqual(len(p.stdout.strip().splitlines()), 1)
