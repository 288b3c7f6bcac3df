"""storage to GPU memory without a GPU.  The CUDA driver is loaded
with dlopen at run time (lib/cuda.c); these tests put t/gpu's stub driver
(build/t/gpu/libcuda.so.1, "device memory" in host memory, every call and
byte counted into $SB_STUBCUDA_STATS) first on LD_LIBRARY_PATH.

fio facts used (fio source, /work/.mirror/axboe+fio):
- iomem=cudamalloc allocates with cuMemAlloc on gpu_dev_id (memory.c
  alloc_mem_cudamalloc; options.c "gpu_dev_id", default 0, CONFIG_CUDA only);
- gpu_dev_ids is ':'-separated and thread N takes entry N % count
  (engines/gpuaccel.c: gpu_idx = td->subjob_number % id_count)."""
import json
import os
import shutil
import subprocess
import unittest

import sbtest

# the stubs next to the binary (build/t/gpu, build/san/t/gpu), else the
# source tree's build (a binary built elsewhere, e.g. an older one)
STUBS = os.path.abspath(os.path.join(os.path.dirname(sbtest.BIN), "t", "gpu"))
if not os.path.exists(os.path.join(STUBS, "libcuda.so.1")):
    STUBS = os.path.join(sbtest.SRC, "build", "t", "gpu")
MiB = 1 << 20


def have_stub():
    return os.path.exists(os.path.join(STUBS, "libcuda.so.1"))


@unittest.skipUnless(have_stub(), "no stub driver (make builds build/t/gpu/libcuda.so.1)")
class GpuCase(sbtest.SbCase):
    def gpu_env(self, **faults):
        self.stats = os.path.join(self.dir, "stubcuda.json")
        env = {"LD_LIBRARY_PATH": STUBS + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
               "SB_STUBCUDA_STATS": self.stats}
        env.update({"SB_STUBCUDA_" + k: str(v) for k, v in faults.items()})
        return env

    def stub(self):
        with open(self.stats) as f:
            return json.load(f)

    def job(self, engine, rw, extra=""):
        return self.write_job("[global]\nfilename=%s/data\nsize=1m\nbs=64k\nioengine=%s\n"
                              "iomem=cudamalloc\n%s\n[j]\nrw=%s\n"
                              % (self.dir, engine, extra, rw))


