"""test_exec.py: exec_prerun/exec_postrun run shell commands only with
--allow-exec (without it, t/jobs/bad/exec_*.ini: refused at file:line before
anything runs).  As fio 3.33: once per thread, output in JOBNAME.prerun.txt /
JOBNAME.postrun.txt; a failing prerun means the job does no I/O (fio drops
the job and exits 0; storbench reports the job's error and exits 3)."""
import os

from sbtest import SbCase

JOB = ("[j]\nioengine=null\nrw=read\nsize=1m\nnumjobs=2\n"
       "exec_prerun=echo pre >> ran.txt\nexec_postrun=echo post >> ran.txt\n")


class ExecHooks(SbCase):
    def test_refused_without_flag(self):
        job = self.write_job(JOB)
        before = self.listing()
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:6: exec_prerun=echo pre >> ran.txt", p.stderr)
        self.assertIn("job.ini:7: exec_postrun=echo post >> ran.txt", p.stderr)
        self.assertIn("--allow-exec", p.stderr)
        self.assertEqual(self.listing(), before, "nothing ran, nothing was written")
        p = self.run_sb("--name=j", "--ioengine=null", "--size=1m", "--exec_prerun=touch x")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("<cmdline>", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x")))

    def test_runs_with_flag(self):
        job = self.write_job(JOB.replace(">> ran.txt", ">> ran.txt && echo out"))
        d = self.run_json("--allow-exec", job)
        self.assertEqual(len(d["jobs"]), 2)
        with open(os.path.join(self.dir, "ran.txt")) as f:
            self.assertEqual(sorted(f.read().split()), ["post", "post", "pre", "pre"])
        for mode in ("prerun", "postrun"):
            with open(os.path.join(self.dir, "j.%s.txt" % mode)) as f:
                self.assertEqual(f.read(), "out\n")
        self.assertEqual(sum(j["read"]["io_bytes"] for j in d["jobs"]), 2 << 20)

    def test_failing_prerun(self):
        job = self.write_job("[j]\nioengine=null\nrw=read\nsize=1m\nexec_prerun=echo no && exit 3\n"
                             "exec_postrun=echo post > post.txt\n")
        p = self.run_sb("--allow-exec", "--output-format=json", job)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("exec_prerun=echo no && exit 3: the command exited with status 3", p.stderr)
        import json
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["read"]["io_bytes"], 0)
        self.assertNotEqual(j["error"], 0)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "post.txt")), "postrun still runs")
