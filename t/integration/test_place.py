"""test_place.py: the placement, priority, file and trim options do
what fio's do, seen from outside: the I/O thread's CPU list, nice value and
I/O priority in /proc; the buffers' NUMA policy in numa_maps; the page cache
of the job's file (fincore); the file's write hint (F_GET_RW_HINT); the
blocks a trim frees (st_blocks); and, for trim, the same guard as writes."""
import fcntl
import json
import glob
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from sbtest import SbCase, BIN, LoopCase, why_no_loop  # noqa: E402
from test_safety import MB  # noqa: E402


def threads(pid):
    """{tid: (Cpus_allowed_list, nice)} of the live process"""
    out = {}
    for t in glob.glob("/proc/%d/task/*" % pid):
        try:
            with open(t + "/status") as f:
                cpus = [l.split()[1] for l in f if l.startswith("Cpus_allowed_list")][0]
            with open(t + "/stat") as f:
                nice = int(f.read().rsplit(")", 1)[1].split()[16])
            out[int(os.path.basename(t))] = (cpus, nice)
        except (OSError, IndexError):
            pass
    return out


def cached_pages(path):
    p = subprocess.run(["fincore", "-b", "-n", "-o", "PAGES", path], capture_output=True, text=True)
    return int(p.stdout.split()[0])


