"""test_fio_debug.py: --debug=CATEGORY as fio 3.33 takes it, so
that fio's own test programs that read fio's debug lines (t/random_seed.py,
t/steadystate_tests.py, t/t64-switch.sh of fio's current source) and a
user's scripts built the same way work with storbench.

fio's facts used here (fio-3.33 source):
- init.c:2317 debug_levels[]: the categories process, file, io, mem,
  blktrace, verify, random, parse, diskutil, job, mutex, profile, time,
  net, rate, compress, steadystate, helperthread, zbd (and "all");
  init.c:2408 "--debug=?" prints them on one line ("dumping debug
  options:...") and exits 0.
- log.c:60: each message is "%-8s %-5u " (category, thread id) and the text,
  on the output stream (--output's file when given: random_seed.py reads
  the seeds from there).
- init.c:926-929 fixup_options and init.c:1241 setup_random_seeds: a randseed
  that is set overrides randrepeat: the seeds come from randseed (the same
  every run, different for another randseed) even with randrepeat=0; with
  randrepeat=0 and no randseed they differ run by run.  fio's current
  init.c:1266 prints them as "rand_seeds[I]=N" (random_seed.py reads the
  last number of each line that has "rand_seeds[").
- options.c:1268, 1282, 1295 str_steadystate_cb under --debug=parse: "set
  steady state threshold to %f%%", "... IOPS threshold to %f", "... BW
  threshold to %lld"; --parse-only with job options and no --name prints
  nothing and exits 0.
- io_u.h:164 dprint_io_u: "complete: io_u 0x...: off=0x%llx,len=0x%llx,
  ddir=%d,file=NAME" for every completed I/O under --debug=io
  (t64-switch.sh counts repeated offsets from those lines).
- stat.c:1706: "job options" of a command-line job list its --name first.
"""
import json
import os
import re

from sbtest import SbCase

CATS = ["process", "file", "io", "mem", "blktrace", "verify", "random", "parse",
        "diskutil", "job", "mutex", "profile", "time", "net", "rate", "compress",
        "steadystate", "helperthread", "zbd"]

SEED_JOB = ["--name=random_seed", "--ioengine=null", "--filesize=32k", "--rw=randread"]


