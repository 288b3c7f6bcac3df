"""test_fio_vstate_read.py: verify_state_load=1 on a read job with verify=
(fio's t/jobs/t0036-post.fio and t0037-post.fio, and the "read"
pass of t/verify_state_save.py) runs without verify_only=1, as in fio.

fio's facts used here (fio-3.33 source):
- backend.c:2203-2225 fio_verify_load_state (called at :2350 for every
  job): a job with verify_state_load loads the state whatever its rw;
  verify.c:1841 verify_state_should_stop: a reader checks what the saved
  state says was written; a read job with verify= checks every block it
  reads (verify.c:877 verify_io_u).
storbench's reader checks each interval against the writers' saved states
(run/vcheck.c sb_vcheck_load_known) with or without verify_state_load; a
job that writes still needs verify_only=1 for it.
"""
import os

from sbtest import SbCase


class TestReaderStateLoad(SbCase):
    def run_pair(self, files, extra=()):
        base = ["--name=job", "--filename=" + ":".join(files), "--size=512k",
                "--verify=md5", *extra]
        p = self.run_sb(*base, "--rw=write", "--verify_state_save=1", "--output=/dev/null")
        self.assertEqual(p.returncode, 0, p.stderr)
        return base

    def test_t0036_t0037(self):
        for files, extra in (([os.path.join(self.dir, "t36")], ()),
                             ([os.path.join(self.dir, "t37.%d" % i) for i in range(1, 5)],
                              ("--ioengine=libaio", "--iodepth=32", "--loops=4"))):
            base = self.run_pair(files, extra)
            p = self.run_sb(*base, "--rw=read", "--verify_state_load=1", "--output-format=json")
            self.assertEqual(p.returncode, 0, p.stderr)
            # the reader really checks: a block written over is found
            with open(files[-1], "r+b") as f:
                f.seek(8192)
                f.write(os.urandom(4096))
            p = self.run_sb(*base, "--rw=read", "--verify_state_load=1", "--output=/dev/null")
            self.assertEqual(p.returncode, 3, p.stderr)
            self.assertIn("offset 8192", p.stderr)

    def test_writer_still_refused(self):
        f = os.path.join(self.dir, "w")
        for rw in ("write", "randrw", "rw"):
            p = self.run_sb("--name=job", "--filename=" + f, "--size=64k", "--verify=md5",
                            "--rw=" + rw, "--verify_state_load=1", "--parse-only")
            self.assertEqual(p.returncode, 1, rw)
            self.assertIn("verify_state_load=1", p.stderr)
            self.assertIn("verify_only=1", p.stderr)
