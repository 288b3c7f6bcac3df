"""test_fio_openfiles.py: openfiles=N below the job's file count
(fio's t/verify.py test 6 and t/verify-trim.py use nrfiles=3 openfiles=2)
runs as in fio.

fio's facts used here (fio-3.33 source):
- options.c "openfiles" (td_var_offset(open_files)): "Number of files to
  keep open at the same time"; filesetup.c:1036 and io_u.c get_next_file
  open a file only while fewer than openfiles are open, closing done ones.
  fio runs such jobs to completion (exit 0), verify included.
storbench keeps at most N of a thread's files open, closing the least
recently used idle one to open another (run/openfiles.h); the test follows
the opens and closes in --debug=file's lines and checks the count never
exceeds N, and that every file gets its I/O and verifies.
"""
import json
import os
import re

from sbtest import SbCase


class TestOpenfiles(SbCase):
    def run_job(self, *args):
        p = self.run_sb("--debug=file", "--output-format=json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout
        j = json.loads(out[out.index("\n{") + 1:] if not out.startswith("{") else out)
        return out, j

    def max_open(self, out, nfiles):
        """the most files open at once, per thread, from the debug lines"""
        open_now, most = {}, {}
        for l in out.splitlines():
            m = re.match(r"file +(\d+) +job \S+ thread (\d+): file (\S+), fd (-?\d+)", l)
            if m:
                key = m.group(2)
                open_now[key] = open_now.get(key, 0) + (int(m.group(4)) >= 0)
                most[key] = open_now[key]
                continue
            m = re.match(r"file +(\d+) +openfiles=\d+: (opened|closed) ", l)
            if m:
                # one thread per job here (numjobs=1): the only key
                key = next(iter(open_now))
                open_now[key] += 1 if m.group(2) == "opened" else -1
                most[key] = max(most[key], open_now[key])
        return most

    def test_limit_kept(self):
        for eng in ("psync", "libaio", "io_uring"):
            for n in (1, 2, 3):
                out, j = self.run_job("--name=o", "--directory=" + self.dir, "--nrfiles=5",
                                      "--openfiles=%d" % n, "--filesize=64k", "--bs=4k",
                                      "--rw=randwrite", "--ioengine=" + eng, "--iodepth=8",
                                      "--verify=crc32c")
                job = j["jobs"][0]
                self.assertEqual(job["error"], 0)
                self.assertEqual(job["write"]["io_bytes"], 5 * 64 * 1024, eng)
                most = self.max_open(out, 5)
                self.assertTrue(most, "no debug lines")
                self.assertLessEqual(max(most.values()), n, "%s openfiles=%d: %s" % (eng, n, most))
                self.assertIn("openfiles=%d: closed" % n, out)
                for i in range(5):
                    self.assertEqual(os.path.getsize(os.path.join(self.dir, "o.0.%d" % i)),
                                     64 * 1024)

    def test_fio_verify_test6(self):
        # fio's t/verify.py test 6 (a write then a read-back with verify_backlog)
        base = ["--direct=1", "--ioengine=libaio", "--iodepth=32", "--filesize=512K",
                "--nrfiles=3", "--openfiles=2", "--numjobs=2", "--norandommap",
                "--bs=4096", "--verify_interval=2048", "--verify_offset=1024",
                "--verify_backlog=16", "--verify_backlog_batch=16", "--verify=crc32c",
                "--directory=" + self.dir, "--output=/dev/null"]
        for rw in ("write", "randwrite", "randrw"):
            p = self.run_sb("--name=v", "--rw=" + rw, *base)
            if p.returncode and "direct" in p.stderr:
                self.skipTest("direct=1 not supported here: " + p.stderr)
            self.assertEqual(p.returncode, 0, rw + ": " + p.stderr)

    def test_offload_refused(self):
        p = self.run_sb("--name=o", "--nrfiles=4", "--openfiles=2", "--size=64k",
                        "--io_submit_mode=offload", "--parse-only")
        self.assertEqual(p.returncode, 1)
        self.assertIn("openfiles=2", p.stderr)
        self.assertIn("io_submit_mode=inline", p.stderr)
