"""ioengine=exec, fio's engine (fio 3.33 engines/exec.c), beside fio where it
is installed.  fio's facts used here:
- exec.c:96-109 expand_variables: %r is the runtime in seconds
  (o->timeout / 1000000), %n the job's name.
- exec.c:131-145, 191-197: with std_redirect (default 1) the program's
  stdout and stderr go to NAME.stdout and NAME.stderr; "program arguments"
  is split at spaces into argv (exec.c:215-240), no shell.
- exec.c:265-287 fio_exec_queue: the first I/O starts the program; each
  later one sleeps thinktime (50 ms, set in fio_exec_init exec.c:319) and,
  once the runtime has passed, sends SIGTERM and sleeps grace_time.
- exec.c:331-337 fio_exec_cleanup: SIGKILL at the end.
- exec.c:354: FIO_SYNCIO | FIO_DISKLESSIO | FIO_NOIO: I/Os counted, no
  bytes, runtime 0.
Counts are bounded, not asserted: a busy machine gives fewer I/Os, never
more than one per 100 ms after the first."""
import json
import os
import shutil
import subprocess

from sbtest import BIN, SbCase

FIO = shutil.which("fio")


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


class Exec(SbCase):
    def runs(self, args, prog):
        extra = ["--allow-exec"] if prog == BIN else []
        p = subprocess.run([prog, *extra, "--output-format=json", *args], cwd=self.dir,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout[p.stdout.index("{"):]), p

    def test_output_files_and_counts(self):
        args = ["--name=mon", "--ioengine=exec", "--program=/bin/echo",
                "--arguments=job %n ran %r s", "--runtime=1", "--time_based"]
        progs = [BIN] + ([FIO] if FIO else [])
        seen = []
        for prog in progs:
            d, _ = self.runs(args, prog)
            j = d["jobs"][0]
            self.assertEqual(j["error"], 0)
            r = j["read"]
            self.assertGreaterEqual(r["total_ios"], 2)
            self.assertLessEqual(r["total_ios"], 1000 // 100 + 2)
            self.assertEqual((r["io_bytes"], r["runtime"]), (0, 0))
            self.assertEqual(j["write"]["total_ios"], 0)
            with open(os.path.join(self.dir, "mon.stdout")) as f:
                out = f.read()
            with open(os.path.join(self.dir, "mon.stderr")) as f:
                err = f.read()
            seen.append((out, err))
            for n in ("mon.stdout", "mon.stderr"):
                os.unlink(os.path.join(self.dir, n))
        self.assertEqual(seen[0], ("job mon ran 1 s\n", ""))
        if FIO:
            self.assertEqual(seen[1], seen[0])
        self.assertEqual(self.listing(), [])

    def test_sigterm_after_runtime(self):
        script = os.path.join(self.dir, "mon.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ntrap 'echo got TERM; exit 0' TERM\necho started $$\n"
                    "while :; do sleep 0.05; done\n")
        os.chmod(script, 0o755)
        job = self.write_job("[m]\nioengine=exec\nprogram=%s\ntime_based\nruntime=1\n"
                             "grace_time=1\n" % script)
        p = self.run_sb("--allow-exec", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, "m.stdout")) as f:
            lines = f.read().split("\n")
        self.assertTrue(lines[0].startswith("started "), lines)
        self.assertIn("got TERM", lines)
        self.assertFalse(alive(int(lines[0].split()[1])))

    def test_sigkill_at_the_end(self):
        """a program that ignores SIGTERM is killed when the job ends and
        leaves no process behind"""
        script = os.path.join(self.dir, "stubborn.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ntrap '' TERM\necho $$\nexec sleep 1000\n")
        os.chmod(script, 0o755)
        job = self.write_job("[s]\nioengine=exec\nprogram=%s\ntime_based\nruntime=1\n"
                             "grace_time=0\n" % script)
        p = self.run_sb("--allow-exec", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, "s.stdout")) as f:
            pid = int(f.read().split()[0])
        self.assertFalse(alive(pid))

    def test_std_redirect_0_shares_storbench_output(self):
        job = self.write_job("[e]\nioengine=exec\nprogram=echo\narguments=hello-%n\n"
                             "std_redirect=0\nnumber_ios=2\n")
        p = self.run_sb("--allow-exec", "--output-format=terse", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("hello-e\n", p.stdout)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_needs_allow_exec(self):
        """a job file that runs a program is refused without --allow-exec, as
        exec_prerun is (HOWTO --allow-exec), for the run and --parse-only"""
        job = self.write_job("[x]\nioengine=exec\nprogram=/bin/true\nruntime=1\n")
        for extra in ([], ["--parse-only"]):
            p = self.run_sb(*extra, job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(job + ":2: ioengine=exec", p.stderr)
            self.assertIn("--allow-exec", p.stderr)
            self.assertEqual(self.listing(), ["job.ini"])

    def test_refusals_name_the_line_and_write_nothing(self):
        cases = [("[x]\nioengine=exec\nruntime=1\n", ":2:", "needs program="),
                 ("[x]\nioengine=exec\nprogram=/no/such/prog\nruntime=1\n", ":3:",
                  "no such executable file"),
                 ("[x]\nioengine=exec\nprogram=no-such-prog-zz\nruntime=1\n", ":3:",
                  "no such executable file in PATH"),
                 ("[x]\nioengine=exec\nprogram=/bin/true\nruntime=1\nverify=crc32c\n", "",
                  "verify"),
                 ("[x]\nioengine=exec\nprogram=/bin/true\n", ":1:", "nothing ends it")]
        for text, line, words in cases:
            with self.subTest(text=text):
                job = self.write_job(text)
                p = self.run_sb("--allow-exec", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(words, p.stderr)
                if line:
                    self.assertIn(job + line, p.stderr)
                self.assertEqual(self.listing(), ["job.ini"])

    def test_missing_program_is_this_machines(self):
        """a program not installed here (fio's examples/exec.fio names
        /usr/sbin/turbostat) is what this machine lacks: --parse-only=job
        warns and passes, --parse-only and the run refuse at its line"""
        job = self.write_job("[x]\nioengine=exec\nprogram=/no/such/turbostat\nruntime=1\n")
        p = self.run_sb("--allow-exec", "--parse-only=job", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("warning: x: ioengine=exec", p.stderr)
        self.assertIn("what this machine lacks", p.stderr)
        for extra in (["--parse-only"], []):
            p = self.run_sb("--allow-exec", *extra, job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(job + ":3: program=/no/such/turbostat: no such executable file", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_output_never_replaces_an_input(self):
        """the job file named as the program's output: refused by the writer
        gate, the job file left as it was"""
        text = "[mon]\nioengine=exec\nprogram=/bin/true\nruntime=1\n"
        job = self.write_job(text, "mon.stdout")
        p = self.run_sb("--allow-exec", job)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("the job file this run reads", p.stderr)
        with open(job) as f:
            self.assertEqual(f.read(), text)
        self.assertEqual(self.listing(), ["mon.stdout"])

    def test_fio_example_parses(self):
        """fio's examples/exec.fio (fio 3.42): its turbostat may be missing
        here; the sleep job it holds runs"""
        job = self.write_job("[global]\ntime_based\nruntime=1\n\n[sleep]\nioengine=exec\n"
                             "program=/bin/sleep\narguments=%r\ngrace_time=0\nstd_redirect=0\n")
        d = self.run_json("--allow-exec", job)
        self.assertEqual(d["jobs"][0]["error"], 0)
        self.assertGreaterEqual(d["jobs"][0]["read"]["total_ios"], 2)
