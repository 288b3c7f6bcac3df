"""Fault injection: storbench under failing system calls, a full file system,
files truncated or deleted under it, and SIGINT/SIGTERM at chosen points.

Whatever goes wrong, storbench must never hang (every run here has a
timeout), never crash, exit 3 on an I/O error (1 when refused before any I/O,
130 when interrupted), say on stderr which job, file, offset and errno failed,
print valid JSON when JSON was asked for, remove what it created (the jobs
here use unlink=1, so everything they create is scratch) and leave every
other file exactly as it was: each case snapshots its directory (names,
sizes, mtimes, SHA-256 of the user's files) before and after.

How faults are injected:
- EIO/ENOSPC of a chosen call at a chosen offset: the LD_PRELOAD shim
  t/faults/sbfault.c ($(B)/t/faults/libsbfault.so; syntax in its opening
  comment).  It fails what storbench calls: read/write (sync), pread/pwrite
  (psync, layout, ML workloads), libaio's io_submit (libaio; the iocbs before
  the failing one are submitted, as the kernel does), fsync/fdatasync, open.
  Under ASan the ASan runtime is preloaded first (it insists on being first).
- io_uring submits in the kernel and mmap I/O is memory access: no library
  call per I/O for a shim to fail (the shim can cut io_uring's SQEs short or
  lose their writes: test_shortio.py, test_lostwrite.py).  They get file-system faults instead: a
  small tmpfs that fills up (root only), truncation and deletion.
- Signals at exact points: the shim's SIGINT/SIGTERM rules make the process
  signal itself at the Nth matching call (the Nth layout write, the last read
  of a stonewall group, ...); the N are drawn from a seeded random generator,
  so every run of the suite hits the same points.  Timed signals at seeded
  random delays cover the engines the shim cannot see."""
import errno
import functools
import hashlib
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import time
import unittest

from sbtest import BIN, CpuLoss, SbCase, asan_runtime, catches

# SB_SHIM: another build's shim (to run an older storbench under today's shim)
SHIM = os.environ.get("SB_SHIM") or os.path.join(os.path.dirname(os.path.abspath(BIN)), "t",
                                                 "faults", "libsbfault.so")
ENGINES = ["sync", "psync", "libaio", "io_uring", "mmap"]
SHIM_ENGINES = ["sync", "psync", "libaio"]
TIMEOUT = 30           # no run here takes more than a few seconds: longer is a hang
SEED = 9               # any fixed seed: the faults repeat
MiB = 1 << 20
IS_ROOT = os.geteuid() == 0


_ASAN = None


def shim_env(spec):
    """the environment that makes storbench run under the shim with SBFAULT=spec"""
    global _ASAN
    if _ASAN is None:
        _ASAN = asan_runtime()
    env = {"LD_PRELOAD": " ".join(_ASAN + [SHIM]), "SBFAULT": spec}
    if _ASAN:  # the sanitizer runtime itself calls read/write: only ours must fail
        env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0").lstrip(":")
    return env


@functools.lru_cache(maxsize=None)
def engine_built(name):
    p = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True, timeout=TIMEOUT)
    return any(line.split()[:1] == [name] for line in p.stdout.splitlines())


def snapshot(root, exclude=()):
    """{relative path: (kind, size, mtime_ns, sha256)} of everything under
    root; directories only by name (their mtimes change when scratch files
    come and go)"""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if any(rel == e or rel.startswith(e + "/") for e in exclude):
                continue
            st = os.lstat(p)
            if stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir",)
                continue
            digest = None
            if stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(p, "rb") as f:
                    for chunk in iter(lambda: f.read(MiB), b""):
                        h.update(chunk)
                digest = h.hexdigest()
            out[rel] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, digest)
    return out


