"""test_fio_optlist.py: every option fio 3.33 lists is accepted or refused
with a reason, never "unknown".

The list is t/fixtures/fio-3.33/cmdhelp-all.txt (the output of
`fio --cmdhelp=all` from fio 3.33, origin in its header).  When fio 3.33 is
installed, the stored list must match what it prints.  For each name,
`storbench --cmdhelp=NAME` must either describe it (accepted) or say why it is
refused; a job file using the name must never get "unknown option".
The accepted count may only grow (ACCEPTED_AT_LEAST).
"""
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase, BIN, SRC

LIST = os.path.join(SRC, "t", "fixtures", "fio-3.33", "cmdhelp-all.txt")
# of the 217 options fio 3.33 lists, at least this many are accepted
ACCEPTED_AT_LEAST = 203


def names_of(text):
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        out.append(line.split()[0].rstrip(":"))
    return out


def stored():
    with open(LIST) as f:
        return names_of(f.read())


class FioOptionList(SbCase):
    def test_stored_list_is_fio_333(self):
        names = stored()
        self.assertEqual(len(names), 217)
        self.assertEqual(len(set(names)), 217)
        fio = shutil.which("fio")
        if not fio:
            self.skipTest("fio is not installed: the stored list is not compared")
        ver = subprocess.run([fio, "--version"], capture_output=True, text=True).stdout.strip()
        if ver != "fio-3.33":
            self.skipTest("fio is %s, not fio-3.33" % ver)
        live = subprocess.run([fio, "--cmdhelp=all"], capture_output=True, text=True).stdout
        self.assertEqual(names_of(live), names)

    def test_each_name_accepted_or_refused_with_reason(self):
        accepted, refused = [], []
        for n in stored():
            p = subprocess.run([BIN, "--cmdhelp=" + n], capture_output=True, text=True)
            if p.returncode == 0:
                self.assertIn(n.lower(), p.stdout.lower(), n)
                accepted.append(n)
                continue
            self.assertNotIn("unknown", p.stderr, n)
            self.assertTrue("refused:" in p.stderr or "not supported by storbench" in p.stderr,
                            "%s: %s" % (n, p.stderr))
            refused.append(n)
        print("\nfio 3.33 options: %d accepted, %d refused (of %d)" %
              (len(accepted), len(refused), len(accepted) + len(refused)))
        self.assertGreaterEqual(len(accepted), ACCEPTED_AT_LEAST)

    def test_job_file_never_says_unknown(self):
        body = "".join("%s=1\n" % n for n in stored())
        job = self.write_job("[job]\nsize=1m\n" + body)
        p = self.run_sb("--parse-only", job)
        self.assertNotIn("unknown option", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
