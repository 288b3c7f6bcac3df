"""`storbench compare` end to end: runs of the same rate-limited job given as
repetition groups (and a sweep's loops) are noise; psync against io_uring
gives the ratio and says noise cannot be judged; fio 3.33's JSON (the stored
fixture, and fio itself when installed) compares with storbench's of the same
job; the JSON output holds the ratios the text shows; bad inputs exit 1
naming the file, bad flags 2, and nothing is written.  (The engine
comparisons inside one run are test_engines.py / test_compare.c.)"""
import json
import os
import shutil
import subprocess

from sbtest import SRC, SbCase

FIXTURE = os.path.join(SRC, "t", "fixtures", "fio-3.33")
VERDICTS = ("noise", "diff", "?")


def rule(a, b, tol):
    """the noise rule of HOWTO.md section 13, written out again"""
    if not a or not b or (len(a) < 2 and len(b) < 2):
        return "unjudged"

    def inside(x, side):
        return len(side) >= 2 and min(side) * (1 - tol) <= x <= max(side) * (1 + tol)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    return "noise" if inside(mb, a) or inside(ma, b) else "difference"


def text_rows(out):
    """{(job, row label): (ratio text, verdict or None)} of a two-sided table"""
    rows, job = {}, None
    for line in out.splitlines():
        if line.startswith("job "):
            job = line[4:].split("  (")[0]
        elif job and line.startswith("  ") and line.strip() and not line.strip().startswith("A "):
            t = line.split()
            verdict = t[-1] if t[-1] in VERDICTS else None
            ratio = t[-2] if verdict else t[-1]
            label = line[2:24].strip()
            rows[(job, label)] = (ratio, verdict)
    return rows


LABELS = {"iops": "IOPS", "bw_bytes": "bw MiB/s", "clat_p50_ns": "clat p50 us",
          "clat_p99_ns": "clat p99 us", "clat_p99_9_ns": "clat p99.9 us",
          "cpu_us_per_io": "CPU/IO us", "write_gbps": "write GB/s", "read_gbps": "read GB/s",
          "au_pct": "AU %", "mb_per_s": "MiB/s"}


class CompareCase(SbCase):
    def result(self, name, job, *extra):
        """runs a job file text, keeps its JSON as NAME and returns it"""
        jf = self.write_job(job, name + ".ini")
        out = os.path.join(self.dir, name + ".json")
        p = self.run_sb("--output-format=json", "--output=" + out, *extra, jf)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return json.load(f)

    def compare(self, *args, rc=0):
        p = self.run_sb("compare", *args)
        self.assertEqual(p.returncode, rc, p.stdout + p.stderr)
        return p

    def both(self, *args):
        """text and JSON output of one comparison, checked against each other:
        same jobs and rows in the same order, the same ratios and verdicts,
        and every verdict the rule's on the values the JSON lists"""
        text = self.compare(*args).stdout
        doc = json.loads(self.compare("--output-format=json", *args).stdout)
        rows = text_rows(text)
        tol = doc["tolerance_pct"] / 100
        seen = 0
        for job in doc["jobs"]:
            for r in job["rows"]:
                label = LABELS[r["metric"]]
                if r["group"] != "job":
                    label = r["group"] + " " + label
                ratio, verdict = rows[(job["job"], label)]
                a, b = r["sides"][0], r["sides"][1]
                if b["ratio"] is None:
                    self.assertEqual((ratio, verdict), ("-", None))
                    continue
                self.assertAlmostEqual(float(ratio), b["ratio"], delta=0.0005 + 1e-6, msg=label)
                self.assertAlmostEqual(b["ratio"], b["mean"] / a["mean"], delta=1e-4 * b["ratio"] + 1e-6)
                want = rule(a["values"], b["values"], tol)
                self.assertEqual(b["verdict"], want, f"{job['job']} {label}: {a} {b}")
                self.assertEqual(verdict, {"noise": "noise", "difference": "diff", "unjudged": "?"}[want])
                seen += 1
        self.assertEqual(seen + sum(1 for j in doc["jobs"] for r in j["rows"] if r["sides"][1]["ratio"] is None),
                         len(rows))
        return text, doc

    @staticmethod
    def row(doc, job, group, metric, side=1):
        j = next(j for j in doc["jobs"] if j["job"] == job)
        return next(r for r in j["rows"] if r["group"] == group and r["metric"] == metric)["sides"][side]


RATED = "[r]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\nrate_iops=2000\nruntime=400ms\ntime_based\n"


