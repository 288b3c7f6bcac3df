"""test_iolog.py: fio's I/O logs.  write_iolog writes fio's iolog v3, read_iolog
replays v2 and v3 logs with replay_no_stall, replay_time_scale, replay_redirect,
replay_align, replay_scale and replay_skip; a log written by fio 3.33 replays
here and one written here replays in fio 3.33 (the same I/Os: directions and
offsets, read back from each tool's clat log with log_offset=1); a replayed
log that writes goes through the same device guard as any job."""
import json
import os
import shutil
import subprocess
import time
import unittest

from sbtest import CpuLoss, SbCase
from sbtest import why_no_loop
from test_safety import sha

FIO = shutil.which("fio")


def io_lines(path):
    """(action, file, offset, length) of a log's I/O lines"""
    out = []
    with open(path) as f:
        ver = f.readline().split()[2]
        for line in f:
            w = line.split()
            if ver == "3":
                w = w[1:]
            if len(w) == 4 and w[1] in ("read", "write", "trim", "sync", "datasync"):
                out.append((w[1], w[0], int(w[2]), int(w[3])))
    return out


def clat_ios(path):
    """(ddir, offset) of each line of a clat log written with log_offset=1"""
    with open(path) as f:
        return [(int(c[2]), int(c[4])) for c in (line.split(",") for line in f)]


def as_ddir(ios):
    return [(0 if a == "read" else 1, off) for a, _, off, _ in ios if a in ("read", "write")]


