"""test_outgate.py: the one writer gate (os/outfile.c).
Every output storbench writes goes through it, and every one of them:
- refuses a block device (a loop device holding an ext4 file system keeps
  every byte), a character device other than /dev/null (a mknod copy of
  /dev/full survives: report -o once deleted the node), a FIFO when the
  option has no FIFO mode (no hang) and a folder;
- refuses any file the run reads (the job file, a kv_trace, report's input
  JSON), known by device and inode: another spelling, a hard link and a
  symlink are all refused, also under --readonly;
- writes through a temporary and a rename: when the write fails (ENOSPC,
  EIO from the fault shim) the file that was there keeps every byte and no
  temporary is left;
- accepts /dev/null (any node with its device number) as a sink.
Each refusal names the option, the file:line where a job file set it, what
is wrong and the fix."""
import hashlib
import os
import re
import stat
import subprocess
import unittest

from sbtest import BIN, LoopCase, SbCase, asan_runtime, why_no_loop

NULL_JOB = ["--name=a", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m"]
KV = ["--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_block_tokens=16",
      "--ioengine=null", "--concurrency=2", "--kv_memory_capacity=64g", "--kv_disk_capacity=0",
      "--kv_requests=5"]
SHIM = os.path.join(os.path.dirname(os.path.abspath(BIN)), "t", "faults", "libsbfault.so")
IS_ROOT = os.geteuid() == 0
TIMEOUT = 60


def md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def shim_env(spec):
    return {"LD_PRELOAD": " ".join(asan_runtime() + [SHIM]), "SBFAULT": spec,
            "ASAN_OPTIONS": "verify_asan_link_order=0"}


class GateCase(SbCase):
    def result(self):
        """a results JSON to report on"""
        r = os.path.join(self.dir, "r.json")
        p = self.run_sb(*NULL_JOB, "--output-format=json", "--output=" + r)
        self.assertEqual(p.returncode, 0, p.stderr)
        return r

    def node(self, name, major, minor):
        if not IS_ROOT:
            self.skipTest("needs root (mknod)")
        path = os.path.join(self.dir, name)
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        return path

    def assert_node(self, path, major, minor):
        st = os.lstat(path)
        self.assertTrue(stat.S_ISCHR(st.st_mode), path + " is gone or replaced")
        self.assertEqual((os.major(st.st_rdev), os.minor(st.st_rdev)), (major, minor))


class ReportOutput(GateCase):
    def test_report_over_its_input_is_refused(self):
        r = self.result()
        before = md5(r)
        os.link(r, os.path.join(self.dir, "hard.json"))
        os.symlink(r, os.path.join(self.dir, "sym.json"))
        os.mkdir(os.path.join(self.dir, "sub"))
        other = os.path.join(self.dir, "other.json")
        with open(r) as f, open(other, "w") as g:
            g.write(f.read())
        for out in ("r.json", "./r.json", "sub/../r.json", "hard.json", "sym.json", "other.json"):
            p = self.run_sb("report", "r.json", "other.json", "-o", out, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 2, out + ": " + p.stderr)
            self.assertIn("storbench: report -o: cannot write the report to %s" % out, p.stderr)
            self.assertIn("the result file this run reads", p.stderr)
            self.assertIn("give report -o a file of its own", p.stderr)
            self.assertEqual(md5(r), before, out + ": the input JSON was replaced")

    def test_character_devices_are_refused_and_survive(self):
        r = self.result()
        for name, mm in (("full", (1, 7)), ("zero", (1, 5)), ("tty", (5, 0))):
            dev = self.node(name, *mm)
            p = self.run_sb("report", r, "-o", dev, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 2, name + ": " + p.stderr)
            self.assertIn("it is a character device", p.stderr)
            self.assert_node(dev, *mm)

    def test_dev_null_is_a_sink(self):
        r = self.result()
        for dev in ("/dev/null", self.node("null", 1, 3)):
            p = self.run_sb("report", r, "-o", dev, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assert_node(os.path.join(self.dir, "null"), 1, 3)

    def test_fifo_and_folder_are_refused(self):
        r = self.result()
        fifo = os.path.join(self.dir, "f")
        os.mkfifo(fifo)
        p = self.run_sb("report", r, "-o", fifo, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("it is a FIFO", p.stderr)
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
        p = self.run_sb("report", r, "-o", self.dir, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("it is a folder", p.stderr)

    def test_failed_write_keeps_the_old_report(self):
        if not os.path.exists(SHIM):
            self.skipTest("no fault shim built (%s)" % SHIM)
        r = self.result()
        out = os.path.join(self.dir, "rep.html")
        with open(out, "w") as f:
            f.write("the old report\n")
        for spec in ("write:ENOSPC:path=*rep.html*", "write:EIO:path=*rep.html*",
                     "fsync:EIO:path=*rep.html*"):
            p = self.run_sb("report", r, "-o", out, env=shim_env(spec), timeout=TIMEOUT)
            self.assertEqual(p.returncode, 3, spec + ": " + p.stderr)
            self.assertIn("cannot write the report", p.stderr)
            with open(out) as f:
                self.assertEqual(f.read(), "the old report\n", spec + ": the old report was lost")
            self.assertEqual(self.listing(), ["r.json", "rep.html"], spec + ": a temporary was left")
        p = self.run_sb("report", r, "-o", out, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            self.assertTrue(f.read().startswith("<!DOCTYPE html>"))


class RequestLog(GateCase):
    def test_request_log_over_an_input_is_refused(self):
        trace = os.path.join(self.dir, "t.csv")
        with open(trace, "w") as f:
            f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
            for i in range(5):
                f.write("%d.0,ChatGPT,100,10,110,Conversation log\n" % i)
        tsum = md5(trace)
        for target, role in (("job.ini", "job file"), ("./job.ini", "job file"),
                             ("t.csv", "kv_trace"), ("link.csv", "kv_trace")):
            if not os.path.exists(os.path.join(self.dir, "link.csv")):
                os.link(trace, os.path.join(self.dir, "link.csv"))
            text = ("[kv]\nworkload=kvcache\nmodel=llama3-8b\nkv_block_tokens=16\n"
                    "ioengine=null\nkv_memory_capacity=64g\nkv_disk_capacity=0\n"
                    "kv_trace=t.csv\nkv_request_log=%s\n" % target)
            job = self.write_job(text)
            for extra in ([], ["--readonly"]):
                p = self.run_sb(*extra, job, timeout=TIMEOUT)
                self.assertEqual(p.returncode, 1, target + ": " + p.stderr)
                self.assertIn("storbench: %s:9: kv_request_log=%s: cannot write the request "
                              "log there: it is " % (job, target), p.stderr)
                # the role the reader or the option check recorded it under
                # ("the kv_trace= trace", "the job file")
                self.assertRegex(p.stderr, r"the %s\S*( \w+)? this run reads" % re.escape(role))
                self.assertIn("give kv_request_log a file of its own", p.stderr)
                with open(job) as f:
                    self.assertEqual(f.read(), text, "the job file was replaced")
                self.assertEqual(md5(trace), tsum, "the trace was replaced")

    def test_request_log_devices_and_fifo_are_refused(self):
        dev = self.node("zero", 1, 5)
        fifo = os.path.join(self.dir, "f")
        os.mkfifo(fifo)
        for target, what in ((dev, "a character device"), (fifo, "a FIFO")):
            p = self.run_sb(*KV, "--kv_request_log=" + target, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("it is " + what, p.stderr)
        self.assert_node(dev, 1, 5)

    def test_request_log_failed_write_keeps_the_old_one(self):
        if not os.path.exists(SHIM):
            self.skipTest("no fault shim built (%s)" % SHIM)
        log = os.path.join(self.dir, "req.log")
        with open(log, "w") as f:
            f.write("old\n")
        p = self.run_sb(*KV, "--kv_request_log=" + log, env=shim_env("write:ENOSPC:path=*req.log*"),
                        timeout=TIMEOUT)
        self.assertIn("req.log", p.stderr)
        self.assertIn("No space left on device", p.stderr)
        with open(log) as f:
            self.assertEqual(f.read(), "old\n")
        self.assertEqual(self.listing(), ["req.log"])


class LogsAndOutput(GateCase):
    def test_fifo_log_is_refused_not_waited_on(self):
        """a bw log has no FIFO mode: refused at once (it used to wait forever)"""
        fifo = os.path.join(self.dir, "l_bw.1.log")
        os.mkfifo(fifo)
        p = self.run_sb(*NULL_JOB, "--write_bw_log=" + os.path.join(self.dir, "l"),
                        "--output-format=terse", timeout=TIMEOUT)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn("it is a FIFO", p.stderr)
        self.assertIn("write_bw_log", p.stderr)

    def test_output_character_device_is_refused(self):
        dev = self.node("full", 1, 7)
        p = self.run_sb(*NULL_JOB, "--output=" + dev, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("storbench: --output: cannot write the results to %s: it is a character "
                      "device" % dev, p.stderr)
        self.assert_node(dev, 1, 7)

    def test_output_over_the_job_file_is_refused(self):
        text = "[a]\nioengine=null\nrw=read\nbs=4k\nsize=1m\ninclude inc.fio\n"
        job = self.write_job(text)
        self.write_job("size=2m\n", "inc.fio")
        for out in (job, "./job.ini", "inc.fio"):
            p = self.run_sb(job, "--output=" + out, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("the job file this run reads", p.stderr)
            with open(job) as f:
                self.assertEqual(f.read(), text)
            with open(os.path.join(self.dir, "inc.fio")) as f:
                self.assertEqual(f.read(), "size=2m\n")


class DataAndTraceOverInputs(GateCase):
    def test_data_file_naming_the_job_file_is_refused(self):
        """a write job whose filename= is its own job file (main wrote 4 KiB
        of data over it, exit 0)"""
        for spelled in ("job.ini", "./job.ini", "sub/../job.ini"):
            os.makedirs(os.path.join(self.dir, "sub"), exist_ok=True)
            text = "[a]\nrw=write\nsize=4k\nfilename=%s\n" % spelled
            job = self.write_job(text)
            p = self.run_sb(job, "--output-format=terse", timeout=TIMEOUT)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("storbench: %s:4: job a writes" % job, p.stderr)
            self.assertIn("the job file this run reads", p.stderr)
            with open(job) as f:
                self.assertEqual(f.read(), text, spelled + ": the job file was overwritten")

    def test_trace_over_the_replayed_iolog_is_refused(self):
        log = os.path.join(self.dir, "rl.log")
        data = os.path.join(self.dir, "x")
        with open(data, "wb") as f:
            f.write(b"\0" * 8192)
        text = "fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s close\n" % ((data,) * 4)
        with open(log, "w") as f:
            f.write(text)
        os.link(log, os.path.join(self.dir, "again.log"))
        job = self.write_job("[a]\nioengine=null\nread_iolog=rl.log\n"
                             "[b]\nioengine=null\nrw=read\nsize=1m\nwrite_trace=again.log\n")
        p = self.run_sb(job, "--output-format=terse", timeout=TIMEOUT)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench: %s:8: write_trace=again.log: cannot write the trace there: it is "
                      "rl.log, the read_iolog this run reads" % job, p.stderr)
        with open(log) as f:
            self.assertEqual(f.read(), text)


class FailedWritesKeepTheOldFile(GateCase):
    """every output: a write that fails (ENOSPC, EIO from the shim) leaves the
    file that was there byte for byte, and no temporary (write_trace= and
    --export once truncated it first)"""

    def test_every_output(self):
        if not os.path.exists(SHIM):
            self.skipTest("no fault shim built (%s)" % SHIM)
        ex = os.path.join(self.dir, "ex")
        p = self.run_sb(*NULL_JOB, "--export=csv:" + ex, "--output-format=terse", timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, p.stderr)
        cases = [
            (["--output-format=json", "--output=res.json"], "res.json"),
            (["--write_iolog=io.log"], "io.log"),
            (["--write_trace=t.pfw.gz"], "t.pfw.gz"),
            (["--write_bw_log=l"], "l_bw.1.log"),
            (["--write_hist_log=h", "--log_hist_msec=10", "--per_job_logs=1", "--time_based",
              "--runtime=300ms"],
             "h_clat_hist.1.log"),
            (["--export=csv:" + ex], os.path.join("ex", "job1-a.bw.csv")),
        ]
        for args, name in cases:
            path = os.path.join(self.dir, name)
            if not name.startswith("ex"):
                with open(path, "w") as f:
                    f.write("the old file\n")
            before = md5(path)
            base = os.path.basename(name)
            for spec in ("write:ENOSPC:path=*%s*" % base, "write:EIO:path=*%s*" % base,
                         "fsync:EIO:path=*%s*" % base):
                p = self.run_sb(*NULL_JOB, "--output-format=terse", *args, env=shim_env(spec),
                                timeout=TIMEOUT)
                self.assertIn(base, p.stderr, "%s %s: the failure was not reported" % (name, spec))
                self.assertEqual(md5(path), before, "%s %s: the old file changed" % (name, spec))
                folder = os.path.dirname(path)
                tmp = [n for n in os.listdir(folder) if n.startswith("." + base + ".")]
                self.assertEqual(tmp, [], "%s %s: a temporary was left" % (name, spec))


# Every output option that names one file, as a job-file line (the job file
# itself is then one of the run's inputs), with what it adds to a null job.
# --output and report -o are command-line names, checked apart above.
FILE_OUTPUTS = [
    ("write_iolog", "[a]\nioengine=null\nrw=read\nbs=4k\nsize=1m\nwrite_iolog=%s\n"),
    ("write_trace", "[a]\nioengine=null\nrw=read\nbs=4k\nsize=1m\nwrite_trace=%s\n"),
    ("kv_request_log", "[kv]\nworkload=kvcache\nmodel=llama3-8b\nkv_block_tokens=16\n"
     "ioengine=null\nkv_memory_capacity=64g\nkv_disk_capacity=0\nkv_requests=5\n"
     "kv_request_log=%s\n"),
]


class EveryOutputEveryTarget(GateCase):
    """the rule, over the matrix: each output that names a file, pointed at
    a character device that is not /dev/null, a FIFO, the job file (three
    spellings: a hard link, a symlink, a path through a folder) is refused
    before the run, naming the option; the target keeps every byte and a
    FIFO is never waited on (the timeout would fail the test)"""

    def targets(self):
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        out = [("a FIFO", fifo)]
        if IS_ROOT:
            out.append(("a character device", self.node("zero", 1, 5)))
        return out

    def test_matrix(self):
        targets = self.targets()
        for opt, text in FILE_OUTPUTS:
            for what, target in targets:
                with self.subTest(opt=opt, target=what):
                    job = self.write_job(text % target)
                    p = self.run_sb(job, timeout=TIMEOUT)
                    self.assertNotEqual(p.returncode, 0, p.stderr)
                    self.assertIn("%s=%s" % (opt, target), p.stderr)
                    self.assertIn(what, p.stderr)
            # the job file itself, spelled three ways
            os.makedirs(os.path.join(self.dir, "sub"), exist_ok=True)
            for spelled in ("hard.ini", "sym.ini", "sub/../job.ini"):
                with self.subTest(opt=opt, target=spelled):
                    for n in ("hard.ini", "sym.ini"):
                        if os.path.lexists(os.path.join(self.dir, n)):
                            os.unlink(os.path.join(self.dir, n))
                    body = text % spelled
                    job = self.write_job(body)
                    os.link(job, os.path.join(self.dir, "hard.ini"))
                    os.symlink("job.ini", os.path.join(self.dir, "sym.ini"))
                    for extra in ([], ["--readonly"]):
                        p = self.run_sb(*extra, job, timeout=TIMEOUT)
                        self.assertEqual(p.returncode, 1, p.stderr)
                        self.assertIn("%s=%s" % (opt, spelled), p.stderr)
                        self.assertIn("this run reads", p.stderr)
                        with open(job) as f:
                            self.assertEqual(f.read(), body, "the job file was replaced")


CKPT_JOB = ("[ck]\nworkload=checkpoint\nioengine=null\nmodel=llama3-8b\ncheckpoint_scale=0.0001\n"
            "num_checkpoints_write=2\nnum_checkpoints_read=2\nrules=mlperf\nresults_dir=%s\n")
TRAIN_JOB = ("[t]\nworkload=train\nioengine=null\ntrain_model=unet3d\nepochs=2\ndataset_files=16\n"
             "record_length=64k\nrecord_length_stdev=0\nbatch_size=2\ncomputation_time=2ms\n"
             "rules=mlperf\nresults_dir=%s\n")


class ResultsTree(GateCase):
    """results_dir=: a run folder that cannot be written whole is not left
    behind half-written (it was: an empty config.yaml, no dlio.log, and
    `storbench validate` called the run CLOSED)"""

    def runs(self, res):
        out = []
        for d, _, files in os.walk(res):
            if any(f.endswith("_metadata.json") or f == "summary.json" or f == "dlio.log"
                   for f in files):
                out.append(d)
        return out

    def test_failed_tree_is_removed(self):
        if not os.path.exists(SHIM):
            self.skipTest("no fault shim built (%s)" % SHIM)
        for job_text, name in ((CKPT_JOB, "ckpt"), (TRAIN_JOB, "train")):
            for spec in ("write:ENOSPC:path=*dlio.log*", "write:EIO:path=*config.yaml*",
                         "fsync:EIO:path=*summary.json*", "write:ENOSPC:path=*_metadata.json*"):
                res = os.path.join(self.dir, "res-%s-%d" % (name, len(os.listdir(self.dir))))
                job = self.write_job(job_text % res)
                p = self.run_sb("--output-format=json", job, env=shim_env(spec), timeout=TIMEOUT)
                self.assertNotEqual(p.returncode, 0, spec + ": " + p.stderr)
                self.assertIn("results_dir", p.stderr)
                self.assertEqual(self.runs(res), [], "%s %s: a half-written run folder was left"
                                 % (name, spec))
                leftovers = [os.path.join(d, f) for d, ds, fs in os.walk(res) for f in fs + ds
                             if f[0].isdigit()]
                self.assertEqual(leftovers, [], "%s %s: left %s" % (name, spec, leftovers))
                v = self.run_sb("validate", res, timeout=TIMEOUT)
                self.assertNotIn("CLOSED", v.stdout, spec)
            p = self.run_sb("--output-format=json", self.write_job(job_text % (res + "-ok")),
                            timeout=TIMEOUT)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(len(self.runs(res + "-ok")), 1)

    def test_tree_never_written_over(self):
        """a run folder that exists (the same second) is never written into"""
        res = os.path.join(self.dir, "res")
        p = self.run_sb(self.write_job(CKPT_JOB % res), "--output-format=json", timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_sb(self.write_job(CKPT_JOB % res), "--output-format=json", timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.runs(res)), 2)


class OverALoopDevice(LoopCase):
    def device(self):
        why = why_no_loop()
        if why:
            self.skipTest(why)
        img = os.path.join(self.dir, "img")
        with open(img, "wb") as f:
            f.truncate(16 << 20)
        dev = self.attach(img)
        p = subprocess.run(["mkfs.ext4", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                            dev], capture_output=True, text=True)
        if p.returncode != 0:
            self.skipTest("mkfs.ext4: " + p.stderr.strip())
        subprocess.run(["sync"])
        return dev

    def test_report_and_request_log_refuse_a_block_device(self):
        dev = self.device()
        before = md5(dev)
        r = os.path.join(self.dir, "r.json")
        p = self.run_sb(*NULL_JOB, "--output-format=json", "--output=" + r)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_sb("report", r, "-o", dev, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("storbench: report -o: cannot write the report to %s: it is a block device"
                      % dev, p.stderr)
        self.assertEqual(md5(dev), before, "report wrote over the device")
        job = self.write_job("[kv]\nworkload=kvcache\nmodel=llama3-8b\nkv_block_tokens=16\n"
                             "ioengine=null\nkv_memory_capacity=64g\nkv_disk_capacity=0\n"
                             "kv_requests=5\nkv_request_log=%s\n" % dev)
        p = self.run_sb(job, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench: %s:9: kv_request_log=%s: cannot write the request log there: "
                      "it is a block device" % (job, dev), p.stderr)
        self.assertEqual(md5(dev), before, "kv_request_log wrote over the device")


if __name__ == "__main__":
    unittest.main()
