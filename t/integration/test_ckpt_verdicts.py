"""Checkpoint verdicts for shapes other than the table's: the official
checker's CheckpointingRulesChecker has one check, check_benchmark_type,
which passes (mlpstorage/rules.py:611-614 of mlcommons/storage caa90c9), so
BenchmarkRunVerifier.verify finds no issue and says CLOSED
(rules.py:633-662) for any checkpointing run of a --model: llama3-8b with
16 processes (DLIO's data parallelism is comm_size / (tp * pp); the yaml,
configs/dlio/workload/llama3_8b.yaml, names none), llama3-70b with 72 or
128, or `--param model.num_layers=16`.  storbench's live checker verdict
and `storbench validate` (on storbench's tree and on one written the
mlpstorage way) say the same; the guidelines verdict still flags the rank
count (2.2.5) and a changed shape (model_shape, 2.2.5 Table 3) as OPEN."""
import glob
import json
import os
import re

from sbtest import SbCase, validate_rc
from test_mlptree import mlps_llama_run
from test_mlpreportgen import official_verdicts


def run_line(out, dt=None):
    m = re.search(r"  run (%s)(?: \(warm-up\))?: (CLOSED|OPEN|INVALID)(?: \(checker (\w+), guidelines (\w+)\))?\n"
                  % (dt or r"\d{8}_\d{6}"), out)
    assert m, out
    return m.group(3) or m.group(2), m.group(4) or m.group(2)


class CkptVerdictTest(SbCase):
    def live(self, extra):
        self.n = getattr(self, "n", 0) + 1
        res = os.path.join(self.dir, "res%d" % self.n)
        job = self.write_job(
            "[c]\nworkload=checkpoint\nioengine=psync\nbs=64k\ncheckpoint_scale=0.000002\n"
            "checkpoint_folder=%s\nnum_checkpoints_write=1\nnum_checkpoints_read=1\n"
            "checkpoint_fsync=1\nrules=mlperf\nresults_dir=%s\n%s"
            % (os.path.join(self.dir, "ck"), res, extra))
        j = self.run_json(job)["jobs"][0]
        return res, j["rules"]

    def check_shape(self, extra, model, ranks_ok, shape_ok):
        res, rules = self.live(extra)
        checks = {c["name"]: c for c in rules["checks"]}
        # rules.py:611-614: nothing the official checker checks fails
        self.assertEqual(rules["checker"], "CLOSED", (extra, rules))
        self.assertEqual(rules["verdict"], "CLOSED", extra)
        self.assertTrue(checks["model"]["pass"], (extra, checks["model"]))
        self.assertEqual(checks["model"]["actual"], model)
        self.assertEqual(checks["ranks"]["pass"], ranks_ok, extra)
        self.assertEqual(checks["model_shape"]["pass"], shape_ok, extra)
        for name in ("ranks", "model_shape"):
            self.assertEqual(checks[name]["checker_fails_as"], "CLOSED")
            self.assertEqual(checks[name]["fails_as"], "OPEN")
        # the tree is the model's, as mlpstorage's generate_output_location
        # names it (checkpointing/<args.model>/<datetime>)
        runs = glob.glob(os.path.join(res, "checkpointing", model, "*"))
        self.assertEqual(len(runs), 1, os.listdir(os.path.join(res, "checkpointing")))
        p = self.run_sb("validate", res)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        self.assertEqual(run_line(p.stdout), (rules["checker"], rules["guidelines"]), p.stdout)
        for name in ("ranks", "model_shape"):
            self.assertEqual("    %s: " % name in p.stdout, not checks[name]["pass"], (name, p.stdout))
        got, _ = official_verdicts(res)
        if got is not None:
            self.assertEqual(list(got.values()), ["CLOSED"], got)

    def test_more_ranks_than_the_table(self):
        # dp follows ranks= (DLIO: comm_size / (tp * pp)): no dp= needed
        self.check_shape("model=llama3-8b\nranks=16\n", "llama3-8b", False, True)
        self.check_shape("model=llama3-70b\nranks=72\n", "llama3-70b", False, True)

    def test_128_ranks_of_70b(self):
        self.check_shape("model=llama3-70b\nranks=128\n", "llama3-70b", False, True)

    def test_changed_layers(self):
        self.check_shape("model=llama3-8b\nlayers=16\n", "llama3-8b", True, False)
        # the change is recorded as mlpstorage's --param records it
        ov = glob.glob(os.path.join(self.dir, "res1", "checkpointing", "llama3-8b", "*",
                                    "dlio_config", "overrides.yaml"))[0]
        self.assertIn("- ++workload.model.num_layers=16\n", open(ov).read())

    def test_table_shape_passes_both(self):
        res, rules = self.live("model=llama3-8b\n")
        checks = {c["name"]: c for c in rules["checks"]}
        self.assertTrue(checks["ranks"]["pass"])
        self.assertTrue(checks["model_shape"]["pass"])

    def test_no_model_stays_open(self):
        # no --model: no run mlpstorage can make (cli.py validate_args)
        res, rules = self.live("hidden=256\nffn=512\nlayers=2\nheads=4\nkv_heads=2\nranks=2\ndp=2\n")
        self.assertEqual(rules["checker"], "OPEN")
        self.assertTrue(glob.glob(os.path.join(res, "checkpointing", "custom", "*")))

    def test_mlpstorage_tree(self):
        # the same shapes in trees written the mlpstorage way: CLOSED by the
        # checker, the guidelines see the rank count and the --param
        root = os.path.join(self.dir, "mlps")
        d = mlps_llama_run(root, "20250101_120000")
        meta = glob.glob(os.path.join(d, "*_metadata.json"))[0]
        m = json.load(open(meta))
        m["args"]["num_processes"] = 16
        json.dump(m, open(meta, "w"))
        s = json.load(open(os.path.join(d, "summary.json")))
        s["num_accelerators"] = 16
        json.dump(s, open(os.path.join(d, "summary.json"), "w"))
        d = mlps_llama_run(root, "20250101_130000")
        meta = glob.glob(os.path.join(d, "*_metadata.json"))[0]
        m = json.load(open(meta))
        m["combined_params"]["model"]["num_layers"] = "16"   # a --param stays a string
        m["params_dict"]["model.num_layers"] = "16"
        json.dump(m, open(meta, "w"))
        with open(os.path.join(d, "dlio_config", "overrides.yaml"), "a") as f:
            f.write("- ++workload.model.num_layers=16\n")
        p = self.run_sb("validate", root)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        # (guidelines INVALID too: mlpstorage records no cache drop)
        self.assertEqual(run_line(p.stdout, "20250101_120000")[0], "CLOSED", p.stdout)
        self.assertEqual(run_line(p.stdout, "20250101_130000")[0], "CLOSED", p.stdout)
        self.assertIn("model_shape: expected llama3-8b, actual changed", p.stdout)
        self.assertIn("ranks: expected 8, or 8 with subset, actual 16", p.stdout)
