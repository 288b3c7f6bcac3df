"""test_zoned.py: fio's zone options.

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

zonemode=zbd on a regular file (class Zbd): emulated zones of zonesize with
write pointers in memory, compared with fio's write_iolog of the same job
offset by offset (sequential jobs), and by fio's rules for random writes
(each write at its zone's write pointer, at most max_open_zones open, the
same count of zone resets).  fio 3.33 rules relied on (zbd.c of the tag):
- zbd.c:656-729 init_zone_info: a regular file gets zones of zonesize, all
  empty, zonecapacity writable; zbd.c:964 they are shared by file name
  between jobs, so a later job reads what an earlier one wrote.
- zbd.c:514-583: a job that is not rw=read works on whole zones (offset
  rounds up, the end down); zbd.c:1802-2071 zbd_adjust_block: writes go at
  the write pointer, a full zone is reset first; reads stay below it, else
  the next zone with data, else the job ends (read_beyond_wp: anywhere).
- zbd.c:1701-1771: a sequential write at a zone's capacity moves to the
  zone's end; zoneskip moves a sequential job on; io_skip_bytes (fio.h:370)
  counts towards nothing.
- zbd.c:409-468, 1261-1478: open zones and max_open_zones.
- zbd.c:1116-1150, 1955-1960: zone_reset_threshold/frequency.
A zoned block device (BLKREPORTZONE, BLKRESETZONE) needs a zoned device;
this kernel has none (no null_blk): ZbdDevice skips saying so.  Parsing of
the kernel's report is unit-tested (t/unit/test_blkzoned.c).
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
            if len(w) == 5 and w[2] in ("read", "write", "trim"):
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

    def test_sizes_in_zones(self):
        # size=, io_size=, offset=, offset_increment= Nz: N zones of
        # zonesize (fio parse.c:614-631; zbd.c:1017-1025 makes them bytes)
        self.check(["--rw=read", "--size=128z", "--offset=16z", "--zonemode=strided",
                    "--zonesize=8k", "--zoneskip=8k"],
                   strided_model(MB + 128 * KB, 128 * KB, MB, 4 * KB, 8 * KB, 8 * KB, 8 * KB),
                   size=MB + 128 * KB)

    def test_zone_count_needs_zonesize(self):
        for opt in ("size", "io_size", "offset", "offset_increment"):
            with self.subTest(opt=opt):
                job = self.write_job("[j]\nfilename=out.dat\nrw=read\n%s=4z\n%s" %
                                     (opt, "" if opt == "size" else "size=1m\n"))
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("job.ini:4: %s=4z counts zones, and the job has no zonesize=" % opt,
                              p.stderr)
                self.assertIn("add zonesize=", p.stderr)
                self.assertEqual(self.listing(), ["job.ini"])

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
    def bad(self, body, line, *words, fio_lays_out=False):
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
            if not fio_lays_out:  # fio's zbd checks come after it lays the file out
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

    # zonemode=zbd: what fio 3.33 refuses (zbd.c line each); nothing written
    def test_zbd_zonesize_below_a_sector(self):
        # zbd.c:672 "zone size must be at least 512 bytes"
        self.bad("rw=write\nzonemode=zbd\nzonesize=256\n", 9, "zonesize", "512", fio_lays_out=True)

    def test_zbd_job_max_open_without_max_open(self):
        # zbd.c:1073 "'job_max_open_zones' cannot be used without a global open zones limit"
        self.bad("rw=randwrite\nzonemode=zbd\nzonesize=64k\njob_max_open_zones=2\n", 10,
                 "job_max_open_zones", "max_open_zones", fio_lays_out=True)

    def test_zbd_zonesize_not_multiple_of_bs_with_verify(self):
        # zbd.c:621-630 "block size 4096 is not a divisor of the zone size"
        self.bad("rw=write\nverify=crc32c\nzonemode=zbd\nzonesize=6k\n", 10, "zonesize",
                 "multiple of bs", fio_lays_out=True)

    def test_zbd_zoneskip_not_multiple(self):
        # zbd.c:539 "zoneskip 32768 is not a multiple of the device zone size"
        self.bad("rw=write\nzonemode=zbd\nzonesize=64k\nzoneskip=32k\n", 10, "zoneskip",
                 "multiple", fio_lays_out=True)

    def test_zbd_file_smaller_than_a_zone(self):
        # zbd.c:698 "file/device size ... is smaller than zone size"
        self.bad("rw=write\nzonemode=zbd\nzonesize=2m\n", 9, "zonesize", "smaller", fio_lays_out=True)

    def test_zbd_without_zonesize(self):
        # zbd.c:666 "Specifying the zone size is mandatory for regular file"
        self.bad("rw=write\nzonemode=zbd\n", 4, "zonesize=", fio_lays_out=True)

    def test_zbd_bs_above_zonesize(self):
        # zbd.c:1934 "I/O buflen exceeds zone size" (fio: when the write is tried)
        self.bad("rw=write\nbs=128k\nzonemode=zbd\nzonesize=64k\n", 10, "bs", "zonesize", fio_lays_out=True)

    def test_zbd_region_holds_no_zone(self):
        # zbd.c:554/569 "io_size must be at least one zone"
        job = self.write_job("[j]\nioengine=psync\nfilename=out.dat\nrw=write\noffset=10k\n"
                             "size=100k\nzonemode=zbd\nzonesize=64k\n")
        with open(os.path.join(self.dir, "out.dat"), "wb") as f:
            f.truncate(MB)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:8", p.stderr)
        self.assertIn("whole zone", p.stderr)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "out.dat")), MB)
        with open(os.path.join(self.dir, "out.dat"), "rb") as f:
            self.assertEqual(f.read().count(0), MB)  # nothing written

    def test_all_options_parse(self):
        job = self.write_job("[j]\nfilename=out.dat\nsize=1m\nrw=randwrite\nzonemode=zbd\n"
                             "zonesize=256M\nzonecapacity=128M\nzonerange=256M\nzoneskip=0\n"
                             "max_open_zones=32\njob_max_open_zones=4\nzone_reset_threshold=0.7\n"
                             "zone_reset_frequency=0.1\nread_beyond_wp=1\nignore_zone_limits=1\n")
        # the options, as fio --parse-only: =job (the 1 MiB file is smaller than a
        # zone, which the run and plain --parse-only refuse)
        p = self.run_sb("--parse-only=job", job)
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
            # =job: the job, as fio --parse-only (plain --parse-only checks what
            # the run checks: numjobs > 1 writing zones is the run's refusal)
            p = self.run_sb("--parse-only=job", job)
            self.assertEqual(p.returncode, 0, name + ": " + p.stderr)
            if FIO:
                f = subprocess.run([FIO, "--parse-only", job], cwd=self.dir,
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(f.returncode, 0, name + ": " + f.stderr)


class Zbd(SbCase):
    """zonemode=zbd on a regular file, side by side with fio 3.33"""
    ZS = 64 * KB

    def both(self, args, size=MB, job=None):
        """[(dir, offset, len)] of storbench's and (when installed) fio's run"""
        out = []
        for prog in ("sb", "fio") if FIO else ("sb",):
            path = os.path.join(self.dir, "f1")
            if os.path.exists(path):
                os.unlink(path)
            with open(path, "wb") as f:
                f.truncate(size)
            log = os.path.join(self.dir, prog + ".iolog")
            common = ["--write_iolog=" + log]
            if job is None:
                common = ["--name=j", "--ioengine=psync", "--filename=f1", "--bs=4k",
                          "--size=1m", "--zonemode=zbd", "--zonesize=64k", *args] + common
            else:
                common = [self.write_job(job)] + common
            if prog == "sb":
                p = self.run_sb(*common, "--output-format=json")
            else:
                p = subprocess.run([FIO, *common, "--output=" + os.path.join(self.dir, "fio.out")],
                                   cwd=self.dir, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            out.append(iolog_ios(log))
        return out

    def same(self, args, n, **kw):
        runs = self.both(args, **kw)
        self.assertEqual(len(runs[0]), n)
        for r in runs[1:]:
            self.assertEqual(r, runs[0])
        return runs[0]

    def test_seq_write(self):
        ios = self.same(["--rw=write"], 256)
        self.assertEqual([o for _, o, _ in ios], [k * 4 * KB for k in range(256)])

    def test_zonecapacity(self):
        # zbd.c:1716-1728: 48k of each 64k zone; the skipped 16k count for
        # nothing, the pass ends past the last zone: 192 writes (768 KiB)
        ios = self.same(["--rw=write", "--zonecapacity=48k"], 192)
        self.assertTrue(all(o % self.ZS < 48 * KB for _, o, _ in ios))

    def test_second_loop_resets_full_zones(self):
        # loops=2: every zone is full, so each is reset (a write) before the
        # second loop writes it again: 512 writes, the second half as the first
        ios = self.same(["--rw=write", "--loops=2"], 512)
        self.assertEqual(ios[256:], ios[:256])

    def test_zoneskip(self):
        # zbd.c:1747-1762: one zone written, one skipped; back at the start
        # the full zones are reset and written again
        ios = self.same(["--rw=write", "--zoneskip=64k"], 256)
        self.assertEqual(sorted({o // self.ZS for _, o, _ in ios}), list(range(0, 16, 2)))

    def test_offset_rounds_to_zones(self):
        # zbd.c:548-571: offset=10k rounds up to 64k, the end (310k) down to 256k
        ios = self.same(["--rw=write", "--offset=10k", "--size=300k"], 48)
        self.assertEqual((ios[0][1], ios[-1][1]), (64 * KB, 252 * KB))

    def test_io_size_passes(self):
        self.same(["--rw=write", "--io_size=2m"], 512)

    def test_zonesize_not_multiple_of_bs(self):
        # fio accepts it without verify: each write finds zone 0 full and
        # resets it (zbd.c:1960-1981), 256 writes at offset 0
        ios = self.same(["--rw=write", "--zonesize=6k"], 256)
        self.assertEqual({o for _, o, _ in ios}, {0})

    def test_read_nothing_written(self):
        # every emulated zone starts empty: a read job reads nothing (zbd.c:1877)
        self.same(["--rw=read"], 0)
        self.same(["--rw=randread"], 0)

    def test_read_beyond_wp(self):
        self.same(["--rw=read", "--read_beyond_wp=1"], 256)

    def test_trims_reset_zones_with_data(self):
        # zbd.c:2017-2031: a random trim goes to a zone with data (else the
        # nearest one that has some); zbd.c:2092-2113: a trim of a
        # sequential zone resets it, so the trims after it find other zones
        # and the job ends when no zone has data; zbd.c:608-626: one trim
        # block size, the zone size.  3 zones written, then randtrim with
        # bs=64k: 3 trims, at the 3 written zones' starts, in both tools
        job = ("[global]\nioengine=psync\nfilename=f1\nzonemode=zbd\nzonesize=64k\n"
               "[w]\nrw=write\nbs=4k\nsize=192k\n[t]\nstonewall\nrw=randtrim\nbs=64k\n"
               "size=1m\n")
        runs = self.both([], job=job)
        for ios in runs:
            trims = sorted(o for d, o, _ in ios if d == "t")
            self.assertEqual(trims, [0, 64 * KB, 128 * KB], ios[-6:])
        if FIO:  # the same trims, in the same order
            self.assertEqual(*[[io for io in r if io[0] == "t"] for r in runs])

    def test_trim_rules(self):
        for body, line, words in (
                ("rw=randtrim\nbs=32k\nzonesize=64k\n", 4, "not zonesize=65536"),
                ("rw=randtrim\nbsrange=32k-64k\nzonesize=64k\n", 4, "bsrange and bssplit"),
                ("rw=trimwrite\nbs=64k\nzonesize=64k\n", 3, "a job of their own")):
            with self.subTest(body=body):
                job = self.write_job("[j]\nfilename=f1\nzonemode=zbd\nsize=1m\n" + body)
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(words, p.stderr)
                self.assertIn("job.ini:", p.stderr)
                self.assertEqual(self.listing(), ["job.ini"])

    def test_read_after_write(self):
        # two jobs share the file's zones (zbd.c:964): the write job rounds
        # 200k down to 192k (3 zones), the read job reads those and stops
        job = ("[global]\nioengine=psync\nfilename=f1\nbs=4k\nzonemode=zbd\nzonesize=64k\n"
               "[w]\nrw=write\nsize=200k\n[r]\nstonewall\nrw=read\nsize=1m\n")
        runs = self.both([], job=job)
        # storbench's write_iolog holds the last job's I/O; fio's both
        self.assertEqual(runs[0], [("r", k * 4 * KB, 4 * KB) for k in range(48)])
        if FIO:
            self.assertEqual(runs[1][48:], runs[0])

    def check_random(self, ios, max_open):
        """fio's rules: each write at its zone's write pointer (or at the
        zone's start after a reset), at most max_open zones open; resets"""
        wp, open_, most, resets = {}, set(), 0, 0
        for _, o, n in ios:
            z = o // self.ZS
            if o != wp.get(z, z * self.ZS):
                self.assertEqual(o, z * self.ZS, "write off its zone's write pointer")
                resets += 1
            wp[z] = o + n
            open_.add(z)
            if wp[z] >= (z + 1) * self.ZS:
                open_.discard(z)
            most = max(most, len(open_))
        self.assertLessEqual(most, max_open)
        return resets

    def test_randwrite_max_open_zones(self):
        runs = self.both(["--rw=randwrite", "--max_open_zones=4"])
        got = [(len(r), self.check_random(r, 4)) for r in runs]
        self.assertEqual(got[0][0], 256)
        for g in got[1:]:  # fio's generator differs: the counts agree
            self.assertEqual(g, got[0])

    def test_reset_threshold(self):
        # zone_reset_threshold=0.5, frequency=0.25: past half the region
        # written, every 4th write resets its zone first (zbd.c:1955-1960)
        runs = self.both(["--rw=randwrite", "--max_open_zones=2",
                          "--zone_reset_threshold=0.5", "--zone_reset_frequency=0.25"])
        resets = [self.check_random(r, 2) for r in runs]
        self.assertGreater(resets[0], 5)
        for r in resets[1:]:
            self.assertLess(abs(r - resets[0]), 8)


class ZbdDevice(SbCase):
    def test_zoned_block_device(self):
        zoned = [d for d in os.listdir("/sys/block")
                 if open("/sys/block/%s/queue/zoned" % d).read().strip() != "none"] \
            if os.path.isdir("/sys/block") else []
        if not zoned:
            self.skipTest("no zoned block device on this machine (and no null_blk module to "
                          "make one): the BLKREPORTZONE/BLKRESETZONE path is not exercised; "
                          "the report's parsing is unit-tested (t/unit/test_blkzoned.c)")
        self.skipTest("zoned device %s present: not written by the test suite" % zoned[0])


if __name__ == "__main__":
    import unittest
    unittest.main()
