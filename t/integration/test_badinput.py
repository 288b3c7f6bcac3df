"""test_badinput.py: storbench on bad job files.

Every t/jobs/bad/*.ini states what storbench must say about it in comments:
    ; expect-line: N     an error is reported at FILE:N
    ; expect: TEXT       some message contains TEXT (option, value, fix)
For each file, `storbench --parse-only FILE` and plain `storbench FILE` run in
a fresh temporary directory and must exit 1, print those messages on stderr,
and create no file (parsing happens before anything touches a disk).
Every run here also fails on a sanitizer report (run-suite.sh runs this file
against the ASan/UBSan build with leak detection on).
"""
import glob
import os
import resource
import shutil
import subprocess
import tempfile
import threading
import unittest

from sbtest import asan_runtime, sanitizer_report

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BAD_DIR = os.path.join(ROOT, "t", "jobs", "bad")
SB_BIN = os.environ.get("SB_BIN", os.path.join(ROOT, "build", "storbench"))


def expectations(path):
    lines, texts = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("; expect-line: "):
                lines.append(int(line[len("; expect-line: "):]))
            elif line.startswith("; expect: "):
                texts.append(line[len("; expect: "):])
    return lines, texts


def run_rusage(args, cwd, timeout=60, as_limit=None):
    """runs args; returns (exit status, stderr, peak RSS in bytes) of that
    one child (os.wait4), killed after timeout s; as_limit caps its address
    space (not under ASan, which maps terabytes of shadow)"""
    def pre():
        if as_limit and not asan_runtime():
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err, preexec_fn=pre)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return p.returncode, err.read().decode(errors="replace"), ru.ru_maxrss * 1024


def snapshot(d):
    out = set()
    for base, dirs, files in os.walk(d):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(base, n), d))
    return out


