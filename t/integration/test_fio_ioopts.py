"""test_fio_ioopts.py: fio's other I/O and file options (sync,
bs_unaligned, create_fsync, lockmem, hugepage-size, exit_what, uid, gid) do
what fio 3.33 does, seen from outside: open flags in /proc/PID/fdinfo,
lengths in the job's write_iolog, locked memory in /proc/PID/status, the
huge-page mapping in smaps, thread credentials and file owners.  The
expected values are what fio 3.33 did on the same job files (noted at each
test).  Bad values are refused with file:line and nothing written."""
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from sbtest import CpuLoss, SbCase, BIN  # noqa: E402

ROOT = os.geteuid() == 0
NOBODY = 65534


def asan_build():
    """whether BIN links the ASan runtime (which makes mlock a no-op and
    whose leak check cannot run under strace)"""
    out = subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout
    return "libasan" in out


# LeakSanitizer stops a traced process: no leak check under strace
NOLEAK = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))


class Live(SbCase):
    def start(self, job):
        p = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        return p

    def poll_for(self, p, probe, timeout=10):
        """probe() until it returns something true, while p runs"""
        end, got = time.time() + timeout, None
        while time.time() < end and p.poll() is None:
            got = probe()
            if got:
                return got
            time.sleep(0.05)
        return got

    def done(self, p):
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        return out


def fd_flags(pid, path):
    """the flags (octal in fdinfo) of pid's descriptors open on path"""
    out = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, fd)) != path:
                continue
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as f:
                out += [int(l.split()[1], 8) for l in f if l.startswith("flags:")]
        except OSError:
            pass
    return out


class SyncOpen(Live):
    # fio 3.33 (strace): sync=sync and sync=1 open O_RDWR|O_SYNC, sync=dsync O_RDWR|O_DSYNC
    def test_sync_flags(self):
        for val, want, other in (("sync", os.O_SYNC, 0), ("1", os.O_SYNC, 0),
                                 ("dsync", os.O_DSYNC, os.O_SYNC & ~os.O_DSYNC),
                                 ("none", 0, os.O_DSYNC)):
            path = os.path.join(self.dir, "f")
            job = self.write_job("[j]\nioengine=psync\nrw=write\nsize=64k\ntime_based\n"
                                 "runtime=2\nsync=%s\nfilename=%s\n" % (val, path))
            p = self.start(job)
            # the I/O's descriptor (O_RDWR, as fio's); the layout's create (O_WRONLY)
            # may be seen first when load slows the run
            flags = self.poll_for(p, lambda: [f for f in fd_flags(p.pid, path)
                                              if f & os.O_ACCMODE == os.O_RDWR])
            self.done(p)
            self.assertTrue(flags, val)
            for fl in flags:
                self.assertEqual(fl & want, want, (val, oct(fl)))
                if other:
                    self.assertEqual(fl & other, 0, (val, oct(fl)))


class Unaligned(SbCase):
    def lengths(self, unaligned):
        log = os.path.join(self.dir, "io.log")
        self.run_json(self.write_job(
            "[j]\nioengine=null\nrw=randread\nbsrange=512-4096\nsize=16m\nnumber_ios=2000\n"
            "bs_unaligned=%d\nwrite_iolog=%s\n" % (unaligned, log)))
        with open(log) as f:
            return [int(l.split()[4]) for l in f if len(l.split()) == 5 and l.split()[2] == "read"]

    # fio 3.33: bs_unaligned=0: 2000 lengths, all multiples of 512, 8 distinct;
    # bs_unaligned=1: 442 of 2000 multiples of 512, 1279 distinct, 512-4096
    def test_lengths(self):
        v = self.lengths(0)
        self.assertEqual(len(v), 2000)
        self.assertTrue(all(x % 512 == 0 for x in v))
        v = self.lengths(1)
        self.assertEqual(len(v), 2000)
        self.assertGreater(sum(x % 512 != 0 for x in v), 1000)
        self.assertGreater(len(set(v)), 500)
        self.assertTrue(all(512 <= x <= 4096 for x in v), (min(v), max(v)))


