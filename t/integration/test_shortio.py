"""test_shortio.py: a short transfer is never taken for a complete one.

The kernel (or cuFile, or glibc's AIO) may move fewer bytes than asked
without an error; fio then issues the rest again (io_u.c: the residual,
io_u->resid, re-queued from xfer_buf + bytes done).  storbench does the same
in one place for every engine: the I/O loop queues the
rest of any engine's short completion again through that engine
(run/resid.h), for the workload, the verify phase and the checkpoint and
train workloads alike: the data on disk is whole and every block is checked
(before: a torn block, 63 of 64 blocks checked, exit 0; a short verify read
reported as never_written; a checkpoint 10 KB short "verified"; with
ioengine=libcufile a short cuFileWrite reported as EIO and a short
cuFileRead as a verify failure); a rest that fails is that error (EFBIG,
ENOSPC: exit 3), never a torn block taken for a whole one.

Short transfers are injected with the fault shim's SHORT mode (t/faults/
sbfault.c): read/write and pread/pwrite move the first half and return that
count (sync, psync, libcufile with cuda_io=posix); for libaio the shim
halves the chosen iocb's byte count before io_submit hands it to the
kernel, for io_uring the chosen SQE's length as io_uring_submit flushes it,
for posixaio the aiocb's aio_nbytes as aio_read/aio_write take it: the
kernel (glibc's AIO thread) itself then moves half and completes the I/O
with that count, a genuine short completion.  libcufile's cuda_io=cufile
calls the stub cuFile (t/gpu/stubcufile.c), whose SB_STUBCUFILE_SHORT=N
makes every Nth cuFileRead and cuFileWrite move half.  Every engine x
{short write, short read} x {the I/O job's verify phase, checkpoint_verify,
the train workload's dataset_verify reads} must count every injected fault
(the shim's log), end with the data whole and report 0 verify failures.
RLIMIT_FSIZE gives the kernel's own short write that cannot be completed.

mmap has no short transfer to inject: its I/O is a memcpy into or out of a
mapping, which moves every byte or faults (SIGBUS past the end of the file:
test_faults.py's truncation cases); msync/fsync report the write-back.
"""
import errno
import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import unittest

from sbtest import BIN, SbCase, sanitizer_report
from test_faults import SHIM, engine_built, shim_env
from test_gpu import STUBS, have_stub
import sbtest

MiB = 1 << 20


def short_stubs():
    """the stubs beside the binary when their cuFile knows SB_STUBCUFILE_SHORT,
    else the source tree's (a binary built elsewhere, e.g. an older one)"""
    for d in (STUBS, os.path.join(sbtest.SRC, "build", "t", "gpu")):
        try:
            with open(os.path.join(d, "libcufile.so.0"), "rb") as f:
                if b"SB_STUBCUFILE_SHORT" in f.read():
                    return d
        except OSError:
            pass
    return STUBS


GPU_STUBS = short_stubs()


# the shim's call that reaches each engine's writes ("w") and reads ("r")
ENGINE_CALLS = {"sync": {"w": "write", "r": "read"}, "psync": {"w": "pwrite", "r": "pread"},
                "libaio": {"w": "io_submit:rw=w", "r": "io_submit:rw=r"},
                "io_uring": {"w": "io_uring_submit:rw=w", "r": "io_uring_submit:rw=r"},
                "posixaio": {"w": "aio:rw=w", "r": "aio:rw=r"}}
SHIM_IO_ENGINES = list(ENGINE_CALLS)


def fault_rule(eng, d, mode, keys=""):
    """the SBFAULT rule that makes engine eng's d ('r' or 'w') I/O MODE
    (SHORT, LOST), with keys (":nth=3", ...)"""
    call, _, rw = ENGINE_CALLS[eng][d].partition(":")
    return "%s:%s%s%s" % (call, mode, ":" + rw if rw else "", keys)


@functools.lru_cache(maxsize=None)
def engine_usable(eng):
    """built, and allowed here (io_uring may be disabled in a sandbox)"""
    if not engine_built(eng):
        return False
    p = subprocess.run([BIN, "--name=p", "--filename=probe.%d" % os.getpid(), "--ioengine=" + eng,
                        "--rw=write", "--bs=4k", "--size=8k", "--unlink=1"],
                       cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=60)
    return p.returncode == 0