@unittest.skipUnless(os.access(SB_BIN, os.X_OK), "storbench binary not built: " + SB_BIN)
class BadJobFiles(unittest.TestCase):
    def run_sb(self, args, cwd, timeout=60):
        env = dict(os.environ)
        env.pop("SB_SURELY_UNSET_VAR_42", None)
        r = subprocess.run([SB_BIN] + args, cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=timeout)
        self.assertIsNone(sanitizer_report(r.stderr), "%s: sanitizer report:\n%s" % (args, r.stderr))
        return r

    def in_tmp(self, fn):
        """fn(tmpdir) in a fresh directory that must stay empty"""
        tmp = tempfile.mkdtemp(prefix="sb-badinput-")
        try:
            fn(tmp)
            self.assertEqual(snapshot(tmp), set(), "files were created in the work dir")
        finally:
            shutil.rmtree(tmp)

    def check_file(self, path, mode_args):
        want_lines, want_texts = expectations(path)
        self.assertTrue(want_lines, path + " has no '; expect-line:' comment")
        tmp = tempfile.mkdtemp(prefix="sb-badinput-")
        try:
            before = snapshot(BAD_DIR)
            r = self.run_sb(mode_args + [path], tmp)
            what = "%s %s" % (" ".join(mode_args) or "(run)", os.path.basename(path))
            self.assertEqual(r.returncode, 1, "%s: exit %d, stderr:\n%s" % (what, r.returncode, r.stderr))
            for n in want_lines:
                self.assertIn("storbench: %s:%d: " % (path, n), r.stderr,
                              "%s: no error at line %d" % (what, n))
            for t in want_texts:
                self.assertIn(t, r.stderr, "%s: message lacks %r" % (what, t))
            self.assertEqual(snapshot(tmp), set(), what + ": files were created in the work dir")
            self.assertEqual(snapshot(BAD_DIR), before, what + ": files appeared next to the job file")
        finally:
            shutil.rmtree(tmp)

    def check_all(self, mode_args):
        """every bad file; all failures reported together (one test, one count)"""
        files = sorted(glob.glob(os.path.join(BAD_DIR, "*.ini")))
        self.assertGreaterEqual(len(files), 20)
        failures = []
        for path in files:
            try:
                self.check_file(path, mode_args)
            except AssertionError as e:
                failures.append(str(e))
        self.assertEqual(failures, [], "\n\n".join(failures))

    def test_bad_files_parse_only(self):
        self.check_all(["--parse-only"])

    def test_bad_files_run(self):
        self.check_all([])

    def test_unreadable_job_file(self):
        tmp = tempfile.mkdtemp(prefix="sb-badinput-")
        try:
            missing = os.path.join(tmp, "no-such-job.ini")
            r = self.run_sb([missing], tmp)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("%s: cannot read job file: No such file or directory" % missing, r.stderr)
            self.assertEqual(snapshot(tmp), set())
        finally:
            shutil.rmtree(tmp)

    def test_bad_command_line_job(self):
        tmp = tempfile.mkdtemp(prefix="sb-badinput-")
        try:
            r = self.run_sb(["--name=x", "--size=1m", "--bs=4q"], tmp)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("storbench: <cmdline>: bs=4q: invalid size '4q'", r.stderr)
            self.assertIn("4k", r.stderr)
            self.assertEqual(snapshot(tmp), set())
        finally:
            shutil.rmtree(tmp)

    def test_bad_command_line_job_frees_what_it_parsed(self):
        """a refused --name job frees everything it allocated (LSan sees no leak)"""
        def t(tmp):
            r = self.run_sb(["--name=x", "--sizee=1m"], tmp)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("storbench: <cmdline>: unknown option 'sizee' (did you mean 'size'?)",
                          r.stderr)
        self.in_tmp(t)

    def test_lone_cr_ends_a_line(self):
        """a file ending in '\\r' is parsed and the parser returns"""
        def t(tmp):
            for name, text in (("cr.ini", b"\r"), ("crjob.ini", b"[j]\nfilename=x\nsize=1m\r")):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(text)
            r = self.run_sb(["--parse-only", "cr.ini"], tmp, timeout=20)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("cr.ini: no jobs defined", r.stderr)
            r = self.run_sb(["--parse-only=verbose", "crjob.ini"], tmp, timeout=20)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"size += 1048576")
            # old Mac line ends: every lone CR ends a line, and lines are counted
            with open(os.path.join(tmp, "mac.ini"), "wb") as f:
                f.write(b"[j]\rsize=1m\r\rbs=4q\r")
            r = self.run_sb(["--parse-only", "mac.ini"], tmp, timeout=20)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("storbench: mac.ini:4: bs=4q: invalid size", r.stderr)
            for n in ("cr.ini", "crjob.ini", "mac.ini"):
                os.unlink(os.path.join(tmp, n))
        self.in_tmp(t)

    def test_job_file_must_be_a_regular_file(self):
        """/dev/zero or a FIFO as a job file (or included) is refused without
        reading it (no read until memory runs out, no wait forever)"""
        def t(tmp):
            fifo = os.path.join(tmp, "fifo.ini")
            os.mkfifo(fifo)
            for path, kind in (("/dev/zero", "a character device"), (fifo, "a FIFO"),
                               (tmp, "a directory")):
                r = self.run_sb(["--parse-only", path], tmp, timeout=20)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("storbench: %s: cannot read job file: it is %s" % (path, kind), r.stderr)
                self.assertIn("a job file must be a regular file", r.stderr)
            os.unlink(fifo)
        self.in_tmp(t)

    def test_job_file_size_is_capped(self):
        """a job file and its includes hold at most 16 MiB together"""
        def t(tmp):
            big = os.path.join(tmp, "big.ini")
            with open(big, "w") as f:
                f.write("[j]\nsize=1m\n")
                f.truncate(16 * 1024 * 1024 + 1)  # NULs past the text: the size is refused first
            r = self.run_sb(["--parse-only", big], tmp, timeout=20)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("%s: cannot read job file: too big" % big, r.stderr)
            self.assertIn("at most 16 MiB", r.stderr)
            # two 9 MiB includes: each is fine alone, together too much
            half = os.path.join(tmp, "half.inc")
            with open(half, "w") as f:
                line = "; " + "x" * 1000 + "\n"
                f.write(line * (9 * 1024 * 1024 // len(line)))
            main = os.path.join(tmp, "main.ini")
            with open(main, "w") as f:
                f.write("[j]\nsize=1m\ninclude half.inc\ninclude half.inc\n")
            r = self.run_sb(["--parse-only", main], tmp, timeout=60)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("%s:4: include half.inc: cannot read '%s': too big" % (main, half), r.stderr)
            self.assertNotIn("%s:3:" % main, r.stderr)
            for n in (big, half, main):
                os.unlink(n)
        self.in_tmp(t)

    def test_read_of_empty_file_without_size(self):
        """'has no data past offset=' names the value and file:line"""
        def t(tmp):
            r = self.run_sb(["--name=x", "--rw=read", "--filename=/dev/null"], tmp)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("storbench: <cmdline>: job x: size= is not set and /dev/null has no data "
                          "past offset=0 (it holds 0 bytes): set size= or filesize=", r.stderr)
            job = os.path.join(tmp, "j.ini")
            with open(job, "w") as f:
                f.write("[x]\nrw=read\noffset=4k\nfilename=/dev/null\n")
            r = self.run_sb([job], tmp)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("storbench: %s:4: job x: size= is not set and /dev/null has no data past "
                          "offset=4096" % job, r.stderr)
            os.unlink(job)
        self.in_tmp(t)

    def test_read_iolog_without_line_breaks_is_bounded(self):
        """read_iolog=/dev/zero must not be read until memory runs out
        (getline(3) takes 1 GB in 4 s, then the OOM killer; a 2 GiB
        address-space cap here keeps the machine safe): a log line is read
        to 8191 bytes at most, so it is refused at once, in a few MB."""
        def t(tmp):
            job = os.path.join(tmp, "j.ini")
            with open(job, "w") as f:
                f.write("[j]\nread_iolog=/dev/zero\n")
            log = os.path.join(tmp, "long.log")
            with open(log, "w") as f:
                f.write("fio version 2 iolog\n" + "a" * 100000 + "\n")
            with open(os.path.join(tmp, "k.ini"), "w") as f:
                f.write("[k]\nread_iolog=long.log\n")
            # the one reader refuses a device before reading it
            for j, want in ((job, "storbench: %s:2: read_iolog=/dev/zero: cannot read the log: it is "
                                  "a character device" % job),
                            ("k.ini", "read_iolog=long.log: line 2 is longer than 8191 bytes")):
                rc, err, rss = run_rusage([SB_BIN, "--parse-only", j], tmp, timeout=30,
                                          as_limit=2 << 30)
                self.assertIsNone(sanitizer_report(err), err)
                self.assertEqual(rc, 1, err)
                self.assertIn(want, err)
                self.assertLess(rss, 200 << 20, "peak RSS %d MB" % (rss >> 20))
            os.unlink(job)
            os.unlink(log)
            os.unlink(os.path.join(tmp, "k.ini"))
        self.in_tmp(t)

    def test_refused_at_the_plan(self):
        """inputs only the file plan can refuse (so not
        in t/jobs/bad, whose files --parse-only must refuse too): exit 1,
        file:line, the option, the fix, nothing created"""
        def t(tmp):
            job = os.path.join(tmp, "j.ini")
            cases = (("[x]\nrw=read\nsize=1m\nfilename=.\n", 4,
                      "job x: filename=.: . is a directory, not a file", "use directory=."),
                     ("[x]\nrw=write\nsize=1m\nverify=md5\nverify_only=1\n", 5,
                      "job x: verify_only=1 checks the data an earlier run wrote to x.0.0, which "
                      "does not exist", "run the job without verify_only=1 first"))
            for text, line, what, fix in cases:
                with open(job, "w") as f:
                    f.write(text)
                r = self.run_sb([job], tmp)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("storbench: %s:%d: %s" % (job, line, what), r.stderr)
                self.assertIn(fix, r.stderr)
                self.assertEqual(snapshot(tmp), {"j.ini"})
            os.unlink(job)
        self.in_tmp(t)

    def test_env_value_with_a_line_break_is_one_value(self):
        """${VAR} holding a newline must not add job-file
        lines: BS=$'4k\\nrw=write\\nfilename=X' once turned a read of in.dat
        into a write of X.  Refused at the line of the ${BS}, naming the
        variable and the fix; nothing created, the input untouched."""
        for brk in ("\n", "\r\n", "\r"):
            tmp = tempfile.mkdtemp(prefix="sb-badinput-")
            try:
                with open(os.path.join(tmp, "in.dat"), "wb") as f:
                    f.write(b"precious" * 512)
                job = os.path.join(tmp, "j.ini")
                with open(job, "w") as f:
                    f.write("[global]\nsize=4k\n\n[j]\nfilename=in.dat\nrw=read\nbs=${BS}\n")
                env = dict(os.environ, BS="4k%srw=write%sfilename=X" % (brk, brk))
                for mode in (["--parse-only"], []):
                    r = subprocess.run([SB_BIN] + mode + [job], cwd=tmp, env=env,
                                       capture_output=True, text=True, timeout=60)
                    self.assertIsNone(sanitizer_report(r.stderr), r.stderr)
                    self.assertEqual(r.returncode, 1, "%r %s: %s" % (brk, mode, r.stderr))
                    self.assertIn("storbench: %s:7: environment variable 'BS'" % job, r.stderr)
                    self.assertIn("remove the line break from BS", r.stderr)
                    self.assertEqual(snapshot(tmp), {"in.dat", "j.ini"})
                    with open(os.path.join(tmp, "in.dat"), "rb") as f:
                        self.assertEqual(f.read(), b"precious" * 512)
            finally:
                shutil.rmtree(tmp)

    def test_parse_only_refuses_what_the_run_refuses(self):
        """--parse-only (what users run in CI) runs every
        check the run makes before its first I/O, creating nothing: a missing
        directory=, a missing input with no size, filename= naming a
        directory, too little free space.  Both say it the same way:
        file:line of the option, the job, the fix; nothing made.  The run
        and --parse-only refuse them all (exit 1).  What this machine lacks
        (a folder, an input file, free space) is a warning of
        --parse-only=job, exit 0, as fio 3.33's --parse-only looks at no
        file (its examples name /dev/sda, /data1, ...), and an error with
        --warnings-fatal; what the job gets wrong here (a directory as
        filename=) is exit 1."""
        # (text, line, message, fix, machine: lacking on this machine)
        cases = [
            ("[a]\ndirectory=nodir\nrw=write\nsize=1m\n", 2,
             "job a: directory=nodir: the folder nodir", "mkdir -p nodir", True),
            ("[b]\nfilename=missing.dat\nrw=read\n", 2,
             "job b: size= is not set and missing.dat does not exist", "set size=", True),
            ("[c]\nfilename=adir\nrw=read\nsize=1m\n", 2,
             "job c: filename=adir: adir is a directory", "use directory=adir", False),
        ]
        if os.geteuid() == 0:
            cases.append(("[d]\ndirectory=small\nrw=write\nsize=64m\n", 4,
                          "job d: not enough free space in small for the job files: 64.00 MiB",
                          "lower size=", True))

        def t(tmp):
            os.mkdir(os.path.join(tmp, "adir"))
            small = os.path.join(tmp, "small")
            os.mkdir(small)
            mounted = os.geteuid() == 0 and subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small]).returncode == 0
            try:
                for text, line, what, fix, machine in cases:
                    if "small" in text and not mounted:
                        continue
                    job = os.path.join(tmp, "j.ini")
                    with open(job, "w") as f:
                        f.write(text)
                    for mode in (["--parse-only"], ["--parse-only=job"],
                                 ["--parse-only=job", "--warnings-fatal"], []):
                        r = self.run_sb(mode + [job], tmp)
                        warn = machine and mode == ["--parse-only=job"]
                        self.assertEqual(r.returncode, 0 if warn else 1,
                                         "%s %s: %s" % (mode, what, r.stderr))
                        self.assertIn("storbench: %s%s:%d: %s" % ("warning: " if machine and
                                      mode[:1] == ["--parse-only=job"] else "", job, line, what),
                                      r.stderr)
                        self.assertIn(fix, r.stderr)
                        if warn:
                            self.assertIn("what this machine lacks", r.stderr)
                        elif mode == ["--parse-only"]:
                            self.assertNotIn("warning: ", r.stderr)
                        self.assertEqual(snapshot(tmp), {"j.ini", "adir", "small"}, what)
                    os.unlink(job)
            finally:
                if mounted:
                    subprocess.run(["umount", small])
            os.rmdir(os.path.join(tmp, "adir"))
            os.rmdir(small)
        self.in_tmp(t)

    def test_cmdhelp_unknown_option(self):
        r = self.run_sb(["--cmdhelp=iodpeth"], ROOT)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("did you mean 'iodepth'?", r.stderr)

    def test_good_file_parses(self):
        """control: a good file passes --parse-only, so exit 1 above means the errors"""
        r = self.run_sb(["--parse-only=verbose", os.path.join(ROOT, "t", "jobs", "basic.ini")], ROOT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[seq-read]", r.stdout)


if __name__ == "__main__":
    unittest.main()
