"""workload=train as DLIO runs it: a reader pool per
accelerator (4 accelerators x read_threads=2 = 8 reader threads, each
prefetching ceil(prefetch / read_threads) batches), the barrier after every
step (a slow accelerator sets everyone's pace), the eval phase, the
in-training checkpoint (unet3d's shipped job writes it at epoch 5), and the
bad inputs of the new options."""
import json
import os
import shutil
import tempfile

from sbtest import SRC, CpuLoss, SbCase

UNET3D_MODEL = 499153191   # DLIO unet3d.yaml model.model_size, bytes


def tree(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = os.path.getsize(p)
    return out


class PipelineTest(SbCase):
    def train(self, extra, engine="psync", env=None):
        job = self.write_job("[t]\nworkload=train\nioengine=%s\nbs=64k\nepochs=1\n"
                             "data_dir=%s\n%s" % (engine, os.path.join(self.dir, "ds"), extra))
        return self.run_json(job, env=env)["jobs"][0]

    def test_reader_pool_per_accelerator(self):
        # DLIO: every accelerator rank has its own DataLoader of read_threads
        # workers: 4 x 2 = 8 threads read (storbench before: 2, shared)
        j = self.train("dataset_files=64\nrecord_length=64k\nbatch_size=2\naccelerators=4\n"
                       "read_threads=2\nprefetch=5\ncomputation_time=2ms\n")
        t = j["train"]
        self.assertEqual(j["error"], 0)
        self.assertEqual((t["readers_per_accelerator"], t["reader_threads"]), (2, 8))
        self.assertEqual(t["reader_threads_did_io"], 8)
        self.assertEqual(t["prefetch_per_reader"], 3)          # ceil(5 / 2), torch's prefetch_factor
        self.assertEqual(t["epochs"][0]["steps"], 4 * 8)       # 64 samples / 2 / 4 per accelerator
        self.assertEqual(j["read"]["io_bytes"], 64 * 65536)
        # read_threads=0: each accelerator reads its own batches
        j = self.train("dataset_files=64\nrecord_length=64k\nbatch_size=2\naccelerators=4\n"
                       "read_threads=0\n")
        t = j["train"]
        self.assertEqual((t["reader_threads"], t["reader_threads_did_io"]), (0, 4))
        self.assertEqual(j["read"]["io_bytes"], 64 * 65536)

    def test_step_barrier(self):
        # accelerator 0 computes 60 ms per step, the others 10 ms: behind
        # DLIO's barrier after every step all four step every ~70 ms, and the
        # fast ones spend most of it waiting (AU ~ (100 + 3 x 14) / 4 %).
        # Without the barrier the fast ones would step every ~10 ms (AU ~100%).
        # (Lower bounds on step times hold on a loaded machine; the upper
        # ones widen by what other load took from the run, CpuLoss.)
        with CpuLoss() as lost:
            j = self.train("dataset_files=32\nrecord_length=4k\nbatch_size=1\naccelerators=4\n"
                           "read_threads=1\ncomputation_time=10ms\n", engine="null",
                           env={"STORBENCH_TEST_SLOW_ACCELERATOR": "0:0.06"})
        e = j["train"]["epochs"][0]
        self.assertEqual(e["steps"], 32)
        self.assertGreaterEqual(e["step_s_max"], 0.07)
        self.assertGreaterEqual(e["step_s_min"], 0.07 * 0.9)  # the fast ones follow the slow one
        self.assertLess(j["train"]["au_pct"], 60 + 100 * lost.s / e["duration_s"])
        # and without the slow one everyone steps at its own 10 ms (8 steps:
        # 7 periods, each late by at most what load took)
        with CpuLoss() as lost:
            j = self.train("dataset_files=32\nrecord_length=4k\nbatch_size=1\naccelerators=4\n"
                           "read_threads=1\ncomputation_time=10ms\n", engine="null")
        self.assertLess(j["train"]["epochs"][0]["step_s_max"], 0.05 + lost.s / 7)

    def test_eval_phase(self):
        # DLIO: eval from eval_after_epoch every epochs_between_evals, over
        # valid/ with batch_size_eval; its steps do not count in the AU
        j = self.train("dataset_files=16\nrecord_length=8k\nbatch_size=2\nread_threads=2\n"
                       "epochs=4\ndo_eval=1\nnum_files_eval=8\nbatch_size_eval=2\n"
                       "eval_time=1ms\neval_after_epoch=2\nepochs_between_evals=2\n")
        ev = [(e["epoch"], e["eval_steps"]) for e in j["train"]["epochs"]]
        self.assertEqual(ev, [(1, 0), (2, 4), (3, 0), (4, 4)])
        # DLIO's record: int(sqrt(8192))^2 = 90^2 = 8100 bytes (config.py:312)
        self.assertEqual(j["read"]["io_bytes"], 4 * 16 * 8100 + 2 * 8 * 8100)
        self.assertEqual(len(tree(os.path.join(self.dir, "ds", "valid"))), 8)
        self.assertGreater(j["train"]["epochs"][1]["eval_duration_s"], 0)

    def test_checkpoint_by_steps(self):
        ck = os.path.join(self.dir, "ck")
        j = self.train("dataset_files=16\nrecord_length=8k\nbatch_size=2\nread_threads=1\n"
                       "epochs=2\ncheckpoint_after_epoch=2\nsteps_between_checkpoints=4\n"
                       "model_size=100k\nkeep_checkpoints=1\ncheckpoint_folder=%s\n" % ck)
        got = [(c["epoch"], c["step"], c["bytes"]) for c in j["train"]["checkpoints"]]
        self.assertEqual(got, [(2, 4, 102400), (2, 8, 102400)])
        self.assertEqual(tree(ck), {"global_epoch2_step4/model_states-0.pt": 102400,
                                    "global_epoch2_step8/model_states-0.pt": 102400})
        self.assertEqual(j["write"]["io_bytes"], 2 * 102400)

    def test_unet3d_checkpoint_at_epoch5(self):
        # the shipped job, small: samples, compute and the model file shrink by
        # SCALE; DLIO writes global_epoch5_step<steps+1>/model_states-0.pt
        scale = 0.0005
        path = os.path.join(SRC, "jobs", "train-unet3d.ini")
        p = self.run_sb("--output-format=json", path, env={"SCALE": str(scale)}, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        t = json.loads(p.stdout)["jobs"][0]["train"]
        size = int(UNET3D_MODEL * scale + 0.5)
        got = [(c["epoch"], c["step"], c["bytes"]) for c in t["checkpoints"]]
        self.assertEqual(got, [(5, 24 + 1, size)])             # 168 files / batch 7 = 24 steps
        self.assertGreater(t["checkpoints"][0]["duration_s"], 0)
        self.assertTrue(t["checkpoints"][0]["path"].endswith("global_epoch5_step25/model_states-0.pt"))
        self.assertNotIn("checkpoints", os.listdir(self.dir))  # removed: not kept

    def test_computation_time_distributions(self):
        # null engine: the step time is the draw; mean within 30% (few steps)
        for extra, mean in (("computation_time_type=uniform\ncomputation_time_min=10ms\n"
                             "computation_time_max=30ms\n", 0.02),
                            ("computation_time_type=gamma\ncomputation_time_shape=4\n"
                             "computation_time_scale=5ms\n", 0.02)):
            with self.subTest(extra=extra):
                with CpuLoss() as lost:
                    j = self.train("dataset_files=40\nrecord_length=4k\nbatch_size=1\n"
                                   "read_threads=1\n" + extra, engine="null")
                e = j["train"]["epochs"][0]
                # sleeps are never short; longer by what other load took
                # from the run over its 39 periods
                self.assertGreaterEqual(e["step_s_max"], mean * 0.7)
                self.assertLessEqual(e["step_s_max"], mean * 1.3 + lost.s / 39)


class InventoryTest(SbCase):
    def test_data_dir_file_system_inventoried(self):
        # the system inventory describes where a train job's dataset lives
        # (data_dir=, the workload's own folder), as it does directory=
        other = "/dev/shm"
        if not os.path.isdir(other) or os.stat(other).st_dev == os.stat(self.dir).st_dev:
            self.skipTest("needs /dev/shm on a file system other than the test folder's")
        ds = tempfile.mkdtemp(prefix="sbint.ds.", dir=other)
        self.addCleanup(shutil.rmtree, ds, True)
        for engine in ("null", "psync"):
            with self.subTest(engine=engine):
                job = self.write_job("[t]\nworkload=train\nioengine=%s\ndirectory=%s\ndata_dir=%s\n"
                                     "dataset_files=4\nrecord_length=4k\n" % (engine, self.dir, ds))
                fs = self.run_json(job)["system"]["filesystems"]
                paths = [f["path"] for f in fs]
                self.assertIn(os.path.realpath(ds), paths)
                self.assertIn(os.path.realpath(self.dir), paths)
                self.assertEqual([f["mount_point"] for f in fs if f["path"] == os.path.realpath(ds)],
                                 [other])


class BadInputTest(SbCase):
    def fails(self, text, *needles):
        job = self.write_job(text)
        before = tree(self.dir)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertEqual(tree(self.dir), before)   # nothing created, nothing deleted

    def test_uniform_max_below_min(self):
        self.fails("[a]\nworkload=train\ndataset_files=8\nrecord_length=4k\n"
                   "computation_time_type=uniform\ncomputation_time_min=20ms\n"
                   "computation_time_max=10ms\n", "job.ini:7", "computation_time_max=0.01s",
                   "computation_time_min=0.02s", "at least the minimum")

    def test_gamma_shape_zero(self):
        self.fails("[a]\nworkload=train\ndataset_files=8\nrecord_length=4k\n"
                   "computation_time_type=gamma\ncomputation_time_shape=0\n",
                   "job.ini:6", "computation_time_shape=0", "above 0")

    def test_eval_without_files(self):
        self.fails("[a]\nworkload=train\ndataset_files=8\nrecord_length=4k\ndo_eval=1\n",
                   "job.ini:5", "num_files_eval=0", "do_eval=1", "num_files_eval=8")

    def test_eval_bounds(self):
        self.fails("[a]\nworkload=train\ndataset_files=8\nrecord_length=4k\n"
                   "epochs_between_evals=0\n", "job.ini:5", "epochs_between_evals")
