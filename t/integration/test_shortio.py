"""test_shortio.py: a short transfer is never taken for a complete one
(issue 28 items 8, 9, 10).

The kernel may move fewer bytes than asked without an error; fio then
issues the rest again (io_u.c: the residual, io_u->resid, re-queued from
xfer_buf + bytes done).  storbench:
- sync and psync complete the rest themselves (lib/fullio.c), for the
  workload, the verify phase and the checkpoint workload alike: the data on
  disk is whole and every block is checked (before: a torn block, 63 of 64
  blocks checked, exit 0; a short verify read reported as never_written; a
  checkpoint 10 KB short "verified");
- libaio and io_uring complete in the kernel: when a completion carries
  fewer bytes than asked, the rest is moved synchronously (run/ioloop.c
  finish_short), as fio re-queues the residual; a rest that fails is that
  error (EFBIG, ENOSPC: exit 3), never a torn block taken for a whole one.

Short transfers are injected with the fault shim's SHORT mode (t/faults/
sbfault.c: the call moves the first half and returns that count) for the
sync engines, and with RLIMIT_FSIZE for the async ones (a write that crosses
the limit is cut there: the kernel's own short write, which a shim cannot
reach for io_uring).
"""
import errno
import json
import os
import resource
import signal
import subprocess
import unittest

from sbtest import BIN, SbCase
from test_faults import SHIM, shim_env


class ShortIo(SbCase):
    def run_shim(self, rules, *args):
        env = dict(os.environ, SBFAULT_LOG="1")
        env.update(shim_env(rules))  # after the ASan runtime in a sanitizer build
        p = subprocess.run([BIN, "--output-format=json", *args], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=120)
        injected = p.stderr.count("-> errno 100001")
        return p, injected

    def test_sync_engines_complete_short_writes_and_reads(self):
        if not os.path.exists(SHIM):
            self.skipTest("fault shim not built: " + SHIM)
        for eng, wr, rd in (("psync", "pwrite", "pread"), ("sync", "write", "read")):
            for rules in ("%s:SHORT:nth=7" % wr, "%s:SHORT:nth=3" % rd,
                          "%s:SHORT:skip=2:times=5,%s:SHORT:skip=4:times=5" % (wr, rd)):
                path = os.path.join(self.dir, "v.dat")
                if os.path.exists(path):
                    os.unlink(path)
                p, injected = self.run_shim(rules, "--name=v", "--filename=v.dat",
                                            "--ioengine=" + eng, "--rw=write", "--bs=16k",
                                            "--size=1m", "--verify=crc32c")
                what = "%s %s" % (eng, rules)
                self.assertGreater(injected, 0, what + ": nothing injected\n" + p.stderr)
                self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                self.assertEqual(j["error"], 0, what)
                self.assertEqual(j["write"]["io_bytes"], 1 << 20, what)
                self.assertEqual(j["verify"]["blocks_checked"], 64, what)
                self.assertEqual(j["verify"]["failures"], 0, what)

    def test_checkpoint_verify_with_short_writes_and_reads(self):
        if not os.path.exists(SHIM):
            self.skipTest("fault shim not built: " + SHIM)
        args = ["--name=ck", "--workload=checkpoint", "--ioengine=psync", "--bs=256k",
                "--drop_caches=0", "--model=llama3-8b", "--checkpoint_scale=0.00001",
                "--num_checkpoints_write=1", "--num_checkpoints_read=1",
                "--checkpoint_verify=1", "--keep_checkpoints=1"]

        def sizes(d):
            return sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(d) for n in ns)
        clean = self.run_json(*args, "--checkpoint_folder=clean")
        want_bytes = clean["jobs"][0]["verify"]["bytes_checked"]
        p, injected = self.run_shim("pwrite:SHORT:skip=3:times=4,pread:SHORT:skip=3:times=4",
                                    *args, "--checkpoint_folder=short")
        self.assertEqual(injected, 8, p.stderr)
        self.assertEqual(p.returncode, 0, p.stderr)
        v = json.loads(p.stdout)["jobs"][0]["verify"]
        self.assertEqual(v["failures"], 0)
        self.assertEqual(v["bytes_checked"], want_bytes, "bytes left unchecked")
        self.assertEqual(sizes(os.path.join(self.dir, "short")),
                         sizes(os.path.join(self.dir, "clean")), "a checkpoint file is short")

    def test_async_engines_finish_a_short_write(self):
        """RLIMIT_FSIZE cuts the write that crosses it: libaio's and
        io_uring's completions then carry fewer bytes than asked.  The rest
        is written again and fails with the limit's own error, EFBIG, as
        fio's re-queued residual does (fio 3.33 io_u.c: io_u->resid, then
        the next submit fails with EFBIG): before, a bare "short write"
        EIO hid the reason (a full file system read as an I/O error)."""
        limit = (1 << 20) + 8192

        def pre():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        engines = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True).stdout
        ran = 0
        for eng in ("libaio", "io_uring"):
            if eng not in engines:
                continue
            path = os.path.join(self.dir, "a.dat")
            with open(path, "wb") as f:
                f.truncate(2 << 20)  # laid out already: only the job's writes meet the limit
            p = subprocess.run([BIN, "--output-format=json", "--name=w", "--filename=a.dat",
                                "--ioengine=" + eng, "--rw=write", "--bs=16k", "--size=2m"],
                               cwd=self.dir, preexec_fn=pre, capture_output=True, text=True,
                               timeout=60)
            if "setup" in p.stderr and "io_uring" in p.stderr:
                continue  # io_uring not allowed in this sandbox
            self.assertEqual(p.returncode, 3, "%s: %s" % (eng, p.stderr))
            self.assertIn("write a.dat at offset 1048576", p.stderr, eng)
            self.assertIn(os.strerror(errno.EFBIG), p.stderr, eng)
            self.assertNotIn("short write", p.stderr, eng)
            j = json.loads(p.stdout)["jobs"][0]
            self.assertEqual(j["error"], errno.EFBIG, eng)
            self.assertEqual(j["write"]["io_bytes"], 1 << 20, eng)
            os.unlink(path)
            ran += 1
        if not ran:
            self.skipTest("neither libaio nor io_uring in this build")


if __name__ == "__main__":
    unittest.main()
