"""test_zoned.py: fio's zone options (issue 23 item 6).

zonemode=strided: storbench's offsets are fio 3.33's, offset by offset, for
sequential jobs (fio's write_iolog of the same job, side by side when fio is
installed; the expected sequences below are what fio 3.33 did, so the
fio-less half still checks storbench).  Random strided jobs are compared zone
by zone: the same zones in the same order, each zone's blocks once (fio's
random map is reset per zone range, io_u.c:931; its generator differs).

fio 3.33 facts used (fetch github:axboe/fio, tag fio-3.33):
- io_u.c:892-933 setup_strided_zone_mode: after zonesize bytes the zone moves
  by zonerange + zoneskip, wrapping to the start offset past the file's end;
  zonesize > zonerange repeats the zone's range.
- init.c:638: zonesize with zonemode=none is an error, and none is the
  default (options.c:3525 .def = "none"): fio does NOT infer strided from
  zonesize alone (the ZONE_MODE_NOT_SPECIFIED branch at init.c:653 is never
  reached from a job file).  init.c:648: strided needs zonesize.
  init.c:670: zonerange defaults to zonesize.
- options.c:3637-3655: zone_reset_threshold/frequency are fractions 0..1.

zonemode=zbd parses (fio's examples/zbd-*.fio pass --parse-only) and a run
refuses it before anything is created (no zone write pointers yet).
"""
import os
import shutil
import subprocess

from sbtest import SbCase, SRC

FIO = shutil.which("fio")
KB = 1024
MB = 1 << 20


def iolog_ios(path):
    """[(dir, offset, len)] of a fio-format iolog (fio's or storbench's)"""
    ios = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 5 and w[2] in ("read", "write"):
                ios.append((w[2][0], int(w[3]), int(w[4])))
    return ios


def strided_model(filesize, start, nbytes, bs, zsize, zrange, zskip, d="r"):
    """fio 3.33's sequential strided offsets (io_u.c:892-933), as a list"""
    out, zstart, zbytes, last = [], start, 0, start
    while len(out) * bs < nbytes:
        if zbytes >= zsize:
            zbytes = 0
            zstart += zrange + zskip
            if zstart >= filesize:
                zstart = start
            last = zstart
        if last >= zstart + zrange or zbytes % zrange == 0:
            last = zstart
        out.append((d, last, bs))
        last += bs
        zbytes += bs
    return out