class LiveRun(SbCase):
    def start(self, *args):
        p = subprocess.Popen([BIN, "--output-format=json", *args], cwd=self.dir,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        return p

    def watch(self, p, pred, timeout=8):
        """the first threads() snapshot for which pred holds, else the last one"""
        end, snap = time.time() + timeout, {}
        while time.time() < end and p.poll() is None:
            snap = threads(p.pid)
            if pred(snap):
                return snap
            time.sleep(0.05)
        return snap

    def finish(self, p):
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        return out

    def job(self, *extra):
        return ("--name=j", "--ioengine=psync", "--rw=randread", "--size=1m",
                "--filename=" + os.path.join(self.dir, "f"), "--time_based", "--runtime=2",
                *extra)


class Placement(LiveRun):
    def test_cpus_allowed_pins_the_io_thread(self):
        last = str(os.cpu_count() - 1)
        p = self.start(*self.job("--cpus_allowed=" + last))
        snap = self.watch(p, lambda s: any(c == last for c, _ in s.values()))
        self.finish(p)
        pinned = [t for t, (c, _) in snap.items() if c == last]
        self.assertEqual(len(pinned), 1, snap)  # the I/O thread only, not main or stats
        if os.cpu_count() > 1:
            self.assertTrue(any(c != last for c, _ in snap.values()), snap)

    def test_cpumask(self):
        p = self.start(*self.job("--cpumask=0x1"))
        snap = self.watch(p, lambda s: any(c == "0" for c, _ in s.values()))
        self.finish(p)
        self.assertEqual(sum(c == "0" for c, _ in snap.values()), 1, snap)

    @unittest.skipIf((os.cpu_count() or 1) < 2, "needs 2 CPUs")
    def test_split_gives_each_thread_its_cpu(self):
        p = self.start(*self.job("--cpus_allowed=0-1", "--cpus_allowed_policy=split",
                                 "--numjobs=2"))
        snap = self.watch(p, lambda s: sorted(c for c, _ in s.values() if c in ("0", "1")) ==
                          ["0", "1"])
        self.finish(p)
        self.assertEqual(sorted(c for c, _ in snap.values() if c in ("0", "1")), ["0", "1"], snap)
        # shared (the default): both threads on 0-1
        p = self.start(*self.job("--cpus_allowed=0-1", "--numjobs=2", "--nice=3"))
        snap = self.watch(p, lambda s: sum(n == 3 for _, n in s.values()) == 2)
        self.finish(p)
        self.assertEqual(sorted(c for c, n in snap.values() if n == 3), ["0-1", "0-1"], snap)

    def test_numa_cpu_nodes(self):
        with open("/sys/devices/system/node/node0/cpulist") as f:
            node0 = f.read().strip()
        p = self.start(*self.job("--numa_cpu_nodes=0", "--nice=4"))
        snap = self.watch(p, lambda s: any(n == 4 for _, n in s.values()))
        self.finish(p)
        self.assertEqual([c for c, n in snap.values() if n == 4], [node0], snap)

    def test_nice_and_ioprio(self):
        p = self.start(*self.job("--nice=7", "--prioclass=3", "--prio=0"))
        snap = self.watch(p, lambda s: any(n == 7 for _, n in s.values()))
        tids = [t for t, (_, n) in snap.items() if n == 7]
        prio = subprocess.run(["ionice", "-p", str(tids[0])], capture_output=True,
                              text=True).stdout if tids and shutil.which("ionice") else ""
        self.finish(p)
        self.assertEqual(len(tids), 1, snap)
        if shutil.which("ionice"):
            self.assertIn("idle", prio)
        # prio alone: best-effort at that level, as fio
        p = self.start(*self.job("--nice=6", "--prio=6"))
        snap = self.watch(p, lambda s: any(n == 6 for _, n in s.values()))
        tids = [t for t, (_, n) in snap.items() if n == 6]
        prio = subprocess.run(["ionice", "-p", str(tids[0])], capture_output=True,
                              text=True).stdout if tids and shutil.which("ionice") else ""
        self.finish(p)
        if shutil.which("ionice"):
            self.assertEqual(prio.strip(), "best-effort: prio 6")

    def test_numa_mem_policy_and_iomem(self):
        for mem in ("malloc", "mmap", "mmapshared", "shm"):
            with self.subTest(iomem=mem):
                p = self.start(*self.job("--numa_mem_policy=interleave:0", "--iomem=" + mem))
                seen = ""
                end = time.time() + 8
                while time.time() < end and p.poll() is None and "interleave:0" not in seen:
                    try:
                        with open("/proc/%d/numa_maps" % p.pid) as f:
                            seen = f.read()
                    except OSError:
                        pass
                    time.sleep(0.05)
                self.finish(p)
                self.assertIn("interleave:0", seen)

    def test_iomem_kinds_run(self):
        for mem in ("malloc", "shm", "mmap", "mmapshared"):
            with self.subTest(iomem=mem):
                d = self.run_json("--name=j", "--ioengine=psync", "--rw=randrw", "--size=1m",
                                  "--bs=4k", "--iomem_align=64k",
                                  "--filename=" + os.path.join(self.dir, "f"), "--mem=" + mem)
                self.assertEqual(d["jobs"][0]["error"], 0)


class Lifecycle(SbCase):
    """create_only, file_append, filename_format: fio 3.33 gave the same files"""

    def test_create_only_lays_out_and_does_no_io(self):
        d = self.run_json("--name=c", "--size=1m", "--rw=write", "--create_only=1")
        self.assertEqual(d["jobs"][0]["write"]["io_bytes"], 0)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "c.0.0")), MB)

    def test_file_append(self):
        path = os.path.join(self.dir, "ap")
        head = os.urandom(65536)
        with open(path, "wb") as f:
            f.write(head)
        self.run_json("--name=a", "--filename=" + path, "--size=64k", "--rw=write",
                      "--file_append=1")
        with open(path, "rb") as f:
            self.assertEqual(f.read(65536), head)
        self.assertEqual(os.path.getsize(path), 131072)

    def test_opendir(self):
        # fio 3.33 read 196608 bytes from the same tree (the symlink is not followed)
        os.makedirs(os.path.join(self.dir, "od", "a", "b"))
        with open(os.path.join(self.dir, "od", "z1"), "wb") as f:
            f.write(os.urandom(65536))
        with open(os.path.join(self.dir, "od", "a", "b", "y2"), "wb") as f:
            f.write(os.urandom(131072))
        os.symlink("z1", os.path.join(self.dir, "od", "link"))
        d = self.run_json("--name=o", "--opendir=od", "--rw=read")
        self.assertEqual(d["jobs"][0]["read"]["io_bytes"], 196608)
        os.mkdir(os.path.join(self.dir, "empty"))
        job = self.write_job("[o]\nrw=read\nopendir=empty\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:3: opendir=empty: the folder holds no regular file", p.stderr)
        self.assertEqual(os.listdir(os.path.join(self.dir, "empty")), [])

    def test_openfiles(self):
        d = self.run_json("--name=o", "--nrfiles=4", "--size=1m", "--openfiles=4", "--rw=read")
        self.assertEqual(d["jobs"][0]["read"]["io_bytes"], MB)
        # below the file count: run as fio 3.33 does
        # (test_fio_openfiles.py); refused only with io_submit_mode=offload
        job = self.write_job("[o]\nnrfiles=4\nsize=1m\nopenfiles=2\nio_submit_mode=offload\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4: openfiles=2: the job has 4 files and io_submit_mode=offload "
                      "keeps all of them open: set openfiles=4", p.stderr)
        self.assertEqual(self.listing(), ["job.ini", "o.0.0", "o.0.1", "o.0.2", "o.0.3"])
        d = self.run_json("--name=o", "--nrfiles=4", "--size=1m", "--openfiles=2", "--rw=read")
        self.assertEqual(d["jobs"][0]["read"]["io_bytes"], MB)

    def test_filename_format(self):
        self.run_json("--name=x", "--filename_format=a.$jobname-$clientuid-$jobnum-$filenum.$foo",
                      "--size=64k", "--nrfiles=2", "--numjobs=2", "--rw=write")
        self.assertEqual(self.listing(), ["a.x--0-0.$foo", "a.x--0-1.$foo", "a.x--1-0.$foo",
                                          "a.x--1-1.$foo"])