@unittest.skipUnless(shutil.which("strace"), "needs strace to count fsync calls")
class CreateFsync(SbCase):
    # fio 3.33 (strace -e fsync): a read job's layout: 1 fsync with
    # create_fsync=1 (default), 0 with create_fsync=0
    def test_layout_fsync(self):
        for val, want in (("1", 1), ("0", 0)):
            path = os.path.join(self.dir, "cf")
            if os.path.exists(path):
                os.unlink(path)
            job = self.write_job("[j]\nioengine=psync\nrw=read\nsize=256k\ncreate_fsync=%s\n"
                                 "filename=%s\n" % (val, path))
            st = os.path.join(self.dir, "st.txt")
            p = subprocess.run(["strace", "-f", "-e", "trace=fsync", "-o", st, BIN, job],
                               capture_output=True, text=True, cwd=self.dir, env=NOLEAK)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(st) as f:
                n = sum("fsync(" in l for l in f)
            self.assertEqual(n, want, val)


class LockMem(Live):
    # fio 3.33: lockmem=64m: the job's process has VmLck 65536 kB while it runs
    def test_vmlck(self):
        if asan_build():
            self.skipTest("ASan makes mlock() a no-op")
        job = self.write_job("[j]\nioengine=null\nrw=read\nsize=1g\ntime_based\nruntime=3\n"
                             "lockmem=64m\n")
        p = self.start(job)

        def vmlck():
            with open("/proc/%d/status" % p.pid) as f:
                kb = [int(l.split()[1]) for l in f if l.startswith("VmLck")][0]
            return kb if kb >= 65536 else 0
        got = self.poll_for(p, vmlck)
        self.done(p)
        self.assertEqual(got, 65536)


@unittest.skipUnless(ROOT, "needs root (reserves huge pages in /proc/sys/vm/nr_hugepages)")
class HugePageSize(Live):
    # fio 3.33: iomem=mmaphuge with a 4 KiB buffer maps 2048 kB with the
    # default hugepage-size, 4096 kB with hugepage-size=4m
    def test_mapping_rounds_to_it(self):
        with open("/proc/sys/vm/nr_hugepages") as f:
            before = f.read().strip()
        self.addCleanup(lambda: open("/proc/sys/vm/nr_hugepages", "w").write(before))
        with open("/proc/sys/vm/nr_hugepages", "w") as f:
            f.write(str(max(int(before), 4)))
        for hs, kb in (("", 2048), ("hugepage-size=4m\n", 4096)):
            job = self.write_job("[j]\nioengine=null\nrw=read\nsize=1g\ntime_based\nruntime=3\n"
                                 "iomem=mmaphuge\n" + hs)
            p = self.start(job)

            def huge():
                out, size = [], 0
                with open("/proc/%d/smaps" % p.pid) as f:
                    for l in f:
                        if l.startswith("Size:"):
                            size = int(l.split()[1])
                        elif l.startswith("KernelPageSize:") and int(l.split()[1]) > 4:
                            out.append(size)
                return out
            got = self.poll_for(p, huge)
            self.done(p)
            self.assertEqual(got, [kb], hs)


class ExitWhat(SbCase):
    # fio 3.33, job a (runtime=1, exitall) ends b (runtime=3) at 1 s; the
    # stonewalled c runs with group and stonewall, and not at all with all
    # (job_runtime 0, no I/O)
    def test_exit_what(self):
        for what, c_runs in (("group", True), ("stonewall", True), ("all", False)):
            job = self.write_job("[global]\nioengine=null\nsize=1g\ntime_based\n[a]\nruntime=1\n"
                                 "exitall\nexit_what=%s\n[b]\nruntime=3\n[c]\nstonewall\n"
                                 "runtime=1\n" % what)
            with CpuLoss() as lost:
                d = self.run_json(job)
            j = {x["jobname"]: x for x in d["jobs"]}
            # b ends with a at 1 s (not at its 3 s), late only by load
            self.assertLess(j["b"]["job_runtime"], 2500 + 1000 * lost.s, what)
            self.assertEqual(j["c"]["read"]["io_bytes"] > 0, c_runs, what)
            if not c_runs:
                self.assertEqual(j["c"]["job_runtime"], 0)


