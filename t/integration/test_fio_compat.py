"""A fio user's job file runs unchanged, and a script reading fio's JSON or
terse output reads storbench's.  The reference is real fio 3.33 output of the
same job file (t/fixtures/fio-3.33/)."""
import errno
import json
import os
import shutil
import subprocess

from sbtest import SRC, SbCase

REF = os.path.join(SRC, "t", "fixtures", "fio-3.33")
FIO = shutil.which("fio")


def key_paths(obj, prefix=""):
    """Every key path in a JSON document; list items collapse to [] so a job
    or disk entry counts once."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = f"{prefix}/{k}"
            out.add(p)
            out |= key_paths(v, p)
    elif isinstance(obj, list):
        for v in obj:
            out |= key_paths(v, prefix + "[]")
    return out


class TestFioCompat(SbCase):
    def job(self):
        with open(os.path.join(REF, "fio-3.33-randrw.fio")) as f:
            text = f.read().replace("/work/fiotest", self.dir)
        return self.write_job(text, "randrw.fio")

    def test_fio_json_keys_all_present(self):
        with open(os.path.join(REF, "fio-3.33-randrw.json")) as f:
            ref = json.load(f)
        got = self.run_json(self.job(), cwd=self.dir)
        missing = key_paths(ref) - key_paths(got)
        # "fio version" is fio-3.33 (the layout followed), "storbench version"
        # the binary; "job options"/"global options" echo what the job file set
        self.assertEqual(got["fio version"], "fio-3.33")
        self.assertTrue(got["storbench version"].startswith("storbench-"))
        self.assertEqual(list(got)[:2], ["fio version", "storbench version"])
        if not got.get("disk_util"):   # tmpfs or an unknown device: no disk rows
            missing = {m for m in missing if not m.startswith("/disk_util[]")}
        self.assertEqual(sorted(missing), [], "fio JSON keys storbench does not write")
        self.assertEqual(got["global options"], ref["global options"] | {"directory": self.dir})
        job = got["jobs"][0]
        self.assertEqual(job["job options"], ref["jobs"][0]["job options"])
        r, w = job["read"], job["write"]
        self.assertGreater(r["total_ios"], 0)
        n = r["total_ios"] + w["total_ios"]
        share = r["total_ios"] / n
        # rwmixread=70 draws each I/O's direction: the share's standard error
        # is sqrt(0.7*0.3/n) (a time-based run does fewer I/Os on a busy machine)
        self.assertAlmostEqual(share, 0.70, delta=max(0.01, 4 * (0.21 / n) ** 0.5))
        self.assertEqual(r["io_kbytes"], r["io_bytes"] // 1024)
        self.assertEqual(r["bw"], r["bw_bytes"] // 1024)
        self.assertEqual(list(r["clat_ns"]["percentile"]), list(ref["jobs"][0]["read"]["clat_ns"]["percentile"]))
        self.assertEqual(r["slat_ns"]["N"], 0, "psync has no submission latency, as in fio")

    def test_terse_v3_field_layout(self):
        with open(os.path.join(REF, "fio-3.33-randrw.terse")) as f:
            ref = f.read().strip().split(";")
        p = self.run_sb("--output-format=terse", self.job())
        self.assertEqual(p.returncode, 0, p.stderr)
        got = p.stdout.strip().split(";")
        ndisk = (len(got) - 121) // 9
        self.assertEqual(len(got), 121 + 9 * ndisk)
        self.assertEqual(len(ref), 121 + 9)
        self.assertEqual(got[0], "3")
        self.assertTrue(got[1].startswith("storbench-"))
        self.assertEqual(got[2], "randrw-4k")
        # the percentile fields carry the same labels in the same places
        for i in list(range(17, 37)) + list(range(58, 78)):
            self.assertEqual(got[i].split("=")[0], ref[i].split("=")[0], f"field {i + 1}")
        # read iops (field 8) and write iops (field 49) are plausible numbers
        self.assertGreater(int(got[7]), 0)
        self.assertGreater(int(got[48]), 0)

    def test_normal_output_reads_like_fio(self):
        p = self.run_sb(self.job())
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout
        for needle in ("randrw-4k: (groupid=0, jobs=1): err= 0", "  read: IOPS=", "  write: IOPS=",
                       "clat percentiles", "Run status group 0 (all jobs):", "   READ: bw=", "  WRITE: bw="):
            self.assertIn(needle, out)

    def test_json_plus_has_bins(self):
        p = self.run_sb("--output-format=json+", self.job())
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        bins = j["jobs"][0]["read"]["clat_ns"]["bins"]
        self.assertEqual(sum(bins.values()), j["jobs"][0]["read"]["clat_ns"]["N"])


class TestParseOnlyLikeFio(SbCase):
    """fio 3.33's --parse-only checks the job file and looks at no file: its
    own examples name devices and folders of the machine they were written on
    (examples/latency-profile.fio: filename=/dev/sda; aio-read.fio:
    directory=/data1; flow.fio: 100 GiB of files), and `fio --parse-only`
    accepts them anywhere.  storbench's --parse-only=job accepts them too, with a
    warning per thing this machine lacks (file:line, the fix), and the run
    refuses them before any I/O, and so does plain --parse-only, which
    checks what the run checks."""

    CASES = [
        ("[device]\nfilename=/dev/sb-no-such-dev\nrw=randread\nbs=4k\nioengine=libaio\n"
         "direct=1\n", 2, "size= is not set and /dev/sb-no-such-dev does not exist"),
        ("[file1]\ndirectory=/sb-no-such-dir\nsize=128m\nrw=read\nioengine=libaio\n", 2,
         "the folder /sb-no-such-dir"),
    ]

    def test_machine_specific_jobs_parse_as_in_fio(self):
        for text, line, what in self.CASES:
            with self.subTest(what=what):
                job = self.write_job(text, "ex.fio")
                p = self.run_sb("--parse-only=job", job)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("storbench: warning: %s:%d: job " % (job, line), p.stderr)
                self.assertIn(what, p.stderr)
                if shutil.which("fio"):
                    f = subprocess.run(["fio", "--parse-only", job], capture_output=True,
                                       text=True, timeout=60)
                    self.assertEqual(f.returncode, 0, "fio refuses it: " + f.stderr)
                p = self.run_sb("--parse-only=job", "--warnings-fatal", job)
                self.assertEqual(p.returncode, 1, p.stderr)
                p = self.run_sb("--parse-only", job)  # the run's checks
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("storbench: %s:%d: job " % (job, line), p.stderr)
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("storbench: %s:%d: job " % (job, line), p.stderr)
                self.assertEqual(self.listing(), ["ex.fio"])


class TestMissingFolders(SbCase):
    """fio 3.33 makes the missing folders of a job's file (filesetup.c:1051
    create_work_dirs, mode 0700, setup_files:1100-1104); storbench makes
    them at lay-out, through the writer gate, marked as the job's and kept
    (storbench --cleanup leaves them, as it leaves what a run kept)"""

    def test_folders_made_as_fio(self):
        """filename='s folders; a directory= that is not there is refused by
        both (fio: "d/e is not a directory" while parsing; test_parse_only)"""
        os.mkdir(os.path.join(self.dir, "d"))
        for opt, path in (("filename", "a/b/c/f.dat"), ("filename", "d/e/f.dat")):
            with self.subTest(opt=opt):
                job = self.write_job(f"[j]\n{opt}={path}\nrw=write\nsize=64k\n")
                p = self.run_sb("--parse-only", job)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(sorted(os.listdir(self.dir)), ["d", "job.ini"])  # looks only
                self.assertEqual(os.listdir(os.path.join(self.dir, "d")), [])
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 0, p.stderr)
                top = os.path.join(self.dir, path.split("/")[0])
                made = os.path.join(self.dir, os.path.dirname(path))
                first = made if path.startswith("d/") else top  # d/ was there: not marked
                self.assertTrue(os.path.isdir(made))
                for d in (first, made):
                    self.assertEqual(os.stat(d).st_mode & 0o777, 0o700)
                    try:  # the mark (a file system without user xattrs: its fallback record)
                        self.assertIn(b"state=kept", os.getxattr(d, "user.storbench"))
                    except OSError as e:
                        if e.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):
                            raise
                files = os.listdir(made)
                self.assertEqual(len(files), 1)
                self.assertEqual(os.path.getsize(os.path.join(made, files[0])), 65536)
                if FIO:
                    shutil.rmtree(first)
                    f = subprocess.run([FIO, job], cwd=self.dir, capture_output=True, text=True,
                                       timeout=120)
                    self.assertEqual(f.returncode, 0, f.stderr)
                    self.assertTrue(os.path.isdir(made))
                    self.assertEqual(os.stat(made).st_mode & 0o777, 0o700)
                shutil.rmtree(first)
