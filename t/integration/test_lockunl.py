"""unlink_each_loop and lockfile=exclusive|readwrite, each beside
what fio 3.33 does on the same job file.

unlink_each_loop: with loops=N the files storbench created are removed after
each loop but the last and laid out again before the next.  fio 3.33 on the
same jobs (strace -f -e unlink,openat):
- rw=write, loops=3, size=64k: 2 unlinks (after loops 1 and 2), the file
  re-created by the next open; the last loop's file stays (unlink=0).
- rw=read, loops=3: fio unlinks after loop 1, then cannot open the file
  again (ENOENT: job error 2).  storbench lays the file out again with data,
  so every loop reads (on purpose: HOWTO says so).
- time_based (runtime=1, loops=3): one loop, no unlink during the run.
- numjobs=2 sharing filename=: each job unlinks and re-creates the file at
  its own loop's end (4 unlinks with loops=3); storbench does the same.
- A file that was there before the run: fio unlinks it.  storbench never
  removes what it did not create: the next loop uses it as it is.

lockfile: fio holds the file's lock from an I/O's prep to the return of the
engine's queue(), i.e. around the whole I/O with psync.  Measured with the
LD_PRELOAD shim's overlap counter (t/faults/sbfault.c, SBFAULT_OVERLAP: each
pread/pwrite of the file lasts 500 us longer and overlapping calls are
counted), jobs a and b on one file, psync, 150 I/Os each, fio with thread=1
(the shim counts within one process):
- randwrite, lockfile=none: fio max=2 ww=299; storbench max=2 ww=298
- randwrite, exclusive: fio max=1; storbench max=1
- randrw, none: fio rw=151 ww=74; storbench rw=66 ww=115
- randrw, readwrite: fio rw=0 ww=0 (reads overlap reads); storbench the same
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase, asan_runtime

SHIM = os.path.join(os.path.dirname(os.path.abspath(BIN)), "t", "faults", "libsbfault.so")


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class UnlinkEachLoop(SbCase):
    def strace_unlinks(self, job, *args):
        """run job under strace; (process, the paths unlinked during the run)"""
        if not shutil.which("strace"):
            self.skipTest("strace is not installed")
        tdir = os.path.join(self.dir, "strace.d")
        os.mkdir(tdir)
        # -ff: one log per thread, so no call is split into <unfinished ...>;
        # LeakSanitizer cannot run under ptrace (an ASan build): leaks off
        p = subprocess.run(["strace", "-ff", "-qq", "-o", os.path.join(tdir, "t"), "-e",
                            "trace=unlink,unlinkat", BIN, "--output-format=json", *args, job],
                           cwd=self.dir, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                                             ":detect_leaks=0").lstrip(":")))
        if p.returncode != 0 and "ptrace" in p.stderr:
            self.skipTest("strace cannot trace here: " + p.stderr.strip())
        text = ""
        for n in sorted(os.listdir(tdir)):
            with open(os.path.join(tdir, n)) as f:
                text += f.read()
        shutil.rmtree(tdir)
        gone = re.findall(r'unlink(?:at)?\((?:[^,]*, )?"([^"]+)"(?:, 0)?\)\s+= 0', text)
        return p, gone

    def job(self, body):
        return self.write_job("[j]\nfilename=%s/f1\nsize=64k\nbs=4k\n%s" % (self.dir, body))

    def test_write_loops_unlinks_between_loops(self):
        # fio 3.33: 2 unlinks for loops=3; the last loop's file stays
        p, gone = self.strace_unlinks(self.job("rw=write\nloops=3\nunlink_each_loop=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(gone, [os.path.join(self.dir, "f1")] * 2)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["write"]["io_bytes"], 3 * 64 * 1024)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "f1")), 64 * 1024)

    def test_without_option_no_unlink(self):
        p, gone = self.strace_unlinks(self.job("rw=write\nloops=3\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(gone, [])

    def test_read_loops_lay_out_again(self):
        # fio 3.33 fails the second loop with ENOENT; storbench re-creates
        # the file with data, so all three loops read 64 KiB
        p, gone = self.strace_unlinks(self.job("rw=read\nloops=3\nunlink_each_loop=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(gone), 2)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual((j["error"], j["read"]["io_bytes"]), (0, 3 * 64 * 1024))

    def test_unlink_1_removes_the_last(self):
        p, gone = self.strace_unlinks(self.job("rw=write\nloops=2\nunlink_each_loop=1\nunlink=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(gone), 2)  # one between the loops, one at the end
        self.assertEqual(self.listing(), ["job.ini"])

    def test_time_based_is_one_loop(self):
        # fio 3.33: no unlink during a time_based run
        p, gone = self.strace_unlinks(self.job("rw=write\nloops=3\ntime_based\nruntime=300ms\n"
                                               "unlink_each_loop=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(gone, [])

    def test_numjobs_sharing_a_file(self):
        # fio 3.33: each of the 2 jobs unlinks at its own loop's end: 4 in all
        p, gone = self.strace_unlinks(self.job("rw=write\nloops=3\nnumjobs=2\nunlink_each_loop=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(gone), 4)
        for j in json.loads(p.stdout)["jobs"]:
            self.assertEqual((j["error"], j["write"]["io_bytes"]), (0, 3 * 64 * 1024))

    def test_many_threads_renew_one_file(self):
        # 4 threads on one file, 10 loops: a thread opened the file it had
        # just laid out again after letting the next thread in, which could
        # remove it first (ENOENT: "unlink_each_loop ...: No such file or
        # directory", exit 3, in 6 runs out of 6 before the fix)
        job = self.write_job("[j]\nfilename=%s/f1\nsize=1m\nbs=4k\nrw=write\nloops=10\nnumjobs=4\n"
                             "unlink_each_loop=1\n" % self.dir)
        for _ in range(3):
            p = self.run_sb("--output-format=json", job)
            self.assertEqual(p.returncode, 0, p.stderr)
            for j in json.loads(p.stdout)["jobs"]:
                self.assertEqual((j["error"], j["write"]["io_bytes"]), (0, 10 << 20))

    def test_user_file_is_never_unlinked(self):
        # fio 3.33 unlinks it; storbench leaves a file it did not create alone
        path = os.path.join(self.dir, "f1")
        with open(path, "wb") as f:
            f.write(os.urandom(64 * 1024))
        before = (os.stat(path).st_ino, sha(path))
        p, gone = self.strace_unlinks(self.job("rw=read\nloops=3\nunlink_each_loop=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(gone, [])
        self.assertEqual((os.stat(path).st_ino, sha(path)), before)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["read"]["io_bytes"], 3 * 64 * 1024)

    @unittest.skipUnless(os.path.exists(SHIM), "the LD_PRELOAD shim is not built (make)")
    def test_interrupt_during_relayout_is_not_an_error(self):
        # Ctrl-C while the file is laid out again between loops (the shim
        # raises SIGINT in the 20th layout write: 16 are the first layout's):
        # 130 with the first loop's results, as an interrupt anywhere else,
        # not an EINTR error of the job
        job = self.write_job("[j]\nfilename=%s/f1\nsize=16m\nbs=1m\nrw=read\nloops=2\n"
                             "unlink_each_loop=1\n" % self.dir)  # laid out in 1 MiB writes
        asan = asan_runtime()
        env = {"LD_PRELOAD": " ".join(asan + [SHIM]), "SBFAULT": "pwrite:SIGINT:path=*/f1:nth=20"}
        if asan:
            env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") +
                                   ":verify_asan_link_order=0").lstrip(":")
        p = self.run_sb("--output-format=json", job, env=env)
        self.assertEqual(p.returncode, 130, p.stderr)
        self.assertNotIn("unlink_each_loop", p.stderr)
        d = json.loads(p.stdout)
        self.assertTrue(d["interrupted"])
        j = d["jobs"][0]
        self.assertEqual((j["error"], j["read"]["io_bytes"]), (0, 16 << 20))


class BadValues(SbCase):
    def refused(self, body, line, words):
        job = self.write_job("[j]\nfilename=f\nsize=64k\nrw=write\n" + body)
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:%d:" % line, p.stderr)
        for w in words:
            self.assertIn(w, p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])  # nothing written

    def test_unlink_each_loop_not_bool(self):
        self.refused("loops=2\nunlink_each_loop=maybe\n", 6,
                     ["unlink_each_loop", "maybe", "expected 1/0"])

    def test_lockfile_bad_mode(self):
        self.refused("lockfile=sometimes\n", 5,
                     ["lockfile", "sometimes", "none, exclusive, readwrite"])

    def test_unlink_each_loop_with_verify(self):
        self.refused("loops=2\nverify=crc32c\nunlink_each_loop=1\n", 7,
                     ["unlink_each_loop=1", "verify", "drop unlink_each_loop, or drop verify"])

    def test_unlink_each_loop_with_read_iolog(self):
        job = self.write_job("[j]\nsize=64k\nrw=write\nloops=2\nread_iolog=x.log\n"
                             "unlink_each_loop=1\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:6:", p.stderr)
        self.assertIn("drop unlink_each_loop, or drop read_iolog", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


@unittest.skipUnless(os.path.exists(SHIM), "the LD_PRELOAD shim is not built (make)")
class LockFile(SbCase):
    def overlap(self, mode, rw, engine="psync"):
        """two jobs on one file; the shim's overlap counts as a dict"""
        job = self.write_job("[global]\nfilename=%s/lk\nsize=1m\nbs=4k\nioengine=%s\nrw=%s\n"
                             "number_ios=150\nlockfile=%s\n[a]\n[b]\n" % (self.dir, engine, rw, mode))
        out = os.path.join(self.dir, "ov.txt")
        asan = asan_runtime()
        env = {"LD_PRELOAD": " ".join(asan + [SHIM]), "SBFAULT_OVERLAP": out,
               "SBFAULT_OVERLAP_PATH": "*/lk"}
        if asan:
            env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") +
                                   ":verify_asan_link_order=0").lstrip(":")
        p = self.run_sb("--output-format=json", job, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        for j in json.loads(p.stdout)["jobs"]:
            self.assertEqual(j["error"], 0)
        with open(out) as f:
            ov = dict(kv.split("=") for kv in f.read().split())
        ov = {k: int(v) for k, v in ov.items()}
        self.assertGreaterEqual(ov["calls"], 300, ov)
        return ov

    def test_no_lock_overlaps(self):
        # the control: without lockfile the two jobs' writes do overlap
        ov = self.overlap("none", "randwrite")
        self.assertGreater(ov["ww"], 0, ov)
        self.assertEqual(ov["max"], 2, ov)

    def test_exclusive_one_at_a_time(self):
        ov = self.overlap("exclusive", "randwrite")
        self.assertEqual((ov["max"], ov["ww"], ov["rw"]), (1, 0, 0), ov)
        ov = self.overlap("exclusive", "randrw")
        self.assertEqual(ov["max"], 1, ov)

    def test_readwrite_no_write_beside_anything(self):
        ov = self.overlap("none", "randrw")
        self.assertGreater(ov["rw"] + ov["ww"], 0, ov)  # the control
        ov = self.overlap("readwrite", "randrw")
        self.assertEqual((ov["ww"], ov["rw"]), (0, 0), ov)


if __name__ == "__main__":
    unittest.main()
