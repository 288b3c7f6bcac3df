"""test_dio.py: direct=1 is checked against the real direct-I/O alignment of
each file or device before any I/O (run/precheck.c calling the one check,
parse/dio.c, with os/dio.c's alignment): a loop device with 4096-byte
logical blocks refuses bs=512, naming the job file and line, the value, the
alignment and the fix, and is neither read nor written; so does a file on an
ext4 file system on such a device, whether the file exists or not; tmpfs
(which takes O_DIRECT without alignment) runs bs=512.  Loop devices and
mounts need root: skipped otherwise."""
import hashlib
import os
import shutil
import subprocess
import unittest

from sbtest import LoopCase, why_no_loop

MB = 1 << 20



def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(MB), b""):
            h.update(chunk)
    return h.hexdigest()


def reads(dev):
    """sectors read from dev so far (/sys/block/NAME/stat, field 3)"""
    with open("/sys/block/%s/stat" % os.path.basename(dev)) as f:
        return int(f.read().split()[2])


@unittest.skipIf(why_no_loop(), why_no_loop() or "")
class Loop4kTest(LoopCase):

    def loop4k(self, size=64 * MB):
        img = os.path.join(self.dir, "disk.img")
        with open(img, "wb") as f:
            f.truncate(size)
        dev = self.attach(img, "--sector-size", "4096")
        with open("/sys/block/%s/queue/logical_block_size" % os.path.basename(dev)) as f:
            if f.read().strip() != "4096":
                self.skipTest("losetup --sector-size 4096 not honoured")
        return dev, img

    def job(self, target, extra=""):
        # line 4: bs=
        return self.write_job("[global]\nioengine=psync\n[j]\nbs=512\ndirect=1\nrw=read\n"
                              "size=1m\nfilename=%s\n%s" % (target, extra))

    def test_device_refuses_512_before_any_io(self):
        dev, img = self.loop4k()
        job = self.job(dev)
        before, read0 = sha(img), reads(dev)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench: %s:4: job j: bs=512 is not a multiple of 4096, the direct-I/O "
                      "alignment of %s (" % (job, dev), p.stderr)
        self.assertIn("use bs=4096 or another multiple of 4096, or direct=0", p.stderr)
        self.assertEqual(reads(dev), read0, "the device was read")
        self.assertEqual(sha(img), before, "the device was written")
        self.assertEqual(p.stdout, "")

    def test_device_runs_4096(self):
        """the same job with bs=4k runs: the check is what refused 512"""
        dev, _ = self.loop4k()
        job = self.write_job("[j]\nioengine=psync\nbs=4k\ndirect=1\nrw=read\nsize=1m\n"
                             "filename=%s\n" % dev)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_ext4_on_4k_device(self):
        if not shutil.which("mkfs.ext4"):
            self.skipTest("mkfs.ext4 not installed (e2fsprogs)")
        dev, _ = self.loop4k()
        subprocess.run(["mkfs.ext4", "-F", "-q", "-b", "4096", dev], check=True)
        mnt = os.path.join(self.dir, "mnt")
        os.mkdir(mnt)
        subprocess.run(["mount", dev, mnt], check=True)
        self.mounts.append(mnt)
        new = os.path.join(mnt, "new.dat")  # not there: its directory's disk says 4096
        old = os.path.join(mnt, "old.dat")  # there: statx says
        with open(old, "wb") as f:
            f.write(b"\1" * MB)
        for target in (new, old):
            with self.subTest(target=target):
                p = self.run_sb(self.job(target))
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("job.ini:4: job j: bs=512 is not a multiple of 4096, the direct-I/O "
                              "alignment of %s" % target, p.stderr)
                self.assertEqual(sorted(os.listdir(mnt)), ["lost+found", "old.dat"])
        # the region stays inside old.dat: past its end, the plan would refuse
        # first to extend a file storbench did not make
        p = self.run_sb(self.write_job("[global]\nioengine=psync\n[j]\nbs=4k\ndirect=1\n"
                                       "rw=read\nsize=512k\nfilename=%s\noffset=2k\n" % old))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:9: job j: offset=2048 is not a multiple of 4096", p.stderr)

    def test_tmpfs_takes_512(self):
        mnt = os.path.join(self.dir, "tm")
        os.mkdir(mnt)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "none", mnt], check=True)
        self.mounts.append(mnt)
        p = self.run_sb(self.job(os.path.join(mnt, "f")))
        if p.returncode != 0 and "Invalid argument" in p.stderr:
            self.skipTest("this kernel's tmpfs has no O_DIRECT (before Linux 6.6)")
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