class TestDebug(SbCase):
    def seeds(self, *opts, numjobs=1):
        """the rand_seeds[] lines of a run, read back from --output's file as
        t/random_seed.py reads them (the last '='-separated number)"""
        out = os.path.join(self.dir, "out.txt")
        p = self.run_sb("--debug=random", *SEED_JOB, "--numjobs=%d" % numjobs,
                        "--output=" + out, *opts)
        self.assertEqual(p.returncode, 0, p.stderr)
        seeds = []
        with open(out) as f:
            for line in f:
                if "random" in line and "rand_seeds[" in line:
                    seeds.append(int(line.split("=")[-1]))
        self.assertGreaterEqual(len(seeds), numjobs, "no seeds in --output's file")
        return seeds

    def test_list_and_refusal(self):
        p = self.run_sb("--debug=?")
        self.assertEqual(p.returncode, 0, p.stderr)
        listed = p.stdout.split(":")[-1].strip().split(",")
        self.assertEqual(listed, CATS + ["all"])
        for c in CATS + ["all", "random,parse", "io,file,verify"]:
            p = self.run_sb("--debug=" + c, "--parse-only", "--name=x", "--ioengine=null",
                            "--size=1M")
            self.assertEqual(p.returncode, 0, c + ": " + p.stderr)
        for bad in ["randomm", "random,nope", ""]:
            p = self.run_sb("--debug=" + bad, "--parse-only", "--name=x", "--size=1M")
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("--debug", p.stderr)

    def test_line_format(self):
        p = self.run_sb("--debug=random", *SEED_JOB)
        lines = [l for l in p.stdout.splitlines() if "rand_seeds[" in l]
        self.assertTrue(lines, p.stdout)
        for l in lines:
            self.assertRegex(l, r"^random   \d+ +rand_seeds\[\d+\]=\d+$")

    def test_seeds_randrepeat(self):
        a = self.seeds("--randrepeat=1")
        self.assertEqual(a, self.seeds("--randrepeat=1"))
        self.assertEqual(a, self.seeds())  # randrepeat=1 is the default
        b = self.seeds("--randrepeat=0")
        self.assertNotEqual(b, self.seeds("--randrepeat=0"))
        self.assertNotEqual(a, b)
        self.assertEqual(a, self.seeds("--allrandrepeat=1", "--randrepeat=0"))

    def test_randseed_overrides_randrepeat(self):
        for s in ("12345", "67890"):
            base = self.seeds("--randrepeat=0", "--randseed=" + s)
            self.assertEqual(base, self.seeds("--randrepeat=0", "--randseed=" + s))
            self.assertEqual(base, self.seeds("--randrepeat=1", "--randseed=" + s))
            self.assertEqual(base, self.seeds("--allrandrepeat=1", "--randseed=" + s))
        self.assertNotEqual(self.seeds("--randseed=12345"), self.seeds("--randseed=67890"))
        # a randseed in a job file's [global] counts as set too
        job = self.write_job("[global]\nrandseed=777\nrandrepeat=0\n[a]\nioengine=null\n"
                             "size=32k\nrw=randread\n")
        got = []
        for _ in range(2):
            p = self.run_sb("--debug=random", job)
            self.assertEqual(p.returncode, 0, p.stderr)
            got.append(re.findall(r"rand_seeds\[\d+\]=(\d+)", p.stdout))
        self.assertTrue(got[0])
        self.assertEqual(got[0], got[1])

    def test_seeds_per_thread(self):
        s = self.seeds("--randseed=42", numjobs=3)
        self.assertEqual(len(s), len(set(s)), "threads share a seed")
        self.assertEqual(s, self.seeds("--randseed=42", numjobs=3))

    def test_steadystate_parse(self):
        cases = [("iops:10", "set steady state IOPS threshold to 10.000000"),
                 ("iops:10%", "set steady state threshold to 10.000000%"),
                 ("iops:.1%", "set steady state threshold to 0.100000%"),
                 ("bw:10%", "set steady state threshold to 10.000000%"),
                 ("bw_slope:.5%", "set steady state threshold to 0.500000%"),
                 ("bw:12", "set steady state BW threshold to 12"),
                 ("bw:1k", "set steady state BW threshold to 1024"),
                 ("iops_slope:2.5", "set steady state IOPS threshold to 2.500000")]
        for ss, want in cases:
            p = self.run_sb("--parse-only", "--debug=parse", "--ss_dur=10s", "--ss=" + ss,
                            "--ss_ramp=5")
            self.assertEqual(p.returncode, 0, ss + ": " + p.stderr)
            self.assertIn(want, p.stdout, ss)
        p = self.run_sb("--parse-only", "--debug=parse", "--name=j", "--size=1M",
                        "--ioengine=null", "--bs=8k")
        self.assertRegex(p.stdout, r"parse +\d+ +handle_option=bs, ptr=8k")
        # without --debug: nothing of it
        p = self.run_sb("--parse-only", "--ss_dur=10s", "--ss=iops:10", "--ss_ramp=5")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("threshold", p.stdout)
        # a run (not --parse-only) without a job is still refused
        p = self.run_sb("--ss_dur=10s", "--ss=iops:10")
        self.assertEqual(p.returncode, 1)

    def test_io_lines(self):
        n = 50
        p = self.run_sb("--debug=io", "--name=t", "--ioengine=null", "--filesize=1M",
                        "--bs=4k", "--rw=randread", "--number_ios=%d" % n, "--norandommap")
        self.assertEqual(p.returncode, 0, p.stderr)
        done = [l for l in p.stdout.splitlines() if "complete:" in l]
        self.assertEqual(len(done), n)
        for l in done:
            m = re.search(r"complete: io_u 0x[0-9a-f]+: off=0x([0-9a-f]+),len=0x([0-9a-f]+),"
                          r"ddir=(\d),file=\S+$", l)
            self.assertIsNotNone(m, l)
            off, ln = int(m.group(1), 16), int(m.group(2), 16)
            self.assertEqual(ln, 4096)
            self.assertEqual(off % 4096, 0)
            self.assertLess(off, 1 << 20)
            self.assertEqual(m.group(3), "0")
        # an async engine: each queued I/O completes once
        p = self.run_sb("--debug=io", "--name=a", "--ioengine=libaio", "--iodepth=8",
                        "--filename=" + os.path.join(self.dir, "f"), "--size=256k",
                        "--bs=4k", "--rw=randwrite")
        self.assertEqual(p.returncode, 0, p.stderr)
        q = re.findall(r"queue: io_u \S+ off=(0x[0-9a-f]+)", p.stdout)
        c = re.findall(r"complete: io_u \S+ off=(0x[0-9a-f]+)", p.stdout)
        self.assertEqual(len(c), 64)
        self.assertEqual(sorted(q), sorted(c))
        self.assertEqual(sorted(int(x, 16) for x in c), list(range(0, 256 << 10, 4096)))

    def test_verify_and_file_lines(self):
        f = os.path.join(self.dir, "vf")
        p = self.run_sb("--debug=verify,file", "--name=v", "--filename=" + f, "--size=64k",
                        "--bs=4k", "--rw=write", "--verify=crc32c")
        self.assertEqual(p.returncode, 0, p.stderr)
        ver = re.findall(r"^verify +\d+ +verify io_u \S+ off=(0x[0-9a-f]+).*: ok$", p.stdout,
                         re.M)
        self.assertEqual(sorted(int(x, 16) for x in ver), list(range(0, 64 << 10, 4096)))
        self.assertRegex(p.stdout, r"(?m)^file +\d+ +job v thread 0: file " + re.escape(f))

    def test_quiet_without_debug(self):
        p = self.run_sb(*SEED_JOB)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("rand_seeds", p.stdout)
        self.assertNotRegex(p.stdout, r"(?m)^(io|random|parse|verify|file) +\d+ ")

    def test_cmdline_job_options_name(self):
        d = self.run_json("--name=job0", "--ioengine=null", "--size=1M", "--name=job1",
                          "--size=2M")
        opts = [j["job options"] for j in d["jobs"]]
        self.assertEqual(list(opts[0].items())[0], ("name", "job0"))
        self.assertEqual(list(opts[1].items())[0], ("name", "job1"))
        self.assertEqual(opts[1]["size"], "2M")
        # a job file's sections: no name key (fio's are the same)
        job = self.write_job("[a]\nioengine=null\nsize=1M\n")
        d = self.run_json(job)
        self.assertNotIn("name", d["jobs"][0]["job options"])
