"""Engines through the real binary: queue depth is real, and
jobs/engine-compare.ini prints its side-by-side comparison."""
import json
import os
import subprocess
import time

from sbtest import BIN, SRC, SbCase


def built_engines():
    out = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True).stdout
    names = out.splitlines()[0].split(":", 1)[1].replace(" ", "").split(",")
    # libcufile needs a CUDA driver and cuFile (test_gpu.py runs it against
    # t/gpu's stubs); the ML workloads' GPU paths are test_gpu_ml.py's; the
    # object-store engines (s3, http) need their server: test_s3.py
    return [n for n in names if n != "libcufile" and not objects(n)]


def objects(eng):
    """the engines whose --enghelp=ENGINE says they work on an object store"""
    out = subprocess.run([BIN, f"--enghelp={eng}"], capture_output=True, text=True).stdout
    return "objects on an object store" in out


def moves_data(eng):
    """False for the engines whose --enghelp=ENGINE says they move no data
    (SB_ENGINE_NODATA: falloc, ftruncate, filecreate...): the ML workloads
    refuse them"""
    out = subprocess.run([BIN, f"--enghelp={eng}"], capture_output=True, text=True).stdout
    return "moves no data" not in out


class TestEngines(SbCase):
    def test_iodepth_32_is_held(self):
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else self.dir
        path = os.path.join(shm, f"sbint-depth-{os.getpid()}.dat")
        try:
            for eng in ("io_uring", "libaio"):
                if eng not in built_engines():
                    self.skipTest(f"{eng} not built")
                j = self.run_json(f"--name=depth-{eng}", f"--ioengine={eng}", "--rw=randread", "--bs=4k",
                                  "--size=16m", "--iodepth=32", "--runtime=500ms", "--time_based",
                                  f"--filename={path}")
                lvl = j["jobs"][0]["iodepth_level"]
                self.assertGreaterEqual(lvl["32"], 90.0, f"{eng}: {lvl}")
        finally:
            if os.path.exists(path):
                os.unlink(path)

    def test_engine_compare_job_prints_the_table(self):
        job = os.path.join(SRC, "jobs", "engine-compare.ini")
        env = {"RUNTIME": "300ms", "SIZE": "16m", "DIR": self.dir}
        p = self.run_sb("--output-format=normal,json", job, env=env, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        text, doc = p.stdout.split("\n{", 1)
        j = json.loads("{" + doc)
        engines = [e for e in ("psync", "libaio", "io_uring", "mmap") if e in built_engines()]
        self.assertIn("Comparison by ioengine", text)
        self.assertEqual(len(j["comparisons"]), 2)
        for cmp in j["comparisons"]:
            self.assertEqual(cmp["option"], "ioengine")
            self.assertEqual([r["value"] for r in cmp["rows"]], engines)
            self.assertEqual(cmp["rows"][0]["ratio"], 1.0)
            for r in cmp["rows"]:
                self.assertGreater(r["iops"], 0)
                self.assertGreater(r["clat_p99_ns"], 0)
        self.assertEqual(self.listing(), [], "unlink=1 removes the file the job created")

    # ---- the ML workloads on every engine (conformance) ----
    # Each checkpoint and each epoch runs on new threads; an engine instance
    # must then be created on the thread that drives it (io_uring's
    # SINGLE_ISSUER ring failed the second phase with EEXIST).

    def test_checkpoint_write2_read2_on_every_engine(self):
        for eng in built_engines():
            with self.subTest(engine=eng):
                folder = os.path.join(self.dir, "ck-" + eng)
                job = self.write_job("[ck]\nworkload=checkpoint\nioengine=%s\nmodel=llama3-8b\n"
                                     "checkpoint_scale=0.00002\nnum_checkpoints_write=2\n"
                                     "num_checkpoints_read=2\ndrop_caches=0\niodepth=4\n"
                                     "checkpoint_folder=%s\n" % (eng, folder), "ck-%s.ini" % eng)
                p = self.run_sb("--output-format=json", job)
                if not moves_data(eng):
                    self.assertEqual(p.returncode, 1, f"{eng}: {p.stderr}")
                    self.assertIn("moves no data", p.stderr)
                    self.assertFalse(os.path.exists(folder), eng)
                    continue
                self.assertEqual(p.returncode, 0, f"{eng}: exit {p.returncode}\n{p.stderr}\n{p.stdout[-2000:]}")
                j = json.loads(p.stdout)["jobs"][0]
                ck = j["checkpoint"]
                one = ck["bytes_model"] + ck["bytes_optimizer"]
                self.assertGreater(one, 0)
                self.assertEqual(j["error"], 0, eng)
                self.assertEqual(len(ck["write"]), 2, eng)
                self.assertEqual(len(ck["read"]), 2, eng)
                self.assertEqual(j["write"]["io_bytes"], 2 * one, eng)
                self.assertEqual(j["read"]["io_bytes"], 2 * one, eng)
                self.assertFalse(os.path.exists(folder), f"{eng}: the checkpoints it wrote are removed")

    def test_train_two_epochs_on_every_engine(self):
        for eng in built_engines():
            for readers in (2, 0):
                with self.subTest(engine=eng, read_threads=readers):
                    data = os.path.join(self.dir, "data-" + eng)
                    job = self.write_job("[t]\nworkload=train\nioengine=%s\ndataset_files=8\n"
                                         "samples_per_file=2\nrecord_length=64k\nbatch_size=2\n"
                                         "read_threads=%d\naccelerators=2\nepochs=2\niodepth=4\n"
                                         "data_dir=%s\n" % (eng, readers, data), "t-%s.ini" % eng)
                    p = self.run_sb("--output-format=json", job)
                    if not moves_data(eng):
                        self.assertEqual(p.returncode, 1, f"{eng}: {p.stderr}")
                        self.assertIn("moves no data", p.stderr)
                        self.assertFalse(os.path.exists(data), eng)
                        continue
                    self.assertEqual(p.returncode, 0, f"{eng}: exit {p.returncode}\n{p.stderr}\n{p.stdout[-2000:]}")
                    j = json.loads(p.stdout)["jobs"][0]
                    t = j["train"]
                    self.assertEqual(j["error"], 0, eng)
                    self.assertEqual(t["dataset_bytes"], 8 * 2 * 65536)
                    self.assertEqual(len(t["epochs"]), 2, eng)
                    self.assertEqual(j["read"]["io_bytes"], 2 * t["dataset_bytes"], eng)
                    if eng != "null":
                        files = sorted(os.listdir(os.path.join(data, "train")))
                        self.assertEqual(len(files), 8, eng)
                        for f in files:
                            self.assertEqual(os.path.getsize(os.path.join(data, "train", f)), 2 * 65536)

    # ---- mmap: the file truncated under a running job ----

    def _truncate_under_mmap(self, rw):
        path = os.path.join(self.dir, "mm-%s.dat" % rw)
        size = 32 << 20
        args = [BIN, "--output-format=json", "--name=mm", "--ioengine=mmap", "--rw=" + rw,
                "--bs=4k", "--size=%d" % size, "--filename=" + path, "--runtime=20s", "--time_based",
                "--unlink=1"]
        p = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            # truncate only once the engine has the file mapped (/proc/PID/maps):
            # truncated earlier, the engine would extend it again when it opens it
            deadline = time.monotonic() + 30
            mapped = False
            while not mapped and time.monotonic() < deadline and p.poll() is None:
                try:
                    with open("/proc/%d/maps" % p.pid) as f:
                        mapped = path in f.read()
                except OSError:
                    pass
                time.sleep(0.02)
            self.assertTrue(mapped, "the job never mapped its file")
            time.sleep(0.1)  # the job is copying now
            self.assertIsNone(p.poll(), "the job ended before the truncation")
            os.truncate(path, 4096)
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        self.assertEqual(p.returncode, 3, f"{rw}: exit {p.returncode} (-7: killed by SIGBUS)\n{err}")
        j = json.loads(out)["jobs"][0]
        self.assertEqual(j["error"], 5, f"{rw}: the unit that faulted ends with EIO")
        if "error_message" in j:
            self.assertIn("mm-%s.dat" % rw, j["error_message"])
        self.assertFalse(os.path.exists(path), f"{rw}: unlink=1 removes the file it created")

    def test_mmap_file_truncated_under_a_read_job(self):
        if "mmap" not in built_engines():
            self.skipTest("mmap not built")
        self._truncate_under_mmap("randread")

    def test_mmap_file_truncated_under_a_write_job(self):
        if "mmap" not in built_engines():
            self.skipTest("mmap not built")
        self._truncate_under_mmap("randwrite")

    def test_unknown_engine_names_the_available_ones(self):
        job = self.write_job("[j]\nioengine=spdk\nsize=1m\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:2", p.stderr)
        self.assertIn("spdk", p.stderr)
        self.assertIn("psync", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