class TestNoise(CompareCase):
    def test_same_job_as_groups_is_noise(self):
        # the rate limit holds IOPS and bandwidth steady (within the ms of
        # runtime resolution): the same job on both sides is noise there;
        # latencies of the null engine jitter, their verdicts follow the rule.
        # The runs alternate between the sides, so that a burst of load on a
        # busy machine slows both alike.
        for i in range(6):
            self.result("r%d" % i, RATED)
        a, b = "r0.json,r2.json,r4.json", "r1.json,r3.json,r5.json"
        text, doc = self.both(a, b)
        self.assertTrue(doc["judged"])
        self.assertEqual([s["files"] for s in doc["sides"]],
                         [["r0.json", "r2.json", "r4.json"], ["r1.json", "r3.json", "r5.json"]])
        for metric in ("iops", "bw_bytes"):
            cell = self.row(doc, "r", "read", metric)
            self.assertEqual(cell["n"], 3)
            self.assertEqual(cell["verdict"], "noise", cell)
        self.assertEqual(doc["jobs"][0]["match"], [{"label": "B", "job": "r", "by": "same_name"}])
        self.assertRegex(text, r"\n  read IOPS +\d+ +\d+ +\d\.\d{3} noise\n")
        self.assertIn("B: r1.json, r3.json, r5.json (3 runs)", text)
        self.assertNotIn("noise cannot be judged", text)
        # --runs=3 groups the same six files the same way
        doc2 = json.loads(self.compare("--output-format=json", "--runs=3", *a.split(","), *b.split(",")).stdout)
        self.assertEqual(doc2["sides"], doc["sides"])
        self.assertEqual(doc2["jobs"], doc["jobs"])

    def test_sweep_loops_are_repetitions(self):
        # one file per side: a sweep point's loops are its repetitions, so
        # the difference is judged (noise or not: each sweep's loops run
        # back to back, and a burst of load may slow one file only; both()
        # checks each verdict against the rule)
        sweep = "[global]\nloops=3\nsweep.bs = 4k | 8k\n" + RATED.replace("runtime=400ms", "runtime=200ms")
        self.result("s1", sweep)
        self.result("s2", sweep)
        text, doc = self.both("s1.json", "s2.json")
        self.assertTrue(doc["judged"])
        self.assertEqual([j["job"] for j in doc["jobs"]], ["bs=4k", "bs=8k"])
        for job in ("bs=4k", "bs=8k"):
            self.assertEqual(self.row(doc, job, "read", "iops")["n"], 3)
            self.assertIn(self.row(doc, job, "read", "iops")["verdict"], ("noise", "difference"))

    def test_checkpoints_are_repetitions(self):
        ck = ("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\ncheckpoint_folder=%s\n"
              "model=llama3-8b\ncheckpoint_scale=0.0002\nnum_checkpoints_write=3\nnum_checkpoints_read=2\n"
              % os.path.join(self.dir, "ck"))
        self.result("c1", ck)
        self.result("c2", ck)
        text, doc = self.both("c1.json", "c2.json")
        self.assertEqual(self.row(doc, "ck", "checkpoint", "write_gbps")["n"], 3)
        self.assertEqual(self.row(doc, "ck", "checkpoint", "read_gbps", side=0)["n"], 2)
        self.assertIn("checkpoint write GB/s", text)
        self.assertTrue(doc["judged"])


class TestRatio(CompareCase):
    def test_psync_vs_io_uring(self):
        base = "/dev/shm" if os.path.isdir("/dev/shm") else self.dir
        f = os.path.join(base, "sbcmp.%d" % os.getpid())
        self.addCleanup(lambda: os.path.exists(f) and os.unlink(f))
        job = "[%s]\nioengine=%s\nfilename=" + f + "\nrw=randread\nbs=4k\nsize=16m\nruntime=300ms\ntime_based\n"
        pa = self.result("psync", job % ("psync", "psync"))
        p = self.run_sb("--output-format=json", "--output=uring.json",
                        self.write_job(job % ("uring", "io_uring") + "iodepth=16\n", "uring.ini"))
        if p.returncode and "io_uring" in p.stderr:
            self.skipTest("io_uring not available here: " + p.stderr.strip().splitlines()[-1])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, "uring.json")) as fh:
            pb = json.load(fh)
        text, doc = self.both("psync.json", "uring.json")
        self.assertFalse(doc["judged"])
        self.assertIn("noise cannot be judged", text)
        # different names, one job each: matched by position, and said so
        self.assertEqual(doc["jobs"][0]["match"], [{"label": "B", "job": "uring", "by": "position"}])
        self.assertIn("job psync  (B: 'uring', matched by position)", text)
        cell = self.row(doc, "psync", "read", "iops")
        self.assertEqual(cell["verdict"], "unjudged")
        want = pb["jobs"][0]["read"]["iops"] / pa["jobs"][0]["read"]["iops"]
        self.assertAlmostEqual(cell["ratio"], want, delta=1e-5 * want)
        self.assertEqual(self.row(doc, "psync", "read", "iops", side=0)["mean"], pa["jobs"][0]["read"]["iops"])
        self.assertIn("CPU/IO us", text)


def fio_job(dirname, runtime="300ms"):
    with open(os.path.join(FIXTURE, "fio-3.33-randrw.fio")) as f:
        text = f.read()
    return text.replace("/work/fiotest", dirname).replace("runtime=1", "runtime=" + runtime)


