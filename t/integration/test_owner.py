"""Ownership by more than a pid.  The user.storbench mark
names host, boot id, PID namespace, pid and start time, and `--cleanup`
decides strictly: a run in another PID namespace (a container with the same
hostname) is never taken for a dead pid 1; a recycled pid (same pid, other
start time) is dead.  kv_profile=mlperf .npy files are marked; a rerun over
a killed run's leftovers (files, .npy entries, checkpoint folders) says so
and names `storbench --cleanup DIR`, over a running storbench's files says
that.  Where user xattrs are missing, the folder's .storbench-owner record
holds the marks (tested with a preload that makes every xattr call fail
with ENOTSUP, as on ramfs or NFSv3)."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from sbtest import BIN, SbCase, asan_runtime

XATTR = "user.storbench"


def proc_start(pid):
    with open("/proc/%d/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[19])


def my_pidns():
    return os.stat("/proc/self/ns/pid").st_ino


def boot_id():
    with open("/proc/sys/kernel/random/boot_id") as f:
        return f.read().strip()


def mark_v2(path, pid, start, pidns=None, boot=None, host=None, state="made", job="forged"):
    """a version 2 mark as os/scratch.c writes it, put on path (its inode)"""
    st = os.lstat(path)
    m = ("storbench 2 pid=%d start=%d boot=%s host=%s pidns=%d dev=%d ino=%d state=%s job=%s"
         % (pid, start, boot or boot_id(), host or os.uname().nodename,
            my_pidns() if pidns is None else pidns, st.st_dev, st.st_ino, state, job))
    os.setxattr(path, XATTR, m.encode())


def xattrs_work(d):
    p = os.path.join(d, ".xattr-probe")
    open(p, "w").close()
    try:
        os.setxattr(p, "user.storbench-probe", b"1")
        return True
    except OSError:
        return False
    finally:
        os.unlink(p)


def gone_pid():
    """the pid of a process that ended and was reaped"""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


class OwnerCase(SbCase):
    def need_xattrs(self):
        if not xattrs_work(self.dir):
            self.skipTest("the file system under %s keeps no user xattrs" % self.dir)

    def start(self, argv, ready, env=None):
        e = dict(os.environ)
        e.update(env or {})
        proc = subprocess.Popen(argv, cwd=self.dir, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=e)
        self.addCleanup(self.reap, proc)
        t0 = time.time()
        while not ready():
            if proc.poll() is not None:
                self.fail("storbench ended early: " + proc.stderr.read().decode())
            self.assertLess(time.time() - t0, 60, "storbench never made its files")
            time.sleep(0.05)
        time.sleep(0.2)
        return proc

    @staticmethod
    def reap(proc):
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stderr.close()

    def killed(self, argv, ready, env=None):
        proc = self.start(argv, ready, env)
        proc.kill()
        proc.wait()
        return proc.pid

    def cleanup_run(self, d, dry=False, env=None):
        p = self.run_sb("--cleanup", d, *(["--dry-run"] if dry else []), env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout


class PidNamespaceTest(OwnerCase):
    """a run in another PID namespace with the same hostname: its pid is 1
    there; --cleanup from outside must not take it for the host's pid 1"""

    def test_cleanup_leaves_a_run_in_another_pid_namespace(self):
        self.need_xattrs()
        if os.geteuid() != 0:
            self.skipTest("unshare --pid needs root")
        if not shutil.which("unshare"):
            self.skipTest("no unshare")
        probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "true"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            self.skipTest("unshare --pid is not permitted here: " + probe.stderr.strip())
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        data = os.path.join(work, "w.dat")

        def marked():
            try:
                return b"pid=1 " in os.getxattr(data, XATTR)
            except OSError:
                return False
        proc = self.start(["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", BIN, "--name=w",
                           "--filename=" + data, "--size=2m", "--rw=write", "--ioengine=psync",
                           "--time_based", "--runtime=120", "--unlink=1"], marked)
        ino = os.stat(data).st_ino
        for dry in (True, False):
            out = self.cleanup_run(work, dry)
            self.assertIn("skipped %s: cannot tell whether its creator is still running" % data, out)
            self.assertIn("PID namespace", out)
            self.assertNotIn("remove", out.split("storbench --cleanup")[0])
            self.assertEqual(os.stat(data).st_ino, ino)  # still its file
        self.assertIsNone(proc.poll())
        # the run ends normally (SIGTERM to storbench, pid 1 of the namespace)
        with open("/proc/%d/task/%d/children" % (proc.pid, proc.pid)) as f:
            inner = int(f.read().split()[0])
        os.kill(inner, signal.SIGTERM)
        proc.wait(timeout=60)
        self.assertFalse(os.path.exists(data))  # unlink=1: removed by its own run


