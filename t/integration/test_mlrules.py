"""rules=mlperf end to end: each check the job file decides, with the verdict of
mlcommons/storage's checker and guidelines (commit caa90c9: mlpstorage/rules.py,
mlpstorage/config.py, configs/dlio/workload/*.yaml, Submission_guidelines.md),
accelerator=, MLPerf's write-only and read-only checkpoint runs, and honest
cache reporting (a drop that cannot evict tmpfs pages is not a drop).  Runs are
tiny: the null engine or checkpoint_scale=0.00002 (about 22 MB)."""
import json
import os
import subprocess
import unittest

from sbtest import SbCase, SRC, validate_rc

# checks a tiny scaled run always fails: what the test looks past
SCALED = {"dataset_size", "steps_per_epoch", "computation_time", "record_length",
          "record_length_stdev", "au", "storage_io",   # storage_io: ioengine=null
          "model_size"}   # train_scale scales the checkpoint: an override (rules.py:548)


def failed(job):
    return {c["name"]: c for c in job["rules"]["checks"] if not c["pass"]}


def check(job, name):
    return next(c for c in job["rules"]["checks"] if c["name"] == name)


class TrainRulesTest(SbCase):
    def train(self, model, extra=""):
        text = ("[t]\nworkload=train\nioengine=null\ntrain_model=%s\ntrain_scale=0.0001\n"
                "rules=mlperf\n%s" % (model, extra))
        if "dataset_files" not in extra:
            text += "dataset_files=%d\n" % (14 if model == "unet3d" else 4)
        return self.run_json(self.write_job(text))["jobs"][0]

    def only_new_failure(self, model, extra, name, fails_as, also=()):
        """extra adds exactly the failed check name (as fails_as) to the
        baseline run of model (and the overrides also)"""
        base = set(failed(self.train(model))) - SCALED
        self.assertEqual(base, set())
        j = self.train(model, extra)
        f = failed(j)
        self.assertEqual(set(f) - SCALED, {name, *also}, f)
        self.assertEqual(f[name]["fails_as"], fails_as)
        self.assertTrue(f[name]["fix"])
        self.assertEqual(j["rules"]["verdict"], "INVALID" if f.keys() & SCALED else fails_as)
        return f[name]

    def test_read_threads_64_closed(self):
        # config.py MAX_READ_THREADS_TRAINING=32 is never applied; read_threads
        # is in check_allowed_params' CLOSED list
        j = self.train("unet3d", "read_threads=64\n")
        self.assertEqual(set(failed(j)) - SCALED, set())
        c = check(j, "read_threads")   # reader.read_threads: a CLOSED override
        self.assertTrue(c["pass"], c)
        self.assertEqual(c["actual"], "reader.read_threads=64")

    def test_epochs_changed_invalid(self):
        c = self.only_new_failure("unet3d", "epochs=4\ncheckpoint_after_epoch=4\n", "epochs",
                                  "INVALID", also={"checkpoint_after_epoch"})
        self.assertEqual((c["expected"], c["actual"]), ("5", "4"))

    def test_shuffle_changed_invalid(self):
        # unet3d_h100.yaml: file_shuffle and sample_shuffle "seed"; resnet50: none
        c = self.only_new_failure("unet3d", "shuffle=file\n", "shuffle", "INVALID")
        self.assertEqual((c["expected"], c["actual"]), ("file+sample", "file"))
        c = self.only_new_failure("resnet50", "shuffle=both\n", "shuffle", "INVALID")
        self.assertEqual((c["expected"], c["actual"]), ("none", "file+sample"))

    def test_odirect_resnet50_invalid(self):
        # rules.py check_odirect_supported_model
        self.only_new_failure("resnet50", "direct=1\n", "odirect", "INVALID")
        j = self.train("unet3d", "direct=1\n")
        self.assertTrue(check(j, "odirect")["pass"])

    def test_unet3d_without_checkpoint_invalid(self):
        # rules.py check_workflow_parameters: unet3d needs workflow.checkpoint
        c = self.only_new_failure("unet3d", "checkpoint_after_epoch=0\n", "train_checkpoint", "INVALID",
                                  also={"checkpoint_after_epoch"})
        self.assertIn("checkpoint_after_epoch=5", c["fix"])
        j = self.train("unet3d", "checkpoint_after_epoch=0\nsteps_between_checkpoints=1\n")
        self.assertTrue(check(j, "train_checkpoint")["pass"])

    def test_samples_per_file_open(self):
        # check_allowed_params' OPEN list: dataset.num_samples_per_file
        c = self.only_new_failure("resnet50", "samples_per_file=1000\ndataset_files=4\n",
                                  "samples_per_file", "OPEN")
        self.assertEqual((c["expected"], c["actual"]), ("1251", "1000"))

    def test_accelerator_selects_computation_time(self):
        # unet3d_a100.yaml: 0.636 s; unscaled so the check can pass (2 steps)
        j = self.run_json(self.write_job(
            "[t]\nworkload=train\nioengine=null\ntrain_model=unet3d\naccelerator=a100\n"
            "dataset_files=14\nepochs=1\nrules=mlperf\n"))["jobs"][0]
        c = check(j, "computation_time")
        self.assertTrue(c["pass"], c)
        self.assertEqual(c["expected"], "0.636 s (a100)")
        # the A100 time on an H100 run is not H100's workload
        j = self.train("unet3d", "train_scale=1\ncomputation_time=0.636\nepochs=1\n")
        c = check(j, "computation_time")
        self.assertFalse(c["pass"])
        self.assertEqual((c["expected"], c["fails_as"]), ("0.323 s (h100)", "INVALID"))

    def test_shipped_train_jobs_follow_dlio(self):
        # the shipped jobs keep DLIO's shuffle (resnet50: none) and unet3d's
        # checkpoint; ACCELERATOR=a100 picks the A100 time
        for name, env in (("train-unet3d.ini", {"SCALE": "0.002", "ACCELERATOR": "a100"}),
                          ("train-resnet50.ini", {"SCALE": "0.002", "FILES": "4"})):
            with self.subTest(job=name):
                p = self.run_sb("--output-format=json", os.path.join(SRC, "jobs", name),
                                env=env, timeout=120)
                self.assertEqual(p.returncode, 0, p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                self.assertEqual(set(failed(j)) - SCALED, set(), failed(j))
                self.assertTrue(check(j, "shuffle")["pass"])
                self.assertTrue(check(j, "epochs")["pass"])
                if "unet3d" in name:
                    self.assertTrue(check(j, "train_checkpoint")["pass"])
                    self.assertIn("(a100)", check(j, "computation_time")["expected"])


class CheckpointRulesTest(SbCase):
    def ckpt(self, extra, engine="null", folder=None):
        return self.run_json(self.write_job(
            "[ck]\nworkload=checkpoint\nioengine=%s\nbs=256k\ncheckpoint_scale=0.00002\n"
            "rules=mlperf\ncheckpoint_folder=%s\n%s"
            % (engine, folder or os.path.join(self.dir, "ck"), extra)))["jobs"][0]

    def test_405b_subset_8_closed(self):
        # guidelines 2.2.2 subset mode; config.py "CLOSED in [8 || 512]"
        j = self.ckpt("model=llama3-405b\nsubset\nranks=8\n")
        c = check(j, "ranks")
        self.assertTrue(c["pass"], c)
        self.assertEqual(c["actual"], "8 (subset of 512)")
        # and nothing else (ioengine=null: no I/O, so no cache was dropped either)
        self.assertEqual(set(failed(j)), {"checkpoint_scale", "storage_io", "caches_dropped"})
        j = self.ckpt("model=llama3-405b\nsubset\nranks=16\n")
        self.assertEqual(check(j, "ranks")["fails_as"], "OPEN")
        self.assertFalse(check(j, "ranks")["pass"])

    def test_more_than_10_writes_invalid(self):
        # guidelines Table 3: num-checkpoints-write 10, changeable in neither division
        j = self.ckpt("model=llama3-8b\nnum_checkpoints_write=20\n")
        c = check(j, "checkpoints_written")
        self.assertFalse(c["pass"])
        self.assertEqual((c["expected"], c["actual"], c["fails_as"]), ("10", "20", "INVALID"))

    def test_write_only_then_read_only(self):
        # guidelines 2.2.2: write with reads=0, clear the cache, read with writes=0
        ck = os.path.join(self.dir, "ck")
        w = self.ckpt("model=llama3-8b\nnum_checkpoints_read=0\nkeep_checkpoints=1\n", "psync")
        self.assertEqual((len(w["checkpoint"]["write"]), len(w["checkpoint"]["read"])), (10, 0))
        self.assertEqual(set(failed(w)), {"checkpoint_scale"})
        self.assertEqual(check(w, "checkpoints_read")["expected"], "0 (write-only run)")
        files = sorted(os.listdir(ck))
        self.assertEqual(len(files), 10)
        r = self.ckpt("model=llama3-8b\nnum_checkpoints_write=0\n", "psync")
        self.assertEqual((len(r["checkpoint"]["write"]), len(r["checkpoint"]["read"])), (0, 10))
        self.assertEqual(r["read"]["io_bytes"], w["write"]["io_bytes"])   # every byte, once
        self.assertEqual(r["write"]["io_bytes"], 0)
        self.assertTrue(check(r, "checkpoints_written")["pass"])
        self.assertTrue(check(r, "checkpoints_read")["pass"])
        self.assertEqual(sorted(os.listdir(ck)), files)   # not its files: nothing removed

    def test_read_only_without_checkpoints(self):
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nmodel=llama3-8b\n"
                             "checkpoint_scale=0.00002\nnum_checkpoints_write=0\n"
                             "checkpoint_folder=%s\n" % os.path.join(self.dir, "ck"))
        before = self.listing()
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:1: job ck: num_checkpoints_write=0 reads checkpoints", p.stderr)
        self.assertIn("global_epoch1_step1/zero_pp_rank_0_mp_rank_0_model_states.pt does not exist",
                      p.stderr)
        self.assertIn("keep_checkpoints=1", p.stderr)
        self.assertEqual(self.listing(), before)


