"""test_fio_offsets.py: the offsets storbench issues for fio's size and offset
options are fio 3.33's, where fio's offsets do not depend on its
random generator.  Each case runs the same options through fio (its
--write_iolog lists every I/O) and storbench (write_lat_log with log_offset=1
lists every I/O), and compares the (direction, offset, length) sequences of
each thread.  fio must be installed (skipped otherwise); the expected
sequences written out below are what fio 3.33 did, so the fio-less half of
each case still checks storbench.

Also here: the run-time refusals of these options (a percentage of a file
that does not exist yet) with file:line and nothing written.
"""
import glob
import os
import shutil
import subprocess

from sbtest import SbCase

FIO = shutil.which("fio")
MB = 1 << 20


def fio_offsets(d, args):
    """fio's I/Os per thread: [[(dir, offset, len), ...], ...]"""
    log = os.path.join(d, "fio.iolog")
    if os.path.exists(log):
        os.unlink(log)  # fio appends
    p = subprocess.run([FIO, "--name=j", "--ioengine=psync", "--thread", *args,
                        "--write_iolog=" + log, "--output=" + os.path.join(d, "fio.out")],
                       cwd=d, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    threads, cur = [], None
    with open(log) as f:
        for line in f:
            w = line.split()
            if line.startswith("fio version"):
                cur = []
                threads.append(cur)
            elif len(w) == 5 and w[2] in ("read", "write"):
                cur.append((w[2][0], int(w[3]), int(w[4])))
    return sorted(threads)


class FioOffsets(SbCase):
    def sb_offsets(self, args):
        p = self.run_sb("--name=j", "--ioengine=psync", *args, "--write_lat_log=sbl",
                        "--log_offset=1", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        threads = []
        for path in sorted(glob.glob(os.path.join(self.dir, "sbl_clat.*.log"))):
            ios = []
            with open(path) as f:
                for line in f:
                    w = [x.strip() for x in line.split(",")]
                    ios.append(("rw"[int(w[2])], int(w[4]), int(w[3])))
            threads.append(ios)
            os.unlink(path)
        for path in glob.glob(os.path.join(self.dir, "sbl_*.log")):
            os.unlink(path)
        return sorted(threads)

    def prepare(self, size=MB):
        path = os.path.join(self.dir, "f1")
        with open(path, "wb") as f:
            f.truncate(size)
        return path

    def check(self, args, want, size=MB):
        """storbench gives want (fio 3.33's offsets), and fio does too where installed"""
        self.prepare(size)
        args = ["--filename=f1", *args]
        got = self.sb_offsets(args)
        self.assertEqual(got, want)
        if FIO:
            self.prepare(size)
            self.assertEqual(fio_offsets(self.dir, args), got)

    def test_read_skip(self):
        ios = [("r", k * 8192, 4096) for k in range(8)]
        # in a larger file the hole after the last I/O leaves the region: done
        self.check(["--rw=read:4k", "--bs=4k", "--size=64k"], [ios])
        # where the hole reaches the file's end, fio wraps to the start
        self.check(["--rw=read:4k", "--bs=4k", "--size=64k"], [ios + ios], size=65536)
        self.check(["--rw=read:6k", "--bs=4k", "--size=64k", "--io_size=128k"],
                   [[("r", (k % 7) * 10240, 4096) for k in range(32)]], size=65536)

    def test_read_skip_past_end(self):
        # the hole goes past the region's end: fio ends the loop there
        self.check(["--rw=read:6k", "--bs=4k", "--size=64k"],
                   [[("r", k * 10240, 4096) for k in range(7)]])

    def test_read_backwards(self):
        offs = [0] + [k * 4096 for k in range(14, -1, -1)]
        self.check(["--rw=read:-8k", "--bs=4k", "--size=64k"], [[("r", o, 4096) for o in offs]])

    def test_size_percent(self):
        self.check(["--rw=read", "--bs=64k", "--size=50%"],
                   [[("r", k * 65536, 65536) for k in range(8)]])

    def test_size_and_offset_percent(self):
        self.check(["--rw=read", "--bs=64k", "--size=50%", "--offset=25%"],
                   [[("r", 262144 + k * 65536, 65536) for k in range(8)]])

    def test_offset_percent_aligned(self):
        # 10% of 1 MiB is 104857.6: aligned up to the block size, 128 KiB
        self.check(["--rw=read", "--bs=64k", "--offset=10%"],
                   [[("r", 131072 + k * 65536, 65536) for k in range(14)]])
        self.check(["--rw=read", "--bs=64k", "--size=10%", "--offset=10%", "--offset_align=128k"],
                   [[("r", 131072, 65536)]])

    def test_io_size_percent(self):
        self.check(["--rw=read", "--bs=64k", "--size=25%", "--io_size=50%"],
                   [[("r", 0, 65536), ("r", 65536, 65536)]])

    def test_offset_increment_numjobs(self):
        self.check(["--rw=read", "--bs=64k", "--size=10%", "--offset_increment=30%", "--numjobs=2"],
                   [[("r", 0, 65536)], [("r", 327680, 65536)]])
        self.check(["--rw=read", "--bs=64k", "--size=128k", "--offset_increment=256k", "--numjobs=3"],
                   [[("r", t * 262144 + k * 65536, 65536) for k in range(2)] for t in range(3)])

    def test_number_ios(self):
        self.check(["--rw=read", "--bs=4k", "--size=256k", "--number_ios=5"],
                   [[("r", k * 4096, 4096) for k in range(5)]])

    def test_aliases_run(self):
        # nr_files and fileoffset are nrfiles' and offset's fio aliases
        self.check(["--rw=read", "--bs=64k", "--size=128k", "--fileoffset=512k", "--nr_files=1"],
                   [[("r", 524288, 65536), ("r", 589824, 65536)]])

    def sizes(self, tool, args):
        d = os.path.join(self.dir, tool)
        os.mkdir(d)
        if tool == "fio":
            p = subprocess.run([FIO, "--name=j", "--thread", "--output=/dev/null", *args], cwd=d,
                               capture_output=True, text=True, timeout=120)
        else:
            p = self.run_sb("--name=j", *args, cwd=d)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = [os.path.getsize(os.path.join(d, n)) for n in sorted(os.listdir(d))]
        shutil.rmtree(d)
        return out

    def test_filesize_range(self):
        # each file's size from the job's seed, in the range, a multiple of
        # the block size, the same on every run (fio 3.33 gave 80k, 112k,
        # 112k and 224k: its generator is not storbench's)
        args = ["--ioengine=psync", "--rw=write", "--bs=16k", "--filesize=64k-256k",
                "--nrfiles=4"]
        for tool in (["fio"] if FIO else []) + ["sb"]:
            a = self.sizes(tool, args)
            self.assertEqual(len(a), 4)
            for n in a:
                self.assertTrue(65536 <= n <= 262144 and n % 16384 == 0, (tool, a))
            self.assertGreater(len(set(a)), 1, (tool, a))
            self.assertEqual(self.sizes(tool, args), a, tool)

    def test_size_percent_of_missing_file_refused(self):
        job = self.write_job("[global]\nioengine=psync\n[j]\nfilename=nothere\nrw=write\n"
                             "size=50%\n")
        before = self.listing()
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:6", p.stderr)
        self.assertIn("size=50%", p.stderr)
        self.assertIn("does not exist", p.stderr)
        self.assertIn("give size= in bytes", p.stderr)
        self.assertEqual(self.listing(), before)

    def test_size_percent_null_engine_refused(self):
        job = self.write_job("[j]\nioengine=null\nrw=read\nsize=20%\n")
        before = self.listing()
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4", p.stderr)
        self.assertIn("size=20%", p.stderr)
        self.assertIn("ioengine=null has no files", p.stderr)
        self.assertEqual(self.listing(), before)