class RecycledPidTest(OwnerCase):
    """every field of a version 2 mark is judged: a live pid with another
    start time is a recycled pid, so its creator is dead"""

    def test_liveness_rules(self):
        self.need_xattrs()
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        me, start = os.getpid(), proc_start(os.getpid())
        cases = {  # name: (mark fields, removed)
            "recycled-self": (dict(pid=me, start=start + 1), True),
            "recycled-init": (dict(pid=1, start=proc_start(1) + 7), True),
            "reaped": (dict(pid=gone_pid(), start=1), True),
            "other-boot": (dict(pid=me, start=start, pidns=my_pidns() + 1,
                                boot="00000000-0000-0000-0000-000000000000"), True),
            "live": (dict(pid=me, start=start), False),
            "other-ns-live-pid": (dict(pid=me, start=start + 1, pidns=my_pidns() + 1), False),
            "other-ns-no-pid": (dict(pid=gone_pid(), start=1, pidns=my_pidns() + 1), False),
            "no-ns": (dict(pid=gone_pid(), start=1, pidns=0), False),
            "other-host": (dict(pid=gone_pid(), start=1, host="elsewhere.example"), False),
        }
        for name, (fields, _) in cases.items():
            path = os.path.join(work, name)
            with open(path, "w") as f:
                f.write(name.ljust(8192))
            mark_v2(path, **fields)
        out = self.cleanup_run(work, dry=True)
        for name, (_, removed) in cases.items():
            path = os.path.join(work, name)
            self.assertEqual(("would remove %s " % path) in out, removed, name + ":\n" + out)
        self.assertIn("skipped %s: its creator is still running" % os.path.join(work, "live"), out)
        for name in ("other-ns-live-pid", "other-ns-no-pid"):
            self.assertIn("skipped %s: cannot tell whether its creator is still running: made "
                          "in another PID namespace" % os.path.join(work, name), out)
        self.assertIn("made on another host", out)

        # a run that meets the recycled pid's file says it is a leftover
        left = os.path.join(work, "recycled-self")
        p = self.run_sb("--name=r", "--filename=" + left, "--rw=read", "--size=4k",
                        "--ioengine=psync")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(left + ": left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + work, p.stderr)
        self.assertTrue(os.path.exists(left))  # not this run's to remove

        out = self.cleanup_run(work)
        for name, (_, removed) in cases.items():
            self.assertEqual(os.path.exists(os.path.join(work, name)), not removed, name)


KV = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
      "--head_dim=16", "--prompt_tokens=64", "--prompt_tokens_min=64", "--output_tokens=64",
      "--output_tokens_min=64", "--kv_users=2", "--kv_memory_capacity=0", "--kv_think_time=0",
      "--kv_gpu_mem=0", "--kv_disk_capacity=64m"]


