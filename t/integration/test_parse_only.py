"""test_parse_only.py: --parse-only is quiet when the job files pass (as fio
3.33's: nothing on stdout or stderr, exit 0), prints the expanded jobs only
with --parse-only=verbose, and exits 1 with the run's own file:line message
on whatever the run refuses before its first I/O, creating nothing;
--parse-only=job checks the job and not this machine (what it
lacks is a warning, as fio's --parse-only looks at no file)."""
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase, SRC

FIO = shutil.which("fio")


class ParseOnly(SbCase):
    def snapshot(self):
        out = set()
        for root, dirs, files in os.walk(self.dir):
            for n in dirs + files:
                out.add(os.path.relpath(os.path.join(root, n), self.dir))
        return out

    GOOD = {
        "file.ini": "[global]\nsize=1m\nbs=4k\n\n[a]\nrw=randread\nfilename=data\n\n"
                    "[b]\nrw=write\ndirectory=.\nnumjobs=2\n",
        "sweep.ini": "[s]\nfilename=data\nsize=1m\nsweep.rw = read | write\nsweep.bs = 4k | 64k\n",
    }

    def test_quiet_when_the_jobs_pass(self):
        for name, text in self.GOOD.items():
            with self.subTest(job=name):
                job = self.write_job(text, name)
                before = self.snapshot()
                p = self.run_sb("--parse-only", job)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))
                self.assertEqual(self.snapshot(), before)
                if FIO and name == "file.ini":  # fio 3.33 prints nothing either
                    f = subprocess.run([FIO, "--parse-only", job], cwd=self.dir,
                                       capture_output=True, text=True, timeout=60)
                    self.assertEqual((f.returncode, f.stdout, f.stderr), (0, "", ""))
        p = self.run_sb("--parse-only", "--name=j", "--filename=data", "--size=1m", "--rw=read")
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))
        self.assertNotIn("data", self.listing())

    def test_verbose_prints_the_expanded_jobs(self):
        job = self.write_job(self.GOOD["file.ini"])
        for mode in ("verbose", "job,verbose", "verbose,job"):
            p = self.run_sb("--parse-only=" + mode, job)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("[a] (%s:5, group 0)" % job, p.stdout)
            self.assertTrue(re.search(r"\n  bs += read 4096 ", p.stdout), mode)
        job = self.write_job(self.GOOD["sweep.ini"], "sweep.ini")
        p = self.run_sb("--parse-only=verbose", job)
        self.assertIn("sweep: 4 points", p.stdout)
        self.assertEqual(self.run_sb("--parse-only", job).stdout, "")

    def test_unknown_mode(self):
        job = self.write_job(self.GOOD["file.ini"])
        for mode in ("verbos", "quiet", "job,x", "VERBOSE"):
            p = self.run_sb("--parse-only=" + mode, job)
            self.assertEqual(p.returncode, 2, mode)
            self.assertIn("--parse-only=%s: '" % mode, p.stderr)
            self.assertIn("--parse-only=verbose", p.stderr)

    def cases(self):
        """(text, line of the option, what the message says, its fix, kind):
        kind 'file' is what this machine lacks on disk (--parse-only=job:
        a warning), 'cpu' what it lacks in CPUs (--parse-only=job checks
        storbench's limit only), 'job' what the job gets wrong anywhere"""
        cpu = os.cpu_count() + 64
        return [
            ("[a]\nrw=write\nsize=1m\ndirectory=nodir\n", 4,
             "job a: directory=nodir: the folder nodir", "mkdir -p nodir", "file"),
            ("[b]\nrw=write\nsize=1m\nfilename=afile/sub/f.dat\n", 4,
             "job b: filename=afile/sub/f.dat: the folder afile/sub", "whose folders are folders",
             "file"),
            ("[c]\nfilename=missing.dat\nrw=read\n", 2,
             "job c: size= is not set and missing.dat does not exist", "set size=", "file"),
            ("[global]\ndirectory=nodir2\n\n[f]\nrw=read\nsize=1m\n\n[g]\nrw=write\nsize=1m\n",
             2, "job f: directory=nodir2: the folder nodir2", "mkdir -p nodir2", "file"),
            ("[d]\nfilename=adir\nrw=read\nsize=1m\n", 2,
             "job d: filename=adir: adir is a directory", "use directory=adir", "job"),
            ("[e]\nfilename=data\nrw=read\nsize=1m\ncpus_allowed=%d\n" % cpu, 5,
             "cpus_allowed=%d" % cpu, "which this machine does not have", "cpu"),
        ]

    def test_refuses_what_the_run_refuses(self):
        """exit 1 and the run's own message (file:line, the option, the fix)
        for each thing the run refuses before I/O; nothing created by
        either; --parse-only=job takes what this machine lacks as a warning
        (exit 0), an error with --warnings-fatal"""
        os.mkdir(os.path.join(self.dir, "adir"))
        open(os.path.join(self.dir, "afile"), "w").close()  # a file where a folder should be
        for text, line, what, fix, kind in self.cases():
            with self.subTest(what=what):
                job = self.write_job(text)
                before = self.snapshot()
                run = self.run_sb(job)
                self.assertEqual(run.returncode, 1, run.stderr)
                self.assertEqual(self.snapshot(), before)
                p = self.run_sb("--parse-only", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertEqual(p.stdout, "")
                self.assertIn("storbench: %s:%d: " % (job, line), p.stderr)
                self.assertIn(what, p.stderr)
                self.assertIn(fix, p.stderr)
                for ln in p.stderr.splitlines():  # the run's own refusal
                    self.assertIn(ln, run.stderr)
                self.assertEqual(self.snapshot(), before)
                p = self.run_sb("--parse-only=job", job)
                self.assertEqual(p.returncode, 1 if kind == "job" else 0, p.stderr)
                if kind == "file":
                    self.assertIn("storbench: warning: %s:%d: %s" % (job, line, what), p.stderr)
                    p = self.run_sb("--parse-only=job", "--warnings-fatal", job)
                    self.assertEqual(p.returncode, 1, p.stderr)
                self.assertEqual(self.snapshot(), before)

    def test_free_space(self):
        if os.geteuid() != 0:
            self.skipTest("not root: cannot mount a small tmpfs")
        small = os.path.join(self.dir, "small")
        os.mkdir(small)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small]).returncode:
            self.skipTest("mount -t tmpfs failed")
        try:
            job = self.write_job("[d]\ndirectory=small\nrw=write\nsize=64m\n")
            p = self.run_sb("--parse-only", job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("storbench: %s:4: job d: not enough free space in small" % job, p.stderr)
            self.assertEqual(os.listdir(small), [])
        finally:
            subprocess.run(["umount", small])

    def test_shipped_jobs_pass_quietly_or_say_why(self):
        """each shipped job either passes --parse-only with no output or is
        refused with a file:line message: never output on success"""
        jobs = os.path.join(SRC, "jobs")
        for name in sorted(os.listdir(jobs))[:40]:
            if not name.endswith(".ini"):
                continue
            with self.subTest(job=name):
                p = self.run_sb("--parse-only", os.path.join(jobs, name))
                self.assertEqual(p.stdout, "")
                if p.returncode:
                    self.assertEqual(p.returncode, 1, p.stderr)
                    self.assertIn("storbench: ", p.stderr)
                self.assertEqual(self.listing(), [])


class KbBaseNote(SbCase):
    """bs=4KiB is 4000 bytes under the default kb_base=1024
    as in fio 3.33 (KiB counts in 1000s there); when direct=1 refuses it the
    message says why and how to get 4096.  Checked against fio's own size of
    the block where fio is installed."""

    def test_note_says_which_prefix_and_the_fix(self):
        cases = [  # (bs, kb_base line, bytes, prefix form, fix)
            ("4KiB", "", 4000, "4KiB with kb_base=1024", "for 4096 bytes write bs=4k, or set "
             "kb_base=1000"),
            ("8kib", "", 8000, "8KiB with kb_base=1024", "for 8192 bytes write bs=8k"),
            ("4k", "kb_base=1000\n", 4000, "4k with kb_base=1000", "for 4096 bytes write bs=4KiB, "
             "or drop kb_base=1000"),
            ("1MiB", "", 1000000, "1MiB with kb_base=1024", "for 1048576 bytes write bs=1m"),
        ]
        for bs, kb, nbytes, form, fix in cases:
            with self.subTest(bs=bs, kb=kb):
                job = self.write_job("[j]\nrw=read\nsize=4m\nfilename=f\n%sdirect=1\nbs=%s\n"
                                     % (kb, bs))
                line = 7 if kb else 6
                for mode in ([], ["--parse-only"]):
                    p = self.run_sb(*mode, job)
                    self.assertEqual(p.returncode, 1, p.stderr)
                    self.assertIn("storbench: %s:%d: job j: bs=%d is not a multiple of 512"
                                  % (job, line, nbytes), p.stderr)
                    self.assertIn("; %d bytes is %s" % (nbytes, form), p.stderr)
                    self.assertIn(fix, p.stderr)
                self.assertEqual(self.listing(), ["job.ini"])
        # the fix the note gives is accepted (bs=4KiB under kb_base=1000)
        job = self.write_job("[j]\nrw=read\nsize=4m\nfilename=f\nkb_base=1000\ndirect=1\n"
                             "bs=4KiB\n")
        p = self.run_sb("--parse-only=job,verbose", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("read 4096 (4 KiB)", p.stdout)
        # a size that is no multiple of 1000 gets no note
        job = self.write_job("[j]\nrw=read\nsize=4m\nfilename=f\ndirect=1\nbs=4100\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertNotIn("kb_base", p.stderr)

    def test_fio_agrees_on_the_bytes(self):
        if not FIO:
            self.skipTest("fio not installed")
        for kb, bs, want in (("", "4KiB", 4000), ("kb_base=1000\n", "4KiB", 4096),
                             ("kb_base=1000\n", "4k", 4000), ("", "4k", 4096)):
            job = self.write_job("[j]\nrw=read\nsize=64k\nfilename=f\n%sbs=%s\n" % (kb, bs))
            f = subprocess.run([FIO, "--output-format=json", job], cwd=self.dir,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(f.returncode, 0, f.stderr)
            rd = json.loads(f.stdout[f.stdout.index("{"):])["jobs"][0]["read"]
            self.assertEqual(rd["io_bytes"] // rd["total_ios"], want, (kb, bs))
            p = self.run_sb("--parse-only=verbose", job)
            self.assertIn("read %d (" % want, p.stdout)
            os.unlink(os.path.join(self.dir, "f"))

INVISIBLE = {  # what sb_ini_invisible names (parse/inifile.c)
    "\ufeff": "U+FEFF", "\u200b": "U+200B", "\u200c": "U+200C", "\u200d": "U+200D",
    "\u200e": "U+200E", "\u200f": "U+200F", "\u202a": "U+202A", "\u202e": "U+202E",
    "\u2060": "U+2060", "\u2066": "U+2066", "\u2069": "U+2069", "\u00a0": "U+00A0",
    "\u00ad": "U+00AD",
}


class Invisible(SbCase):
    """A job file saved with a UTF-8 byte-order mark must not fail with
    "option '[j]' is outside a section" (the BOM is invisible).  fio
    3.33 refuses it the same way; storbench skips a BOM at the start of a
    file (the job file, an included one, standard input) and refuses any
    other invisible character by name and place, once, with no errors that
    follow from it."""

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        return path

    def test_bom_is_skipped(self):
        job = self.write("bom.ini", "\ufeff[j]\r\nrw=write\r\nsize=64k\r\nfilename=out\r\n"
                         "include inc.ini\r\n")
        self.write("inc.ini", "\ufeffbs=8k\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))
        p = self.run_sb("--parse-only=verbose", job)
        self.assertIn("[j] (%s:1, group 0)" % job, p.stdout)
        self.assertIn("read 8192 (8 KiB)", p.stdout)
        with open(job, "rb") as f:
            p = subprocess.run([BIN, "--parse-only", "-"], stdin=f, cwd=self.dir,
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_sb("--showcmd", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("storbench --name=j --rw=write"), p.stdout)
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.path.getsize(os.path.join(self.dir, "out")), 64 * 1024)
        if FIO:  # fio 3.33 does not skip it: "option <\ufeff[j]> outside of [] job section"
            f = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                               text=True, timeout=60)
            self.assertNotEqual(f.returncode, 0)

    def test_other_invisible_characters_are_named(self):
        for ch, code in INVISIBLE.items():
            for text, line, after in (("[j]\nrw=read%s\nsize=64k\nfilename=f\n" % ch, 2,
                                       " (after 'rw=read')"),
                                      ("%s[j]\nrw=read\nsize=64k\nfilename=f\n" % ch, 1,
                                       " (the line's start)"),
                                      ("[j]\nrw=read\nsize=6%s4k\nfilename=f\n" % ch, 3,
                                       " (after 'size=6')")):
                if ch == "\ufeff" and line == 1:
                    continue  # the byte-order mark: skipped at the file's start
                with self.subTest(code=code, line=line):
                    job = self.write("job.ini", text)
                    for mode in (["--parse-only"], []):
                        p = self.run_sb(*mode, job)
                        self.assertEqual(p.returncode, 1, p.stderr)
                        self.assertEqual(p.stderr.count("storbench: "), 1, p.stderr)
                        self.assertIn("storbench: %s:%d: the line holds an invisible character, %s "
                                      % (job, line, code), p.stderr)
                        self.assertIn(after + ": remove it", p.stderr)
                    self.assertEqual(self.listing(), ["job.ini"])
        # in a comment it changes nothing: accepted
        job = self.write("job.ini", "[j] ; a\u200bb\nrw=read # \u00a0x\nsize=64k\nfilename=f\n")
        p = self.run_sb("--parse-only=job", job)
        self.assertEqual(p.returncode, 0, p.stderr)

if __name__ == "__main__":
    unittest.main()
