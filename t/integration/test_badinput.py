"""test_badinput.py: storbench on bad job files.

Every t/jobs/bad/*.ini states what storbench must say about it in comments:
    ; expect-line: N     an error is reported at FILE:N
    ; expect: TEXT       some message contains TEXT (option, value, fix)
For each file, `storbench --parse-only FILE` and plain `storbench FILE` run in
a fresh temporary directory and must exit 1, print those messages on stderr,
and create no file (parsing happens before anything touches a disk).
"""
import glob
import os
import shutil
import subprocess
import tempfile
import unittest

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


def snapshot(d):
    out = set()
    for base, dirs, files in os.walk(d):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(base, n), d))
    return out


@unittest.skipUnless(os.access(SB_BIN, os.X_OK), "storbench binary not built: " + SB_BIN)
class BadJobFiles(unittest.TestCase):
    def run_sb(self, args, cwd):
        env = dict(os.environ)
        env.pop("SB_SURELY_UNSET_VAR_42", None)
        return subprocess.run([SB_BIN] + args, cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=60)

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

    def test_cmdhelp_unknown_option(self):
        r = self.run_sb(["--cmdhelp=iodpeth"], ROOT)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("did you mean 'iodepth'?", r.stderr)

    def test_good_file_parses(self):
        """control: a good file passes --parse-only, so exit 1 above means the errors"""
        r = self.run_sb(["--parse-only", os.path.join(ROOT, "t", "jobs", "basic.ini")], ROOT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("[seq-read]", r.stdout)


if __name__ == "__main__":
    unittest.main()
