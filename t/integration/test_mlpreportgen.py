"""The official report generator (mlcommons/storage
v2.0 caa90c9, the code behind `mlpstorage reports reportgen`: main.py:103-106
-> reporting.py:26-59 ReportGenerator, BenchmarkRunVerifier.verify at
rules.py:655-662) reads the tree storbench's results_dir= writes for a
training run and a checkpointing run that did real I/O (psync, libaio
buffered; direct=1 is test_ckpt_direct.py's), on a small dataset in a
temporary directory), and its verdict for
each run equals storbench's `checker` verdict: the one in the job's JSON
(jobs[].rules.checker) and the one `storbench validate` prints for the run.

The command line is tried first (`python3 -m mlpstorage.main reports
reportgen --results-dir`); where mlpstorage.main cannot be imported (its
benchmarks import pyarrow) the same code path runs as a library:
ReportGenerator(dir) then generate_reports(), as main.py:105-106 does.  The
test skips, with the reason, when neither imports.  The code: the checkout
$SB_MLPSTORAGE names, an installed mlpstorage, else commit caa90c9 of the
fetched mirror (/work/.mirror/mlcommons+storage/repo, git archive), as
test_mlperf_oracle.py takes it."""
import atexit
import glob
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import SbCase, validate_rc
from test_mlptree import mlpstorage_python as installed_or_checkout
from test_mlperf_oracle import COMMIT, MIRROR

_extracted = []


def mlpstorage_python():
    """(python, env) that imports mlpstorage.reporting, or None"""
    found = installed_or_checkout()
    if found or os.environ.get("SB_MLPSTORAGE") or not os.path.isdir(MIRROR):
        return found
    if not _extracted:
        import tempfile
        d = tempfile.mkdtemp(prefix="sb-mlps-")
        atexit.register(shutil.rmtree, d, True)
        a = subprocess.run("git -C %s archive %s mlpstorage configs | tar -x -C %s" % (MIRROR, COMMIT, d),
                           shell=True, capture_output=True)
        _extracted.append(d if a.returncode == 0 else None)
    if not _extracted[0]:
        return None
    env = dict(os.environ, PYTHONPATH=_extracted[0])
    p = subprocess.run(["/usr/bin/python3", "-c", "import mlpstorage.reporting"], env=env, capture_output=True)
    return ("/usr/bin/python3", env) if p.returncode == 0 else None

LIBRARY = r"""
import json, sys
from mlpstorage.reporting import ReportGenerator
r = ReportGenerator(sys.argv[1])
r.generate_reports()
"""


def report_verdicts(stdout, tree):
    """{run folder relative to the tree: category} from the report ReportGenerator
    prints (reporting.py:89-99: a "<CATEGORY> Report" section per category,
    "RunID: <run folder>" per run in it)"""
    out, cat = {}, None
    for line in stdout.splitlines():
        m = re.search(r"-+ (CLOSED|OPEN|INVALID) Report -+", line)
        if m:
            cat = m.group(1)
        m = re.match(r"^\s+RunID: (\S+)$", line)
        if m:
            out[os.path.relpath(m.group(1), tree)] = cat
    return out


def official_verdicts(tree):
    """({run folder relative to tree: category}, how it ran: "cli" or "library");
    (None, the reason) when the official code cannot be imported"""
    found = mlpstorage_python()
    if not found:
        return None, "mlpstorage.reporting cannot be imported (set SB_MLPSTORAGE to a checkout of mlcommons/storage)"
    py, env = found
    p = subprocess.run([py, "-m", "mlpstorage.main", "reports", "reportgen", "--results-dir", tree],
                       env=env, capture_output=True, text=True, timeout=300)
    how = "cli"
    if p.returncode != 0:
        if "ModuleNotFoundError" not in p.stderr and "ImportError" not in p.stderr:
            raise AssertionError("mlpstorage reports reportgen failed:\n" + p.stderr[-3000:])
        p = subprocess.run([py, "-c", LIBRARY, tree], env=env, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise AssertionError("ReportGenerator failed:\n" + p.stderr[-3000:])
        how = "library"
    # generate_reports wrote its files (reporting.py:51-59)
    assert os.path.exists(os.path.join(tree, "results.json")), p.stderr[-3000:]
    return report_verdicts(p.stdout, tree), how


def validate_verdicts(text):
    """{(bench, model, datetime): verdict} from `storbench validate`'s lines
    "<bench>/<model>: N run(s)" then "  run <dt>[ (warm-up)]: VERDICT" """
    out, head = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\w+)/([\w.-]+): \d+ runs?", line)
        if m:
            head = m.groups()
        m = re.match(r"^  run (\d{8}_\d{6})(?: \(warm-up\))?: (CLOSED|OPEN|INVALID)", line)
        if m:
            out[head + (m.group(1),)] = m.group(2)
    return out