def run_shim(case, rules, *args, log="100001"):
    """storbench under the shim (rules None: without it); returns the process
    and how many faults of kind log (100001 SHORT, 100002 LOST) the shim
    injected"""
    env = dict(os.environ, SBFAULT_LOG="1")
    if rules:
        env.update(shim_env(rules))  # after the ASan runtime in a sanitizer build
    p = subprocess.run([BIN, "--output-format=json", *args], cwd=case.dir, env=env,
                       capture_output=True, text=True, timeout=120)
    case.assertIsNone(sanitizer_report(p.stderr), "sanitizer report:\n" + p.stderr)
    case.assertNotIn("sbfault: SBFAULT rule", p.stderr)  # the shim took the rule
    return p, p.stderr.count("-> errno " + log)


def ckpt_args(eng, bs="256k"):
    return ["--name=ck", "--workload=checkpoint", "--ioengine=" + eng, "--bs=" + bs,
            "--drop_caches=0", "--model=llama3-8b", "--checkpoint_scale=0.00001",
            "--num_checkpoints_write=1", "--num_checkpoints_read=1",
            "--checkpoint_verify=1", "--keep_checkpoints=1"]


# a dataset of 3 files of 3,000,000 bytes: generated in 1 MiB pwrites (the
# middle one of each file can be lost without making the file short)
TRAIN = ("[t]\nworkload=train\ndataset_files=3\nsamples_per_file=2\nrecord_length=1500000\n"
         "batch_size=2\nread_threads=2\nepochs=1\ncomputation_time=0\nshuffle=both\n"
         "dataset_verify=1\ndata_dir=%s\nioengine=%s\n")


class ShimCase(SbCase):
    """a test under the fault shim (skipped without it), over the engines
    the shim reaches (test_lostwrite.py shares it)"""

    def setUp(self):
        super().setUp()
        if not os.path.exists(SHIM):
            self.skipTest("fault shim not built: " + SHIM)

    def engines(self):
        got = [e for e in SHIM_IO_ENGINES if engine_usable(e)]
        self.assertIn("psync", got)
        return got