class TestFio(CompareCase):
    def check_fio_vs_sb(self, fio_json):
        text, doc = self.both(fio_json, "sb.json")
        job = doc["jobs"][0]
        self.assertEqual(job["job"], "randrw-4k")
        self.assertEqual(job["match"][0]["by"], "same_name")
        got = {(r["group"], r["metric"]) for r in job["rows"]}
        for d in ("read", "write"):
            for m in ("iops", "bw_bytes", "clat_p50_ns", "clat_p99_ns", "clat_p99_9_ns"):
                self.assertIn((d, m), got)
        self.assertIn(("job", "cpu_us_per_io"), got)
        self.assertNotIn(("trim", "iops"), got)
        return doc

    def test_stored_fio_fixture(self):
        os.mkdir(os.path.join(self.dir, "d"))
        sb = self.result("sb", fio_job(os.path.join(self.dir, "d")))
        doc = self.check_fio_vs_sb(os.path.join(FIXTURE, "fio-3.33-randrw.json"))
        with open(os.path.join(FIXTURE, "fio-3.33-randrw.json")) as f:
            fio = json.load(f)
        a = self.row(doc, "randrw-4k", "read", "clat_p99_ns", side=0)
        self.assertEqual(a["values"], [fio["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"]])
        b = self.row(doc, "randrw-4k", "write", "iops")
        self.assertAlmostEqual(b["ratio"], sb["jobs"][0]["write"]["iops"] / fio["jobs"][0]["write"]["iops"],
                               delta=1e-5 * b["ratio"] + 5e-7)  # printed to 6 decimals

    def test_live_fio(self):
        if not shutil.which("fio"):
            self.skipTest("fio is not installed (the stored fio 3.33 fixture is compared in "
                          "test_stored_fio_fixture)")
        os.mkdir(os.path.join(self.dir, "d"))
        jf = self.write_job(fio_job(os.path.join(self.dir, "d")), "fio.fio")
        p = subprocess.run(["fio", "--output-format=json", "--output=fio.json", jf], cwd=self.dir,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.result("sb", fio_job(os.path.join(self.dir, "d")))
        self.check_fio_vs_sb("fio.json")
        # a fio run and a storbench run as one side's repetitions
        doc = json.loads(self.compare("--output-format=json", "fio.json,sb.json",
                                      os.path.join(FIXTURE, "fio-3.33-randrw.json")).stdout)
        self.assertEqual(self.row(doc, "randrw-4k", "read", "iops", side=0)["n"], 2)


class TestBadInput(CompareCase):
    def setUp(self):
        super().setUp()
        self.result("ok", RATED.replace("400ms", "50ms"))
        self.write_job("{\"jobs\": [1, ", "broken.json")
        self.write_job("{\"fio version\": \"fio-3.33\"}", "other.json")
        self.result("xy", "[x]\nioengine=null\nsize=1m\n[y]\nioengine=null\nsize=1m\n")
        self.before = {n: os.stat(os.path.join(self.dir, n)).st_mtime_ns for n in self.listing()}

    def tearDown(self):
        after = {n: os.stat(os.path.join(self.dir, n)).st_mtime_ns for n in self.listing()}
        self.assertEqual(after, self.before, "compare wrote or deleted something")
        super().tearDown()

    def test_bad_files_exit_1_naming_the_file(self):
        cases = [
            (("ok.json", "missing.json"), "missing.json: cannot open: No such file or directory"),
            (("ok.json,missing.json", "ok.json"), "missing.json: cannot open"),
            (("broken.json", "ok.json"), "broken.json: not JSON: line 1, column"),
            (("ok.json", "other.json"), "other.json: not a storbench or fio result: no \"jobs\" array"),
            (("ok.json", "xy.json"), "xy.json: no job in common with ok.json (A has 'r'; B has 'x', 'y')"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                p = self.compare(*args, rc=1)
                self.assertIn("storbench: ", p.stderr)
                self.assertIn(msg, p.stderr)
                self.assertEqual(p.stdout, "")

    def test_bad_flags_exit_2(self):
        cases = [
            (("--output-format=xml", "ok.json", "ok.json"), "--output-format is normal or json, not 'xml'"),
            (("--bogus", "ok.json", "ok.json"), "unknown option '--bogus'"),
            (("-x", "ok.json", "ok.json"), "unknown option '-x'"),
            (("--runs=0", "ok.json", "ok.json"), "--runs takes a number of files per side (1 or more), not '0'"),
            (("--runs=2", "ok.json", "ok.json", "ok.json"), "--runs=2 needs a multiple of 2 result files, not 3"),
            (("--tolerance=abc", "ok.json", "ok.json"), "--tolerance takes a percentage from 0 to 100, not 'abc'"),
            (("ok.json",), "compare needs at least two results (A.json B.json)"),
            (("ok.json,", "ok.json"), "empty result file name"),
            ((), "compare needs at least two results"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                p = self.compare(*args, rc=2)
                self.assertIn("storbench: compare: ", p.stderr)
                self.assertIn(msg, p.stderr)
                self.assertEqual(p.stdout, "")

    def test_help(self):
        p = self.compare("--help")
        self.assertIn("Usage: storbench compare", p.stdout)
        self.assertIn("storbench compare A.json B.json", self.run_sb("--help").stdout)
