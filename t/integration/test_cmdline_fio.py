"""fio's command line: job options on the command line combined
with job files as fio 3.33 combines them (the table below is what fio 3.33
did with the same files; when fio 3.33 is installed the test runs it too and
checks the table against it), "-" for standard input, --section, --eta*,
--showcmd, --terse-version, --readonly, --max-jobs, --warnings-fatal, and
every bad input of those flags."""
import json
import os
import shutil
import subprocess

from sbtest import SbCase

K = """[global]
ioengine=null
rw=read

[k1]
size=1m

[k2]
size=2m
bs=16k
"""
M = "[m1]\nrw=write\n"
# args -> [(job, read bytes, read I/Os, write bytes, write I/Os)], all in group 0;
# recorded with fio 3.33 (fio --output-format=json ARGS)
FIO_TABLE = [
    (["--bs=8k", "k.fio"], [("k1", 1 << 20, 128, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["k.fio", "--bs=8k"], [("k1", 1 << 20, 128, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["--bs=8k", "--name=a", "--ioengine=null", "--size=1m", "k.fio"],
     [("a", 1 << 20, 128, 0, 0), ("k1", 1 << 20, 128, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["--name=a", "--ioengine=null", "--size=1m", "--bs=8k", "k.fio"],
     [("a", 1 << 20, 128, 0, 0), ("k1", 1 << 20, 256, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["k.fio", "--name=a", "--ioengine=null", "--size=1m", "--bs=8k"],
     [("a", 1 << 20, 128, 0, 0), ("k1", 1 << 20, 256, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["--name=a", "--ioengine=null", "--size=1m", "--name=global", "--bs=8k", "k.fio"],
     [("a", 1 << 20, 256, 0, 0), ("k1", 1 << 20, 128, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["--size=4m", "--ioengine=null", "m.fio"], [("m1", 0, 0, 4 << 20, 1024)]),
    (["m.fio", "--size=4m", "--ioengine=null"], [("m1", 0, 0, 4 << 20, 1024)]),
    (["--size=3m", "k.fio"], [("k1", 1 << 20, 256, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
    (["--section=k2", "k.fio"], [("k2", 2 << 20, 128, 0, 0)]),
    (["--section=k1", "--section=k2", "k.fio", "--bs=64k"],
     [("k1", 1 << 20, 16, 0, 0), ("k2", 2 << 20, 128, 0, 0)]),
]
# the "global options" object of the same runs (fio 3.33)
FIO_GLOBALS = {
    0: {"bs": "8k", "ioengine": "null", "rw": "read"},
    3: {"ioengine": "null", "rw": "read"},
    6: {"size": "4m", "ioengine": "null"},
}


def fio_333():
    f = shutil.which("fio")
    if not f:
        return None
    v = subprocess.run([f, "--version"], capture_output=True, text=True).stdout.strip()
    return f if v == "fio-3.33" else None


def summary(doc):
    return [(j["jobname"], j["read"]["io_bytes"], j["read"]["total_ios"], j["write"]["io_bytes"],
             j["write"]["total_ios"]) for j in doc["jobs"]]


class TestCombineLikeFio(SbCase):
    def setUp(self):
        super().setUp()
        self.write_job(K, "k.fio")
        self.write_job(M, "m.fio")

    def test_table(self):
        for i, (args, want) in enumerate(FIO_TABLE):
            with self.subTest(args=" ".join(args)):
                d = self.run_json(*args)
                self.assertEqual(summary(d), want)
                self.assertEqual({j["groupid"] for j in d["jobs"]}, {0})
                if i in FIO_GLOBALS:
                    self.assertEqual(d["global options"], FIO_GLOBALS[i])
        self.assertEqual(self.listing(), ["k.fio", "m.fio"])

    def test_table_is_what_fio_does(self):
        fio = fio_333()
        if not fio:
            self.skipTest("fio 3.33 not installed (apt-get install fio): the table stays as recorded")
        for i, (args, want) in enumerate(FIO_TABLE):
            with self.subTest(args=" ".join(args)):
                p = subprocess.run([fio, "--output-format=json", *args], cwd=self.dir,
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)
                d = json.loads(p.stdout[p.stdout.index("{"):])
                self.assertEqual(summary(d), want)
                if i in FIO_GLOBALS:
                    self.assertEqual(d["global options"], FIO_GLOBALS[i])
                # no global option at all: no key (fio 3.33 stat.c:1666)
                ours = self.run_json(*args)
                self.assertEqual("global options" in ours, "global options" in d)

    def test_stdin_job_file(self):
        p = subprocess.run([self.bin(), "--output-format=json", "-"], cwd=self.dir, capture_output=True,
                           text=True, input="[global]\nioengine=null\n[s]\nsize=1m\n", timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(summary(json.loads(p.stdout)), [("s", 1 << 20, 256, 0, 0)])
        # with another job file, in command-line order
        p = subprocess.run([self.bin(), "--output-format=json", "-", "k.fio"], cwd=self.dir,
                           capture_output=True, text=True, input="[s]\nioengine=null\nsize=1m\n",
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([j[0] for j in summary(json.loads(p.stdout))], ["s", "k1", "k2"])

    def bin(self):
        from sbtest import BIN
        return BIN

    def stdin_run(self, text, *args):
        return subprocess.run([self.bin(), *args], cwd=self.dir, capture_output=True, text=True,
                              input=text, timeout=60)

    def test_stdin_errors_name_stdin_and_line(self):
        p = self.stdin_run("[s]\nioengine=null\nbs=4q\n", "-")
        self.assertEqual(p.returncode, 1)
        self.assertIn("storbench: <stdin>:3: bs=4q:", p.stderr)
        p = self.stdin_run("[s]\nioengine=null\x00\n", "-")
        self.assertEqual(p.returncode, 1)
        self.assertIn("<stdin>: standard input holds a NUL byte", p.stderr)
        self.assertIn("remove the NUL byte", p.stderr)
        p = self.stdin_run("[s]\nioengine=null\nsize=1m\n", "-", "-")
        self.assertEqual(p.returncode, 1)
        self.assertIn("<cmdline>: '-' given twice", p.stderr)
        self.assertIn("give '-' once", p.stderr)
        self.assertEqual(self.listing(), ["k.fio", "m.fio"])

    def test_bad_global_option_reported_once(self):
        p = self.run_sb("--bs=4q", "k.fio", "m.fio")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr.count("<cmdline>: bs=4q:"), 1, p.stderr)
        self.assertEqual(self.listing(), ["k.fio", "m.fio"])

    def test_section_errors(self):
        p = self.run_sb("--section=k9", "k.fio")
        self.assertEqual(p.returncode, 1)
        self.assertIn("storbench: <cmdline>: --section=k9: no job section of that name", p.stderr)
        self.assertIn("give the name of a [section]", p.stderr)
        p = self.run_sb("--section=global", "k.fio")
        self.assertEqual(p.returncode, 1)
        self.assertIn("--section=global: no job section", p.stderr)
        p = self.run_sb("k.fio", "--section")
        self.assertEqual(p.returncode, 2)
        self.assertIn("<cmdline>: --section needs a section name: --section=NAME", p.stderr)
        p = self.run_sb("--section=x")
        self.assertEqual(p.returncode, 1)
        self.assertIn("--section=x: there is no job file", p.stderr)
        self.assertEqual(self.listing(), ["k.fio", "m.fio"])

    def test_section_names_command_line_jobs_too(self):
        d = self.run_json("--section=b", "--ioengine=null", "--size=1m", "--name=a", "--name=b",
                          "--rw=write")
        self.assertEqual(summary(d), [("b", 0, 0, 1 << 20, 256)])


class TestFlags(SbCase):
    JOB = "[global]\nioengine=null\nsize=1m\n\n[r]\nrw=read\n\n[w]\nfilename=out.dat\nrw=randwrite\n"

    def test_readonly_refuses_writers_before_any_io(self):
        self.write_job(self.JOB)
        p = self.run_sb("--readonly", "job.ini")
        self.assertEqual(p.returncode, 1)
        self.assertIn("storbench: job.ini:10: rw=randwrite: job 'w' writes, and --readonly refuses "
                      "any write: make it read (rw=read or rw=randread), or drop --readonly", p.stderr)
        self.assertNotIn("job 'r'", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
        p = self.run_sb("--readonly", "--name=t", "--ioengine=null", "--size=1m", "--rw=rw")
        self.assertEqual(p.returncode, 1)
        self.assertIn("<cmdline>: rw=rw: job 't' writes", p.stderr)
        p = self.run_sb("--readonly", "--datagen", "--name=t", "--ioengine=null", "--size=1m")
        self.assertEqual(p.returncode, 1)
        self.assertIn("--datagen writes the training datasets", p.stderr)
        d = self.run_json("--readonly", "--section=r", "job.ini")
        self.assertEqual(summary(d), [("r", 1 << 20, 256, 0, 0)])
        self.assertEqual(self.listing(), ["job.ini"])

    def test_readonly_refuses_checkpoint_writes(self):
        self.write_job("[c]\nworkload=checkpoint\nmodel=llama3-8b\ndirectory=.\n")
        p = self.run_sb("--readonly", "job.ini")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("num_checkpoints_write=", p.stderr)
        self.assertIn("--readonly refuses any write", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_max_jobs(self):
        self.write_job(self.JOB.replace("[w]", "[w]\nnumjobs=4"))
        p = self.run_sb("--max-jobs=4", "job.ini")
        self.assertEqual(p.returncode, 1)
        self.assertIn("<cmdline>: --max-jobs=4: the jobs start 5 threads (numjobs counted): raise "
                      "--max-jobs or lower numjobs", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
        for bad in ("0", "x", "-1", "", "2000000"):
            p = self.run_sb("--max-jobs=" + bad, "job.ini")
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn(f"<cmdline>: --max-jobs={bad}: not a job count: give an integer from 1 "
                          "to 1000000", p.stderr)
        self.assertEqual(self.run_sb("--max-jobs=5", "--parse-only", "job.ini").returncode, 0)

    def test_warnings_fatal(self):
        self.write_job("[a]\nioengine=null\nsize=1m\nfilename=out.dat\nrw=write\ntime_based\n")
        p = self.run_sb("--warnings-fatal", "job.ini")
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:6: time_based has no effect", p.stderr)
        self.assertIn("<cmdline>: --warnings-fatal: 1 warning(s) above: fix what they name, or drop "
                      "--warnings-fatal", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
        p = self.run_sb("--output-format=terse", "job.ini")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_terse_version(self):
        p = self.run_sb("--terse-version=3", "--output-format=terse", "--name=a", "--ioengine=null",
                        "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("3;"))
        for v in ("2", "4", "5"):
            p = self.run_sb("--terse-version=" + v, "--name=a", "--ioengine=null", "--size=1m")
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"<cmdline>: --terse-version={v}: fio's terse version 2, 4 and 5 are not "
                          "written by storbench, only version 3: use --terse-version=3", p.stderr)
        for v in ("6", "x", ""):
            p = self.run_sb("--terse-version=" + v, "--name=a", "--ioengine=null", "--size=1m")
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"--terse-version={v}: not a terse version (fio has 2, 3, 4 and 5; "
                          "storbench writes 3): use --terse-version=3", p.stderr)
        self.assertEqual(self.listing(), [])

    def test_eta(self):
        job = ["--name=a", "--ioengine=null", "--size=1m", "--time_based", "--runtime=1200ms",
               "--output-format=terse"]
        p = self.run_sb("--eta=always", *job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("elapsed]", p.stderr)
        for off in (["--eta=never"], []):  # no terminal: auto is never, as in fio
            p = self.run_sb(*off, *job)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("elapsed]", p.stderr)
        p = self.run_sb("--eta=always", "--eta-interval=250ms", "--eta-newline=250ms", *job)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l for l in p.stderr.split("\n") if "elapsed]" in l]
        self.assertGreaterEqual(len(lines), 3, repr(p.stderr))

    def test_eta_bad_values(self):
        for args, msg in ((["--eta=sometimes"], "--eta=sometimes: not a choice: use --eta=auto"),
                          (["--eta"], "--eta=: not a choice"),
                          (["--eta-interval=100ms"], "--eta-interval=100ms: not a time of at least "
                                                     "250ms: use seconds (2) or a unit (500ms, 1m)"),
                          (["--eta-newline=0"], "--eta-newline=0: not a time of at least 250ms"),
                          (["--eta-newline=fast"], "--eta-newline=fast: not a time")):
            p = self.run_sb(*args, "--name=a", "--ioengine=null", "--size=1m")
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("storbench: <cmdline>: " + msg, p.stderr)
        self.assertEqual(self.listing(), [])


class TestShowcmd(SbCase):
    def test_fio_format(self):
        self.write_job("[global]\nbs=64k ; c\ntime_based\n# x\n[a]\nrw=read\n", "sc.fio")
        p = self.run_sb("--showcmd", "sc.fio")
        self.assertEqual(p.returncode, 0, p.stderr)
        # fio 3.33: "fio --bs=64k --time_based --name=a --rw=read "
        self.assertEqual(p.stdout, "storbench --bs=64k --time_based --name=a --rw=read\n")

    def test_round_trip(self):
        src = os.path.join(os.path.dirname(__file__), "..", "jobs", "basic.ini")
        p = self.run_sb("--showcmd", os.path.abspath(src))
        self.assertEqual(p.returncode, 0, p.stderr)
        line = p.stdout.strip()
        self.assertIn('--description="sequential read pass"', line)
        self.assertIn("--name=global --direct=1", line)
        import shlex
        words = shlex.split(line)[1:]
        a = self.run_sb("--parse-only=job,verbose", *words)
        b = self.run_sb("--parse-only=job,verbose", os.path.abspath(src))
        self.assertEqual(a.returncode, 0, a.stderr)
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("[")]
        self.assertEqual(strip(a.stdout), strip(b.stdout))

    def test_errors(self):
        p = self.run_sb("--showcmd")
        self.assertEqual(p.returncode, 2)
        self.assertIn("<cmdline>: --showcmd needs a job file", p.stderr)
        p = self.run_sb("--showcmd", "nope.fio")
        self.assertEqual(p.returncode, 1)
        self.assertIn("nope.fio: cannot read job file", p.stderr)
        self.assertEqual(self.listing(), [])