class IologTest(SbCase):
    WRITER = ("[w]\nioengine=psync\nrw=randrw\nbs=4k\nsize=64k\nfilename=data\n"
              "write_iolog=w.log\nrandseed=7\n")
    REPLAY = "[r]\nioengine=psync\nread_iolog={}\nwrite_lat_log=r\nlog_offset=1\n{}"

    def replay(self, log, extra=""):
        job = self.write_job(self.REPLAY.format(log, extra), "replay.ini")
        t0 = time.monotonic()
        j = self.run_json(job)["jobs"][0]
        return j, clat_ios(os.path.join(self.dir, "r_clat.1.log")), time.monotonic() - t0

    def test_round_trip(self):
        j = self.run_json(self.write_job(self.WRITER))["jobs"][0]
        log = os.path.join(self.dir, "w.log")
        with open(log) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:3], ["fio version 3 iolog", "0 data add", "0 data open"])
        self.assertTrue(lines[-1].endswith(" data close"), lines[-1])
        ios = io_lines(log)
        self.assertEqual(len(ios), 16)
        self.assertEqual(sum(1 for a in ios if a[0] == "read"), j["read"]["total_ios"])
        times = [int(line.split()[0]) for line in lines[1:]]
        self.assertEqual(times, sorted(times), "psync: issue times in order")
        r, got, _ = self.replay("w.log", "replay_no_stall=1\n")
        self.assertEqual(got, as_ddir(ios))
        self.assertEqual((r["read"]["io_bytes"], r["write"]["io_bytes"]),
                         (j["read"]["io_bytes"], j["write"]["io_bytes"]))

    @unittest.skipUnless(FIO, "fio not installed")
    def test_fio_log_replays_here(self):
        job = self.write_job(self.WRITER.replace("w.log", "fio.log"), "fio.ini")
        subprocess.run([FIO, "--output-format=json", job], cwd=self.dir, check=True,
                       capture_output=True, timeout=120)
        ios = io_lines(os.path.join(self.dir, "fio.log"))
        self.assertEqual(len(ios), 16)
        _, got, _ = self.replay("fio.log")
        self.assertEqual(got, as_ddir(ios))

    @unittest.skipUnless(FIO, "fio not installed")
    def test_log_replays_in_fio(self):
        self.run_json(self.write_job(self.WRITER))
        ios = io_lines(os.path.join(self.dir, "w.log"))
        job = self.write_job(self.REPLAY.format("w.log", ""), "fio-replay.ini")
        p = subprocess.run([FIO, "--output-format=json", job], cwd=self.dir, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(clat_ios(os.path.join(self.dir, "r_clat.1.log")), as_ddir(ios))

    def test_v3_timing(self):
        # three I/Os 1 s apart: 2 s as logged, 0.5 s at 400 %, no wait with
        # no_stall.  The span from the first I/O to the last, from the clat
        # log's ms stamps: never shorter than the log asks (a loaded machine
        # only waits longer); longer only by what other load took (CpuLoss)
        with open(os.path.join(self.dir, "t.log"), "w") as f:
            f.write("fio version 3 iolog\n5 /gone/disk add\n5 /gone/disk open\n"
                    "10 /gone/disk read 0 4096\n1000010 /gone/disk read 8192 4096\n"
                    "2000010 /gone/disk write 20000 4096\n2000020 /gone/disk close\n")
        red = "replay_redirect=target\n"

        def span_ms(extra):
            with CpuLoss() as lost:
                _, got, _ = self.replay("t.log", red + extra)
            with open(os.path.join(self.dir, "r_clat.1.log")) as f:
                t = [int(line.split(",")[0]) for line in f]
            return got, t[-1] - t[0], 1000 * lost.s

        got, span, late = span_ms("")
        self.assertEqual(got, [(0, 0), (0, 8192), (1, 20000)])
        # (completion stamps: a slow first I/O, on a cold file, shortens
        # the span by its latency)
        self.assertGreaterEqual(span, 1900)
        _, span, late = span_ms("replay_time_scale=400\n")
        self.assertGreaterEqual(span, 450)
        self.assertLess(span, 1000 + late)
        _, span, late = span_ms("replay_no_stall=1\n")
        self.assertLess(span, 500 + late)
        # offsets / replay_scale, rounded down to replay_align (fio 3.33: 0, 4096, 8192)
        _, got, _ = self.replay("t.log", red + "replay_no_stall=1\nreplay_scale=2\n"
                                "replay_align=4k\n")
        self.assertEqual(got, [(0, 0), (0, 4096), (1, 8192)])
        _, got, _ = self.replay("t.log", red + "replay_no_stall=1\nreplay_skip=write\n")
        self.assertEqual(got, [(0, 0), (0, 8192)])
        _, got, _ = self.replay("t.log", red + "replay_no_stall=1\nreplay_skip=write\nloops=2\n")
        self.assertEqual(got, [(0, 0), (0, 8192)] * 2)
        self.assertFalse(os.path.exists("/gone"))

    def test_v2_wait_sync(self):
        with open(os.path.join(self.dir, "t2.log"), "w") as f:
            f.write("fio version 2 iolog\nd2 add\nd2 open\nd2 read 0 4096\nd2 wait 600 0\n"
                    "d2 write 4096 8192\nd2 sync 0 0\nd2 close\n")
        j, got, t = self.replay("t2.log")
        self.assertEqual(got, [(0, 0), (1, 4096)])
        self.assertEqual(j["sync"]["lat_ns"]["N"], 1)
        self.assertGreaterEqual(t, 0.59)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "d2")), 12288)

    def test_bad_logs(self):
        cases = {
            "not a log\n": "not a fio iolog: its first line must be 'fio version 2 iolog'",
            "fio version 3 iolog\n0 f add\n7 f read 0\n": "line 3 '7 f read 0': expected TIME",
            "fio version 3 iolog\n0 f add\n7 f wait 10 0\n": "'wait' is not allowed in version 3",
            "fio version 2 iolog\nf add\nf frob 0 4096\n": "unknown I/O action",
            "fio version 2 iolog\nf add\nf read 0 4096\nf trim 0 4096\n": "add replay_skip=trim",
            "fio version 2 iolog\nf add\n": "the log holds no read or write",
            "\x00\x74\x61\x65" + "x" * 60: "a blktrace binary trace",
        }
        for text, want in cases.items():
            with open(os.path.join(self.dir, "bad.log"), "w") as f:
                f.write(text)
            job = self.write_job(self.REPLAY.format("bad.log", ""), "bad.ini")
            before = self.listing()
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("bad.ini:3: read_iolog=bad.log", p.stderr)
            self.assertIn(want, p.stderr)
            self.assertEqual(self.listing(), before, "nothing created")

    def test_filename_beside_replay(self):
        """fio 3.33 (iolog.c read_iolog2: the log's "add" actions make the
        job's files; fio's t/jobs/t0031) replays to the files the log names
        and leaves filename= unused: neither refused nor created; a warning
        when it names a file the log does not"""
        with open(os.path.join(self.dir, "ok.log"), "w") as f:
            f.write("fio version 2 iolog\nf add\nf open\nf write 0 4096\nf write 8192 4096\n"
                    "f close\n")
        for fn, warned in (("x", True), ("f", False), ("y:z", True)):
            for p in ["f", "x", "y", "z"]:
                if os.path.exists(os.path.join(self.dir, p)):
                    os.unlink(os.path.join(self.dir, p))
            job = self.write_job(self.REPLAY.format("ok.log", "filename=%s\n" % fn), "c.ini")
            p = self.run_sb("--output-format=json", job)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(("filename=%s: filename= is not used" % fn) in p.stderr, warned,
                             p.stderr)
            j = json.loads(p.stdout)["jobs"][0]
            self.assertEqual(j["write"]["io_bytes"], 8192)
            self.assertEqual(os.path.getsize(os.path.join(self.dir, "f")), 12288)
            for other in ("x", "y", "z"):
                self.assertFalse(os.path.exists(os.path.join(self.dir, other)), other)
        # --warnings-fatal makes the unused filename= an error
        job = self.write_job(self.REPLAY.format("ok.log", "filename=x\n"), "c.ini")
        self.assertEqual(self.run_sb("--warnings-fatal", job).returncode, 1)

    def test_bad_combinations(self):
        with open(os.path.join(self.dir, "ok.log"), "w") as f:
            f.write("fio version 2 iolog\nf add\nf read 0 4096\n")
        cases = {
            "write_iolog=ok.log\n": ("write_iolog=ok.log is also the read_iolog", "another name"),
            "write_iolog=/dev/zero\n": ("write_iolog=/dev/zero: cannot write the I/O log there: "
                                        "it is a character device",),
            "write_iolog=o.log\nnumjobs=2\n": ("write_iolog=o.log with numjobs=2",),
        }
        for extra, wants in cases.items():
            job = self.write_job(self.REPLAY.format("ok.log", extra), "c.ini")
            before = self.listing()
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("c.ini:", p.stderr)
            for w in wants:
                self.assertIn(w, p.stderr)
            self.assertEqual(self.listing(), before)


@unittest.skipIf(why_no_loop(), why_no_loop() or "")
class ReplayGuardTest(SbCase):
    """a replayed write to a device with a file system is refused like any write"""

    def test_replay_to_ext4(self):
        if not shutil.which("mkfs.ext4"):
            self.skipTest("mkfs.ext4 not installed (e2fsprogs)")
        img = os.path.join(self.dir, "disk.img")
        with open(img, "wb") as f:
            f.truncate(32 << 20)
        p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if p.returncode:
            self.skipTest("no free loop device: " + p.stderr.strip())
        dev = p.stdout.strip()
        try:
            subprocess.run(["mkfs.ext4", "-F", "-q", dev], check=True)
            with open(os.path.join(self.dir, "dev.log"), "w") as f:
                f.write("fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n" % (dev, dev, dev))
            os.sync()
            before = sha(dev)
            job = self.write_job("[r]\nioengine=psync\nread_iolog=dev.log\n")
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("refusing to write to " + dev, p.stderr)
            self.assertIn("allow_mounted_write=1", p.stderr)
            os.sync()
            self.assertEqual(sha(dev), before)
        finally:
            subprocess.run(["losetup", "-d", dev], capture_output=True)


if __name__ == "__main__":
    unittest.main()