class ShortIo(ShimCase):

    def test_every_engine_completes_short_writes_and_reads(self):
        """100% of the injected short transfers completed: the data whole,
        every block checked, 0 failures, exit 0"""
        for eng in self.engines():
            cases = [(fault_rule(eng, "w", "SHORT", ":nth=7"), 1, ()),
                     (fault_rule(eng, "r", "SHORT", ":nth=3"), 1, ()),
                     (fault_rule(eng, "w", "SHORT", ":skip=2:times=5") + "," +
                      fault_rule(eng, "r", "SHORT", ":skip=4:times=5"), 10, ("--iodepth=8",))]
            if eng in ("libaio", "io_uring", "posixaio"):
                cases.append((cases[2][0], 10, ("--iodepth=8", "--direct=1")))
            if eng in ("psync", "libaio"):  # io_submit_mode=offload's workers
                cases.append((cases[2][0], 10, ("--iodepth=4", "--io_submit_mode=offload")))
            if eng == "io_uring":  # the shim's other SQE kinds: registered, vectored
                cases.append((cases[2][0], 10, ("--iodepth=4", "--fixedbufs=1",
                                                "--registerfiles=1")))
                cases.append((cases[2][0], 10, ("--iodepth=4", "--nonvectored=0")))
            for rules, want, extra in cases:
                path = os.path.join(self.dir, "v.dat")
                if os.path.exists(path):
                    os.unlink(path)
                p, injected = run_shim(self, rules, "--name=v", "--filename=v.dat",
                                       "--ioengine=" + eng, "--rw=write", "--bs=16k",
                                       "--size=1m", "--verify=crc32c", *extra)
                what = "%s %s %s" % (eng, rules, " ".join(extra))
                self.assertEqual(injected, want, what + ": injected\n" + p.stderr)
                self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                self.assertEqual(j["error"], 0, what)
                self.assertEqual(j["write"]["io_bytes"], 1 << 20, what)
                self.assertEqual(j["verify"]["blocks_checked"], 64, what)
                self.assertEqual(j["verify"]["failures"], 0, what)
                with open(path, "rb") as f:  # whole: every 16 KiB block holds data
                    data = f.read()
                self.assertEqual(len(data), 1 << 20, what)
                self.assertFalse(any(data[o:o + 8192] == bytes(8192)
                                     for o in range(0, 1 << 20, 8192)), what + ": a torn block")

    def test_checkpoint_verify_with_short_writes_and_reads(self):
        def sizes(d):
            return sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(d) for n in ns)
        for eng in self.engines():
            clean = self.run_json(*ckpt_args(eng), "--checkpoint_folder=clean")
            want_bytes = clean["jobs"][0]["verify"]["bytes_checked"]
            self.assertEqual(clean["jobs"][0]["verify"]["failures"], 0, eng)
            rules = (fault_rule(eng, "w", "SHORT", ":skip=3:times=4") + "," +
                     fault_rule(eng, "r", "SHORT", ":skip=3:times=4"))
            p, injected = run_shim(self, rules, *ckpt_args(eng), "--checkpoint_folder=short")
            self.assertEqual(injected, 8, eng + ": " + p.stderr)
            self.assertEqual(p.returncode, 0, eng + ": " + p.stderr)
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            self.assertEqual(v["failures"], 0, eng)
            self.assertEqual(v["bytes_checked"], want_bytes, eng + ": bytes left unchecked")
            self.assertEqual(sizes(os.path.join(self.dir, "short")),
                             sizes(os.path.join(self.dir, "clean")),
                             eng + ": a checkpoint file is short")
            for d in ("clean", "short"):
                shutil.rmtree(os.path.join(self.dir, d))

    def test_train_verify_with_short_reads(self):
        """the train workload's reads (through its engine) cut short: every
        sample still checked whole (dataset_verify), 0 failures.  The
        dataset is generated with pwrite whatever the engine: a short write
        there is the psync case."""
        ds = os.path.join(self.dir, "ds")
        for eng in self.engines():
            job = self.write_job(TRAIN % (ds, eng))
            if eng == "sync":  # the generator's own short writes, completed
                p, injected = run_shim(self, "pwrite:SHORT:skip=1:times=3", "--datagen", job)
                self.assertEqual((injected, p.returncode), (3, 0), p.stderr)
            p, injected = run_shim(self, fault_rule(eng, "r", "SHORT", ":path=*/ds/*:skip=3:times=4"),
                                   job)
            self.assertEqual(injected, 4, eng + ": " + p.stderr)
            self.assertEqual(p.returncode, 0, eng + ": " + p.stderr)
            v = json.loads(p.stdout)["jobs"][0]["verify"]
            # DLIO's record: int(sqrt(1500000))^2 = 1224^2 bytes, 2 per file
            self.assertEqual((v["failures"], v["bytes_checked"]), (0, 3 * 2 * 1224 ** 2), eng)

    def test_async_engines_finish_a_short_write(self):
        """RLIMIT_FSIZE cuts the write that crosses it: libaio's and
        io_uring's completions then carry fewer bytes than asked.  The rest
        is written again and fails with the limit's own error, EFBIG, as
        fio's re-queued residual does (fio 3.33 io_u.c: io_u->resid, then
        the next submit fails with EFBIG): before, a bare "short write"
        EIO hid the reason (a full file system read as an I/O error)."""
        limit = (1 << 20) + 8192

        def pre():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        engines = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True).stdout
        ran = 0
        for eng in ("libaio", "io_uring"):
            if eng not in engines:
                continue
            path = os.path.join(self.dir, "a.dat")
            with open(path, "wb") as f:
                f.truncate(2 << 20)  # laid out already: only the job's writes meet the limit
            p = subprocess.run([BIN, "--output-format=json", "--name=w", "--filename=a.dat",
                                "--ioengine=" + eng, "--rw=write", "--bs=16k", "--size=2m"],
                               cwd=self.dir, preexec_fn=pre, capture_output=True, text=True,
                               timeout=60)
            if "setup" in p.stderr and "io_uring" in p.stderr:
                continue  # io_uring not allowed in this sandbox
            self.assertEqual(p.returncode, 3, "%s: %s" % (eng, p.stderr))
            self.assertIn("write a.dat at offset 1048576", p.stderr, eng)
            self.assertIn(os.strerror(errno.EFBIG), p.stderr, eng)
            self.assertNotIn("short write", p.stderr, eng)
            j = json.loads(p.stdout)["jobs"][0]
            self.assertEqual(j["error"], errno.EFBIG, eng)
            self.assertEqual(j["write"]["io_bytes"], 1 << 20, eng)
            os.unlink(path)
            ran += 1
        if not ran:
            self.skipTest("neither libaio nor io_uring in this build")