@unittest.skipUnless(ROOT, "needs root (uid= and gid= switch the job thread to another user)")
class UidGid(Live):
    def setUp(self):
        super().setUp()
        os.chmod(self.dir, 0o777)

    # fio 3.33 (create_serialize=0, as storbench lays out): the file the job
    # creates belongs to 65534:65534, and the job process runs as those ids
    def test_thread_ids_and_file_owner(self):
        path = os.path.join(self.dir, "f")
        job = self.write_job("[j]\nioengine=psync\nrw=write\nsize=64k\ntime_based\nruntime=2\n"
                             "uid=%d\ngid=%d\nfilename=%s\n" % (NOBODY, NOBODY - 1, path))
        p = self.start(job)

        def ids():
            out = set()
            for t in os.listdir("/proc/%d/task" % p.pid):
                try:
                    with open("/proc/%d/task/%s/status" % (p.pid, t)) as f:
                        st = {l.split(":")[0]: l.split()[1] for l in f if l[:4] in ("Uid:", "Gid:")}
                    out.add((int(st["Uid"]), int(st["Gid"])))
                except (OSError, KeyError):
                    pass
            return out if (NOBODY, NOBODY - 1) in out else None
        got = self.poll_for(p, ids)
        self.done(p)
        self.assertIn((NOBODY, NOBODY - 1), got or set())
        self.assertIn((0, 0), got)  # only the job's thread changed
        st = os.stat(path)
        self.assertEqual((st.st_uid, st.st_gid), (NOBODY, NOBODY - 1))

    # fio 3.33: a root-owned 0600 file: the job fails with error 13 (EACCES)
    def test_file_closed_to_the_user(self):
        path = os.path.join(self.dir, "f")
        with open(path, "wb") as f:
            f.write(os.urandom(65536))
        os.chmod(path, 0o600)
        job = self.write_job("[j]\nioengine=psync\nrw=read\nsize=64k\nuid=%d\nfilename=%s\n"
                             % (NOBODY, path))
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("uid %s: Permission denied" % path, p.stderr)


def v2_mount():
    with open("/proc/self/mounts") as f:
        return next((l.split()[1] for l in f if l.split()[2] == "cgroup2"), None)


def own_v2():
    with open("/proc/self/cgroup") as f:
        return next((l.strip()[3:] for l in f if l.startswith("0::")), "/")


@unittest.skipUnless(ROOT, "needs root (makes a cgroup)")
class Cgroup(Live):
    # fio 3.33 on cgroup v2 (strace): mkdir MOUNT/NAME, the job moves in,
    # rmdir at the end unless cgroup_nodelete=1.  storbench's jobs are
    # threads: NAME is a threaded cgroup and only the job's thread moves.
    def setUp(self):
        super().setUp()
        mnt = v2_mount()
        if not mnt:
            self.skipTest("no cgroup v2 mount")
        base = mnt + (own_v2() if own_v2() != "/" else "")
        self.cg = os.path.join(base, "sbtest.%d" % os.getpid())
        self.addCleanup(lambda: os.path.isdir(self.cg) and os.rmdir(self.cg))

    def job(self, extra=""):
        return self.write_job("[j]\nioengine=null\nrw=read\nsize=1g\ntime_based\nruntime=2\n"
                              "cgroup=%s\n%s" % (os.path.basename(self.cg), extra))

    def test_thread_runs_in_it_and_it_goes(self):
        p = self.start(self.job())
        rel = self.cg[len(v2_mount()):]

        def members():
            out = []
            for t in os.listdir("/proc/%d/task" % p.pid):
                try:
                    with open("/proc/%d/task/%s/cgroup" % (p.pid, t)) as f:
                        out.append([l.strip()[3:] for l in f if l.startswith("0::")][0])
                except (OSError, IndexError):
                    pass
            return out if rel in out else None
        got = self.poll_for(p, members)
        with open(os.path.join(self.cg, "cgroup.type")) as f:
            kind = f.read().strip()
        self.done(p)
        self.assertEqual(got.count(rel), 1, got)  # the job's thread alone
        self.assertEqual(kind, "threaded")
        self.assertFalse(os.path.exists(self.cg))

    def test_nodelete_keeps_it(self):
        p = self.start(self.job("cgroup_nodelete=1\n"))
        self.done(p)
        self.assertTrue(os.path.isdir(self.cg))

    def test_weight_without_a_controller(self):
        with open(os.path.join(os.path.dirname(self.cg), "cgroup.subtree_control")) as f:
            if "cpu" in f.read().split():
                self.skipTest("the cpu controller is on here: cpu.weight can be set")
        p = self.run_sb(self.job("cgroup_weight=500\n"))
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cgroup_weight: cannot set up cgroup %s: No such file or directory (it has "
                      "neither cpu.weight nor io.weight" % self.cg, p.stderr)
        self.assertFalse(os.path.exists(self.cg))


