"""test_outputs.py: what storbench writes besides its data (--output, the
bw/iops/lat logs, write_iolog=, write_trace=) never destroys what it did not
create, and a write that fails says which file and why.

- --output naming a block device that holds a file system is refused before
  any job runs (exit 2), as write_iolog= and write_trace= refuse it.
- write_iolog=, write_trace= or --output naming a data file of the run (the
  job's own input) is refused by the plan (exit 1, file:line, the fix), even
  under --readonly, and the file keeps every byte (once 1 MiB of user data
  became an 86-byte iolog).
- Results and logs are written whole or not at all: on a full file system
  the previous results file stays valid JSON, the message names the file and
  the errno, the exit is 3, and no temporary or truncated file is left.
- --output=FIFO does not hold the jobs back: they run, then the results wait
  for a reader.
"""
import hashlib
import json
import os
import subprocess
import threading
import time
import unittest

from sbtest import BIN, LoopCase, SbCase, why_no_loop

NULL_JOB = ["--name=a", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m"]


def md5(path, limit=None):
    h = hashlib.md5()
    with open(path, "rb") as f:
        h.update(f.read(limit) if limit else f.read())
    return h.hexdigest()


class DataFileIsNoOutput(SbCase):
    def setUp(self):
        super().setUp()
        self.data = os.path.join(self.dir, "in.dat")
        with open(self.data, "wb") as f:
            f.write(os.urandom(1 << 20))
        self.sum = md5(self.data)

    def test_logs_and_output_naming_the_input_are_refused(self):
        for opt, spelled in (("write_iolog", "in.dat"), ("write_trace", "./in.dat"),
                             ("write_iolog", os.path.join(self.dir, "sub", "..", "in.dat"))):
            os.makedirs(os.path.join(self.dir, "sub"), exist_ok=True)
            job = self.write_job("[global]\nbs=4k\n\n[r]\nfilename=in.dat\nrw=read\n%s=%s\n"
                                 % (opt, spelled))
            for extra in ([], ["--readonly"]):
                p = self.run_sb(*extra, job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("storbench: %s:7: %s=%s is " % (job, opt, spelled), p.stderr)
                self.assertIn("a data file of job r", p.stderr)
                self.assertIn("give %s a file of its own" % opt, p.stderr)
                self.assertEqual(md5(self.data), self.sum, opt + ": the input changed")
                self.assertEqual(self.listing(), ["in.dat", "job.ini", "sub"])

    def test_bw_lat_hist_logs_naming_the_input_are_refused(self):
        """a log's generated name (BASE_bw.1.log, BASE_clat_hist.log, ...) that
        is the job's input: the log was renamed over the user's 1 MiB at the
        end of the run"""
        for opt, kind in (("write_bw_log", "bw.1"), ("write_lat_log", "clat.1"),
                          ("write_iops_log", "iops"), ("write_hist_log", "clat_hist.1")):
            name = "l_%s.log" % kind
            os.rename(self.data, os.path.join(self.dir, name))
            self.data = os.path.join(self.dir, name)
            job = self.write_job("[global]\nbs=4k\n\n[r]\nfilename=%s\nrw=read\n%s=l\n"
                                 "log_hist_msec=10\n" % (name, opt))
            for extra in ([], ["--readonly"]):
                p = self.run_sb(*extra, job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("storbench: %s:7: %s=l is " % (job, opt), p.stderr)
                self.assertIn("a data file of job r", p.stderr)
                self.assertIn("give %s a file of its own" % opt, p.stderr)
                self.assertEqual(md5(self.data), self.sum, opt + ": the input changed")
                self.assertEqual(self.listing(), ["job.ini", name])

    def test_output_naming_the_input_is_refused(self):
        p = self.run_sb("--name=r", "--filename=in.dat", "--rw=read", "--bs=4k",
                        "--output-format=json", "--output=" + self.data)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench: --output: --output=%s is" % self.data, p.stderr)
        self.assertEqual(md5(self.data), self.sum)
        self.assertEqual(self.listing(), ["in.dat"])

    def test_output_naming_a_file_a_job_writes_is_refused(self):
        p = self.run_sb("--name=w", "--filename=out.dat", "--rw=write", "--bs=4k",
                        "--size=64k", "--output=out.dat")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("while the job does I/O to it", p.stderr)
        self.assertEqual(self.listing(), ["in.dat"])

    def test_distinct_names_still_run(self):
        """control: the same jobs with logs of their own run and log"""
        p = self.run_sb("--name=r", "--filename=in.dat", "--rw=read", "--bs=4k", "--readonly",
                        "--write_iolog=io.log", "--output=res.txt")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(md5(self.data), self.sum)
        with open(os.path.join(self.dir, "io.log")) as f:
            self.assertEqual(f.readline().strip(), "fio version 3 iolog")
        self.assertEqual(self.listing(), ["in.dat", "io.log", "res.txt"])


class FullFileSystem(LoopCase):
    """a 64 KiB tmpfs, filled up: room for nothing"""

    def setUp(self):
        super().setUp()
        why = why_no_loop()
        if why:
            self.skipTest(why)
        self.fs = os.path.join(self.dir, "fs")
        os.mkdir(self.fs)
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", self.fs],
                           capture_output=True, text=True)
        if p.returncode != 0:
            self.skipTest("cannot mount a tmpfs: " + p.stderr.strip())
        self.mounts.append(self.fs)

    def fill(self):
        fd = os.open(os.path.join(self.fs, "fill"), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while os.write(fd, b"\0" * 4096) > 0:
                pass
        except OSError:
            pass
        finally:
            os.close(fd)

    def test_results_on_a_full_file_system_keep_the_previous_file(self):
        res = os.path.join(self.fs, "r.json")
        p = self.run_sb(*NULL_JOB, "--output-format=json", "--output=" + res)
        self.assertEqual(p.returncode, 0, p.stderr)
        before = md5(res)
        self.fill()
        p = self.run_sb(*NULL_JOB, "--output-format=json+", "--output=" + res)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("storbench: --output: %s: writing the results failed: No space left on "
                      "device" % res, p.stderr)
        self.assertEqual(md5(res), before, "the previous results were replaced")
        with open(res) as f:
            json.load(f)
        self.assertEqual(sorted(os.listdir(self.fs)), ["fill", "r.json"], "a temporary was left")

    def test_logs_on_a_full_file_system(self):
        with open(os.path.join(self.fs, "l_bw.1.log"), "w") as f:
            f.write("old\n")
        self.fill()
        p = self.run_sb("--name=a", "--ioengine=null", "--rw=read", "--bs=4k", "--size=64m",
                        "--write_bw_log=" + os.path.join(self.fs, "l"), "--output-format=terse")
        self.assertEqual(p.returncode, 3, p.stderr)
        log = os.path.join(self.fs, "l_bw.1.log")
        self.assertIn("storbench: %s: writing the log failed: No space left on device" % log,
                      p.stderr)
        with open(log) as f:
            self.assertEqual(f.read(), "old\n", "a truncated log replaced the old one")
        self.assertEqual(sorted(os.listdir(self.fs)), ["fill", "l_bw.1.log"])

    def test_hist_log_on_a_full_file_system(self):
        """write_hist_log= as the other logs: the file and the errno, exit 3,
        the old log kept (it said "a: writing the histogram log failed" with
        neither, and left the truncated log)"""
        log = os.path.join(self.fs, "h_clat_hist.1.log")
        with open(log, "w") as f:
            f.write("old\n")
        self.fill()
        p = self.run_sb("--name=a", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m",
                        "--time_based", "--runtime=300ms", "--write_hist_log=" + os.path.join(self.fs, "h"), "--log_hist_msec=10",
                        "--per_job_logs=1", "--output-format=terse")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("storbench: %s: writing the histogram log failed: No space left on device"
                      % log, p.stderr)
        with open(log) as f:
            self.assertEqual(f.read(), "old\n", "a truncated log replaced the old one")
        self.assertEqual(sorted(os.listdir(self.fs)), ["fill", "h_clat_hist.1.log"])

    def test_dev_full(self):
        """a character device other than /dev/null is refused before the run
        (os/outfile.c); a failed write is test_outgate.py's fault-shim case"""
        p = self.run_sb(*NULL_JOB, "--output=/dev/full")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("storbench: --output: cannot write the results to /dev/full: it is a "
                      "character device", p.stderr)


class OutputOverADevice(LoopCase):
    def test_output_over_a_device_with_a_file_system_is_refused(self):
        why = why_no_loop()
        if why:
            self.skipTest(why)
        img = os.path.join(self.dir, "img")
        with open(img, "wb") as f:
            f.truncate(16 << 20)
        dev = self.attach(img)
        # no lazy init: nothing but storbench could write to the device
        p = subprocess.run(["mkfs.ext4", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                            dev], capture_output=True, text=True)
        if p.returncode != 0:
            self.skipTest("mkfs.ext4: " + p.stderr.strip())
        subprocess.run(["sync"])
        before = md5(dev)
        p = self.run_sb(*NULL_JOB, "--output-format=json", "--output=" + dev)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("storbench: --output: cannot write the results to %s: it is a block device"
                      % dev, p.stderr)
        self.assertEqual(md5(dev), before, "the device was written")


class OutputFifo(SbCase):
    def test_jobs_run_before_a_reader_comes(self):
        fifo = os.path.join(self.dir, "res.fifo")
        os.mkfifo(fifo)
        data = os.path.join(self.dir, "w.dat")
        proc = subprocess.Popen([BIN, "--name=w", "--filename=" + data, "--rw=write", "--bs=4k",
                                 "--size=64k", "--output-format=json", "--output=" + fifo],
                                cwd=self.dir, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 30
            while time.time() < deadline and not (os.path.exists(data) and
                                                  os.path.getsize(data) == 65536):
                time.sleep(0.05)
            self.assertEqual(os.path.getsize(data), 65536, "the job did not run before a reader")
            got = {}
            t = threading.Thread(target=lambda: got.setdefault("doc", open(fifo).read()))
            t.start()
            t.join(30)
            self.assertEqual(proc.wait(30), 0, proc.stderr.read())
            self.assertEqual(json.loads(got["doc"])["jobs"][0]["write"]["io_bytes"], 65536)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    unittest.main()