class FileOptions(SbCase):
    def make(self, name, size=8 * MB):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        os.sync()
        return path

    def read_some(self, path, *extra):
        return self.run_json("--name=r", "--ioengine=psync", "--rw=read", "--bs=4k",
                             "--io_size=4k", "--filename=" + path, "--fadvise_hint=0", *extra)

    # Other test runs on the machine may drop the whole page cache at any time
    # (ML jobs' drop_caches=1 as root): a "stays cached" check gets 3 tries.
    def cached_after(self, path, *extra, warm=False):
        # other test files running beside this one drop the whole page cache
        # (drop_caches as root): a try they hit is retried, a file that is
        # never cached fails every try
        best = 0
        for _ in range(10):
            if warm:
                with open(path, "rb") as f:
                    f.read()
            self.read_some(path, *extra)
            best = max(best, cached_pages(path))
            if best > 1900:
                break
        return best

    def test_invalidate_drops_the_files_cache(self):
        path = self.make("f")
        self.assertGreater(self.cached_after(path, "--invalidate=0", warm=True), 1900)
        with open(path, "rb") as f:
            f.read()
        self.read_some(path)  # invalidate=1 is the default, as in fio
        self.assertLess(cached_pages(path), 200)

    def test_pre_read_fills_the_cache(self):
        path = self.make("f")
        fd = os.open(path, os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
        self.read_some(path)
        self.assertLess(cached_pages(path), 200)
        self.assertGreater(self.cached_after(path, "--pre_read=1"), 1900)

    def test_write_hint(self):
        path = os.path.join(self.dir, "w")
        self.run_json("--name=w", "--ioengine=psync", "--rw=write", "--size=64k",
                      "--filename=" + path, "--write_hint=long")
        fd = os.open(path, os.O_RDONLY)
        try:
            hint = struct.unpack("Q", fcntl.fcntl(fd, 1035, b"\0" * 8))[0]  # F_GET_RW_HINT
        finally:
            os.close(fd)
        self.assertEqual(hint, 4)  # RWH_WRITE_LIFE_LONG

    def test_allow_file_create_0_refuses_a_missing_file(self):
        job = self.write_job("[global]\nallow_file_create=0\n[w]\nrw=write\nsize=64k\n"
                             "filename=new.dat\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:2: job w: allow_file_create=0 and new.dat does not exist", p.stderr)
        self.assertIn("create it first or drop allow_file_create=0", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
        # an existing file is used
        self.make("new.dat", 64 * 1024)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_max_latency_ends_the_job(self):
        # fio 3.33 on the same job: err=110 "latency of N nsec exceeds specified max"
        p = self.run_sb("--output-format=json", "--name=x", "--filename=f", "--size=16m",
                        "--bs=1m", "--rw=write", "--max_latency=1us")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("write slower than max_latency", p.stderr)
        self.assertIn("Connection timed out", p.stderr)
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["error"], 110)
        d = self.run_json("--name=y", "--filename=f", "--size=1m", "--rw=read",
                          "--max_latency=10s")
        self.assertEqual(d["jobs"][0]["error"], 0)

    @unittest.skipUnless(shutil.which("strace"), "needs strace")
    def test_sync_file_range(self):
        # fio 3.33, same job: sync_file_range(fd, 32768*k, 32768, WAIT_BEFORE|WRITE) for
        # k = 0..6 (it skips the one due after the last write; so does storbench since
        # an owed sync is issued only before the job's next I/O, as fio does)
        for eng in ("psync", "libaio", "io_uring"):
            with self.subTest(engine=eng):
                log = os.path.join(self.dir, "st")
                env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")  # LSan cannot run traced
                p = subprocess.run(["strace", "-f", "-e", "trace=sync_file_range", "-o", log, BIN,
                                    "--output-format=json", "--name=s", "--filename=sfr",
                                    "--size=256k", "--bs=4k", "--rw=write", "--ioengine=" + eng,
                                    "--iodepth=4", "--sync_file_range=wait_before,write:8"],
                                   cwd=self.dir, env=env, capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(log) as f:
                    lines = f.read().splitlines()
                # with another thread's call in between, strace splits a call into
                # "... <unfinished ...>" and "<... sync_file_range resumed>) = 0"
                calls = [l.split(None, 1)[1].replace(" <unfinished ...>", ")")
                         for l in lines if "sync_file_range(" in l]
                resumed = [l for l in lines if "sync_file_range resumed>" in l]
                self.assertTrue(all(l.endswith("= 0") for l in resumed), resumed)
                self.assertEqual(len(calls), 7, calls)
                for k, c in enumerate(calls):
                    self.assertRegex(c, r"^sync_file_range\(\d+, %d, 32768, "
                                     r"SYNC_FILE_RANGE_WAIT_BEFORE\|SYNC_FILE_RANGE_WRITE\)\)?( = 0)?$"
                                     % (32768 * k))
                    if not c.endswith("= 0"):  # split: its result is on the resumed line
                        self.assertTrue(resumed, c)
                self.assertEqual(json.loads(p.stdout)["jobs"][0]["sync"]["total_ios"], 7)
        job = self.write_job("[s]\nsize=1m\nrw=write\nsync_file_range=flush:8\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4: sync_file_range=flush:8: expected FLAGS:N", p.stderr)
        self.assertIn("e.g. sync_file_range=wait_before,write:8", p.stderr)

    def test_atomic_implies_direct(self):
        p = self.run_sb("--parse-only=verbose", "--name=x", "--size=1m", "--atomic=1")
        self.assertRegex(p.stdout, r"\n  direct +=  ?1\n")

    def test_stats_0_reports_zeroes(self):
        d = self.run_json("--name=s", "--ioengine=null", "--size=1m", "--stats=0")
        r = d["jobs"][0]["read"]
        self.assertEqual((r["io_bytes"], r["total_ios"], r["clat_ns"]["N"]), (0, 0, 0))


class FileService(SbCase):
    """file_service_type: which of 8 files the 64 random 4k writes land in
    (blocks that are no longer zero), beside fio 3.33's figures for the same
    job: sequential 40/0/0/0/0/0/0/0, roundrobin 8 each (+-1), normal:10
    0/0/5/23/21/5/0/0 (fio's zipf hot file is its hash's pick, ours file 0)"""

    def blocks(self, fst):
        for f in glob.glob(os.path.join(self.dir, "x.0.*")):
            os.unlink(f)
        self.run_json("--name=x", "--rw=randwrite", "--bs=4k", "--nrfiles=8", "--filesize=256k",
                      "--io_size=256k", "--norandommap", "--fallocate=posix",
                      "--file_service_type=" + fst)
        out = []
        for i in range(8):
            with open(os.path.join(self.dir, "x.0.%d" % i), "rb") as f:
                d = f.read()
            out.append(sum(d[k:k + 4096] != bytes(4096) for k in range(0, len(d), 4096)))
        return out

    def test_types(self):
        b = self.blocks("sequential")
        self.assertGreater(b[0], 30)
        self.assertEqual(b[1:], [0] * 7)
        for t in ("roundrobin", "roundrobin:4"):
            b = self.blocks(t)
            self.assertTrue(all(6 <= x <= 8 for x in b), (t, b))
        b = self.blocks("zipf:2")
        self.assertGreater(b[0], sum(b[1:]), b)
        b = self.blocks("normal:10")
        self.assertGreater(b[3] + b[4], 30, b)
        self.assertEqual(b[0] + b[7], 0, b)
        b = self.blocks("random")
        self.assertGreater(sum(x > 0 for x in b), 5, b)

    def test_bad_value(self):
        job = self.write_job("[x]\nsize=1m\nfile_service_type=zipf:1\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:3: file_service_type=zipf:1: bad value after ':': expected "
                      "theta > 0 and not 1, e.g. zipf:1.2", p.stderr)
        job = self.write_job("[x]\nsize=1m\nfile_service_type=hottest\n")
        p = self.run_sb(job)
        self.assertIn("job.ini:3: file_service_type=hottest: unknown type: expected "
                      "roundrobin[:N]", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


class Trim(SbCase):
    def test_trim_punches_holes(self):
        for eng in ("psync", "sync", "libaio", "io_uring"):
            for rw in ("trim", "randtrim"):
                with self.subTest(engine=eng, rw=rw):
                    path = os.path.join(self.dir, "t")
                    with open(path, "wb") as f:
                        f.write(os.urandom(4 * MB))
                    os.sync()
                    before = os.stat(path).st_blocks
                    d = self.run_json("--name=t", "--filename=" + path, "--rw=" + rw,
                                      "--bs=64k", "--size=2m", "--ioengine=" + eng,
                                      "--iodepth=4")
                    t = d["jobs"][0]["trim"]
                    self.assertEqual((d["jobs"][0]["error"], t["io_bytes"], t["total_ios"]),
                                     (0, 2 * MB, 32))
                    freed = before - os.stat(path).st_blocks
                    # 2 MiB of data blocks, less an extent-tree block ext4 may add
                    self.assertTrue(2 * MB // 512 - 16 <= freed <= 2 * MB // 512, freed)
                    self.assertEqual(os.path.getsize(path), 4 * MB)
                    with open(path, "rb") as f:
                        self.assertEqual(f.read(2 * MB), b"\0" * (2 * MB))
                        self.assertNotEqual(f.read(MB), b"\0" * MB)

    def test_mmap_cannot_trim(self):
        job = self.write_job("[t]\nioengine=mmap\nsize=1m\nrw=trim\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4: rw=trim: ioengine=mmap cannot trim", p.stderr)
        self.assertIn("use ioengine=psync", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


@unittest.skipIf(why_no_loop(), why_no_loop() or "")
class TrimDevice(LoopCase):

    def loop(self):
        img = os.path.join(self.dir, "disk.img")
        with open(img, "wb") as f:
            f.write(os.urandom(8 * MB))
        return self.attach(img), img

    def test_blkdiscard_on_a_loop_device(self):
        dev, img = self.loop()
        before = os.stat(img).st_blocks
        d = self.run_json("--name=t", "--filename=" + dev, "--rw=trim", "--bs=1m",
                          "--size=4m", "--ioengine=psync")
        self.assertEqual(d["jobs"][0]["trim"]["io_bytes"], 4 * MB)
        os.sync()
        self.assertEqual(before - os.stat(img).st_blocks, 4 * MB // 512)

    def test_ioscheduler_switched_for_the_run_and_back(self):
        dev, img = self.loop()
        sysf = "/sys/block/%s/queue/scheduler" % os.path.basename(dev)
        with open(sysf) as f:
            avail = f.read()
        other = next((x.strip("[]") for x in avail.split() if not x.startswith("[")), None)
        if not other:
            self.skipTest("%s has one scheduler: %s" % (dev, avail))
        before = avail.strip()
        p = subprocess.Popen([BIN, "--output-format=json", "--name=s", "--filename=" + dev,
                              "--rw=read", "--size=4m", "--time_based", "--runtime=2",
                              "--ioscheduler=" + other], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        seen, end = "", time.time() + 8
        while time.time() < end and p.poll() is None and "[%s]" % other not in seen:
            with open(sysf) as f:
                seen = f.read()
            time.sleep(0.05)
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0, err)
        self.assertIn("[%s]" % other, seen)
        with open(sysf) as f:
            self.assertEqual(f.read().strip(), before)
        # a scheduler the disk lacks: refused before anything runs
        job = self.write_job("[s]\nfilename=%s\nrw=read\nsize=4m\nioscheduler=cfq-none\n" % dev)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:5: ioscheduler=cfq-none: %s (under %s) has no such scheduler: "
                      "expected one of " % (os.path.basename(dev), dev), p.stderr)

    def test_trim_of_a_mounted_device_is_refused(self):
        if not shutil.which("mkfs.ext4"):
            self.skipTest("mkfs.ext4 not installed (e2fsprogs)")
        dev, img = self.loop()
        # "nothing written" must not race with the file system (ext4's lazy
        # inode-table init writes to the device in the background between
        # the two hashes): no lazy init, and a read-only
        # mount, so that nothing but storbench could write to the device
        subprocess.run(["mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                        dev], check=True)
        mnt = os.path.join(self.dir, "mnt")
        os.mkdir(mnt)
        subprocess.run(["mount", "-o", "ro", dev, mnt], check=True)
        self.mounts.append(mnt)
        os.sync()
        with open(dev, "rb") as f:
            before = hashlib.sha256(f.read()).hexdigest()
        p = self.run_sb("--name=t", "--filename=" + dev, "--rw=trim", "--bs=1m", "--size=4m")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("refusing to write to " + dev, p.stderr)
        self.assertIn("allow_mounted_write=1", p.stderr)
        with open(dev, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), before)


if __name__ == "__main__":
    unittest.main()