@unittest.skipUnless(shutil.which("strace"), "needs strace to see the layout calls")
class CreateOnOpen(SbCase):
    # fio 3.33 (strace): create_on_open=1: no ftruncate/fallocate; the write
    # job opens O_RDWR|O_CREAT and writes 64 KiB; a read job opens
    # O_RDONLY|O_CREAT, reads an empty file and fails with error 5 (EIO)
    def run_trace(self, rw):
        path = os.path.join(self.dir, rw + ".dat")
        job = self.write_job("[j]\nioengine=psync\nrw=%s\nbs=4k\nsize=64k\ncreate_on_open=1\n"
                             "filename=%s\n" % (rw, path))
        st = os.path.join(self.dir, "st.txt")
        p = subprocess.run(["strace", "-f", "-e", "trace=openat,ftruncate,fallocate", "-o", st,
                            BIN, "--output-format=json", job], capture_output=True, text=True,
                           cwd=self.dir, env=NOLEAK)
        with open(st) as f:
            calls = [l for l in f if path in l or "ftruncate" in l or "fallocate" in l]
        import json
        return p, json.loads(p.stdout)["jobs"][0], calls, path

    def test_write_creates_at_open(self):
        p, j, calls, path = self.run_trace("write")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(j["write"]["io_bytes"], 65536)
        self.assertEqual(os.path.getsize(path), 65536)
        self.assertFalse([c for c in calls if "ftruncate" in c or "fallocate" in c], calls)
        self.assertTrue(all("O_CREAT" in c for c in calls if "openat" in c), calls)

    def test_read_of_the_empty_file_fails(self):
        p, j, calls, path = self.run_trace("read")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertEqual(j["error"], 5)
        self.assertEqual(os.path.getsize(path), 0)


class DepthLow(SbCase):
    # fio 3.33, libaio direct 4k randread iodepth=16, 4096 I/Os: IO depths
    # 16=99.6% (iodepth_low unset); with iodepth_low=4: 4=25.0%, 8=66.6%,
    # 16=8.3% (the queue drains to 4 before it is filled again)
    def levels(self, low):
        path = os.path.join(self.dir, "dl.dat")
        job = self.write_job("[j]\nfilename=%s\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
                             "size=16m\niodepth=16\n%s" % (path, low))
        p = self.run_sb("--output-format=json", job)
        if p.returncode == 1 and "libaio" in p.stderr:
            self.skipTest("ioengine=libaio is not built here")
        self.assertEqual(p.returncode, 0, p.stderr)
        import json
        return json.loads(p.stdout)["jobs"][0]["iodepth_level"]

    def test_drains_to_the_low_mark(self):
        lv = self.levels("")
        self.assertGreater(lv["16"], 99.0)
        lv = self.levels("iodepth_low=4\n")
        self.assertAlmostEqual(lv["4"], 25.0, delta=1.0)
        self.assertAlmostEqual(lv["8"], 66.6, delta=1.0)
        self.assertAlmostEqual(lv["16"], 8.3, delta=1.0)


