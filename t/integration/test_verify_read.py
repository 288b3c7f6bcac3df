"""test_verify_read.py: verify= on read jobs.

A job that does not write (rw=read|randread), with verify=TYPE, checks every
block it reads, as fio 3.33 does: fio verify.c:920-923 takes the seed from
the header when the job does not both read and write, and backend.c:1044-1048
gives every read of such a job (!td_rw) the verify callback; fio's
t/jobs/t0002-13af05ae-{pre,post}.fio and examples/surface-scan.fio write in
one job and read + verify in a later one.  verify_only=1 on a read job does
the same (fio: the reads are still verified; seen side by side below).

For every verify type this build has and the engines sync, psync, libaio,
io_uring and mmap: a file is written twice by one job (the second run's
saved verify state names what is there), a copy of the first run is kept,
then the file is corrupted: a flipped bit, a zeroed block, a misplaced block
(block A copied over block B), a stale block (the first run's, put back)
and a truncation (the last blocks gone); a read job, and a read job with
verify_only=1, must report each with its kind and offset and exit 3; the
intact file passes.  A verify run that checked 0 blocks is an error, never a
pass.  All in one process, small files.
"""
import json
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase

BS = 4096
NBLK = 32
TYPES = ["crc32c", "crc64", "xxhash", "md5", "sha1", "sha256", "sha512", "meta"]
ENGINES = ["sync", "psync", "libaio", "io_uring", "mmap"]
FIO = shutil.which("fio")
CUT = 28 * BS + 1000  # truncation: blocks 28 (short) to 31 (gone)