class KvNpyTest(OwnerCase):
    """kv_profile=mlperf .npy entry files carry the mark"""

    def npys(self, folder):
        return sorted(n for n in os.listdir(folder) if n.endswith(".npy")) \
            if os.path.isdir(folder) else []

    def test_killed_run_leftovers(self):
        self.need_xattrs()
        folder = os.path.join(self.dir, "kvcache")
        self.killed([BIN, *KV, "--directory=" + self.dir, "--kv_requests=0", "--runtime=120"],
                    lambda: len(self.npys(folder)) >= 3)
        names = self.npys(folder)
        for n in names:
            path = os.path.join(folder, n)
            m = os.getxattr(path, XATTR).decode()
            self.assertTrue(m.startswith("storbench 2 "), m)
            self.assertIn(" ino=%d " % os.lstat(path).st_ino, m)
        # the rerun refuses before its first I/O and names the cure
        p = self.run_sb(*KV, "--directory=" + self.dir, "--kv_requests=5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + folder, p.stderr)
        self.assertNotIn("File exists", p.stderr)
        self.assertEqual(self.npys(folder), names)  # nothing removed by the rerun
        out = self.cleanup_run(self.dir)
        self.assertIn("removed %d files and 1 folders" % len(names), out)
        self.assertFalse(os.path.exists(folder))
        p = self.run_sb(*KV, "--directory=" + self.dir, "--kv_requests=5")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.listdir(self.dir), [])

    def test_kept_and_live(self):
        self.need_xattrs()
        folder = os.path.join(self.dir, "kvcache")
        p = self.run_sb(*KV, "--directory=" + self.dir, "--kv_requests=20", "--keep_kvcache=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        names = self.npys(folder)
        self.assertTrue(names)
        for n in names:
            self.assertIn(b" state=kept ", os.getxattr(os.path.join(folder, n), XATTR))
        out = self.cleanup_run(self.dir)
        self.assertIn("removed 0 files", out)
        p = self.run_sb(*KV, "--directory=" + self.dir, "--kv_requests=5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("kept on purpose", p.stderr)
        shutil.rmtree(folder)
        # a running storbench's files: the second run says so, removes nothing
        proc = self.start([BIN, *KV, "--directory=" + self.dir, "--kv_requests=0",
                           "--runtime=120"], lambda: len(self.npys(folder)) >= 2)
        p = self.run_sb(*KV, "--directory=" + self.dir, "--kv_requests=5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("belongs to a storbench run that is still running", p.stderr)
        out = self.cleanup_run(self.dir)
        self.assertIn("removed 0 files", out)
        self.assertIsNone(proc.poll())
        proc.terminate()
        proc.wait(timeout=60)


class KvTierTest(OwnerCase):
    """the default profile's disk tier file of a killed run"""

    def test_killed_tier_file(self):
        self.need_xattrs()
        args = ["--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_block_tokens=4",
                "--prompt_tokens=48", "--output_tokens=12", "--bs=128k",
                "--kv_memory_capacity=1m", "--kv_disk_capacity=4m", "--directory=" + self.dir]
        folder = os.path.join(self.dir, "kvcache")
        tier = os.path.join(folder, "kvtier.0")
        self.killed([BIN, *args, "--kv_requests=0", "--runtime=120"],
                    lambda: os.path.exists(tier))
        p = self.run_sb(*args, "--kv_requests=5")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(tier + " is left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + folder, p.stderr)
        self.assertTrue(os.path.exists(tier))
        self.cleanup_run(self.dir)
        self.assertEqual(os.listdir(self.dir), [])


def ckpt_job(ck, between="3s", n=2):
    return ("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\n"
            "checkpoint_folder=%s\nmodel=llama3-8b\ncheckpoint_scale=0.00001\n"
            "num_checkpoints_write=%d\nnum_checkpoints_read=0\ntime_between_checkpoints=%s\n"
            % (ck, n, between))


class CheckpointRerunTest(OwnerCase):
    """a rerun over a killed checkpoint run's folders names --cleanup"""

    def test_killed_then_rerun(self):
        self.need_xattrs()
        ck = os.path.join(self.dir, "ck")
        step1 = os.path.join(ck, "global_epoch1_step1")
        job = self.write_job(ckpt_job(ck, "3s"))
        # killed in the pause before the second checkpoint (DLIO pauses
        # before every checkpoint, the first included)
        self.killed([BIN, job], lambda: os.path.isdir(step1) and len(os.listdir(step1)) >= 8)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(step1 + " is left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + ck, p.stderr)
        self.assertNotIn("did not create", p.stderr)
        self.assertTrue(os.path.isdir(step1))
        self.cleanup_run(ck)
        self.assertEqual(os.listdir(ck), [])
        p = self.run_sb(self.write_job(ckpt_job(ck, "0s"), "again.ini"))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_killed_tiered_then_rerun(self):
        """the cache tier's step folders too (checkpoint_cache_folder=)"""
        self.need_xattrs()
        ck, cache = os.path.join(self.dir, "shared"), os.path.join(self.dir, "cache")
        step1 = os.path.join(cache, "rank0", "global_epoch1_step1")
        job = self.write_job(ckpt_job(ck, "3s") + "checkpoint_cache_folder=%s\n" % cache)
        self.killed([BIN, job], lambda: os.path.isdir(step1) and len(os.listdir(step1)) >= 2)
        shutil.rmtree(ck)  # only the cache's leftovers remain
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(step1 + " is left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + cache, p.stderr)
        self.cleanup_run(cache)
        self.assertEqual(os.listdir(cache), [])

    def test_live_run(self):
        self.need_xattrs()
        ck = os.path.join(self.dir, "ck")
        step1 = os.path.join(ck, "global_epoch1_step1")
        job = self.write_job(ckpt_job(ck, "4s", 3))  # step1 stays until the run ends
        proc = self.start([BIN, job], lambda: os.path.isdir(step1) and len(os.listdir(step1)) >= 8)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(step1 + " belongs to a storbench run that is still running", p.stderr)
        self.assertIsNone(proc.poll())
        proc.terminate()
        proc.wait(timeout=60)


NOXATTR_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <sys/types.h>
#define NO { errno = ENOTSUP; return -1; }
int setxattr(const char *p, const char *n, const void *v, size_t s, int f) NO
int lsetxattr(const char *p, const char *n, const void *v, size_t s, int f) NO
int fsetxattr(int fd, const char *n, const void *v, size_t s, int f) NO
ssize_t getxattr(const char *p, const char *n, void *v, size_t s) NO
ssize_t lgetxattr(const char *p, const char *n, void *v, size_t s) NO
ssize_t fgetxattr(int fd, const char *n, void *v, size_t s) NO
"""


class NoXattrFallbackTest(OwnerCase):
    """no user xattrs (every xattr call fails with ENOTSUP): the marks go
    into the folder's .storbench-owner; --cleanup recognises them"""

    @classmethod
    def setUpClass(cls):
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        cls.tmp = tempfile.mkdtemp(prefix="sbnoxattr.")
        cls.shim = os.path.join(cls.tmp, "noxattr.so")
        src = os.path.join(cls.tmp, "noxattr.c")
        with open(src, "w") as f:
            f.write(NOXATTR_C)
        cls.why = None
        if not cc:
            cls.why = "no C compiler to build the no-xattr preload"
        elif subprocess.run([cc, "-shared", "-fPIC", "-o", cls.shim, src]).returncode:
            cls.why = "the no-xattr preload does not build"

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        super().setUp()
        if self.why:
            self.skipTest(self.why)
        # an ASan build's runtime must come first (sbtest.asan_runtime)
        self.env = {"LD_PRELOAD": " ".join(asan_runtime() + [self.shim])}

    def test_killed_run_recorded_and_cleaned(self):
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        side = os.path.join(work, ".storbench-owner")
        made = [os.path.join(work, "io.0.%d" % i) for i in range(2)]
        self.killed([BIN, "--name=io", "--directory=" + work, "--nrfiles=2", "--size=2m",
                     "--rw=write", "--ioengine=psync", "--time_based", "--runtime=120",
                     "--unlink=1"], lambda: all(os.path.exists(p) for p in made), self.env)
        ck = os.path.join(work, "ck")
        step1 = os.path.join(ck, "global_epoch1_step1")
        job = self.write_job(ckpt_job(ck, "3s"))
        self.killed([BIN, job], lambda: os.path.isdir(step1) and len(os.listdir(step1)) >= 9,
                    self.env)
        for p in made + [ck, step1]:
            self.assertEqual([x for x in os.listxattr(p) if x.startswith("user.")], [])  # no xattr ...
        with open(side) as f:
            rec = f.read()
        self.assertTrue(rec.startswith("storbench-owner 1\n"), rec)
        for n in ("io.0.0", "io.0.1", "ck"):  # ... all in the record
            self.assertRegex(rec, r"(?m)^%s btime=\S+ storbench 2 pid=\d+ " % n)
        # a user's file, and a user's file in place of a recorded name
        mine = os.path.join(work, "mine")
        with open(mine, "w") as f:
            f.write("mine")
        os.unlink(made[1])
        with open(made[1], "w") as f:
            f.write("the user's now")
        p = self.run_sb("--name=r", "--filename=" + made[0], "--rw=read", "--size=1m",
                        "--ioengine=psync", env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(made[0] + ": left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + work, p.stderr)
        p = self.run_sb(job, env=self.env)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench --cleanup " + ck, p.stderr)
        before = sorted(os.listdir(work))
        out = self.cleanup_run(work, dry=True, env=self.env)
        self.assertEqual(sorted(os.listdir(work)), before)
        dry = sorted(l.split()[2] for l in out.splitlines() if l.startswith("would remove /"))
        out = self.cleanup_run(work, env=self.env)
        removed = sorted(l.split()[1] for l in out.splitlines() if l.startswith("removed /"))
        self.assertEqual(removed, dry)
        self.assertIn(made[0], removed)
        self.assertIn(ck + "/", removed)
        self.assertEqual(sorted(os.listdir(work)), ["io.0.1", "mine"])  # record file gone too
        with open(made[1]) as f:
            self.assertEqual(f.read(), "the user's now")

    def test_finished_run_leaves_no_record(self):
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        p = self.run_sb("--name=io", "--directory=" + work, "--nrfiles=3", "--size=3m",
                        "--rw=write", "--ioengine=psync", "--unlink=1", env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("cannot set the user.storbench", p.stderr)
        self.assertEqual(os.listdir(work), [])
        ck = os.path.join(work, "ck")
        p = self.run_sb(self.write_job(ckpt_job(ck, "0s")), env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.listdir(work), [])


if __name__ == "__main__":
    unittest.main()
