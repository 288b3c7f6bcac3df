"""I/O errors during the run: the error reaches stderr
once in every output format, with job, operation, file, offset, length and
errno text; JSON keeps fio's "error" and adds "error_message"; the exit code
is 3.  The error is produced for real: ENOSPC on a small tmpfs (root only:
mounting needs it).  Also: a checkpoint folder that cannot be written is
refused before anything runs (exit 1)."""
import json
import os
import subprocess
import unittest

from sbtest import SbCase

ROOT = os.geteuid() == 0


class TmpfsCase(SbCase):
    """A small tmpfs at self.mnt (root only)."""

    mnt = None

    def mount(self, opts):
        self.mnt = os.path.join(self.dir, "mnt")
        os.mkdir(self.mnt)
        subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", self.mnt], check=True)

    def tearDown(self):
        if self.mnt:
            subprocess.run(["umount", "-l", self.mnt], check=False)
        super().tearDown()


@unittest.skipUnless(ROOT, "needs root (mounts a small tmpfs to run out of space)")
class EnospcMidRunTest(TmpfsCase):
    """A 16 MiB sparse file on a 4 MiB tmpfs: the layout has nothing to do
    (the file has its size already), so the free-space check lets the job
    start, and its writes fail with ENOSPC at offset 4 MiB."""

    def setUp(self):
        super().setUp()
        self.mount("size=4m")
        self.file = os.path.join(self.mnt, "data")
        with open(self.file, "w") as f:
            f.truncate(16 << 20)

    def run_fmt(self, fmt, engine="psync"):
        return self.run_sb("--output-format=" + fmt, "--name=full", "--filename=" + self.file,
                           "--rw=write", "--bs=64k", "--size=16m", "--ioengine=" + engine,
                           "--iodepth=4")

    def want_line(self):
        return ("storbench: full: write %s at offset 4194304 (65536 bytes): "
                "No space left on device" % self.file)

    def test_every_format_reports_on_stderr_once(self):
        for fmt in ("normal", "terse", "json", "json+", "normal,json"):
            with self.subTest(fmt=fmt):
                p = self.run_fmt(fmt)
                self.assertEqual(p.returncode, 3, p.stderr)
                lines = [l for l in p.stderr.splitlines() if "No space left" in l]
                self.assertEqual(lines, [self.want_line()], p.stderr)

    def test_json_has_error_and_error_message(self):
        for engine in ("psync", "libaio", "io_uring"):
            with self.subTest(engine=engine):
                p = self.run_fmt("json", engine)
                if p.returncode == 1 and "not available" in p.stderr:
                    continue  # not in this build
                self.assertEqual(p.returncode, 3, p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                self.assertEqual(j["error"], 28)
                self.assertEqual(j["error_message"], self.want_line()[len("storbench: "):])
                self.assertIn(self.want_line(), p.stderr)

    def test_normal_output_shows_it(self):
        p = self.run_fmt("normal")
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("err=28 (write %s at offset 4194304 (65536 bytes): No space left on device)"
                      % self.file, p.stdout)

    def test_no_error_message_without_error(self):
        p = self.run_sb("--output-format=json", "--name=ok", "--filename=" + self.file,
                        "--rw=write", "--bs=64k", "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual((j["error"], j["error_message"]), (0, ""))


CKPT = ("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\n"
        "model=llama3-8b\ncheckpoint_scale=0.00002\ncheckpoint_folder=%s\n")


@unittest.skipUnless(ROOT, "needs root (mounts a small tmpfs)")
class MlErrorTest(TmpfsCase):
    def test_checkpoint_error_on_stderr_and_in_json(self):
        self.mount("size=64m,nr_inodes=4")  # the folder and a file or two, then ENOSPC
        job = self.write_job(CKPT % os.path.join(self.mnt, "ck"))
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 3, p.stderr)
        j = json.loads(p.stdout)["jobs"][0]
        self.assertEqual(j["error"], 28)
        self.assertTrue(j["error_message"].startswith("ck: "), j["error_message"])
        self.assertIn(self.mnt, j["error_message"])
        self.assertIn("No space left on device", j["error_message"])
        self.assertIn("storbench: " + j["error_message"], p.stderr)


class ReadOnlyCheckpointFolderTest(TmpfsCase):
    """Refused up front with file:line, the value and the fix; nothing made."""

    def check(self, folder, parent):
        job = self.write_job(CKPT % folder)
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertIn("%s:1: job ck: checkpoint_folder=%s: cannot write in %s" % (job, folder, parent),
                      p.stderr)
        self.assertIn("set checkpoint_folder=", p.stderr)
        self.assertFalse(os.path.exists(folder))

    @unittest.skipUnless(ROOT, "needs root (mounts a read-only tmpfs)")
    def test_read_only_file_system(self):
        self.mount("size=1m,ro")
        self.check(os.path.join(self.mnt, "ck"), self.mnt)

    @unittest.skipUnless(ROOT, "needs root (mounts a read-only tmpfs)")
    def test_train_dataset_on_read_only_file_system(self):
        self.mount("size=1m,ro")
        data = os.path.join(self.mnt, "data")
        job = self.write_job("[t]\nworkload=train\nioengine=psync\nepochs=1\ndataset_files=4\n"
                             "record_length=4k\nbatch_size=1\ndata_dir=%s\n" % data)
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertIn("data_dir=%s: " % data, p.stderr)
        self.assertIn("cannot be created in %s: Read-only file system: set data_dir=" % self.mnt,
                      p.stderr)

    @unittest.skipIf(ROOT, "root may write in a mode 0555 directory")
    def test_unwritable_directory(self):
        d = os.path.join(self.dir, "ro")
        os.mkdir(d, 0o555)
        self.check(os.path.join(d, "ck"), d)


if __name__ == "__main__":
    unittest.main()
