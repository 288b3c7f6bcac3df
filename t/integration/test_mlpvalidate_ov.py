"""`storbench validate` judges a run's overrides from its
dlio_config/overrides.yaml (hydra's "- ++workload.<param>=<value>" lines),
with the table a live job's overrides go through (ml/rules.c
sb_ml_override_class: rules.py:522-552 check_allowed_params of
mlcommons/storage caa90c9): CLOSED-allowed (rules.py:522-524), OPEN-allowed
(rules.py:526), anything else INVALID (rules.py:548), workflow.* skipped by
the checker (rules.py:530) and INVALID in the guidelines (10.1 Table 2).
rules.py:413-416 reads the lines the same way: an override is a line whose
key starts with "++workload.", even one that restates the yaml's value.

The fixture trees are mlpstorage's (test_mlptree.mlps_unet3d_run: CLOSED as
written) with override lines added; where mlpstorage can be imported
(SB_MLPSTORAGE) the official ReportGenerator judges the same trees and its
category must be validate's checker verdict."""
import glob
import json
import os
import re
import subprocess
import unittest

from sbtest import SbCase, validate_rc
from test_mlptree import mlps_unet3d_run
from test_mlpreportgen import official_verdicts

try:
    import yaml
except ImportError:  # python3-yaml
    yaml = None

DT = "20250101_120000"


def add_overrides(d, lines):
    """append "++workload.<k>=<v>" lines to the run's overrides.yaml and
    write the config.yaml hydra would (workload: the yaml with them set),
    which the official reader needs (rules.py:384, 412)"""
    with open(os.path.join(d, "dlio_config", "overrides.yaml"), "a") as f:
        for k, v in lines:
            f.write("- ++workload.%s=%s\n" % (k, v))
    with open(glob.glob(os.path.join(d, "*_metadata.json"))[0]) as f:
        meta = json.load(f)
    wl = meta["combined_params"]
    for k, v in lines:
        node = wl
        *path, last = k.split(".")
        for p in path:
            node = node.setdefault(p, {})
        node[last] = v
    if yaml:
        with open(os.path.join(d, "dlio_config", "config.yaml"), "w") as f:
            yaml.safe_dump({"workload": wl}, f)


def run_line(out):
    m = re.search(r"  run %s \(warm-up\): (CLOSED|OPEN|INVALID)(?: \(checker (\w+), guidelines (\w+)\))?\n"
                  % DT, out)
    assert m, out
    return m.group(2) or m.group(1), m.group(3) or m.group(1)


class ValidateOverridesTest(SbCase):
    def tree(self, lines):
        root = os.path.join(self.dir, "res")
        d = mlps_unet3d_run(root, DT)
        add_overrides(d, lines)
        p = self.run_sb("validate", root)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        return root, p.stdout

    def oracle(self, root, want):
        """the official report generator's category for the run, if it runs here"""
        if yaml is None:
            return
        got, how = official_verdicts(root)
        if got is None:
            return   # cannot import mlpstorage: validate's verdicts stand alone
        self.assertEqual(list(got.values()), [want], (how, got))

    def test_closed_allowed(self):
        root, out = self.tree([("reader.read_threads", "8"), ("reader.prefetch_size", "4"),
                               ("dataset.num_subfolders_train", "2")])
        self.assertEqual(run_line(out), ("CLOSED", "CLOSED"))
        self.assertNotIn("read_threads", out)   # passed: not printed
        self.oracle(root, "CLOSED")

    def test_open_allowed(self):
        root, out = self.tree([("dataset.format", "tfrecord"), ("framework", "tensorflow")])
        self.assertEqual(run_line(out), ("OPEN", "OPEN"))
        self.assertIn("dataset_format: expected dataset.format as in the yaml, actual dataset.format=tfrecord "
                      "-> OPEN (rules.py:526; guidelines 10.2); fix: Open parameter override allowed: "
                      "dataset.format = tfrecord: remove dataset_format= for CLOSED", out)
        self.assertIn("Open parameter override allowed: framework = tensorflow: remove framework=", out)
        self.oracle(root, "OPEN")

    def test_disallowed(self):
        root, out = self.tree([("train.seed", "7"), ("dataset.format", "tfrecord")])
        self.assertEqual(run_line(out), ("INVALID", "INVALID"))
        self.assertIn("fix: Disallowed parameter override: train.seed = 7: remove seed=", out)
        self.oracle(root, "INVALID")

    def test_restated_value_disallowed(self):
        # --param reader.batch_size=7: unet3d's own batch size, still an
        # override rules.py:548 calls disallowed
        root, out = self.tree([("reader.batch_size", "7")])
        self.assertEqual(run_line(out), ("INVALID", "INVALID"))
        self.assertIn("fix: Disallowed parameter override: reader.batch_size = 7: remove batch_size=", out)
        self.oracle(root, "INVALID")

    def test_workflow_checker_skips(self):
        root, out = self.tree([("workflow.evaluation", "True")])
        self.assertEqual(run_line(out), ("CLOSED", "INVALID"))
        self.assertIn("workflow.evaluation = True is not in the guidelines' Table 2: remove do_eval=", out)
        self.oracle(root, "CLOSED")

    def test_no_overrides_file(self):
        root = os.path.join(self.dir, "res")
        d = mlps_unet3d_run(root, DT)
        os.remove(os.path.join(d, "dlio_config", "overrides.yaml"))   # an older tree
        p = self.run_sb("validate", root)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        self.assertEqual(run_line(p.stdout), ("CLOSED", "CLOSED"))


class LiveAndTreeAgreeTest(SbCase):
    """the same job: its live checks and validate's on the tree it wrote"""

    def test_live_equals_tree(self):
        res = os.path.join(self.dir, "res")
        j = self.run_json(self.write_job(
            "[t]\nworkload=train\nioengine=null\ntrain_model=resnet50\ntrain_scale=0.0001\n"
            "dataset_files=4\nrules=mlperf\ndataset_format=npz\nprefetch=4\nresults_dir=%s\n" % res))["jobs"][0]
        live = {c["name"]: c for c in j["rules"]["checks"]}
        self.assertEqual(live["dataset_format"]["checker_fails_as"], "OPEN")
        self.assertTrue(live["prefetch"]["pass"])
        p = self.run_sb("validate", res)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        for name, c in live.items():
            if c["pass"] or name == "storage_io":   # validate has no I/O facts of a tree
                continue
            self.assertIn("    %s: expected %s, actual %s -> " % (name, c["expected"], c["actual"]), p.stdout)
        self.assertIn("dataset_format: expected dataset.format as in the yaml, actual dataset.format=npz", p.stdout)


if __name__ == "__main__":
    unittest.main()
