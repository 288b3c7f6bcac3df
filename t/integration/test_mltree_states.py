"""A results tree states what ran: dlio_config/config.yaml holds the value
the run used and overrides.yaml records every value that differs from the
workload yaml, as hydra writes them for mlpstorage's --param
(mlcommons/storage caa90c9; the checker reads the overrides back,
mlpstorage/rules.py:412-416, and check_allowed_params calls any outside its
two lists INVALID, rules.py:513-555).
- checkpointing: configs/dlio/workload/llama3_8b.yaml:27 says
  time_between_checkpoints: 5 (DLIO sleeps it before every write and read);
  a run that paused otherwise records checkpoint.time_between_checkpoints.
- training: unet3d_h100.yaml:4 says model_size: 499153191; with train_scale
  the in-training checkpoint writes the scaled bytes, recorded as
  model.model_size (an INVALID override for the checker, live and in
  validate alike)."""
import glob
import json
import os
import re

from sbtest import SbCase, validate_rc


def config_value(run, key):
    """workload.<a>.<b> of config.yaml, as text (the tree's yaml is flat
    enough to read by indentation)"""
    path = key.split(".")
    with open(os.path.join(run, "dlio_config", "config.yaml")) as f:
        text = f.read().splitlines()
    depth, want = 0, path[0]
    for line in text[1:]:   # "workload:"
        m = re.match(r"^( *)([\w.]+): ?(.*)$", line)
        if not m or len(m.group(1)) != 2 * (depth + 1) or m.group(2) != want:
            continue
        if depth == len(path) - 1:
            return m.group(3)
        depth += 1
        want = path[depth]
    return None


def overrides(run):
    with open(os.path.join(run, "dlio_config", "overrides.yaml")) as f:
        return f.read().splitlines()


class TreeStatesWhatRanTest(SbCase):
    def ckpt_run(self, pause):
        res = os.path.join(self.dir, "res-%s" % pause)
        job = self.write_job(
            "[c]\nworkload=checkpoint\nioengine=psync\nbs=64k\nmodel=llama3-8b\n"
            "checkpoint_scale=0.000002\ncheckpoint_folder=%s\nnum_checkpoints_write=1\n"
            "num_checkpoints_read=0\nrules=mlperf\nresults_dir=%s\n%s"
            % (os.path.join(self.dir, "ck"), res,
               "" if pause is None else "time_between_checkpoints=%s\n" % pause))
        self.run_json(job)
        return glob.glob(os.path.join(res, "checkpointing", "llama3-8b", "*"))[0]

    def test_checkpoint_pause(self):
        key = "- ++workload.checkpoint.time_between_checkpoints="
        # storbench's default: no pause, which the yaml's 5 is not
        run = self.ckpt_run(None)
        self.assertEqual(config_value(run, "checkpoint.time_between_checkpoints"), "0")
        self.assertIn(key + "0", overrides(run))
        run = self.ckpt_run("250ms")
        self.assertEqual(config_value(run, "checkpoint.time_between_checkpoints"), "0.25")
        self.assertIn(key + "0.25", overrides(run))
        # the yaml's own 5 s: no override
        run = self.ckpt_run("5")
        self.assertEqual(config_value(run, "checkpoint.time_between_checkpoints"), "5")
        self.assertFalse([l for l in overrides(run) if l.startswith(key)], overrides(run))

    def test_shipped_job_pauses_as_the_yaml(self):
        # llama3_8b.yaml:27: the shipped job keeps DLIO's 5 s (PAUSE=0 drops them)
        with open(os.path.join(os.path.dirname(__file__), "..", "..", "jobs", "checkpoint-llama3-8b.ini")) as f:
            self.assertIn("\ntime_between_checkpoints=${PAUSE:-5}\n", f.read())

    def test_train_scale_model_size(self):
        res = os.path.join(self.dir, "res")
        ck = os.path.join(self.dir, "ck")
        job = self.write_job(
            "[t]\nworkload=train\nioengine=psync\ntrain_model=unet3d\ntrain_scale=0.0001\n"
            "dataset_files=14\ndata_dir=%s\ncheckpoint_folder=%s\nkeep_checkpoints=1\n"
            "rules=mlperf\nresults_dir=%s\n" % (os.path.join(self.dir, "ds"), ck, res))
        j = self.run_json(job)["jobs"][0]
        files = glob.glob(os.path.join(ck, "*", "model_states-0.pt"))
        self.assertEqual(len(files), 1, files)
        run = glob.glob(os.path.join(res, "training", "unet3d", "run", "*"))[0]
        size = int(config_value(run, "model.model_size"))
        self.assertNotEqual(size, 499153191)
        self.assertEqual(size, round(499153191 * 0.0001))
        self.assertLessEqual(size, os.path.getsize(files[0]))   # the tensor's bytes in the file
        self.assertIn("- ++workload.model.model_size=%d" % size, overrides(run))
        # rules.py:548-552: a disallowed override, live and in validate
        checks = {c["name"]: c for c in j["rules"]["checks"]}
        self.assertFalse(checks["model_size"]["pass"])
        self.assertEqual(checks["model_size"]["checker_fails_as"], "INVALID")
        p = self.run_sb("validate", res)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        self.assertIn("    model_size: expected model.model_size as in the yaml, actual model.model_size=%d"
                      % size, p.stdout)
