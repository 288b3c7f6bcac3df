"""the ML workloads with their data in GPU memory, against
t/gpu's stub driver (LD_LIBRARY_PATH; every copy's bytes counted into
$SB_STUBCUDA_STATS).

- checkpoint_source=gpu: each checkpoint write is copied GPU to host first
  (torch.save of CUDA tensors copies them to the host before it writes),
  each restore read host to GPU after it (torch.load(map_location="cuda"));
- train_destination=gpu: each training read is copied host to GPU after it
  completes (the batch's .cuda()).
The copies are inside the checkpoint durations and reported apart: the ML
result's "gpu_copy" {d2h_bytes, d2h_s, h2d_bytes, h2d_s} and the job's
per-direction gpu_copy_bytes / gpu_copy_ns.  Without the driver each
option is exit 1 naming libcuda.so.1, with nothing written."""
import json
import os
import unittest

import sbtest

STUBS = os.path.abspath(os.path.join(os.path.dirname(sbtest.BIN), "t", "gpu"))
if not os.path.exists(os.path.join(STUBS, "libcuda.so.1")):
    STUBS = os.path.join(sbtest.SRC, "build", "t", "gpu")


def no_gpu_env():
    keep = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p and "t/gpu" not in p]
    return {"LD_LIBRARY_PATH": ":".join(keep)}


class GpuMlCase(sbtest.SbCase):
    def stub_env(self):
        self.stats = os.path.join(self.dir, "stubcuda.json")
        return {"LD_LIBRARY_PATH": STUBS, "SB_STUBCUDA_STATS": self.stats}

    def stub(self):
        with open(self.stats) as f:
            return json.load(f)

    def ckpt_job(self, extra=""):
        return self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\n"
                              "drop_caches=0\ncheckpoint_folder=%s\nmodel=llama3-8b\n"
                              "checkpoint_scale=0.00002\nnum_checkpoints_write=2\n"
                              "num_checkpoints_read=1\n%s"
                              % (os.path.join(self.dir, "ck"), extra))

    def train_job(self, extra=""):
        os.makedirs(os.path.join(self.dir, "ds"), exist_ok=True)
        return self.write_job("[t]\nworkload=train\nioengine=psync\nepochs=1\ndataset_files=8\n"
                              "samples_per_file=2\nrecord_length=64k\nbatch_size=2\n"
                              "read_threads=2\ncomputation_time=1ms\ndirectory=%s\n%s"
                              % (os.path.join(self.dir, "ds"), extra))


@unittest.skipUnless(os.path.exists(os.path.join(STUBS, "libcuda.so.1")), "no stub driver")
class TestWithStubs(GpuMlCase):
    def test_checkpoint_from_and_to_gpu(self):
        doc = self.run_json(self.ckpt_job("checkpoint_source=gpu\n"), env=self.stub_env())
        j = doc["jobs"][0]
        st = self.stub()
        wrote, read = j["write"]["io_bytes"], j["read"]["io_bytes"]
        self.assertGreater(wrote, 0)
        self.assertGreater(read, 0)
        # every byte written came out of GPU memory, every byte read went in
        # (the stub's H2D also has the GPU buffers' first fill: alloc_bytes)
        self.assertEqual(st["d2h_bytes"], wrote)
        self.assertEqual(st["h2d_bytes"], read + st["alloc_bytes"])
        self.assertEqual(st["live_allocs"], 0)
        g = j["checkpoint"]["gpu_copy"]
        self.assertEqual((g["d2h_bytes"], g["h2d_bytes"]), (wrote, read))
        self.assertGreater(g["d2h_s"], 0)
        self.assertGreater(g["h2d_s"], 0)
        # the copy time is inside the checkpoint durations: each rank copies
        # within its own time, so the ranks' sum is within ranks x slowest
        ck = j["checkpoint"]
        self.assertLessEqual(g["d2h_s"], ck["ranks"] * sum(p["slowest_s"] for p in ck["write"]))
        self.assertLessEqual(g["h2d_s"], ck["ranks"] * sum(p["slowest_s"] for p in ck["read"]))
        self.assertEqual(j["write"]["gpu_copy_bytes"], wrote)
        self.assertEqual(j["read"]["gpu_copy_bytes"], read)

    def test_checkpoint_host_has_no_copies(self):
        doc = self.run_json(self.ckpt_job(), env=self.stub_env())
        self.assertNotIn("gpu_copy", doc["jobs"][0]["checkpoint"])
        self.assertFalse(os.path.exists(self.stats))  # the driver was never loaded

    def test_train_reads_land_in_gpu(self):
        doc = self.run_json(self.train_job("train_destination=gpu\n"), env=self.stub_env())
        j = doc["jobs"][0]
        st = self.stub()
        read = j["read"]["io_bytes"]
        self.assertEqual(read, 8 * 2 * 64 << 10)
        self.assertEqual(st["h2d_bytes"], read + st["alloc_bytes"])
        self.assertEqual(st["d2h_bytes"], 0)
        self.assertEqual(j["train"]["gpu_copy"]["h2d_bytes"], read)
        self.assertEqual(st["live_allocs"], 0)


class TestWithoutDriver(GpuMlCase):
    def setUp(self):
        super().setUp()
        if os.path.exists("/dev/nvidiactl"):
            self.skipTest("this machine has an NVIDIA driver")

    def test_checkpoint_source_needs_the_driver(self):
        job = self.ckpt_job("checkpoint_source=gpu\n")
        p = self.run_sb(job, env=no_gpu_env())
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:11: checkpoint_source=gpu: libcuda.so.1 not found" % job, p.stderr)
        self.assertIn("or use checkpoint_source=host", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_train_destination_needs_the_driver(self):
        job = self.train_job("train_destination=gpu\n")
        p = self.run_sb(job, env=no_gpu_env())
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:12: train_destination=gpu: libcuda.so.1 not found" % job, p.stderr)
        self.assertEqual(self.listing(), ["ds", "job.ini"])
        self.assertEqual(os.listdir(os.path.join(self.dir, "ds")), [])

    def test_iomem_cudamalloc_still_refused(self):
        job = self.ckpt_job("iomem=cudamalloc\n")
        p = self.run_sb(job, env=no_gpu_env())
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:11: iomem=cudamalloc: workload=checkpoint does not take it" % job,
                      p.stderr)
        self.assertIn("use checkpoint_source=gpu", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