@unittest.skipUnless(have_stub(), "no stub CUDA driver and cuFile (make builds build/t/gpu)")
class LibcufileShort(SbCase):
    """ioengine=libcufile: a short cuFileWrite is completed, not
    taken for a failed one (EIO, exit 3), and a short cuFileRead does not
    leave the rest of the block unread (a verify failure).  The stub cuFile's
    SB_STUBCUFILE_SHORT=N moves half of every Nth cuFileRead and
    cuFileWrite; cuda_io=posix reads and writes with pread/pwrite, cut by
    the fault shim as for psync."""

    def run_cf(self, mode, rw, short=None, rules=None, bs="64k", extra=()):
        stats = os.path.join(self.dir, "stubcufile.json")
        for f in ("stubcufile.json", "data"):
            if os.path.exists(os.path.join(self.dir, f)):
                os.unlink(os.path.join(self.dir, f))
        env = dict(os.environ, LD_LIBRARY_PATH=GPU_STUBS + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
                   SB_STUBCUFILE_STATS=stats, SBFAULT_LOG="1")
        if short:
            env["SB_STUBCUFILE_SHORT"] = str(short)
        if rules:
            env.update(shim_env(rules))
        p = subprocess.run([BIN, "--output-format=json", "--name=j", "--filename=data",
                            "--size=1m", "--bs=" + bs, "--ioengine=libcufile", "--cuda_io=" + mode,
                            "--direct=%d" % (mode == "cufile"), "--rw=" + rw, *extra],
                           cwd=self.dir, env=env, capture_output=True, text=True, timeout=120)
        self.assertIsNone(sanitizer_report(p.stderr), "sanitizer report:\n" + p.stderr)
        stub = None
        if os.path.exists(stats):
            with open(stats) as f:
                stub = json.load(f)
        return p, stub, p.stderr.count("-> errno 100001")

    def assert_whole(self, p, d, what, verify=True, bs=64 << 10):
        self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
        self.assertNotIn("short", p.stderr, what)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["error"], 0, what)
        self.assertEqual((j[d]["io_bytes"], j[d]["total_ios"], j[d]["short_ios"]),
                         (MiB, MiB // bs, 0), what)
        if verify:
            v = j["verify"]
            self.assertEqual((v["failures"], v["blocks_checked"], v["bytes_checked"]),
                             (0, MiB // bs, MiB), what)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "data")), MiB, what)

    def test_cufile_short_writes_and_reads_completed(self):
        """a write job and its verify through cuFile, every Nth call short:
        exit 0, no verify failure, every byte moved exactly once (the stub's
        byte counts), exact counts in the results"""
        for short, rw, bs in ((2, "write", "64k"), (3, "randwrite", "16k"), (7, "write", "64k"),
                              (7, "randwrite", "16k"), (2, "write", "256k"), (3, "randwrite", "256k")):
            what = "SB_STUBCUFILE_SHORT=%d rw=%s bs=%s" % (short, rw, bs)
            p, stub, _ = self.run_cf("cufile", rw, short=short, bs=bs,
                                     extra=("--verify=crc32c",))
            self.assert_whole(p, "write", what, bs=sbtest_size(bs))
            self.assertGreater(stub["short_writes"], 0, what)
            self.assertGreater(stub["short_reads"], 0, what)
            self.assertEqual((stub["write_bytes"], stub["read_bytes"]), (MiB, MiB), what)
            self.assertEqual(stub["calls"]["cuFileWrite"],
                             MiB // sbtest_size(bs) + stub["short_writes"], what)

    def test_cufile_short_reads_of_a_read_job(self):
        """rw=read over a laid-out file: every block read whole into GPU
        memory, none counted short"""
        p, stub, _ = self.run_cf("cufile", "write")
        self.assertEqual(p.returncode, 0, p.stderr)
        for short in (2, 5):
            stats = os.path.join(self.dir, "stubcufile.json")
            env = dict(os.environ, LD_LIBRARY_PATH=GPU_STUBS, SB_STUBCUFILE_STATS=stats,
                       SB_STUBCUFILE_SHORT=str(short))
            p = subprocess.run([BIN, "--output-format=json", "--name=j", "--filename=data",
                                "--size=1m", "--bs=64k", "--ioengine=libcufile", "--direct=1",
                                "--rw=read"], cwd=self.dir, env=env, capture_output=True,
                               text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            r = json.loads(p.stdout)["jobs"][0]["read"]
            self.assertEqual((r["io_bytes"], r["total_ios"], r["short_ios"]), (MiB, 16, 0), short)
            with open(stats) as f:
                stub = json.load(f)
            self.assertGreater(stub["short_reads"], 0)
            self.assertEqual(stub["read_bytes"], MiB)

    @unittest.skipUnless(os.path.exists(SHIM), "fault shim not built: " + SHIM)
    def test_posix_short_writes_and_reads_completed(self):
        """cuda_io=posix: pread/pwrite cut by the shim, completed the same way"""
        rules = "pwrite:SHORT:path=*/data:skip=2:times=5,pread:SHORT:path=*/data:skip=4:times=5"
        p, _, injected = self.run_cf("posix", "write", rules=rules, extra=("--verify=crc32c",))
        self.assertEqual(injected, 10, p.stderr)
        self.assert_whole(p, "write", "cuda_io=posix")


def sbtest_size(text):
    """bytes of '64k', '1m'"""
    return int(text[:-1]) << {"k": 10, "m": 20}[text[-1]]


if __name__ == "__main__":
    unittest.main()
