"""Data safety end to end: writes to a block
device that is mounted (through any device node), held, or that holds a
file-system, swap or partition-table signature are refused unless
allow_mounted_write=1, and nothing is written; unlink=1 and every other
cleanup removes only the inode storbench created (a file put in its place
during the run survives); files storbench makes carry a mark, so a later run
reports the leftovers of a killed run and `storbench --cleanup DIR` removes
exactly those.  The device tests need root and loop devices (skipped with
the reason otherwise); they always detach and unmount in tearDown."""
import hashlib
import json
import os
import shutil
import signal
import struct
import subprocess
import time
import unittest
import uuid
import zlib

from sbtest import BIN, LoopCase, SbCase, why_no_loop

MB = 1 << 20


def gpt_image(nsect):
    """a protective MBR and a primary GPT header with one Linux partition,
    as bytes for the first 34 sectors of a disk of nsect 512-byte sectors"""
    mbr = bytearray(512)
    mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\x00\x02\x00", 0xEE, b"\xff\xff\xff", 1,
                               min(nsect - 1, 0xFFFFFFFF))
    mbr[510:512] = b"\x55\xaa"
    entries = bytearray(128 * 128)
    linux = uuid.UUID("0FC63DAF-8483-4772-8E79-3D69D8477DE4").bytes_le
    entries[0:128] = struct.pack("<16s16sQQQ72s", linux, uuid.uuid4().bytes_le, 2048,
                                 nsect - 34, 0, "data".encode("utf-16-le"))
    hdr = struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, 1, nsect - 1, 34,
                      nsect - 34, uuid.uuid4().bytes_le, 2, 128, 128, zlib.crc32(entries))
    hdr = hdr[:16] + struct.pack("<I", zlib.crc32(hdr)) + hdr[20:]
    return bytes(mbr) + hdr.ljust(512, b"\0") + bytes(entries)


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(MB), b""):
            h.update(chunk)
    return h.hexdigest()



