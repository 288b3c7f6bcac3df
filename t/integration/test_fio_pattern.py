"""test_fio_pattern.py: buffer_pattern= and verify_pattern= in the forms of
fio's own tests: t/jobs/t0028-c6cade16.fio and t/verify.py use
"abcd"-120xdeadface, where the elements run into each other.

fio's facts used here (fio-3.33 source, lib/pattern.c):
- :143-147 parse_number: a decimal stops where the next "0x" starts
  ("-120xdeadface": -12, then 0xdeadface); :160-165 its bytes are the
  fewest little-endian bytes of the value as an unsigned int.
- :174-175: a hex run ending in "0x" leaves that 0 to the next element
  ("0xff0x14": ff, 14).
- options.c:1491 and :1540: buffer_pattern and verify_pattern go through the
  same parser; the buffer is the pattern repeated.
Each case writes a file through storbench and reads it back; where fio is
installed the same command runs through fio and the bytes must match.
"""
import os
import shutil
import subprocess

from sbtest import SbCase

FIO = shutil.which("fio")

# pattern -> the bytes fio 3.33 repeats (checked with fio 3.33)
CASES = {
    '"abcd"-120xdeadface': "61626364f4ffffffdeadface",
    "10x5": "0105",
    "100x5": "0a05",
    "0xff0x14": "ff14",
    "0xFF0X1": "ff01",
    '-100xab"1"2': "f6ffffffab3102",
    "+5": "05",
    "12 3": "0c03",
    '"123"0xFFeeCC': "313233ffeecc",
}


def repeated(hexpat, n):
    b = bytes.fromhex(hexpat)
    return (b * (n // len(b) + 1))[:n]


class TestPattern(SbCase):
    def write(self, tool, opt, pat, extra=()):
        path = os.path.join(self.dir, "pf-" + os.path.basename(tool))
        if os.path.exists(path):
            os.unlink(path)
        p = subprocess.run([tool, "--name=p", "--filename=" + path, "--size=4k", "--bs=4k",
                            "--rw=write", "--%s=%s" % (opt, pat), "--output=/dev/null",
                            *extra], cwd=self.dir, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, "%s %s=%s: %s" % (tool, opt, pat, p.stderr))
        with open(path, "rb") as f:
            return f.read()

    def test_buffer_pattern(self):
        from sbtest import BIN
        for pat, want in CASES.items():
            got = self.write(BIN, "buffer_pattern", pat)
            self.assertEqual(got, repeated(want, 4096), pat)
            if FIO:
                self.assertEqual(got, self.write(FIO, "buffer_pattern", pat), pat)

    def test_verify_pattern(self):
        from sbtest import BIN
        for pat, want in CASES.items():
            got = self.write(BIN, "verify_pattern", pat, ("--verify=pattern",))
            self.assertEqual(got, repeated(want, 4096), pat)
            if FIO:
                self.assertEqual(got, self.write(FIO, "verify_pattern", pat,
                                                 ("--verify=pattern",)), pat)

    def test_t0028_job(self):
        job = self.write_job('[test]\nsize=16k\nreadwrite=write\n'
                             'buffer_pattern="abcd"-120xdeadface\nioengine=null\n')
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        # and from a job file into a real file: the bytes
        path = os.path.join(self.dir, "t28")
        job = self.write_job('[test]\nfilename=%s\nsize=16k\nreadwrite=write\n'
                             'buffer_pattern="abcd"-120xdeadface\n' % path, "t28.fio")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(path, "rb") as f:  # each 4k buffer starts the pattern anew
            got = f.read()
        self.assertEqual(got, repeated(CASES['"abcd"-120xdeadface'], 4096) * 4)
        if FIO:
            os.unlink(path)
            subprocess.run([FIO, "--output=/dev/null", job], cwd=self.dir, check=True,
                           capture_output=True, timeout=60)
            with open(path, "rb") as f:
                self.assertEqual(got, f.read())

    def test_refused(self):
        # what fio 3.33 refuses (0x0x5 aborts it) is refused, naming the option
        for pat in ("0x0x5", "-0x5", '12 "a"', "0xff0x"):
            p = self.run_sb("--name=p", "--size=4k", "--ioengine=null",
                            "--buffer_pattern=" + pat)
            self.assertEqual(p.returncode, 1, pat)
            self.assertIn("buffer_pattern", p.stderr)