class VerifyTrim(SbCase):
    # fio 3.33, rw=trimwrite bs=4k size=4m verify=md5 trim_percentage=50
    # trim_backlog=8 on a loop device: 1024 blocks written, 500 trimmed
    # besides trimwrite's own 1024, 1024 verified (trimmed ones as zeroes),
    # no error; without trim_backlog nothing is trimmed ("500 trim entries
    # leaked").  (fio aborts on an assertion with rw=write or randwrite.)
    # storbench: the same on a file (fallocate PUNCH_HOLE), rw=randwrite.
    def run_vt(self, extra):
        path = os.path.join(self.dir, "vt.dat")
        job = self.write_job("[j]\nfilename=%s\nrw=randwrite\nbs=4k\nsize=4m\nverify=crc32c\n"
                             "trim_percentage=50\n%s" % (path, extra))
        j = self.run_json(job)["jobs"][0]
        with open(path, "rb") as f:
            b = f.read()
        zero = sum(b[i:i + 4096] == bytes(4096) for i in range(0, len(b), 4096))
        return j, zero

    def test_trims_and_zero_check(self):
        j, zero = self.run_vt("trim_backlog=8\n")
        trims = j["trim"]["total_ios"]
        self.assertTrue(400 < trims < 624, trims)  # ~50% of 1024
        self.assertEqual(zero, trims)
        self.assertEqual(j["verify"]["blocks_checked"], 1024)
        self.assertEqual(j["verify"]["failures"], 0)
        self.assertEqual(j["error"], 0)

    def test_batch_and_no_zero_check(self):
        j, zero = self.run_vt("trim_backlog=16\ntrim_backlog_batch=4\ntrim_verify_zero=0\n")
        trims = j["trim"]["total_ios"]
        self.assertLessEqual(trims, 1024 // 16 * 4)
        self.assertGreater(trims, 200)
        self.assertEqual(zero, trims)
        self.assertEqual(j["verify"]["blocks_checked"], 1024 - trims)  # trimmed: skipped

    def test_no_backlog_no_trims(self):
        j, zero = self.run_vt("")
        self.assertEqual(j["trim"]["total_ios"], 0)
        self.assertEqual(zero, 0)
        self.assertEqual(j["verify"]["blocks_checked"], 1024)


class BadValues(SbCase):
    def bad(self, line, want, **kw):
        job = self.write_job("[j]\nioengine=null\nsize=1m\n" + line + "\n")
        p = self.run_sb(job, **kw)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:%d: %s" % (3 + line.count("\n") + 1, want), p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_values(self):
        self.bad("hugepage-size=3m", "hugepage-size=3m: a huge page size is a power of two: "
                 "expected e.g. 2m or 1g")
        self.bad("lockmem=64t", "lockmem=64t: that is all of this machine's memory")
        self.bad("direct=1\nbs_unaligned=1", "bs_unaligned=1 with direct=1: O_DIRECT lengths "
                 "must be whole logical blocks: drop bs_unaligned or set direct=0")
        self.bad("sync=fsync", "sync=fsync: invalid value 'fsync': expected one of none, 0, sync, 1, dsync")
        self.bad("exit_what=some", "exit_what=some: invalid value 'some': expected one of group, "
                 "stonewall, all")
        self.bad("uid=-1", "uid=-1")
        self.bad("cgroup_weight=50", "cgroup_weight=50")
        self.bad("ioengine=mmap\nverify=md5\nrw=write\ntrim_backlog=4\ntrim_percentage=10",
                 "trim_percentage=10: ioengine=mmap cannot trim (a mapping has no discard)")
        self.bad("trim_percentage=101", "trim_percentage=101")

    @unittest.skipUnless(ROOT, "needs root to run storbench as another user")
    def test_uid_needs_root(self):
        os.chmod(self.dir, 0o777)
        job = self.write_job("[j]\nioengine=null\nsize=1m\nuid=0\ngid=0\n")
        p = subprocess.run([BIN, job], cwd=self.dir, capture_output=True, text=True,
                           preexec_fn=lambda: (os.setgid(NOBODY), os.setuid(NOBODY)))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4: uid=0: only root can run a job as another user (storbench "
                      "runs as uid %d, gid %d): run storbench as root, or drop uid" % (NOBODY, NOBODY),
                      p.stderr)
        self.assertIn("job.ini:5: gid=0: only root can run a job as another group", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