class TwoVerdictsTest(SbCase):
    """the headline verdict is mlpstorage v2.0's
    checker's (rules.py), the guidelines verdict is shown beside it when it
    differs; no CLOSED without storage I/O, and caches_dropped says what was
    done."""

    def ckpt(self, engine, extra="", fmt="json"):
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=%s\nbs=256k\nmodel=llama3-8b\n"
                             "checkpoint_scale=0.00002\nnum_checkpoints_write=2\nnum_checkpoints_read=2\n"
                             "rules=mlperf\ncheckpoint_folder=%s\n%s"
                             % (engine, os.path.join(self.dir, "ck"), extra))
        p = self.run_sb("--output-format=" + fmt, job)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_null_engine_never_closed(self):
        # ioengine=null with drop_caches=0 drops no cache: INVALID, not CLOSED
        j = json.loads(self.ckpt("null", "drop_caches=0\n"))["jobs"][0]
        self.assertFalse(j["checkpoint"]["caches_dropped"])
        self.assertIn("ioengine=null", j["checkpoint"]["caches_reason"])
        self.assertEqual(j["rules"]["checker"], "INVALID")
        self.assertEqual(j["rules"]["verdict"], "INVALID")
        self.assertEqual(j["rules"]["guidelines"], "INVALID")
        c = check(j, "storage_io")
        self.assertEqual((c["pass"], c["checker_fails_as"], c["actual"]),
                         (False, "INVALID", "none (ioengine=null)"))
        self.assertIn("ioengine=null", c["fix"])

    def test_checker_headline_guidelines_beside(self):
        # rules.py:611-614: CheckpointingRulesChecker checks nothing, so the
        # checker says CLOSED; the guidelines (2.2.2 cache drop, 2.2.1
        # scale) say INVALID
        j = json.loads(self.ckpt("psync", "drop_caches=0\n"))["jobs"][0]
        r = j["rules"]
        self.assertEqual((r["verdict"], r["checker"], r["guidelines"]), ("CLOSED", "CLOSED", "INVALID"))
        self.assertTrue(check(j, "storage_io")["pass"])
        c = check(j, "caches_dropped")
        self.assertEqual((c["pass"], c["fails_as"], c["checker_fails_as"]), (False, "INVALID", "CLOSED"))
        self.assertIn("guidelines 2.2.2", c["source"])
        out = self.ckpt("psync", "drop_caches=0\n", "normal")
        self.assertIn("MLPerf Storage rules: CLOSED", out)
        self.assertIn("; checker CLOSED, guidelines INVALID", out)
        self.assertIn("(checker CLOSED, guidelines INVALID; guidelines 2.2.2)", out)

    def test_train_override_named_officially(self):
        # dataset.format is OPEN in rules.py:526; train.seed is not in either
        # list: "Disallowed parameter override" (rules.py:548)
        base = ("[t]\nworkload=train\nioengine=null\ntrain_model=resnet50\ntrain_scale=0.0001\n"
                "dataset_files=4\nrules=mlperf\n")
        j = self.run_json(self.write_job(base + "dataset_format=npz\n"))["jobs"][0]
        c = check(j, "dataset_format")
        self.assertEqual((c["pass"], c["checker_fails_as"], c["actual"]), (False, "OPEN", "dataset.format=npz"))
        j = self.run_json(self.write_job(base + "seed=7\n"))["jobs"][0]
        c = check(j, "seed")
        self.assertEqual((c["checker_fails_as"], c["actual"]), ("INVALID", "train.seed=7"))
        self.assertIn("Disallowed parameter override: train.seed = 7", c["fix"])
        self.assertEqual(j["rules"]["checker"], "INVALID")


