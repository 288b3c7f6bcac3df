"""test_interrupts.py: no hang, and an interrupt is 130 with a message from
the first instruction of main.

- filename= naming a FIFO is refused by the plan (exit 1, file:line): fio
  3.33 says "failed to get file size of F" and ends the job; opening it
  would wait for a writer for ever.
- SIGTERM or SIGINT while the job files are read (a 10,000-point sweep
  parses for about a second; a read_iolog= FIFO waits for its writer) ends
  with "storbench: interrupted: ..." and 130, writes no --output, runs
  nothing.  Before: the default action (status 143, no message).
"""
import os
import signal
import subprocess
import time
import unittest

from sbtest import BIN, SbCase, catches


class Interrupts(SbCase):
    def big_sweep(self):
        bs = " | ".join("%dk" % (4 * i) for i in range(1, 101))
        qd = " | ".join(str(i) for i in range(1, 101))
        return self.write_job("[global]\nioengine=null\nsize=1m\nsweep.bs = %s\n"
                              "sweep.iodepth = %s\n[j]\n" % (bs, qd), "big.ini")


    def interrupt(self, args, sig, after):
        """sig `after` seconds after storbench has its handler (main installs
        it before parsing; a fixed delay from the start raced the sanitizer
        runtime's start-up on a loaded machine: status -15, no handler yet)"""
        p = subprocess.Popen([BIN, *args], cwd=self.dir, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not catches(p.pid, sig) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(after)
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
        return p.returncode, out, err

    def test_signal_while_a_sweep_parses(self):
        job = self.big_sweep()
        for sig in (signal.SIGTERM, signal.SIGINT):
            rc, out, err = self.interrupt(["--output=res.json", "--output-format=json", job],
                                          sig, 0.15)
            self.assertEqual(rc, 130, "%s: %s" % (sig, err))
            self.assertIn("storbench: interrupted: stopped while reading the job files", err)
            self.assertEqual(self.listing(), ["big.ini"], "something was written")

    def test_signal_while_a_read_iolog_fifo_waits(self):
        fifo = os.path.join(self.dir, "log.fifo")
        os.mkfifo(fifo)
        rc, out, err = self.interrupt(["--name=a", "--ioengine=null", "--read_iolog=" + fifo],
                                      signal.SIGTERM, 0.5)
        self.assertEqual(rc, 130, err)
        self.assertIn("storbench: interrupted: stopped while reading the job files", err)
        self.assertEqual(self.listing(), ["log.fifo"])

    def test_filename_fifo_is_refused(self):
        os.mkfifo(os.path.join(self.dir, "data.fifo"))
        job = self.write_job("[a]\nfilename=data.fifo\nrw=read\nbs=4k\nsize=1m\n")
        p = self.run_sb(job, timeout=20)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench: %s:2: job a: filename=data.fifo: " % job, p.stderr)
        self.assertIn("is a FIFO or a socket", p.stderr)
        self.assertIn("name one of those", p.stderr)
        self.assertEqual(self.listing(), ["data.fifo", "job.ini"])


if __name__ == "__main__":
    unittest.main()