@unittest.skipIf(why_no_loop(), why_no_loop() or "")
class DeviceGuardTest(LoopCase):
    """writes to a loop device in each state of danger"""

    def setUp(self):
        super().setUp()
        self.fds = []

    def tearDown(self):
        for fd in self.fds:
            os.close(fd)
        super().tearDown()

    def loop(self, size=32 * MB, head=b""):
        img = os.path.join(self.dir, "disk%d.img" % len(self.loops))
        with open(img, "wb") as f:
            f.write(head)
            f.truncate(size)
        return self.attach(img)

    def mkfs(self, dev):
        if not shutil.which("mkfs.ext4"):
            self.skipTest("mkfs.ext4 not installed (e2fsprogs)")
        subprocess.run(["mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                        "-U", "0badcafe-1234-4321-8888-000000000009", dev], check=True)

    def write(self, dev, *extra):
        return self.run_sb("--name=w", "--filename=" + dev, "--rw=write", "--bs=1m",
                           "--size=4m", "--ioengine=psync", *extra)

    def refused(self, dev, *words):
        os.sync()
        before = sha(dev)
        p = self.write(dev)
        self.assertEqual(p.returncode, 1, p.stderr)
        for w in ("<cmdline>: job w: refusing to write to " + dev, "allow_mounted_write=1") + words:
            self.assertIn(w, p.stderr)
        os.sync()
        self.assertEqual(sha(dev), before, "the device was written")
        return p

    def test_mounted_through_alias_node(self):
        dev = self.loop()
        self.mkfs(dev)
        rdev = os.stat(dev).st_rdev
        alias = os.path.join(self.dir, "mydisk")
        os.mknod(alias, 0o600 | 0o060000, rdev)
        mnt = os.path.join(self.dir, "mnt")
        os.mkdir(mnt)
        subprocess.run(["mount", alias, mnt], check=True)
        self.mounts.append(mnt)
        with open(os.path.join(mnt, "precious"), "w") as f:
            f.write("keep me")
        self.refused(dev, "mounted")
        # the mount is intact and its file readable
        with open("/proc/self/mountinfo") as f:
            self.assertIn(" %s " % mnt, f.read())
        with open(os.path.join(mnt, "precious")) as f:
            self.assertEqual(f.read(), "keep me")
        # reads of a mounted device stay allowed
        p = self.run_sb("--name=r", "--filename=" + dev, "--rw=read", "--bs=1m", "--size=4m",
                        "--ioengine=psync")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_ext4_signature(self):
        dev = self.loop()
        self.mkfs(dev)
        self.refused(dev, "it holds an ext4 file system (UUID 0badcafe-1234-4321-8888-000000000009)")
        # from a job file: file:line of the job's section
        job = self.write_job("; a comment\n[global]\nioengine=psync\n\n[wr]\nfilename=%s\n"
                             "rw=write\nsize=1m\n" % dev)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:5: job wr: refusing to write to %s: it holds an ext4" % dev, p.stderr)
        p = self.run_sb("--name=r", "--filename=" + dev, "--rw=read", "--bs=1m", "--size=4m",
                        "--ioengine=psync")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.write(dev, "--allow_mounted_write=1")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_partition_table(self):
        dev = self.loop(head=gpt_image(32 * MB // 512))
        self.refused(dev, "GPT partition table")

    def test_held_exclusively(self):
        dev = self.loop()
        self.fds.append(os.open(dev, os.O_RDONLY | os.O_EXCL))
        self.refused(dev, "in use")
        os.close(self.fds.pop())
        p = self.write(dev)  # a blank, free device: written
        self.assertEqual(p.returncode, 0, p.stderr)


class UnlinkOwnInodeTest(SbCase):
    """a file put in place of storbench's during the run is never removed"""

    def replace_during(self, job, path, delay=1.0, refused_ok=False):
        proc = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.time()
        while not os.path.exists(path):
            self.assertLess(time.time() - t0, 20, "storbench never made " + path)
            self.assertIsNone(proc.poll(), "storbench ended before making " + path)
            time.sleep(0.02)
        time.sleep(delay)
        os.unlink(path)
        with open(path, "w") as f:
            f.write("precious")
        out, err = proc.communicate(timeout=60)
        with open(path, "rb") as f:
            got = f.read()
        # the file put there is the user's: never removed, and
        # never extended by a later sweep point that only reads it:
        # that point is refused instead (exit 1, naming the file)
        self.assertEqual(got, b"precious")
        if refused_ok and proc.returncode == 1:
            self.assertIn("needs data to hold 1048576 bytes, but it holds 8 and this run did not "
                          "make it", err)
            return None
        self.assertEqual(proc.returncode, 0, err)
        return json.loads(out)

    def test_io_job(self):
        job = self.write_job("[j]\nioengine=psync\nfilename=data\nsize=1m\ntime_based\n"
                             "runtime=2s\nunlink=1\n")
        self.replace_during(job, os.path.join(self.dir, "data"), 0.5)

    def test_sweep(self):
        job = self.write_job("[global]\nioengine=psync\nfilename=data\nsize=1m\ntime_based\n"
                             "runtime=700ms\nunlink=1\nsweep.bs = 4k | 64k\n[j]\n")
        self.replace_during(job, os.path.join(self.dir, "data"), 0.3, refused_ok=True)

    def test_checkpoint(self):
        ck = os.path.join(self.dir, "ck")
        step1 = os.path.join(ck, "global_epoch1_step1")
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\n"
                             "drop_caches=0\ncheckpoint_folder=%s\nmodel=llama3-8b\n"
                             "checkpoint_scale=0.00002\nnum_checkpoints_write=2\nnum_checkpoints_read=0\n"
                             "time_between_checkpoints=2s\n" % ck)
        # the second checkpoint is 2 s away once step1 has all its files
        target = {}

        def written():
            if not os.path.isdir(step1):
                return False
            names = sorted(os.listdir(step1))
            if not names:
                return False
            target["p"] = os.path.join(step1, names[0])
            return True
        self.replace_during_ckpt(job, written, target)

    def replace_during_ckpt(self, job, ready, target):
        proc = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.time()
        while not ready():
            self.assertLess(time.time() - t0, 20)
            self.assertIsNone(proc.poll(), "storbench ended early")
            time.sleep(0.02)
        time.sleep(0.8)  # inside time_between_checkpoints: step1 is complete
        path = target["p"]
        os.unlink(path)
        with open(path, "w") as f:
            f.write("precious")
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0, err)
        with open(path) as f:
            self.assertEqual(f.read(), "precious")
        # everything else storbench made is gone
        self.assertEqual(os.listdir(os.path.dirname(path)), [os.path.basename(path)])


def proc_start(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[19]


def mark_for(pid, start, job="forged", on=None):
    """a mark as os/scratch.c writes it; on: the path it is put on (its
    dev= and ino=: a mark names the inode it was put on)"""
    with open("/proc/sys/kernel/random/boot_id") as f:
        boot = f.read().strip()
    ident = ""
    if on:
        st = os.lstat(on)
        ident = "dev=%d ino=%d " % (st.st_dev, st.st_ino)
    return ("storbench 1 pid=%d start=%s boot=%s host=%s %sstate=made job=%s"
            % (pid, start, boot, os.uname().nodename, ident, job)).encode()


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


class LeftoverTest(SbCase):
    """SIGKILL leaves marked files; a later run names them; --cleanup removes
    exactly those"""

    def start_and_kill(self, job, ready):
        proc = subprocess.Popen([BIN, job], cwd=self.dir, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        t0 = time.time()
        while not ready():
            self.assertLess(time.time() - t0, 20, "storbench never made its files")
            self.assertIsNone(proc.poll(), "storbench ended early")
            time.sleep(0.02)
        time.sleep(0.3)
        proc.kill()
        proc.wait()
        return proc.pid

    def test_sigkill_then_cleanup(self):
        work = os.path.join(self.dir, "work")
        outside = os.path.join(self.dir, "outside")
        os.mkdir(work)
        os.mkdir(outside)
        if not xattrs_work(work):
            self.skipTest("the file system under %s keeps no user xattrs" % work)
        io = self.write_job("[io]\nioengine=psync\ndirectory=%s\nnrfiles=2\nsize=2m\n"
                            "rw=write\ntime_based\nruntime=60s\nunlink=1\n" % work, "io.ini")
        made = [os.path.join(work, "io.0.%d" % i) for i in range(2)]
        dead = self.start_and_kill(io, lambda: all(os.path.exists(p) for p in made))
        ck = os.path.join(work, "ck")
        step1 = os.path.join(ck, "global_epoch1_step1")
        ckjob = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\n"
                               "drop_caches=0\ncheckpoint_folder=%s\nmodel=llama3-8b\n"
                               "checkpoint_scale=0.00001\nnum_checkpoints_write=2\n"
                               "num_checkpoints_read=0\ntime_between_checkpoints=3s\n" % ck,
                               "ck.ini")
        # killed in the 3 s pause before the second checkpoint (DLIO pauses
        # before every checkpoint, the first included)
        self.start_and_kill(ckjob, lambda: os.path.isdir(step1) and len(os.listdir(step1)) >= 8)
        ckfiles = sorted(os.listdir(step1))
        # a user's files: unmarked, marked by a live process, and outside, behind symlinks
        mine = os.path.join(work, "mine.txt")
        with open(mine, "w") as f:
            f.write("mine")
        forged = os.path.join(work, "forged")
        with open(forged, "w") as f:
            f.write("forged")
        os.setxattr(forged, "user.storbench", mark_for(os.getpid(), proc_start(os.getpid()),
                                                       on=forged))
        precious = os.path.join(outside, "precious")
        with open(precious, "w") as f:
            f.write("precious")
        os.setxattr(precious, "user.storbench", mark_for(dead, "1", "dead"))
        os.setxattr(outside, "user.storbench", mark_for(dead, "1", "dead"))
        os.symlink(outside, os.path.join(work, "dirlink"))
        os.symlink(precious, os.path.join(work, "filelink"))

        # a later run that finds a leftover names it and the cure
        p = self.run_sb("--name=r", "--filename=" + made[0], "--rw=read", "--size=1m",
                        "--ioengine=psync", "--unlink=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(made[0] + ": left over from a storbench run", p.stderr)
        self.assertIn("storbench --cleanup " + work, p.stderr)
        self.assertTrue(os.path.exists(made[0]))  # not this run's to remove

        before = sorted(os.listdir(work))
        p = self.run_sb("--cleanup", work, "--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(work)), before)
        for m in made:
            self.assertIn("would remove " + m, p.stdout)

        p = self.run_sb("--cleanup", work)
        self.assertEqual(p.returncode, 0, p.stderr)
        removed = sorted(l.split()[1] for l in p.stdout.splitlines() if l.startswith("removed "))
        want = sorted(made + [os.path.join(step1, n) for n in ckfiles] + [step1 + "/", ck + "/"])
        self.assertEqual(removed, want, p.stdout)
        self.assertIn("skipped %s: its creator is still running" % forged, p.stdout)
        self.assertEqual(sorted(os.listdir(work)), ["dirlink", "filelink", "forged", "mine.txt"])
        for path, text in ((mine, "mine"), (forged, "forged"), (precious, "precious")):
            with open(path) as f:
                self.assertEqual(f.read(), text)

    def test_kept_files_are_not_leftovers(self):
        """unlink=0 files, keep_checkpoints=1 checkpoints and sweep files kept
        by a run that ended are marked kept: no warning, --cleanup keeps them"""
        if not xattrs_work(self.dir):
            self.skipTest("the file system under %s keeps no user xattrs" % self.dir)
        ck = os.path.join(self.dir, "ck")
        job = self.write_job("[w]\nioengine=psync\nfilename=kept.dat\nsize=1m\nrw=write\n"
                             "[ck]\nstonewall\nworkload=checkpoint\nioengine=psync\nbs=256k\n"
                             "drop_caches=0\ncheckpoint_folder=%s\nmodel=llama3-8b\n"
                             "checkpoint_scale=0.00001\nnum_checkpoints_write=1\n"
                             "num_checkpoints_read=0\nkeep_checkpoints=1\n" % ck)
        self.run_json(job)
        sw = self.write_job("[global]\nioengine=psync\nfilename=sweep.dat\nsize=1m\n"
                            "sweep.bs = 4k | 64k\n[j]\n", "sweep.ini")
        self.run_json(sw)
        for name in ("kept.dat", "sweep.dat"):
            self.assertIn(b"state=kept", os.getxattr(os.path.join(self.dir, name), "user.storbench"))
        p = self.run_sb("--name=r", "--filename=kept.dat", "--rw=read", "--ioengine=psync")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("left over", p.stderr)
        before = sorted(os.walk(self.dir))
        p = self.run_sb("--cleanup", self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("removed /", p.stdout)
        self.assertEqual(sorted(os.walk(self.dir)), before)
        self.assertIn("removed 0 files and 0 folders", p.stdout)

    def test_cleanup_leaves_copies_and_user_files_alone(self):
        """a copy that kept the mark (cp -a, rsync -X, tar
        --xattrs) is the user's: the mark names the inode it was put on, and
        --cleanup removes only that inode.  --dry-run says what the real
        cleanup does: a marked folder holding a user's file is "skipped ...
        not empty" in both, never "would remove"."""
        if not xattrs_work(self.dir):
            self.skipTest("the file system under %s keeps no user xattrs" % self.dir)
        if not shutil.which("cp"):
            self.skipTest("no cp")
        dead = 2 ** 22 + 7  # above pid_max's default: no such process
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        left = os.path.join(work, "left.0.0")
        with open(left, "w") as f:
            f.write("scratch")
        os.setxattr(left, "user.storbench", mark_for(dead, "1", "j", on=left))
        # the user copies a leftover with its extended attributes, then a
        # marked folder gets a file of the user's
        copy = os.path.join(work, "copy-of-left")
        subprocess.run(["cp", "-a", left, copy], check=True)
        self.assertEqual(os.getxattr(copy, "user.storbench"), os.getxattr(left, "user.storbench"))
        folder = os.path.join(work, "ck")
        os.mkdir(folder)
        os.setxattr(folder, "user.storbench", mark_for(dead, "1", "ck", on=folder))
        inner = os.path.join(folder, "inner.0")
        with open(inner, "w") as f:
            f.write("scratch")
        os.setxattr(inner, "user.storbench", mark_for(dead, "1", "ck", on=inner))
        users = os.path.join(folder, "notes.txt")
        with open(users, "w") as f:
            f.write("the user's")
        for dry in (True, False):
            p = self.run_sb("--cleanup", work, *(["--dry-run"] if dry else []))
            self.assertEqual(p.returncode, 0, p.stderr)
            verb = "would remove" if dry else "removed"
            self.assertIn("%s %s (left by" % (verb, left), p.stdout)
            self.assertIn("%s %s (left by" % (verb, inner), p.stdout)
            self.assertIn("skipped %s: its storbench mark" % copy, p.stdout)
            self.assertIn("skipped %s/: not empty" % folder, p.stdout)
            self.assertNotIn("%s %s/ (" % (verb, folder), p.stdout)
            self.assertNotIn("%s %s " % (verb, copy), p.stdout)
        self.assertEqual(sorted(os.listdir(work)), ["ck", "copy-of-left"])
        self.assertEqual(os.listdir(folder), ["notes.txt"])
        with open(copy) as f:
            self.assertEqual(f.read(), "scratch")

    def test_cleanup_bad_dir(self):
        p = self.run_sb("--cleanup", os.path.join(self.dir, "nope"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("nope", p.stderr)
        p = self.run_sb("--dry-run")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--cleanup", p.stderr)


if __name__ == "__main__":
    unittest.main()