class OwnBehaviourOpenTest(SbCase):
    """read_order=reshuffle and checkpoint_content=unique are
    storbench's behaviour, not DLIO's: OPEN in the guidelines verdict
    (10.1: the codebase cannot change in CLOSED; 10.2: changes to DLIO are
    allowed in OPEN, disclosed); no DLIO parameter records them, so the
    checker (rules.py) stays as it was.  validate reads them from the tree."""
    train = TrainRulesTest.train
    only_new_failure = TrainRulesTest.only_new_failure

    def test_reshuffle_open(self):
        c = self.only_new_failure("unet3d", "read_order=reshuffle\n", "read_order", "OPEN")
        self.assertEqual((c["expected"], c["actual"], c["checker_fails_as"]), ("dlio", "reshuffle", "CLOSED"))
        self.assertIn("guidelines 10.1, 10.2", c["source"])
        self.assertIn("set read_order=dlio for CLOSED", c["fix"])

    def test_unique_content_open(self):
        res = os.path.join(self.dir, "res")
        for content, want in (("dlio", {"checkpoint_scale"}), ("unique", {"checkpoint_scale", "checkpoint_content"})):
            j = self.run_json(self.write_job(
                "[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\nmodel=llama3-8b\n"
                "checkpoint_scale=0.00002\nnum_checkpoints_read=0\nrules=mlperf\ncheckpoint_folder=%s\n"
                "checkpoint_content=%s\nresults_dir=%s\n" % (os.path.join(self.dir, content), content, res)))
            j = j["jobs"][0]
            self.assertEqual(set(failed(j)), want)
            c = check(j, "checkpoint_content")
            self.assertEqual((c["expected"], c["actual"]), ("dlio", content))
            self.assertEqual((c["fails_as"], c["checker_fails_as"]), ("OPEN", "CLOSED"))
            self.assertEqual(j["rules"]["checker"], "CLOSED")
        p = self.run_sb("validate", res)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)
        self.assertEqual(p.stdout.count("checkpoint_content: expected dlio, actual unique -> checker CLOSED, "
                                        "guidelines OPEN (guidelines 10.1, 10.2"), 1, p.stdout)


