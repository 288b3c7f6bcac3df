"""The manual page and the bash completion (issue 16): the committed copies in
doc/ are exactly what the binary writes from its flag and option tables
(run 'make man' when this fails), the completion completes, and make install
/ make uninstall put them into (and take them out of) a DESTDIR."""
import os
import re
import shutil
import subprocess

from sbtest import BIN, SRC, SbCase


class TestManAndCompletion(SbCase):
    def generated(self, flag):
        p = self.run_sb(flag)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_committed_copies_match_the_tables(self):
        for flag, path in (("--man-page", "doc/storbench.1"), ("--bash-completion", "doc/storbench.bash")):
            with open(os.path.join(SRC, path)) as f:
                self.assertEqual(f.read(), self.generated(flag),
                                 f"{path} differs from storbench {flag}: run 'make man'")

    def test_man_page_names_every_flag_and_option(self):
        man = self.generated("--man-page")
        helptext = self.run_sb("--help").stdout
        flags = re.findall(r"^  (--[a-z][a-z-]*)", helptext, re.M)
        self.assertGreater(len(flags), 20)
        for name in flags:
            self.assertTrue("\\fB" + name.replace("-", "\\-") + "\\fR" in man, name)
        opts = self.run_sb("--cmdhelp").stdout
        for line in opts.splitlines():
            if line.startswith("  ") and line.split():
                name = line.split()[0]
                if name.replace("_", "").isalnum():
                    self.assertTrue("\\fB" + name.replace("-", "\\-") + "\\fR" in man, name)
        if shutil.which("groff"):
            p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=man, text=True,
                               capture_output=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("warning: macro", p.stderr)

    def complete(self, line):
        script = os.path.join(self.dir, "c.bash")
        with open(script, "w") as f:
            f.write(self.generated("--bash-completion"))
            f.write('COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; _storbench; printf "%s\\n" "${COMPREPLY[@]}"\n')
        p = subprocess.run(["bash", script, line], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.split()

    def test_completion(self):
        if not shutil.which("bash"):
            self.skipTest("bash not installed")
        self.assertIn("--section=", self.complete("storbench --sec"))
        self.assertIn("--readonly", self.complete("storbench --read"))
        self.assertIn("--iodepth=", self.complete("storbench --iodep"))
        self.assertEqual(self.complete("storbench --rw=randr"), ["randread", "randrw"])
        self.assertEqual(self.complete("storbench --eta=n"), ["never"])
        self.assertIn("null", self.complete("storbench --ioengine="))
        self.assertIn("c.bash", self.complete("storbench c."))

    def test_install_and_uninstall_into_destdir(self):
        if not shutil.which("make") or not os.path.exists(os.path.join(SRC, "Makefile")):
            self.skipTest("make not installed")
        dest = os.path.join(self.dir, "root")
        b = os.path.relpath(os.path.dirname(os.path.abspath(BIN)), SRC)
        # -o: never rebuild the binary under test (a sanitizer build needs its flags)
        args = ["make", "-s", "-C", SRC, f"B={b}", "-o", f"{b}/storbench", f"DESTDIR={dest}",
                "PREFIX=/usr"]
        p = subprocess.run(args + ["install"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for f in ("usr/bin/storbench", "usr/share/man/man1/storbench.1",
                  "usr/share/bash-completion/completions/storbench",
                  "usr/share/doc/storbench/HOWTO.md"):
            self.assertTrue(os.path.isfile(os.path.join(dest, f)), f)
        with open(os.path.join(dest, "usr/share/man/man1/storbench.1")) as f:
            self.assertEqual(f.read(), self.generated("--man-page"))
        keep = os.path.join(dest, "usr/share/man/man1/other.1")  # not ours: must stay
        with open(keep, "w") as f:
            f.write("x")
        p = subprocess.run(args + ["uninstall"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        left = sorted(os.path.relpath(os.path.join(r, n), dest) for r, _, fs in os.walk(dest) for n in fs)
        self.assertEqual(left, ["usr/share/man/man1/other.1"])
        self.assertFalse(os.path.exists(os.path.join(dest, "usr/share/storbench")))