class ReportgenRealIOTest(SbCase):
    def run_jobs(self):
        data, ck, self.res = (os.path.join(self.dir, n) for n in ("data", "ck", "res"))
        os.mkdir(data)
        os.mkdir(ck)
        job = self.write_job(
            "[t]\nworkload=train\nioengine=psync\ndirectory=%s\ntrain_model=unet3d\nepochs=2\n"
            "dataset_files=16\nrecord_length=64k\nrecord_length_stdev=0\nbatch_size=2\n"
            "computation_time=2ms\nrules=mlperf\nresults_dir=%s\n"
            "[ck]\nworkload=checkpoint\nioengine=libaio\niodepth=4\ndirectory=%s\n"
            "model=llama3-8b\ncheckpoint_scale=0.0001\nnum_checkpoints_write=2\n"
            "num_checkpoints_read=2\nrules=mlperf\nresults_dir=%s\n" % (data, self.res, ck, self.res))
        j = self.run_json(job)
        return {x["jobname"]: x for x in j["jobs"]}

    def test_reportgen_verdicts_equal_checker(self):
        if not mlpstorage_python():
            self.skipTest("mlpstorage.reporting cannot be imported (set SB_MLPSTORAGE to a checkout of "
                          "mlcommons/storage; /usr/bin/python3 needs yaml, psutil)")
        jobs = self.run_jobs()
        # real I/O: bytes moved on the engines named, so storage_io passes
        self.assertGreater(jobs["t"]["read"]["io_bytes"], 16 * 65536)
        self.assertGreater(jobs["ck"]["write"]["io_bytes"], 0)
        self.assertGreater(jobs["ck"]["read"]["io_bytes"], 0)
        train = glob.glob(os.path.join(self.res, "training", "unet3d", "run", "*"))
        ckpt = glob.glob(os.path.join(self.res, "checkpointing", "llama3-8b", "*"))
        self.assertEqual((len(train), len(ckpt)), (1, 1))
        tree = os.path.join(self.dir, "copy")   # reportgen writes results.json/csv into it
        shutil.copytree(self.res, tree)
        official, how = official_verdicts(tree)
        self.assertIsNotNone(official, how)
        v = self.run_sb("validate", self.res)
        self.assertEqual(v.returncode, validate_rc(v.stdout), v.stderr)
        ours = validate_verdicts(v.stdout)
        for job, d, bench, model in (("t", train[0], "training", "unet3d"),
                                     ("ck", ckpt[0], "checkpointing", "llama3-8b")):
            dt = os.path.basename(d)
            checker = jobs[job]["rules"]["checker"]
            with self.subTest(job=job, how=how):
                self.assertEqual(official.get(os.path.relpath(d, self.res)), checker, official)
                self.assertEqual(ours[(bench, model, dt)], checker, v.stdout)
        # the cases are not trivial: the training run breaks disallowed
        # overrides (rules.py:548), the checkpointing run passes
        self.assertEqual(jobs["t"]["rules"]["checker"], "INVALID")
        self.assertEqual(jobs["ck"]["rules"]["checker"], "CLOSED")


ISSUES = r"""
import json, sys
from mlpstorage.reporting import ReportGenerator
r = ReportGenerator(sys.argv[1])
print("ISSUES" + json.dumps([str(i) for x in r.results for i in x.issues]))
"""

# the override checks storbench judges by a rule of its own (ml/rules.c)
OWN = {"dataset.record_length_bytes": "record_length", "dataset.record_length_bytes_stdev": "record_length_stdev",
       "train.computation_time": "computation_time", "reader.batch_size": "batch_size", "train.epochs": "epochs"}


class ReportgenOverridesTest(SbCase):
    """every override the live verdict judges reaches overrides.yaml, and
    the official checker classes each as storbench's checker does (rules.py
    :522-552): prefetch (CLOSED), epochs_between_checkpoints, model_size,
    au_target (INVALID; they were missing from the tree)"""

    def test_overrides_reach_the_checker(self):
        found = mlpstorage_python()
        if not found:
            self.skipTest("mlpstorage.reporting cannot be imported (set SB_MLPSTORAGE to a checkout of "
                          "mlcommons/storage)")
        os.mkdir(os.path.join(self.dir, "data"))
        res = os.path.join(self.dir, "res")
        j = self.run_json(self.write_job(
            "[t]\nworkload=train\nioengine=psync\ndirectory=%s\ntrain_model=unet3d\ntrain_scale=0.0001\n"
            "dataset_files=14\nrules=mlperf\nprefetch=4\nmodel_size=1m\nau_target=80\n"
            "epochs_between_checkpoints=3\nresults_dir=%s\n" % (os.path.join(self.dir, "data"), res)))
        checks = j["jobs"][0]["rules"]["checks"]
        py, env = found
        p = subprocess.run([py, "-c", ISSUES, res], env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        issues = json.loads([l for l in p.stdout.splitlines() if l.startswith("ISSUES")][0][6:])
        official = {}
        for i in issues:
            m = re.match(r"\[(\w+)\] (?:Closed|Open|Disallowed) parameter override(?: allowed)?: (\S+) = ", i)
            if m:
                official[m.group(2)] = m.group(1)
        ours = {}
        for c in checks:
            m = re.match(r"^([\w.]+)=", c["actual"])
            if m:   # an override row: "param=value"
                ours[m.group(1)] = "CLOSED" if c["pass"] else c["checker_fails_as"]
        for param, rule in OWN.items():
            c = next((c for c in checks if c["name"] == rule), None)
            if param in official:
                ours[param] = c["checker_fails_as"] if c and not c["pass"] else "CLOSED"
        ours.pop("dataset.data_folder", None)   # mlpstorage sets it on every run
        official.pop("dataset.data_folder", None)
        official.pop("dataset.num_files_train", None)   # storbench: the dataset_size rule
        self.assertEqual(official, ours)
        for param in ("reader.prefetch_size", "checkpoint.epochs_between_checkpoints", "model.model_size",
                      "metric.au"):
            self.assertIn(param, official)


if __name__ == "__main__":
    unittest.main()