class FaultCase(SbCase):
    """A scratch directory with two user files (precious.txt, and mine.bin
    that some jobs read), tmpfs mounts that tearDown always unmounts, and
    helpers that run storbench with a timeout and check what it left."""

    def setUp(self):
        super().setUp()
        self.mounts = []
        with open(os.path.join(self.dir, "precious.txt"), "w") as f:
            f.write("the user's data: storbench must not touch this\n")
        with open(os.path.join(self.dir, "mine.bin"), "wb") as f:
            f.write(random.Random(SEED).randbytes(MiB))

    def tearDown(self):
        for m in reversed(self.mounts):
            if subprocess.run(["umount", m], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", m], capture_output=True)
        super().tearDown()

    def tmpfs(self, name, size):
        if not IS_ROOT:
            self.skipTest("needs root (mounts a small tmpfs)")
        path = os.path.join(self.dir, name)
        os.mkdir(path)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d" % size, "sbfault", path],
                       check=True, capture_output=True, timeout=TIMEOUT)
        self.mounts.append(path)
        return path

    def need_engine(self, eng):
        if not engine_built(eng):
            self.skipTest("ioengine=%s is not in this build" % eng)

    def run_fault(self, job, spec=None, fmt="json", timeout=TIMEOUT):
        """storbench on job (under the shim when spec is given); fails the
        test when it does not finish within timeout"""
        try:
            return self.run_sb("--output-format=%s" % fmt, job, env=shim_env(spec) if spec else None,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            self.fail("storbench hung: no exit within %d s (SBFAULT=%s)" % (timeout, spec))

    def start(self, job, env=None, fmt="json"):
        e = dict(os.environ)
        e.update(env or {})
        return subprocess.Popen([BIN, "--output-format=%s" % fmt, job], cwd=self.dir, env=e,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(self, proc, timeout=TIMEOUT):
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            self.fail("storbench hung: no exit within %d s" % timeout)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def wait_for(self, path, size=None, proc=None, timeout=10):
        """poll until path exists (and has size bytes); False when proc ended first"""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                st = os.stat(path)
                if size is None or st.st_size == size:
                    return True
            except FileNotFoundError:
                pass
            if proc is not None and proc.poll() is not None:
                return False
            time.sleep(0.002)
        self.fail("%s never appeared" % path)

    def wait_io_open(self, path, proc, timeout=10):
        """poll until proc holds path open for its I/O phase: an fd not
        opened write-only (the layout's open is O_WRONLY, run/files.c
        sb_files_lay_out) or a mapping of it (mmap engine).  A fixed sleep
        after the layout raced the open on a loaded machine (load 14 on 2
        CPUs: the file was unlinked before the job opened it)."""
        end = time.monotonic() + timeout
        base = "/proc/%d" % proc.pid
        while time.monotonic() < end and proc.poll() is None:
            try:
                for fd in os.listdir(base + "/fd"):
                    try:
                        if os.readlink("%s/fd/%s" % (base, fd)) != path:
                            continue
                        with open("%s/fdinfo/%s" % (base, fd)) as f:
                            flags = next(int(l.split()[1], 8) for l in f if l.startswith("flags:"))
                        if flags & 3 != os.O_WRONLY:
                            return True
                    except (OSError, StopIteration):
                        pass
                with open(base + "/maps") as f:
                    if path in f.read():
                        return True
            except OSError:
                pass
            time.sleep(0.002)
        return False

    def doc(self, p):
        try:
            return json.loads(p.stdout)
        except ValueError as e:
            self.fail("invalid JSON on stdout (%s), exit %d\nstdout:\n%s\nstderr:\n%s"
                      % (e, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))

    def job_of(self, d, name):
        for j in d["jobs"]:
            if j["jobname"] == name:
                return j
        self.fail("job %s missing from the JSON" % name)

    def assert_exit(self, p, want, what=""):
        if p.returncode < 0:
            self.fail("storbench died of signal %d %s\nstderr:\n%s" % (-p.returncode, what, p.stderr[-3000:]))
        self.assertEqual(p.returncode, want, "%s\nstderr:\n%s" % (what, p.stderr[-3000:]))

    def assert_untouched(self, before, exclude=(), what=""):
        """everything storbench created is gone and everything else is as it was"""
        self.assertEqual(snapshot(self.dir, exclude), before,
                         "files created, changed or left behind %s" % what)


def io_job(eng, rw, path, size=4 * MiB, extra=""):
    return ("[faulty]\nioengine=%s\nrw=%s\nbs=64k\nsize=%d\nfilename=%s\nunlink=1\niodepth=4\n%s"
            % (eng, rw, size, path, extra))


class EioTest(FaultCase):
    """EIO (and ENOSPC) from the shim at byte 1 MiB + 4 KiB of the job's
    file: the 64 KiB unit at offset 1 MiB fails, in sync, psync and libaio,
    reads and writes.  Exit 3, valid JSON with the job's error set, scratch
    removed, user files untouched."""

    CALLS = {("sync", "read"): "read", ("sync", "write"): "write",
             ("psync", "read"): "pread", ("psync", "write"): "pwrite",
             ("libaio", "read"): "io_submit", ("libaio", "write"): "io_submit"}

    def eio_run(self, eng, rw, err="EIO", fmt="json"):
        job = self.write_job(io_job(eng, rw, "data.sb"))
        before = snapshot(self.dir)
        spec = "%s:%s:offset=%d:path=*/data.sb" % (self.CALLS[(eng, rw)], err, MiB + 4096)
        p = self.run_fault(job, spec, fmt=fmt)
        what = "(%s rw=%s SBFAULT=%s)" % (eng, rw, spec)
        self.assert_exit(p, 3, what)
        self.assert_untouched(before, what=what)
        return p, what

    def test_eio_and_enospc_exit_3_json_error_set(self):
        for eng, rw in self.CALLS:
            for err in ("EIO", "ENOSPC"):
                with self.subTest(engine=eng, rw=rw, errno=err):
                    if eng == "libaio":
                        self.need_engine(eng)
                    p, what = self.eio_run(eng, rw, err)
                    j = self.job_of(self.doc(p), "faulty")
                    self.assertEqual(j["error"], getattr(errno, err), what)
                    # the units before the failing one were done and counted
                    self.assertGreater(j[rw]["io_bytes"], 0, what)
                    self.assertLessEqual(j[rw]["io_bytes"], MiB, what)

    def test_fsync_and_fdatasync_eio(self):
        for eng in ("sync", "psync", "libaio"):
            for call in ("fsync", "fdatasync"):
                with self.subTest(engine=eng, call=call):
                    if eng == "libaio":
                        self.need_engine(eng)
                    job = self.write_job(io_job(eng, "write", "data.sb", extra="%s=8\n" % call))
                    before = snapshot(self.dir)
                    p = self.run_fault(job, "%s:EIO:path=*/data.sb:nth=2" % call)
                    self.assert_exit(p, 3, call)
                    self.assertEqual(self.job_of(self.doc(p), "faulty")["error"], errno.EIO)
                    self.assert_untouched(before, what=call)

    def test_eio_message_on_stderr_and_in_json(self):
        """the error on stderr in every output format, and the JSON's per-job
        "error_message" naming job, file (as the job names it), offset,
        operation and errno text"""
        for eng, rw in self.CALLS:
            for fmt in ("json", "normal"):
                with self.subTest(engine=eng, rw=rw, fmt=fmt):
                    if eng == "libaio":
                        self.need_engine(eng)
                    p, what = self.eio_run(eng, rw, "EIO", fmt=fmt)
                    for needle in ("faulty", "data.sb", "offset %d" % MiB, rw, os.strerror(errno.EIO)):
                        self.assertIn(needle, p.stderr, "%s: stderr lacks %r" % (what, needle))
                    if fmt == "json":
                        msg = self.job_of(self.doc(p), "faulty").get("error_message", "")
                        for needle in ("data.sb", str(MiB), os.strerror(errno.EIO)):
                            self.assertIn(needle, msg, "%s: error_message lacks %r" % (what, needle))

    def layout_fails(self, spec, err, what):
        """laying out the file fails: an I/O error of the run (exit 3), valid
        JSON with the job's error and error_message, the half-laid-out file
        removed"""
        job = self.write_job(io_job("psync", "read", "data.sb"))
        before = snapshot(self.dir)
        p = self.run_fault(job, spec)
        self.assert_exit(p, 3, what)
        for needle in ("faulty", "lay out", "data.sb", os.strerror(err)):
            self.assertIn(needle, p.stderr, what)
        # reported once (notes, such as the sync engine's depth cap, are not errors)
        self.assertEqual(sum(l.startswith("storbench:") for l in p.stderr.splitlines()), 1, p.stderr)
        j = self.job_of(self.doc(p), "faulty")
        self.assertEqual(j["error"], err, what)
        self.assertIn("lay out", j["error_message"], what)
        self.assertEqual(j["read"]["io_bytes"], 0, what)  # nothing was measured
        self.assert_untouched(before, what=what)

    def test_layout_write_fails_nothing_left(self):
        """EIO while the file is filled for a read job"""
        self.layout_fails("pwrite:EIO:path=*/data.sb:nth=2", errno.EIO, "layout write")

    def test_open_fails_at_layout_nothing_left(self):
        """ENOSPC/EIO when the job's file is created"""
        for err in ("ENOSPC", "EIO"):
            with self.subTest(errno=err):
                self.layout_fails("open:%s:path=*/data.sb:rw=w" % err, getattr(errno, err), err)

    def test_open_fails_at_run_start(self):
        """the file is laid out, then opening it for the run fails (EIO on
        the second open for writing): the laid-out file is removed"""
        job = self.write_job(io_job("psync", "write", "data.sb"))
        before = snapshot(self.dir)
        p = self.run_fault(job, "open:EIO:path=*/data.sb:rw=w:nth=2")
        self.assert_exit(p, 1, "open at run start")
        self.assertIn("data.sb", p.stderr)
        self.assertIn(os.strerror(errno.EIO), p.stderr)
        self.assert_untouched(before)

    def test_bad_sbfault_rule_is_refused(self):
        """a typo in SBFAULT stops the process (status 99): no test can
        silently inject nothing"""
        p = self.run_fault(self.write_job(io_job("psync", "read", "data.sb")), "pread:EIOO")
        self.assertEqual(p.returncode, 99)
        self.assertIn("sbfault: SBFAULT rule 'pread:EIOO'", p.stderr)


class WorkloadEioTest(FaultCase):
    """I/O errors in sweeps and the ML workloads (psync): exit 3, the error set
    in valid JSON, no hang (train's readers and consumers all stop), the
    checkpoint folder removed; of a dataset only whole files stay (it is
    kept for the next run by design)."""

    def test_checkpoint(self):
        job = self.write_job(CKPT_JOB)
        for rule, err in (("pwrite:EIO:path=*/ck/*:nth=5", errno.EIO),
                          ("fsync:EIO:path=*/ck/*:nth=3", errno.EIO),
                          ("pread:EIO:path=*/ck/*:nth=4", errno.EIO),
                          ("open:ENOSPC:path=*/ck/*:rw=w:nth=3", errno.ENOSPC),
                          ("open:EIO:path=*/ck/*:rw=r:nth=2", errno.EIO)):
            with self.subTest(rule=rule):
                before = snapshot(self.dir)
                p = self.run_fault(job, rule)
                self.assert_exit(p, 3, rule)
                self.assertEqual(self.job_of(self.doc(p), "ck")["error"], err, rule)
                self.assert_untouched(before, what=rule)

    def test_sweep(self):
        """an I/O error in one sweep point: that point's error is set, the
        sweep goes on, exit 3"""
        job = self.write_job(SWEEP_JOB)
        for rule, point in (("pread:EIO:path=*/sweep.sb:nth=40", 2),
                            ("pwrite:EIO:path=*/sweep.sb:nth=5", 3)):
            with self.subTest(rule=rule):
                before = snapshot(self.dir)
                p = self.run_fault(job, rule)
                self.assert_exit(p, 3, rule)
                s = self.doc(p)["sweep"]
                self.assertEqual([q["error"] for q in s["points"]],
                                 [errno.EIO if q["point"] == point else 0 for q in s["points"]])
                self.assert_untouched(before, what=rule)

    def test_train(self):
        job = self.write_job(TRAIN_JOB)
        for rule, err in (("pread:EIO:path=*/ds/*:nth=5", errno.EIO),
                          ("open:EIO:path=*/ds/*:rw=r:nth=7", errno.EIO),
                          ("pwrite:ENOSPC:path=*/ds/*:nth=3", errno.ENOSPC)):
            with self.subTest(rule=rule):
                shutil.rmtree(os.path.join(self.dir, "ds"), ignore_errors=True)
                before = snapshot(self.dir, ("ds",))
                p = self.run_fault(job, rule)
                self.assert_exit(p, 3, rule)
                self.assertEqual(self.job_of(self.doc(p), "t")["error"], err, rule)
                self.assert_untouched(before, ("ds",), what=rule)
                for d, _, files in os.walk(os.path.join(self.dir, "ds")):
                    for f in files:
                        self.assertEqual(os.path.getsize(os.path.join(d, f)), 2 * 65536, f)


class NoSpaceTest(FaultCase):
    """ENOSPC from a real file system: a small tmpfs (root only)."""

    def test_too_big_refused_up_front(self):
        mnt = self.tmpfs("mnt", 4 * MiB)
        for eng in ENGINES:
            with self.subTest(engine=eng):
                self.need_engine(eng)
                job = self.write_job(io_job(eng, "write", os.path.join(mnt, "data.sb"), 8 * MiB))
                before = snapshot(self.dir)
                p = self.run_fault(job)
                self.assert_exit(p, 1, eng)
                self.assertIn("not enough free space", p.stderr)
                self.assertIn(mnt, p.stderr)
                self.assert_untouched(before, what=eng)

    def fill_during_run(self, eng):
        mnt = self.tmpfs("mnt-" + eng, 8 * MiB)
        data = os.path.join(mnt, "data.sb")
        # fallocate=none: the file is sparse after layout, every write needs a
        # new page; rate= keeps the run going while the filler takes the rest
        job = self.write_job(io_job(eng, "randwrite", data, 6 * MiB, "fallocate=none\nrate=8m\n"))
        before = snapshot(self.dir)
        proc = self.start(job)
        self.wait_for(data, proc=proc)
        filler = os.path.join(mnt, "filler")
        with open(filler, "wb") as f:
            try:
                while True:
                    f.write(b"\xa5" * 65536)
                    f.flush()
            except OSError as e:
                self.assertEqual(e.errno, errno.ENOSPC)
        p = self.finish(proc)
        os.unlink(filler)
        return p, before

    def test_fills_up_during_run(self):
        """a tmpfs filled by another file after layout: exit 3, ENOSPC in the
        JSON, scratch removed (mmap: see test_fills_up_during_run_mmap)"""
        for eng in ("sync", "psync", "libaio", "io_uring"):
            with self.subTest(engine=eng):
                self.need_engine(eng)
                p, before = self.fill_during_run(eng)
                self.assert_exit(p, 3, eng)
                self.assertEqual(self.job_of(self.doc(p), "faulty")["error"], errno.ENOSPC, eng)
                self.assert_untouched(before, what=eng)

    def test_fills_up_during_run_stderr(self):
        """the ENOSPC is on stderr in JSON mode"""
        for eng in ("sync", "psync", "libaio", "io_uring"):
            with self.subTest(engine=eng):
                self.need_engine(eng)
                p, _ = self.fill_during_run(eng)
                self.assertIn(os.strerror(errno.ENOSPC), p.stderr, eng)
                self.assertIn("data.sb", p.stderr, eng)

    def test_fills_up_during_run_mmap(self):
        """a store into a sparse mapping of a full
        tmpfs raises SIGBUS; it must be an I/O error (exit 3, JSON)"""
        self.need_engine("mmap")
        p, before = self.fill_during_run("mmap")
        self.assert_exit(p, 3, "mmap")
        self.assertNotEqual(self.job_of(self.doc(p), "faulty")["error"], 0)
        self.assert_untouched(before, what="mmap")


class TruncateDeleteTest(FaultCase):
    """The job's file truncated or deleted while the job runs, every engine.
    Truncation: reads past the new end get end-of-file, an I/O error: exit 3
    with valid JSON.  Deletion: the open file still works on Linux, so the
    run ends normally (exit 0) and the name stays gone."""

    def run_and(self, eng, action, rw, runtime):
        data = os.path.join(self.dir, "data.sb")
        job = self.write_job(io_job(eng, rw, "data.sb", 4 * MiB,
                                    "time_based\nruntime=%s\n" % runtime))
        before = snapshot(self.dir)
        proc = self.start(job)
        if self.wait_for(data, 4 * MiB, proc=proc) and self.wait_io_open(data, proc):
            time.sleep(0.05)  # into the I/O phase
            try:
                action(data)
            except FileNotFoundError:
                pass
        p = self.finish(proc)
        return p, before

    # runtime=20s: the truncation comes inside the run however late a loaded
    # machine lets this process make it; a job that stops at the error ends
    # long before (by 2.5 s on an idle machine, later by what load took)
    def test_truncate(self):
        for eng in ("sync", "psync", "libaio", "io_uring"):
            with self.subTest(engine=eng):
                self.need_engine(eng)
                with CpuLoss() as lost:
                    p, before = self.run_and(eng, lambda f: os.truncate(f, MiB + 1000),
                                             "randread", "20s")
                self.assert_exit(p, 3, eng)
                j = self.job_of(self.doc(p), "faulty")
                self.assertEqual(j["error"], errno.EIO, eng)
                self.assertLess(j["read"]["runtime"], 10000, eng)  # stopped at the error
                self.assertLess(j["read"]["runtime"], 2500 + 1000 * lost.s, eng)
                self.assert_untouched(before, what=eng)

    def test_truncate_mmap(self):
        """a file truncated under mmap is an I/O error, not a SIGBUS death
        (not a SIGBUS death: exit 135, no output, scratch left)"""
        self.need_engine("mmap")
        p, before = self.run_and("mmap", lambda f: os.truncate(f, MiB + 1000), "randread", "20s")
        self.assert_exit(p, 3, "mmap")
        self.assertNotEqual(self.job_of(self.doc(p), "faulty")["error"], 0)
        self.assert_untouched(before, what="mmap")

    def test_delete(self):
        for eng in ENGINES:
            with self.subTest(engine=eng):
                self.need_engine(eng)
                p, before = self.run_and(eng, os.unlink, "randrw", "400ms")
                self.assert_exit(p, 0, eng)
                j = self.job_of(self.doc(p), "faulty")
                self.assertEqual(j["error"], 0, eng)
                self.assertGreater(j["read"]["io_bytes"] + j["write"]["io_bytes"], 0, eng)
                self.assert_untouched(before, what=eng)


IO_JOB = """[global]
ioengine=%s
bs=64k
unlink=1
iodepth=4
[g1]
filename=g1.sb
size=4m
rw=read
[user]
filename=mine.bin
rw=read
[g2]
stonewall
filename=g2.sb
size=2m
rw=write
"""

SWEEP_JOB = """[global]
ioengine=psync
filename=sweep.sb
size=2m
unlink=1
sweep.rw = read | write
sweep.bs = 64k | 128k
[j]
"""

CKPT_JOB = """[ck]
workload=checkpoint
ioengine=psync
bs=256k
drop_caches=0
checkpoint_folder=ck
model=llama3-8b
checkpoint_scale=0.00002
num_checkpoints_write=2
num_checkpoints_read=1
"""

TRAIN_JOB = """[t]
workload=train
ioengine=psync
dataset_files=8
samples_per_file=2
record_length=64k
bs=64k
batch_size=2
read_threads=2
epochs=2
computation_time=1ms
data_dir=ds
"""


class SignalTest(FaultCase):
    """SIGINT and SIGTERM at seeded random points: exit 130, valid JSON,
    the scratch files removed, the user's files untouched.  The shim sends
    the signal at the Nth matching call, N drawn from the range that is
    the phase named (layout writes come in 1 MiB units; the I/O in bs units)."""

    def setUp(self):
        super().setUp()
        self.rng = random.Random("%s.%s" % (SEED, self.id()))

    def sig(self):
        return self.rng.choice(["SIGINT", "SIGTERM"])

    def interrupt(self, job, rule, exclude=()):
        before = snapshot(self.dir, exclude)
        p = self.run_fault(job, rule)
        self.assert_exit(p, 130, rule)
        d = self.doc(p)
        for j in d["jobs"]:  # an interrupt is not an I/O error
            self.assertEqual(j["error"], 0, "%s: job %s: %s" % (rule, j["jobname"], p.stderr))
        self.assert_untouched(before, exclude, what=rule)
        return d

    def test_io_job_layout_early_late_between_groups(self):
        job = self.write_job(IO_JOB % "psync")
        points = [  # g1: 4 layout writes of 1 MiB, then 64 reads of 64 KiB
            ("layout", "pwrite:%s:path=*/g1.sb:nth=%d" % (self.sig(), self.rng.randint(1, 4))),
            ("early", "pread:%s:path=*/g1.sb:nth=%d" % (self.sig(), self.rng.randint(1, 8))),
            ("late", "pread:%s:path=*/g1.sb:nth=%d" % (self.sig(), self.rng.randint(48, 63))),
            ("between groups", "pread:%s:path=*/g1.sb:nth=64" % self.sig()),
            ("group 2", "pwrite:%s:path=*/g2.sb:nth=%d" % (self.sig(), self.rng.randint(1, 32))),
        ]
        for phase, rule in points:
            with self.subTest(phase=phase, rule=rule):
                d = self.interrupt(job, rule)
                g1, g2 = self.job_of(d, "g1"), self.job_of(d, "g2")
                if phase == "layout":
                    self.assertEqual(g1["read"]["io_bytes"], 0)
                if phase in ("early", "late"):
                    self.assertGreater(g1["read"]["io_bytes"], 0)
                    self.assertLess(g1["read"]["io_bytes"], 4 * MiB)
                if phase != "group 2":  # the next group never starts
                    self.assertEqual(g2["write"]["io_bytes"], 0)

    def test_timed_signals_every_engine(self):
        """a signal at a random moment of layout or I/O (the process may be
        blocked in io_getevents, io_uring_wait_cqe, a rate-limit sleep)"""
        for eng in ENGINES:
            with self.subTest(engine=eng):
                self.need_engine(eng)
                job = self.write_job(IO_JOB % eng + "rate=16m\ntime_based\nruntime=3s\n")
                before = snapshot(self.dir)
                proc = self.start(job)
                self.wait_for(os.path.join(self.dir, "g1.sb"), proc=proc)
                time.sleep(self.rng.uniform(0, 0.4))
                proc.send_signal(getattr(signal, self.sig()))
                p = self.finish(proc)
                self.assert_exit(p, 130, eng)
                self.doc(p)
                self.assert_untouched(before, what=eng)

    def test_sweep(self):
        job = self.write_job(SWEEP_JOB)
        points = [  # point 1: read 64k (2 layout writes, 32 reads); point 2: read 128k (16)
            ("layout", "pwrite:%s:path=*/sweep.sb:nth=%d" % (self.sig(), self.rng.randint(1, 2))),
            ("point 1", "pread:%s:path=*/sweep.sb:nth=%d" % (self.sig(), self.rng.randint(1, 31))),
            ("between points", "pread:%s:path=*/sweep.sb:nth=32" % self.sig()),
            ("point 2", "pread:%s:path=*/sweep.sb:nth=%d" % (self.sig(), self.rng.randint(33, 47))),
        ]
        for phase, rule in points:
            with self.subTest(phase=phase, rule=rule):
                d = self.interrupt(job, rule)
                self.assertTrue(d["sweep"]["interrupted"])
                self.assertLess(d["sweep"]["finished_points"], 4)

    def test_checkpoint(self):
        job = self.write_job(CKPT_JOB)
        points = [  # 2 checkpoints of 16 files written (40 pwrites), 1 read back (22 preads)
            ("write", "pwrite:%s:path=*/ck/*:nth=%d" % (self.sig(), self.rng.randint(1, 40))),
            ("fsync", "fsync:%s:path=*/ck/*:nth=%d" % (self.sig(), self.rng.randint(1, 32))),
            ("read", "pread:%s:path=*/ck/*:nth=%d" % (self.sig(), self.rng.randint(1, 22))),
        ]
        for phase, rule in points:
            with self.subTest(phase=phase, rule=rule):
                self.interrupt(job, rule)
                self.assertFalse(os.path.exists(os.path.join(self.dir, "ck")))

    def test_train(self):
        """the dataset is kept after a run by design (the next run reuses
        it): only whole files may stay, never a partial one"""
        job = self.write_job(TRAIN_JOB)
        points = [  # 8 dataset files of 128 KiB (a pwrite each), then 2 epochs of 16 reads
            ("dataset", "pwrite:%s:path=*/ds/*:nth=%d" % (self.sig(), self.rng.randint(1, 7))),
            ("epoch 1", "pread:%s:path=*/ds/*:nth=%d" % (self.sig(), self.rng.randint(1, 15))),
            ("epoch 2", "pread:%s:path=*/ds/*:nth=%d" % (self.sig(), self.rng.randint(17, 31))),
        ]
        for phase, rule in points:
            with self.subTest(phase=phase, rule=rule):
                shutil.rmtree(os.path.join(self.dir, "ds"), ignore_errors=True)
                self.interrupt(job, rule, exclude=("ds",))
                for d, _, files in os.walk(os.path.join(self.dir, "ds")):
                    for f in files:
                        self.assertEqual(os.path.getsize(os.path.join(d, f)), 2 * 65536, f)

    def test_train_signal_while_readers_wait(self):
        """regression: a signal while the readers waited for the consumers
        (prefetch window full, consumers computing) hung the run for ever:
        the consumers left without waking the readers"""
        job = self.write_job(TRAIN_JOB.replace("computation_time=1ms", "computation_time=100ms"))
        last = os.path.join(self.dir, "ds", "train", "img_7_of_8.npz")
        before = snapshot(self.dir, ("ds",))
        for sig in ("SIGINT", "SIGTERM"):
            with self.subTest(signal=sig):
                proc = self.start(job)
                self.wait_for(last, 2 * 65536, proc=proc)  # the data set of the first round stays
                # a loaded machine may not have started the second round's storbench yet:
                # its handler first, then the signal
                deadline = time.monotonic() + 60
                while not catches(proc.pid, getattr(signal, sig)) and proc.poll() is None and \
                        time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(self.rng.uniform(0.1, 0.3))
                proc.send_signal(getattr(signal, sig))
                p = self.finish(proc, timeout=10)
                self.assert_exit(p, 130, sig)
                self.assertEqual(self.job_of(self.doc(p), "t")["error"], 0)
                self.assert_untouched(before, ("ds",), what=sig)



if __name__ == "__main__":
    unittest.main()