class VerifyRead(SbCase):
    def sb(self, *args):
        p = self.run_sb("--output-format=json", *args)
        out = p.stdout
        return p, (json.loads(out[out.find("{"):]) if "{" in out else None)

    def write(self, typ, extra=()):
        p, _ = self.sb("--name=w", f"--filename={self.data}", "--rw=write", f"--bs={BS}",
                       f"--size={NBLK * BS}", f"--verify={typ}", "--do_verify=0", *extra)
        self.assertEqual(p.returncode, 0, p.stderr)

    def read(self, typ, engine, *extra):
        return self.sb("--name=r", f"--filename={self.data}", "--rw=read", f"--bs={BS}",
                       f"--size={NBLK * BS}", f"--verify={typ}", f"--ioengine={engine}", *extra)

    def built(self, typ):
        p = self.run_sb("--parse-only", "--name=x", "--filename=x", "--size=64k", "--rw=write",
                        f"--verify={typ}")
        return p.returncode == 0

    def blk(self, f, i):
        f.seek(i * BS)
        return f.read(BS)

    def corrupt(self, typ, old):
        """the faults, as {(kind, offset)}"""
        with open(self.data, "r+b") as f, open(old, "rb") as o:
            # meta has no data checksum: its flipped bit is in the header
            at = 3 * BS + (20 if typ == "meta" else 1000)
            f.seek(at)
            b = f.read(1)
            f.seek(at)
            f.write(bytes([b[0] ^ 0x10]))
            f.seek(7 * BS)
            f.write(bytes(BS))                       # zeroed
            a = self.blk(f, 2)
            f.seek(12 * BS)
            f.write(a)                               # block 2 over block 12
            f.seek(17 * BS)
            f.write(self.blk(o, 17))                 # the first run's block 17
        os.truncate(self.data, CUT)                  # blocks 28.. lost
        return {("bit_corruption", 3 * BS), ("never_written", 7 * BS),
                ("misplaced", 12 * BS), ("stale", 17 * BS),
                ("never_written", 28 * BS), ("never_written", 29 * BS),
                ("never_written", 30 * BS), ("never_written", 31 * BS)}

    def check(self, p, res, want, what):
        self.assertEqual(p.returncode, 3, (what, p.stderr))
        job = res["jobs"][0]
        self.assertEqual(job["error"], 84, what)  # EILSEQ, fio's err=84
        v = job["verify"]
        self.assertEqual(v["blocks_checked"], NBLK, what)
        got = {(x["kind"], x["offset"]) for x in v["first_failures"]}
        self.assertEqual(got, want, what)
        self.assertEqual(v["failures"], len(want), what)
        for x in v["first_failures"]:
            self.assertEqual(x["file"], self.data)

    def test_every_type_engine_and_fault(self):
        self.data = os.path.join(self.dir, "data")
        old = os.path.join(self.dir, "run1")
        done = 0
        for typ in TYPES:
            if not self.built(typ):
                continue  # this build lacks the type's library (test_verify.py checks why)
            for name in ("data", "run1"):
                if os.path.exists(os.path.join(self.dir, name)):
                    os.unlink(os.path.join(self.dir, name))
            self.write(typ)
            shutil.copy(self.data, old)
            self.write(typ)  # the second run: block 17 of run1 is now stale
            for engine in ENGINES:  # the intact file passes
                p, res = self.read(typ, engine)
                self.assertEqual(p.returncode, 0, (typ, engine, p.stderr))
                v = res["jobs"][0]["verify"]
                self.assertEqual((v["blocks_checked"], v["failures"]), (NBLK, 0), (typ, engine))
            want = self.corrupt(typ, old)
            for engine in ENGINES:
                for extra in ((), ("--verify_only=1",)):
                    p, res = self.read(typ, engine, *extra)
                    self.check(p, res, want, (typ, engine, extra))
                    self.assertIn(f"{self.data} at offset {17 * BS} ", p.stderr)
            # randread finds the same, in another order
            p, res = self.read(typ, "psync", "--rw=randread")
            self.check(p, res, want, (typ, "randread"))
            self.assertEqual(os.path.getsize(self.data), CUT)  # nothing laid out or extended
            done += 1
        self.assertGreater(done, 0)

    def test_pattern(self):
        # verify=pattern has no header: %o in the pattern tells a misplaced
        # block; a zeroed one reads as never written, a flipped bit as corrupt
        self.data = os.path.join(self.dir, "data")
        pat = ("--verify_pattern=0xfeedface%o",)
        self.write("pattern", pat)
        with open(self.data, "r+b") as f:
            f.seek(3 * BS + 999)
            b = f.read(1)
            f.seek(3 * BS + 999)
            f.write(bytes([b[0] ^ 1]))
            f.seek(7 * BS)
            f.write(bytes(BS))
            a = self.blk(f, 2)
            f.seek(12 * BS)
            f.write(a)
        for engine in ENGINES:
            p, res = self.read("pattern", engine, *pat)
            self.assertEqual(p.returncode, 3, p.stderr)
            v = res["jobs"][0]["verify"]
            self.assertEqual(v["blocks_checked"], NBLK)
            got = {(x["kind"], x["offset"]) for x in v["first_failures"]}
            self.assertEqual(got, {("bit_corruption", 3 * BS), ("never_written", 7 * BS),
                                   ("bit_corruption", 12 * BS)}, engine)

    def test_without_saved_state_any_writer(self):
        # no saved state (verify_state_save=0): each block is checked as any
        # writer's block at its offset; a stale block is then a valid block
        # and passes, as in fio (verify.c:842-853 skips numberio for reads)
        self.data = os.path.join(self.dir, "data")
        old = os.path.join(self.dir, "run1")
        self.write("crc32c", ("--verify_state_save=0",))
        shutil.copy(self.data, old)
        self.write("crc32c", ("--verify_state_save=0",))
        self.assertFalse([n for n in os.listdir(self.dir) if n.endswith("verify.state")])
        want = self.corrupt("crc32c", old) - {("stale", 17 * BS)}
        p, res = self.read("crc32c", "psync")
        self.check(p, res, want, "no state")
        self.assertIn("any writer", p.stderr)

    def test_state_of_another_job_in_the_same_run(self):
        # surface-scan: a write job, then a stonewalled read job in one file
        self.data = os.path.join(self.dir, "data")
        job = self.write_job(f"""[global]
filename={self.data}
bs={BS}
size={NBLK * BS}
verify=sha256
[write-phase]
rw=write
do_verify=0
[verify-phase]
stonewall
rw=read
""")
        p, res = self.sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        v = res["jobs"][1]["verify"]
        self.assertEqual((v["blocks_checked"], v["failures"]), (NBLK, 0))

    def test_missing_file_refused(self):
        p = self.run_sb("--name=r", f"--filename={self.dir}/nothere", "--rw=read", "--size=64k",
                        "--verify=crc32c")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>", p.stderr)
        self.assertIn("verify=", p.stderr)
        self.assertIn("does not exist", p.stderr)
        self.assertFalse(os.path.exists(f"{self.dir}/nothere"))

    def test_zero_blocks_checked_is_an_error(self):
        # a verify_only run whose saved state lists no block checks nothing:
        # that is exit 3 with the reason, never "0 failures" and exit 0
        self.data = os.path.join(self.dir, "data")
        self.write("crc32c")
        st = os.path.join(self.dir, "local-w-0-verify.state")
        lines = open(st).read().splitlines()
        keep = [x for x in lines if not x[:1].isdigit()]
        self.assertLess(len(keep), len(lines))
        open(st, "w").write("\n".join(keep) + "\n")
        p, res = self.sb("--name=w", f"--filename={self.data}", "--rw=write", f"--bs={BS}",
                         f"--size={NBLK * BS}", "--verify=crc32c", "--verify_only=1",
                         "--verify_state_load=1")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("0 blocks checked", p.stderr)
        self.assertIn("lists no written block", p.stderr)
        self.assertEqual(res["jobs"][0]["verify"]["blocks_checked"], 0)
        self.assertNotEqual(res["jobs"][0]["error"], 0)

    def test_interval_larger_than_the_block(self):
        # fio caps verify_interval at the block's length
        # (verify.c:82-96, get_hdr_inc), so t/jobs/t0004-8a99fdf6.fio's
        # bs=512 with verify_interval=1M runs: one header per 512-byte block
        job = self.write_job(f"""[global]
filename={self.dir}/foo
size=64k
readwrite=write
verify=md5
verify_dump=1
[small_writes]
blocksize=512
verify_interval=1M
""")
        runs = [(None, self.run_sb("--output-format=json", job))]
        if FIO:
            os.unlink(f"{self.dir}/foo")
            runs.append((FIO, subprocess.run([FIO, "--output-format=json", job], cwd=self.dir,
                                             capture_output=True, text=True, timeout=60)))
        for tool, p in runs:
            self.assertEqual(p.returncode, 0, (tool, p.stderr))
            j = json.loads(p.stdout[p.stdout.find("{"):])["jobs"][0]
            self.assertEqual((j["error"], j["write"]["total_ios"], j["read"]["total_ios"]),
                             (0, 128, 128), tool)
        self.assertEqual(runs[0][1].stdout.count('"blocks_checked" : 128') +
                         runs[0][1].stdout.count('"blocks_checked": 128'), 1)

    @unittest.skipUnless(FIO, "fio is not installed")
    def test_fio_verifies_read_jobs(self):
        # the fact this rests on: fio 3.33 checks a read job's blocks, with
        # and without verify_only=1, and fails on a flipped bit
        f = os.path.join(self.dir, "fiofile")
        base = ["--name=v", f"--filename={f}", f"--bs={BS}", "--size=64k", "--verify=crc32c"]
        r = subprocess.run([FIO, *base, "--rw=write", "--do_verify=0"], cwd=self.dir,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(f, "r+b") as fh:
            fh.seek(3 * BS + 1000)
            b = fh.read(1)
            fh.seek(3 * BS + 1000)
            fh.write(bytes([b[0] ^ 1]))
        for extra in ([], ["--verify_only=1"]):
            r = subprocess.run([FIO, *base, "--rw=read", *extra], cwd=self.dir,
                               capture_output=True, text=True, timeout=60)
            self.assertIn(f"verify failed at file {f} offset {3 * BS}", r.stdout + r.stderr)
            self.assertIn("err=84", r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