class CacheHonestyTest(SbCase):
    """caches_dropped is true only when a drop could evict the reads"""

    def tmpfs_dir(self):
        d = os.path.join(self.dir, "mem")
        os.mkdir(d)
        if os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "sbtest", d],
                                                capture_output=True).returncode == 0:
            self.mounted = d   # unmounted in tearDown, before the scratch dir goes
            return d
        shm = "/dev/shm"
        if os.path.isdir(shm) and subprocess.run(["stat", "-f", "-c", "%T", shm], capture_output=True,
                                                 text=True).stdout.strip() == "tmpfs":
            d = os.path.join(shm, "sbtest.%d" % os.getpid())
            os.mkdir(d)
            self.addCleanup(os.rmdir, d)
            return d
        self.skipTest("no tmpfs: not root (cannot mount one) and /dev/shm is not tmpfs")

    mounted = None

    def tearDown(self):
        if self.mounted:
            subprocess.run(["umount", self.mounted])
        super().tearDown()

    def job(self, folder):
        return self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\nmodel=llama3-8b\n"
                              "checkpoint_scale=0.00002\nnum_checkpoints_write=1\n"
                              "num_checkpoints_read=1\ndrop_caches=1\nrules=mlperf\n"
                              "checkpoint_folder=%s\n" % folder)

    def test_tmpfs_not_dropped(self):
        ck = os.path.join(self.tmpfs_dir(), "ck")
        p = self.run_sb("--output-format=json", self.job(ck))
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)["jobs"][0]
        c = j["checkpoint"]
        self.assertFalse(c["caches_dropped"])
        self.assertTrue(c["possibly_cached"])
        self.assertIn("is on tmpfs", c["caches_reason"])
        self.assertIn("is on tmpfs", p.stderr)            # warned once
        r = check(j, "caches_dropped")
        self.assertEqual((r["pass"], r["fails_as"], r["actual"]), (False, "INVALID", "no"))
        self.assertIn("tmpfs", r["fix"])
        p = self.run_sb(self.job(ck))
        self.assertIn("caches NOT dropped: reads possibly cached (%s is on tmpfs" % ck, p.stdout)
        self.assertIn("FAIL caches_dropped", p.stdout)

    def test_disk_dropped_when_root(self):
        p = self.run_sb("--output-format=json", self.job(os.path.join(self.dir, "ck")))
        self.assertEqual(p.returncode, 0, p.stderr)
        c = json.loads(p.stdout)["jobs"][0]["checkpoint"]
        if subprocess.run(["stat", "-f", "-c", "%T", self.dir], capture_output=True,
                          text=True).stdout.strip() in ("tmpfs", "ramfs"):
            self.skipTest("the scratch directory is on tmpfs")
        if os.geteuid() == 0:
            self.assertTrue(c["caches_dropped"])
            self.assertFalse(c["possibly_cached"])
            self.assertEqual(c["caches_reason"], "")
        else:
            self.assertFalse(c["caches_dropped"])
            self.assertTrue(c["possibly_cached"])
            self.assertIn("drop_caches", c["caches_reason"])


if __name__ == "__main__":
    unittest.main()
