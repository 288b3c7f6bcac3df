"""The command line: help, version, bad options, formats, --output,
command-line jobs and the built-in quick job."""
import json
import os

from sbtest import SbCase


class TestCli(SbCase):
    def test_version(self):
        p = self.run_sb("--version")
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, r"^storbench-\d+\.\d+\.\d+\n$")

    def test_help_lists_the_options(self):
        p = self.run_sb("--help")
        self.assertEqual(p.returncode, 0)
        for opt in ("--output-format", "--output", "--parse-only", "--cmdhelp", "--version"):
            self.assertIn(opt, p.stdout)

    def test_unknown_command_line_option_exits_2(self):
        p = self.run_sb("-x", "job.ini")
        self.assertEqual(p.returncode, 2)
        self.assertIn("storbench: -x: unknown command-line option", p.stderr)
        self.assertEqual(self.listing(), [])

    def test_bad_output_format_exits_2_and_names_the_accepted(self):
        p = self.run_sb("--output-format=xml", "--name=a", "--ioengine=null", "--size=1m")
        self.assertEqual(p.returncode, 2)
        self.assertIn("'xml'", p.stderr)
        self.assertIn("normal, terse, json or json+", p.stderr)

    def test_missing_job_file_exits_1_and_names_it(self):
        p = self.run_sb("no-such-job.ini")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no-such-job.ini", p.stderr)
        self.assertEqual(self.listing(), [])

    def test_enghelp_lists_built_engines(self):
        p = self.run_sb("--enghelp")
        self.assertEqual(p.returncode, 0)
        for e in ("sync", "psync", "null"):
            self.assertIn(e, p.stdout)

    def test_enghelp_engine_lists_its_options(self):
        p = self.run_sb("--enghelp=io_uring")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertTrue(lines[0].startswith("io_uring: "), p.stdout)
        rows = {l.split()[0]: l.split() for l in lines[1:] if l.startswith("  ") and "(" not in l.split()[0]}
        for name, typ, default in (("fixedbufs", "bool", "0"), ("registerfiles", "bool", "0"),
                                   ("sqthread_poll", "bool", "0"), ("sqthread_poll_cpu", "int", "-1"),
                                   ("hipri", "bool", "0"), ("nonvectored", "int", "-1")):
            self.assertEqual(rows[name][1:3], [typ, default], p.stdout)
        self.assertIn("polled completions (IOPOLL)", p.stdout)
        self.assertNotIn("userspace_reap", p.stdout)   # libaio's, not io_uring's
        p = self.run_sb("--enghelp=libaio")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("userspace_reap", p.stdout)
        self.assertNotIn("fixedbufs ", p.stdout)
        p = self.run_sb("--enghelp=psync")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("no engine-specific options", p.stdout)

    def test_enghelp_unknown_engine_exits_2(self):
        p = self.run_sb("--enghelp=iouring")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--enghelp: unknown engine 'iouring': expected one of", p.stderr)
        self.assertIn("psync", p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(self.listing(), [])

    def test_cmdline_job_with_output_file(self):
        p = self.run_sb("--output-format=json", "--output=res.json", "--name=cl", "--ioengine=null",
                        "--rw=randread", "--bs=4k", "--size=4m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "")
        with open(os.path.join(self.dir, "res.json")) as f:
            j = json.load(f)
        self.assertEqual(j["jobs"][0]["jobname"], "cl")
        self.assertEqual(j["jobs"][0]["read"]["io_bytes"], 4 << 20)

    def test_cmdline_globals_apply_to_every_job(self):
        j = self.run_json("--ioengine=null", "--size=2m", "--bs=4k", "--name=a", "--rw=read",
                          "--name=b", "--rw=write")
        self.assertEqual([x["jobname"] for x in j["jobs"]], ["a", "b"])
        self.assertEqual(j["jobs"][0]["read"]["io_bytes"], 2 << 20)
        self.assertEqual(j["jobs"][1]["write"]["io_bytes"], 2 << 20)

    def test_several_formats_in_one_run(self):
        p = self.run_sb("--output-format=terse,json", "--name=f", "--ioengine=null", "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        first, rest = p.stdout.split("\n", 1)
        self.assertTrue(first.startswith("3;storbench-"), first)
        json.loads(rest[rest.index("{"):])

    def test_quick_job_runs_without_arguments_and_cleans_up(self):
        p = self.run_sb("--output-format=json", timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        names = [x["jobname"] for x in j["jobs"]]
        self.assertEqual(names, ["quick-rand-4k", "quick-seq-1m"])
        self.assertGreater(j["jobs"][0]["read"]["total_ios"], 0)
        self.assertGreater(j["jobs"][0]["write"]["total_ios"], 0)
        self.assertGreater(j["jobs"][1]["read"]["io_bytes"], 0)
        self.assertEqual(self.listing(), [], "the quick job must remove its scratch file")

    def test_quick_job_leaves_existing_files_alone(self):
        keep = os.path.join(self.dir, "precious.dat")
        with open(keep, "wb") as f:
            f.write(b"x" * 4096)
        p = self.run_sb("--parse-only")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.listing(), ["precious.dat"])
        with open(keep, "rb") as f:
            self.assertEqual(f.read(), b"x" * 4096)