class TestCopies(GpuCase):
    ENGINES = ("sync", "psync", "libaio", "io_uring", "mmap", "posixaio")

    def run_engine(self, engine, rw, extra=""):
        job = self.job(engine, rw, extra + ("iodepth=4\n" if engine not in ("sync", "psync", "mmap") else ""))
        p = self.run_sb("--output-format=json", job, env=self.gpu_env())
        if p.returncode and "not built" in p.stderr + p.stdout:
            self.skipTest(engine + " not built here")
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)["jobs"][0], self.stub()

    def test_every_engine_write_then_read_goes_through_gpu_memory(self):
        """a write comes from GPU memory (D2H bytes == written bytes), a read
        lands in it (H2D bytes == read bytes, beyond the buffers' first fill,
        alloc_bytes); JSON's gpu_copy_bytes say the same, with percentiles"""
        for eng in self.ENGINES:
            with self.subTest(engine=eng):
                j, s = self.run_engine(eng, "write")
                w = j["write"]
                self.assertEqual(w["io_bytes"], MiB)
                self.assertEqual(s["d2h_bytes"], MiB)
                self.assertEqual(s["h2d_bytes"], s["alloc_bytes"])  # the first fill only
                self.assertEqual(w["gpu_copy_bytes"], MiB)
                self.assertEqual(w["gpu_copy_ns"]["N"], 16)
                self.assertIn("50.000000", w["gpu_copy_ns"]["percentile"])
                self.assertEqual(j["read"]["gpu_copy_bytes"], 0)
                j, s = self.run_engine(eng, "randread")
                r = j["read"]
                self.assertEqual(r["io_bytes"], MiB)
                self.assertEqual(s["h2d_bytes"] - s["alloc_bytes"], MiB)
                self.assertEqual(s["d2h_bytes"], 0)
                self.assertEqual(r["gpu_copy_bytes"], MiB)
                self.assertEqual(r["gpu_copy_ns"]["N"], 16)
                # everything given back: no device memory, nothing pinned
                self.assertEqual((s["live_allocs"], s["registered"]), (0, 0))
                self.assertEqual(s["calls"]["cuMemHostRegister"], 1)
                os.unlink(os.path.join(self.dir, "data"))

    def test_normal_output_gives_the_copies(self):
        job = self.job("psync", "write")
        p = self.run_sb(job, env=self.gpu_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("  gpu copy D2H (before writes) (", p.stdout)
        self.assertNotIn("gpu copy H2D", p.stdout)

    def test_ramp_time_copies_are_not_counted(self):
        j, s = self.run_engine("psync", "read", "time_based\nruntime=300ms\nramp_time=200ms\n")
        r = j["read"]
        self.assertEqual(r["gpu_copy_bytes"], r["io_bytes"])
        self.assertGreater(s["h2d_bytes"] - s["alloc_bytes"], r["io_bytes"])

    def test_without_cudamalloc_no_gpu_keys_and_no_driver_calls(self):
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nrw=write\n" % self.dir)
        p = self.run_sb("--output-format=json", job, env=self.gpu_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("gpu_copy_bytes", json.loads(p.stdout)["jobs"][0]["write"])
        self.assertFalse(os.path.exists(self.stats))  # libcuda.so.1 never loaded

    @unittest.skipUnless(shutil.which("mpirun"), "no mpirun")
    def test_mpi_ranks_merge_the_copies(self):
        """2 ranks: rank 0's JSON holds both ranks' copies and percentiles
        (run/ranks.c carries gpu_copy_h as the other histograms)"""
        job = self.write_job("[j]\nfilename_format=$jobname-$rank.dat\nsize=1m\nrw=write\n"
                             "bs=64k\niomem=cudamalloc\n")
        p = subprocess.run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", "-x",
                            "LD_LIBRARY_PATH=" + STUBS, "-x", "ASAN_OPTIONS", os.path.abspath(sbtest.BIN),
                            "--output-format=json", job], cwd=self.dir, capture_output=True,
                           text=True, timeout=120,
                           env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
        if "mpirun was unable to launch" in p.stderr or "could not access or execute" in p.stderr:
            self.skipTest("mpirun did not start: " + p.stderr[-200:])
        self.assertEqual(p.returncode, 0, p.stderr)
        w = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]["write"]
        self.assertEqual((w["io_bytes"], w["gpu_copy_bytes"], w["gpu_copy_ns"]["N"]),
                         (2 * MiB, 2 * MiB, 32))
        self.assertIn("50.000000", w["gpu_copy_ns"]["percentile"])

    def test_gpu_dev_ids_round_robin_over_threads(self):
        """fio engines/gpuaccel.c: thread N uses entry N % count; the stub
        has 3 GPUs and gpu_dev_ids=1:2 uses GPUs 1 and 2 only"""
        job = self.job("psync", "write", "numjobs=4\ngpu_dev_ids=1:2\n")
        p = self.run_sb(job, env=self.gpu_env(NDEV=3))
        self.assertEqual(p.returncode, 0, p.stderr)
        s = self.stub()
        self.assertEqual(s["calls"]["cuMemAlloc"], 4)
        self.assertEqual(s["d2h_bytes"], 4 * MiB)