class Strided(SbCase):
    def prepare(self, size=MB):
        path = os.path.join(self.dir, "f1")
        with open(path, "wb") as f:
            f.truncate(size)
        return path

    def sb_ios(self, args):
        log = os.path.join(self.dir, "sb.iolog")
        p = self.run_sb("--name=j", "--ioengine=psync", "--filename=f1", *args,
                        "--write_iolog=" + log, "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        ios = iolog_ios(log)
        os.unlink(log)
        return ios

    def fio_ios(self, args):
        log = os.path.join(self.dir, "fio.iolog")
        p = subprocess.run([FIO, "--name=j", "--ioengine=psync", "--filename=f1", *args,
                            "--write_iolog=" + log, "--output=" + os.path.join(self.dir, "fio.out")],
                           cwd=self.dir, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        ios = iolog_ios(log)
        os.unlink(log)
        return ios

    def check(self, args, want, size=MB):
        self.prepare(size)
        got = self.sb_ios(args)
        self.assertEqual(got, want)
        if FIO:
            self.prepare(size)
            self.assertEqual(self.fio_ios(args), got)

    def test_zoneskip(self):
        # disk-zone-profile.fio's pattern, scaled: 16k of every 32k, twice round
        self.check(["--rw=read", "--size=1m", "--zonemode=strided", "--zonesize=16k",
                    "--zoneskip=16k"],
                   strided_model(MB, 0, MB, 4 * KB, 16 * KB, 16 * KB, 16 * KB))

    def test_zonerange_larger(self):
        self.check(["--rw=read", "--size=1m", "--zonemode=strided", "--zonesize=16k",
                    "--zonerange=28k", "--bs=8k"],
                   strided_model(MB, 0, MB, 8 * KB, 16 * KB, 28 * KB, 0))

    def test_zonesize_larger_repeats_range(self):
        self.check(["--rw=read", "--size=1m", "--zonemode=strided", "--zonesize=24k",
                    "--zonerange=16k", "--bs=8k"],
                   strided_model(MB, 0, MB, 8 * KB, 24 * KB, 16 * KB, 0))

    def test_write(self):
        self.check(["--rw=write", "--size=1m", "--zonemode=strided", "--zonesize=8k",
                    "--zoneskip=100k"],
                   strided_model(MB, 0, MB, 4 * KB, 8 * KB, 8 * KB, 100 * KB, "w"))

    def test_zones_wrap_at_file_end_not_region(self):
        # size=256k of a 1 MiB file: zones go on past the region and wrap at
        # the file's end, as fio's do (f->real_file_size, io_u.c:909)
        self.check(["--rw=read", "--size=256k", "--zonemode=strided", "--zonesize=16k",
                    "--zoneskip=16k"],
                   strided_model(MB, 0, 256 * KB, 4 * KB, 16 * KB, 16 * KB, 16 * KB))

    def test_offset_start(self):
        # wrap back to offset=, not to 0 (get_start_offset)
        self.check(["--rw=read", "--offset=128k", "--size=512k", "--zonemode=strided",
                    "--zonesize=16k", "--zoneskip=48k"],
                   strided_model(MB, 128 * KB, 512 * KB, 4 * KB, 16 * KB, 16 * KB, 48 * KB))

    def test_zoneskip_in_zones(self):
        # zoneskip=3z: 3 zones of zonesize (fio parse.c:614-631, zbd.c:1026,
        # applied for every zonemode)
        self.check(["--rw=read", "--size=1m", "--zonemode=strided", "--zonesize=8k",
                    "--zoneskip=3z"],
                   strided_model(MB, 0, MB, 4 * KB, 8 * KB, 8 * KB, 24 * KB))

    def test_loops_go_on_from_the_zone(self):
        self.check(["--rw=read", "--size=1m", "--loops=2", "--zonemode=strided",
                    "--zonesize=16k", "--zoneskip=16k"],
                   strided_model(MB, 0, 2 * MB, 4 * KB, 16 * KB, 16 * KB, 16 * KB))

    def test_pass_ends_early(self):
        # an I/O that does not fit (its place in the zone at or past the
        # region's length, io_u.c:486; or past the file's end, io_u.c:985)
        # ends the pass: with io_size= the pass starts over at the region's
        # start, else the loop ends early (fio 3.33, seen in its iologs)
        cases = (  # args, I/Os, offsets (in 4k blocks) of I/Os 16..19
            (["--size=64k", "--io_size=512k", "--zonesize=128k"], 128, [0, 1, 2, 3]),
            (["--size=1m", "--zonesize=16k", "--zonerange=44k"], 95, [44, 45, 46, 47]),
            (["--size=1m", "--io_size=2m", "--zonesize=16k", "--zonerange=44k"], 512,
             [44, 45, 46, 47]),
            (["--size=1m", "--loops=2", "--zonesize=16k", "--zonerange=44k"], 190,
             [44, 45, 46, 47]),
        )
        for args, n, blocks in cases:
            args = ["--rw=read", "--zonemode=strided", *args]
            self.prepare()
            got = self.sb_ios(args)
            self.assertEqual(len(got), n, args)
            self.assertEqual([o // (4 * KB) for _, o, _ in got[16:20]], blocks, args)
            if n == 190:  # the second loop starts over at the region's start
                self.assertEqual(got[95:190], got[:95])
            if FIO:
                self.prepare()
                self.assertEqual(self.fio_ios(args), got, args)

    def zones_of(self, ios, per):
        """random: [(zone start, sorted offsets)] per group of `per` I/Os"""
        out = []
        for i in range(0, len(ios), per):
            offs = sorted(o for _, o, _ in ios[i:i + per])
            out.append((offs[0] // (32 * KB), offs))
        return out

    def test_random_zone_by_zone(self):
        args = ["--rw=randread", "--size=1m", "--zonemode=strided", "--zonesize=16k",
                "--zoneskip=16k"]
        self.prepare()
        got = self.zones_of(self.sb_ios(args), 4)
        want = [(z % 32, [(z % 32) * 32 * KB + k * 4 * KB for k in range(4)]) for z in range(64)]
        self.assertEqual(got, want)
        if FIO:
            self.prepare()
            self.assertEqual(self.zones_of(self.fio_ios(args), 4), got)

    def test_mixed_stays_in_zones(self):
        # rw=rw: the direction is drawn at random (fio's generator differs),
        # so check what both share: I/O i lies in zone i // 4, in its first 16k
        args = ["--rw=rw", "--size=1m", "--zonemode=strided", "--zonesize=16k", "--zoneskip=16k"]
        self.prepare()
        runs = [self.sb_ios(args)]
        if FIO:
            self.prepare()
            runs.append(self.fio_ios(args))
        for ios in runs:
            self.assertEqual(len(ios), 256)
            for i, (_, o, _) in enumerate(ios):
                z = (i // 4) % 32
                self.assertTrue(z * 32 * KB <= o < z * 32 * KB + 16 * KB, (i, o))

    def test_more_files_no_zones(self):
        # fio init.c:663: strided zones only with one file open; nrfiles=2
        # runs each file through as without zones
        p = self.run_sb("--name=j", "--ioengine=psync", "--rw=read", "--size=128k", "--nrfiles=2",
                        "--zonemode=strided", "--zonesize=16k", "--zoneskip=16k",
                        "--write_iolog=sb.iolog", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        ios = iolog_ios(os.path.join(self.dir, "sb.iolog"))
        self.assertEqual(len(ios), 32)
        self.assertEqual(sorted(set(o for _, o, _ in ios)), [k * 4 * KB for k in range(16)])


class ZoneOptions(SbCase):
    def bad(self, body, line, *words):
        job = self.write_job("[global]\nioengine=psync\n\n[j]\nfilename=out.dat\nsize=1m\n" + body)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:%d" % line, p.stderr)
        for w in words:
            self.assertIn(w, p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])  # nothing written
        if FIO:  # fio refuses the same job when it runs it (its --parse-only
            # skips init.c's fixup_options checks); nothing is written either
            f = subprocess.run([FIO, "--output=/dev/null", job], cwd=self.dir,
                               capture_output=True, text=True, timeout=60)
            self.assertNotEqual(f.returncode, 0, f.stderr)
            self.assertEqual(self.listing(), ["job.ini"])
        return p

    def test_zonesize_without_zonemode(self):
        # fio 3.33 init.c:638 "--zonemode=none and --zonesize are not compatible"
        self.bad("rw=read\nzonesize=64k\n", 8, "zonesize", "zonemode=strided")

    def test_zonemode_none_with_zonesize(self):
        self.bad("rw=read\nzonemode=none\nzonesize=64k\n", 9, "zonesize", "zonemode=strided")

    def test_strided_without_zonesize(self):
        # init.c:648 "--zonesize must be specified when using --zonemode=strided"
        self.bad("rw=read\nzonemode=strided\n", 8, "zonemode", "zonesize=")

    def test_bad_zonemode(self):
        self.bad("zonemode=stripes\n", 7, "zonemode", "strided", "zbd")

    def test_reset_threshold_above_one(self):
        # options.c:3641 maxfp = 1
        self.bad("zonemode=zbd\nzonesize=64k\nzone_reset_threshold=1.5\n", 9,
                 "zone_reset_threshold")

    def test_max_open_zones_too_many(self):
        # options.c:3597 maxval ZBD_MAX_OPEN_ZONES (4096)
        self.bad("zonemode=zbd\nzonesize=64k\nmax_open_zones=5000\n", 9, "max_open_zones")

    def test_zonecapacity_over_zonesize(self):
        job = self.write_job("[j]\nfilename=out.dat\nsize=1m\nzonemode=zbd\nzonesize=64k\n"
                             "zonecapacity=128k\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:6", p.stderr)
        self.assertIn("zonecapacity", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_zbd_run_refused_nothing_written(self):
        job = self.write_job("[j]\nfilename=out.dat\nsize=1m\nrw=write\nzonemode=zbd\n"
                             "zonesize=64k\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:5", p.stderr)
        self.assertIn("zonemode=zbd", p.stderr)
        self.assertIn("fio", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_all_options_parse(self):
        job = self.write_job("[j]\nfilename=out.dat\nsize=1m\nrw=randwrite\nzonemode=zbd\n"
                             "zonesize=256M\nzonecapacity=128M\nzonerange=256M\nzoneskip=0\n"
                             "max_open_zones=32\njob_max_open_zones=4\nzone_reset_threshold=0.7\n"
                             "zone_reset_frequency=0.1\nread_beyond_wp=1\nignore_zone_limits=1\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        if FIO:
            f = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(f.returncode, 0, f.stderr)

    def test_fio_examples_parse(self):
        # fio 3.33's examples/disk-zone-profile.fio, zbd-rand-write.fio and
        # zbd-seq-read.fio (t/jobs/fio/), their devices replaced by a file
        # (storbench checks the files even under --parse-only; fio does not)
        d = os.path.join(SRC, "t", "jobs", "fio")
        for name in ("disk-zone-profile.fio", "zbd-rand-write.fio", "zbd-seq-read.fio"):
            text = open(os.path.join(d, name)).read()
            for dev in ("/dev/sdb", "/dev/sdj", "/dev/sdd"):
                text = text.replace(dev, "dev.img")
            text = text.replace("offset=140660178944", "offset=1m").replace("size=10G", "size=1m")
            with open(os.path.join(self.dir, "dev.img"), "wb") as f:
                f.truncate(4 * MB)
            job = self.write_job(text, name)
            p = self.run_sb("--parse-only", job)
            self.assertEqual(p.returncode, 0, name + ": " + p.stderr)
            if FIO:
                f = subprocess.run([FIO, "--parse-only", job], cwd=self.dir,
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(f.returncode, 0, name + ": " + f.stderr)


if __name__ == "__main__":
    import unittest
    unittest.main()
