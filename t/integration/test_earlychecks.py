"""Everything that can be known before the first I/O is checked before it:
the --output file and the fio log files can be
written, every sweep point would be accepted, rw=trim is refused when the
job file is parsed.  A refusal names where (file:line or <cmdline>), the
option, the value and the fix, and nothing is created or changed."""
import os

from sbtest import SbCase

JOB = "[j]\nfilename=data\nrw=write\nbs=4k\nsize=1m\n"


class OutputTest(SbCase):
    def test_output_in_missing_directory_is_found_before_the_run(self):
        out = os.path.join(self.dir, "nonexistent", "out.json")
        job = self.write_job(JOB + "runtime=5s\ntime_based\n")
        p = self.run_sb("--output-format=json", "--output=" + out, job, timeout=4)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--output: cannot write the results to %s: No such file or directory" % out,
                      p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(self.listing(), ["job.ini"])  # no data file: nothing ran

    def test_output_is_a_directory(self):
        job = self.write_job(JOB)
        p = self.run_sb("--output=" + self.dir, job)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("Is a directory", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_refused_run_leaves_outputs_alone(self):
        """A run refused before its first I/O neither creates the --output
        file nor empties an existing one."""
        job = self.write_job(JOB + "direct=1\noffset=100\n")
        old = os.path.join(self.dir, "old.json")
        with open(old, "w") as f:
            f.write("keep me\n")
        for out, before in (("new.json", None), ("old.json", "keep me\n")):
            p = self.run_sb("--output=" + out, job)
            self.assertEqual(p.returncode, 1, p.stderr)
            path = os.path.join(self.dir, out)
            if before is None:
                self.assertFalse(os.path.exists(path))
            else:
                with open(path) as f:
                    self.assertEqual(f.read(), before)

    def test_existing_output_is_replaced_by_the_results(self):
        job = self.write_job(JOB + "unlink=1\n")
        out = os.path.join(self.dir, "out.json")
        with open(out, "w") as f:
            f.write("x" * 100000)
        p = self.run_sb("--output-format=json", "--output=" + out, job)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            self.assertTrue(f.read().startswith("{"))


class LogPrefixTest(SbCase):
    def test_log_prefix_in_missing_directory(self):
        for opt in ("write_bw_log", "write_iops_log", "write_lat_log"):
            with self.subTest(opt=opt):
                prefix = os.path.join(self.dir, "nonexistent", "lg")
                job = self.write_job(JOB + "%s=%s\n" % (opt, prefix))
                p = self.run_sb("--output-format=json", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("%s:1: job j: %s=%s: cannot create its log files in %s: "
                              "No such file or directory: set %s=" %
                              (job, opt, prefix, os.path.dirname(prefix), opt), p.stderr)
                self.assertEqual(p.stdout, "")
                self.assertEqual(self.listing(), ["job.ini"])

    def test_log_prefix_on_command_line(self):
        p = self.run_sb("--name=j", "--filename=data", "--rw=write", "--size=1m",
                        "--write_bw_log=/nonexistent/dir/lg")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>: job j: write_bw_log=/nonexistent/dir/lg", p.stderr)
        self.assertEqual(self.listing(), [])


class SweepUpFrontTest(SbCase):
    def check_refused(self, text, point):
        job = self.write_job(text)
        out = os.path.join(self.dir, "out.json")
        p = self.run_sb("--output-format=json", "--output=" + out, job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("point %s" % point, p.stderr)  # at parse time or at the sweep check
        if "sweep: point" in p.stderr:  # the pre-run check of every point says so
            self.assertIn("no point was run", p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(self.listing(), ["job.ini"])  # point 1 made no file, no output

    def test_free_space_of_a_later_point(self):
        self.check_refused(JOB.replace("size=1m\n", "") + "sweep.size = 1m | 100000t\n", "2 of 2")

    def test_direct_alignment_of_a_later_point(self):
        self.check_refused(JOB + "offset=100\nsweep.direct = 0 | 1\n", "2 of 2")

    def test_log_directory_of_a_later_point(self):
        self.check_refused(JOB + "sweep.write_bw_log = lg | /nonexistent/dir/lg\n", "2 of 2")


class TrimTest(SbCase):
    """rw=trim/randtrim run (BLKDISCARD, PUNCH_HOLE: test_place.py); a
    target that cannot trim is refused up front"""

    def test_trim_refused_at_parse_time(self):
        for rw in ("trim", "randtrim"):
            with self.subTest(rw=rw):
                job = self.write_job("[j]\nfilename=data\nsize=1m\nioengine=mmap\nrw=%s\n" % rw)
                p = self.run_sb("--parse-only", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("%s:5: rw=%s: ioengine=mmap cannot trim" % (job, rw), p.stderr)
                self.assertEqual(self.listing(), ["job.ini"])

    def test_trim_on_command_line(self):
        p = self.run_sb("--name=j", "--filename=data", "--size=1m", "--rw=trim", "--ioengine=mmap")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>: rw=trim: ioengine=mmap cannot trim", p.stderr)
        self.assertEqual(self.listing(), [])

    def test_trim_in_a_sweep_point(self):
        job = self.write_job("[j]\nfilename=data\nsize=1m\nioengine=mmap\nsweep.rw = read | trim\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("rw=trim: ioengine=mmap cannot trim", p.stderr)


class EngineUpFrontTest(SbCase):
    def has_io_uring(self):
        p = self.run_sb("--enghelp")
        return "io_uring" in p.stdout.split("\n")[0]

    def test_engine_start_up_of_a_later_point(self):
        """The engine of point 2 cannot start (no such CPU for its polling
        thread): refused before point 1 lays out its file."""
        if not self.has_io_uring():
            self.skipTest("io_uring is not in this build")
        SweepUpFrontTest.check_refused(self, JOB + "ioengine=io_uring\nsqthread_poll=1\n"
                                       "sweep.sqthread_poll_cpu = 0 | 4095\n", "2 of 2")

    def test_hipri_without_direct_at_parse_time(self):
        job = self.write_job(JOB + "ioengine=io_uring\nhipri=1\n")
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:7: hipri=1 (polled completions) needs direct=1, and the job has "
                      "direct=0 (default): set direct=1 or drop hipri=1" % job, p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


class NoFilesSizeTest(SbCase):
    """an engine with no files (null) has no file size to take: a job
    without size= is refused at its section's line (run/files.c plan_job),
    naming the option that fixes it, and nothing is made"""

    def test_null_without_size(self):
        job = self.write_job("[global]\nrw=read\n\n[j]\nioengine=null\nbs=4k\n")
        for args in (("--parse-only", job), (job,)):
            p = self.run_sb(*args)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("%s:4: job j: size= (or filesize=) is needed with ioengine=null: give size=" % job,
                          p.stderr)
            self.assertEqual(self.listing(), ["job.ini"])