class TestFailures(GpuCase):
    def assert_refused(self, job, env, rc, *texts, line=None):
        p = self.run_sb(job, env=env)
        self.assertEqual(p.returncode, rc, p.stderr)
        for t in texts:
            self.assertIn(t, p.stderr)
        if line:
            self.assertIn("%s:%d:" % (job, line), p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "data")), "a file was made")
        return p

    def test_no_driver_names_the_library_and_its_package(self):
        job = self.job("psync", "write")
        env = {"LD_LIBRARY_PATH": self.dir}  # no libcuda.so.1 there (nor, in CI, anywhere)
        if os.path.exists("/usr/lib/x86_64-linux-gnu/libcuda.so.1"):
            self.skipTest("this machine has an NVIDIA driver")
        self.assert_refused(job, env, 1, "iomem=cudamalloc: libcuda.so.1 not found",
                            "install the NVIDIA driver", "or use iomem=malloc", line=6)

    def test_no_driver_parse_only_accepts_as_fio_does(self):
        job = self.job("psync", "write", "gpu_dev_ids=0:1\n")
        p = self.run_sb("--parse-only=job", job, env={"LD_LIBRARY_PATH": self.dir})
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_no_device_n(self):
        job = self.job("psync", "write", "gpu_dev_id=2\n")
        self.assert_refused(job, self.gpu_env(NDEV=2), 1, "gpu_dev_id: thread 0: no GPU 2: the "
                            "driver sees 2 GPUs", "nvidia-smi -L", line=7)
        job = self.job("psync", "write", "numjobs=3\ngpu_dev_ids=0:1:5\n")
        self.assert_refused(job, self.gpu_env(NDEV=2), 1, "gpu_dev_ids: thread 2: no GPU 5", line=8)

    def test_bad_gpu_dev_ids(self):
        for bad in ("0:", "a", "0::1", "1024", "0,1"):
            with self.subTest(bad=bad):
                job = self.job("psync", "write", "gpu_dev_ids=%s\n" % bad)
                self.assert_refused(job, self.gpu_env(), 1, "gpu_dev_ids=%s: not a list of GPU "
                                    "numbers" % bad, "separated by ':'", line=7)

    def test_ml_workloads_refuse_gpu_buffers_not_ignore_them(self):
        job = self.write_job("[j]\nworkload=checkpoint\ndirectory=%s\niomem=cudamalloc\n"
                             % self.dir)
        p = self.run_sb(job, env=self.gpu_env())
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:4: iomem=cudamalloc: workload=checkpoint does not take it" % job,
                      p.stderr)
        self.assertIn("use checkpoint_source=gpu", p.stderr)  # what it builds instead
        self.assertEqual(self.listing(), ["job.ini"])

    def test_allocation_failure(self):
        """cuMemAlloc fails in thread setup: exit 1 with the size asked for,
        nothing left pinned or allocated"""
        job = self.job("psync", "read", "iodepth=1\n")
        self.assert_refused(job, self.gpu_env(ALLOC_FAIL=1), 1, "storbench: j: iomem=cudamalloc: "
                            "GPU 0: cuMemAlloc of 65536 bytes (iodepth x bs): out of memory")
        s = self.stub()
        self.assertEqual((s["live_allocs"], s["registered"], s["h2d_bytes"]), (0, 0, 0))

    def test_copy_failure_is_the_jobs_io_error(self):
        """a copy that fails stops the job: exit 3 (an I/O error during the
        run), the copy named, the stub's answer given; the first 3 copies
        (the buffers' first fill, then 2 writes) succeed"""
        for rw, what in (("write", "cuMemcpyDtoH (GPU to host, before a write)"),
                         ("read", "cuMemcpyHtoD (host to GPU, after a read)")):
            with self.subTest(rw=rw):
                job = self.job("psync", rw)
                p = self.run_sb("--output-format=json", job, env=self.gpu_env(COPY_FAIL=3))
                self.assertEqual(p.returncode, 3, p.stderr)
                self.assertIn("iomem=cudamalloc: %s: an illegal memory access was encountered "
                              "(CUresult 700)" % what, p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                self.assertEqual(j["error"], 5)  # EIO
                self.assertLess(j[rw]["io_bytes"], MiB)
                s = self.stub()
                self.assertEqual((s["live_allocs"], s["registered"]), (0, 0))


class TestVerify(GpuCase):
    """verify with GPU buffers: the data is checked after its round trip
    through GPU memory, so a copy that corrupts it (the stub's
    SB_STUBCUDA_CORRUPT adds 1 to the first byte of every such copy) fails
    the job (exit 3); clean copies verify"""

    def run_verify(self, extra, corrupt=None):
        job = self.write_job("[j]\nfilename=%s/data\nsize=256k\nbs=4k\nrw=write\n"
                             "verify=crc32c\n%s" % (self.dir, extra))
        faults = {"CORRUPT": corrupt} if corrupt else {}
        return self.run_sb(job, env=self.gpu_env(**faults))

    def test_corruption_on_either_copy_is_caught(self):
        for extra in ("iomem=cudamalloc\n", "ioengine=libcufile\ndirect=1\n",
                      "ioengine=libcufile\ncuda_io=posix\n"):
            with self.subTest(job=extra):
                p = self.run_verify(extra)
                self.assertEqual(p.returncode, 0, p.stderr)
                for c in ("h2d", "d2h"):
                    os.unlink(os.path.join(self.dir, "data"))
                    p = self.run_verify(extra, c)
                    self.assertEqual(p.returncode, 3, "%s: %s" % (c, p.stderr))
                    self.assertIn("storbench: j: verify: torn in %s/data at offset 0" % self.dir,
                                  p.stderr)
                os.unlink(os.path.join(self.dir, "data"))


class TestLibcufile(GpuCase):
    """ioengine=libcufile: fio's engine (engines/libcufile.c: gpu_dev_ids,
    cuda_io=cufile|posix) against the stub cuFile and driver"""

    def cufile_env(self, **faults):
        env = self.gpu_env()
        self.cfstats = os.path.join(self.dir, "stubcufile.json")
        env["SB_STUBCUFILE_STATS"] = self.cfstats
        env.update({"SB_STUBCUFILE_" + k: str(v) for k, v in faults.items()})
        return env

    def cf(self):
        with open(self.cfstats) as f:
            return json.load(f)

    def run_cf(self, mode, rw, env=None, extra=""):
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nbs=64k\nioengine=libcufile\n"
                             "cuda_io=%s\ndirect=%d\nrw=%s\n%s"
                             % (self.dir, mode, mode == "cufile", rw, extra))
        for f in ("stubcufile.json", "stubcuda.json"):
            if os.path.exists(os.path.join(self.dir, f)):
                os.unlink(os.path.join(self.dir, f))
        return self.run_sb("--output-format=json", job, env=env or self.cufile_env())

    def test_cufile_mode_reads_and_writes_gpu_memory_through_cufile(self):
        for rw, key in (("write", "write_bytes"), ("randread", "read_bytes")):
            p = self.run_cf("cufile", rw)
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout)["jobs"][0]
            self.assertEqual(j["gds_mode"], "compat")  # no nvidia-fs: said, never silent
            d = "write" if rw == "write" else "read"
            self.assertEqual(j[d]["io_bytes"], MiB)
            c = self.cf()
            self.assertEqual(c[key], MiB)
            self.assertEqual(c["calls"]["cuFileRead" if d == "read" else "cuFileWrite"], 16)
            self.assertEqual((c["live_handles"], c["live_bufs"]), (0, 0))
            s = self.stub()
            self.assertEqual(s["d2h_bytes"], 0)  # no copies: straight to GPU memory
            self.assertEqual(s["h2d_bytes"], s["alloc_bytes"])  # the first fill only

    def test_p2p_when_nvidia_fs_is_there(self):
        p = self.run_cf("cufile", "write", self.cufile_env(NVFS=1))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["gds_mode"], "p2p")

    def test_posix_mode_copies_through_host_buffers(self):
        p = self.run_cf("posix", "write")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["gds_mode"], "posix")
        self.assertFalse(os.path.exists(self.cfstats))  # cuFile never loaded
        self.assertEqual(self.stub()["d2h_bytes"], MiB)
        p = self.run_cf("posix", "read")
        self.assertEqual(p.returncode, 0, p.stderr)
        s = self.stub()
        self.assertEqual(s["h2d_bytes"] - s["alloc_bytes"], MiB)

    def test_cufile_error_is_an_io_error(self):
        p = self.run_cf("cufile", "write", self.cufile_env(FAIL="write"))
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("storbench: j: write %s/data at offset 131072" % self.dir, p.stderr)
        self.assertIn("Input/output error", p.stderr)
        c = self.cf()
        self.assertEqual((c["live_handles"], c["live_bufs"]), (0, 0))

    def test_cufile_setup_errors(self):
        for what, text in (("open", "cuFileDriverOpen: error 5001"),
                           ("buf", "cuFileBufRegister failed (error 5011)"),
                           ("handle", "cuFileHandleRegister of %s/data failed" % self.dir)):
            with self.subTest(fail=what):
                p = self.run_cf("cufile", "read", self.cufile_env(FAIL=what))
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(text, p.stderr)

    def test_needs_direct_with_cufile_and_no_cudamalloc(self):
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nrw=write\nioengine=libcufile\n"
                             % self.dir)
        for mode in (["--parse-only"], []):
            p = self.run_sb(*mode, job, env=self.cufile_env())
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("%s:5: ioengine=libcufile with cuda_io=cufile needs direct=1" % job,
                          p.stderr)
            self.assertIn("add direct=1, or use cuda_io=posix", p.stderr)
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nrw=write\nioengine=libcufile\n"
                             "direct=1\niomem=cudamalloc\n" % self.dir)
        p = self.run_sb(job, env=self.cufile_env())
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:7: iomem=cudamalloc with ioengine=libcufile" % job, p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_no_cufile_library_names_it_and_the_package(self):
        only = os.path.join(self.dir, "lib")
        os.mkdir(only)
        os.symlink(os.path.join(STUBS, "libcuda.so.1"), os.path.join(only, "libcuda.so.1"))
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nrw=write\nioengine=libcufile\n"
                             "direct=1\n" % self.dir)
        p = self.run_sb(job, env={"LD_LIBRARY_PATH": only})
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:5: ioengine=libcufile: libcufile.so.0 not found" % job, p.stderr)
        self.assertIn("GPUDirect Storage", p.stderr)
        self.assertIn("or use cuda_io=posix", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "data")))

    def test_fio_example_job_files_parse_unchanged(self):
        """fio's examples/libcufile-cufile.fio and libcufile-posix.fio (its
        global section, one job of each kind), --parse-only=job, no driver"""
        for mode, direct in (("cufile", 1), ("posix", 0)):
            job = self.write_job(
                "[global]\nioengine=libcufile\ndirectory=${FIO_DIR}\ngpu_dev_ids=${GPU_DEV_IDS}\n"
                "cuda_io=%s\ndirect=%d\nbs=1m\nsize=1m\nnumjobs=16\nthread\n\n[read]\n"
                "rw=read\n\n[write]\nrw=write\n\n[randverify]\nrw=randwrite\nverify=md5\n"
                % (mode, direct))
            p = self.run_sb("--parse-only=job", job, env={"FIO_DIR": self.dir, "GPU_DEV_IDS": "0:1:2:3",
                                                      "LD_LIBRARY_PATH": self.dir})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(self.listing(), ["job.ini"])

    def test_normal_output_says_the_mode(self):
        job = self.write_job("[j]\nfilename=%s/data\nsize=1m\nbs=64k\nioengine=libcufile\n"
                             "direct=1\nrw=write\n" % self.dir)
        p = self.run_sb(job, env=self.cufile_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("  gpu          : gds_mode=compat\n", p.stdout)

    def test_enghelp_documents_the_engine(self):
        p = self.run_sb("--enghelp=libcufile")
        self.assertEqual(p.returncode, 0, p.stderr)
        for t in ("cuda_io", "cufile", "posix", "GPUDirect"):
            self.assertIn(t, p.stdout)


if __name__ == "__main__":
    unittest.main()
