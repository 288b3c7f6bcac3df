"""The metadata and allocation engines (filecreate, filestat, filedelete,
dircreate, dirstat, dirdelete, falloc, ftruncate): what an I/O is and what
they leave on disk, compared with fio 3.33 on the same job file (the table
below is what fio 3.33 did; when fio 3.33 is installed the test runs it too),
and the safety rule: what storbench did not create is never removed, cut or
punched (HOWTO 4 and 7).  fio 3.33's engines/fileoperations.c: open_file,
stat_file and delete_file do one operation per file, get_file_size makes a
file of filesize= count filesize/bs I/Os; engines/falloc.c: fallocate per
I/O (KEEP_SIZE for reads, PUNCH_HOLE for trims); engines/ftruncate.c:
ftruncate(fd, offset) per write, EINVAL for reads.  dircreate, dirstat and
dirdelete came after fio 3.33 (fio 3.33: "engine dircreate not loadable"),
so they are checked against fio's source rule instead."""
import hashlib
import json
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase

JOB = "[j]\nioengine={e}\nrw={rw}\nnrfiles=6\nfilesize=8k\nbs=4k\ndirectory=d\n{extra}"

# recorded with fio 3.33 (fio --output-format=json j.fio, JOB above, a new d/):
# (engine, rw, (read, write, trim) total_ios, files left: name -> bytes, or
# None where the sizes depend on the random order)
FIO_333 = [
    ("filecreate", "read", (12, 0, 0), {f"j.0.{i}": 0 for i in range(6)}),
    ("filecreate", "write", (0, 12, 0), {f"j.0.{i}": 0 for i in range(6)}),
    ("filestat", "read", (12, 0, 0), {f"j.0.{i}": 8192 for i in range(6)}),
    ("filedelete", "read", (12, 0, 0), {}),
    ("falloc", "write", (0, 12, 0), {f"j.0.{i}": 8192 for i in range(6)}),
    ("falloc", "read", (12, 0, 0), {f"j.0.{i}": 8192 for i in range(6)}),
    ("falloc", "trim", (0, 0, 12), {f"j.0.{i}": 8192 for i in range(6)}),
    ("ftruncate", "write", (0, 12, 0), {f"j.0.{i}": 4096 for i in range(6)}),
    ("ftruncate", "randwrite", (0, 12, 0), None),
]


def fio_333():
    fio = shutil.which("fio")
    if not fio:
        return None
    v = subprocess.run([fio, "--version"], capture_output=True, text=True).stdout.strip()
    return fio if v == "fio-3.33" else None


def counts(doc):
    j = doc["jobs"][0]
    return tuple(j[d]["total_ios"] for d in ("read", "write", "trim")), \
        tuple(j[d]["io_bytes"] for d in ("read", "write", "trim"))


def left(d):
    return {f: os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)
            if not f.startswith(".storbench")}


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class MdEngines(SbCase):
    def job(self, e, rw, extra=""):
        os.makedirs(os.path.join(self.dir, "d"), exist_ok=True)
        return self.write_job(JOB.format(e=e, rw=rw, extra=extra), "j.fio")

    def test_counts_and_files_as_fio_333(self):
        """total_ios per direction, io_bytes (filesize/bs I/Os of bs bytes per
        file) and the files left, as fio 3.33 on the same job file"""
        fio = fio_333()
        for e, rw, ios, files in FIO_333:
            with self.subTest(engine=e, rw=rw):
                shutil.rmtree(os.path.join(self.dir, "d"), ignore_errors=True)
                doc = self.run_json(self.job(e, rw))
                got_ios, got_bytes = counts(doc)
                self.assertEqual(got_ios, ios)
                self.assertEqual(got_bytes, tuple(4096 * n for n in ios))
                self.assertEqual(doc["jobs"][0]["error"], 0)
                got = left(os.path.join(self.dir, "d"))
                if files is None:
                    self.assertEqual(sorted(got), [f"j.0.{i}" for i in range(6)])
                    self.assertTrue(all(v in (0, 4096) for v in got.values()), got)
                else:
                    self.assertEqual(got, files)
                if fio:
                    shutil.rmtree(os.path.join(self.dir, "d"))
                    os.makedirs(os.path.join(self.dir, "d"))
                    p = subprocess.run([fio, "--output-format=json", "j.fio"], cwd=self.dir,
                                       capture_output=True, text=True, timeout=120)
                    self.assertEqual(counts(json.loads(p.stdout))[0], got_ios)
                    if files is not None:
                        self.assertEqual(left(os.path.join(self.dir, "d")), got)

    def test_stat_types(self):
        """stat_type=stat|lstat|statx are fio's values; another is refused"""
        for t in ("stat", "lstat", "statx"):
            shutil.rmtree(os.path.join(self.dir, "d"), ignore_errors=True)
            doc = self.run_json(self.job("filestat", "read", f"stat_type={t}\n"))
            self.assertEqual(counts(doc)[0], (12, 0, 0))
            self.assertEqual(doc["jobs"][0]["job options"]["stat_type"], t)
        p = self.run_sb(self.job("filestat", "read", "stat_type=fstat\n"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("stat_type", p.stderr)

    def test_folders(self):
        """dircreate makes a folder per file, dirstat stats each (made first),
        dirdelete removes those it made: one operation per file, filesize/bs
        I/Os per file counted (fio's fileoperations.c rule)"""
        d = os.path.join(self.dir, "d")
        doc = self.run_json(self.job("dircreate", "write"))
        self.assertEqual(counts(doc)[0], (0, 12, 0))
        self.assertEqual(sorted(f for f in os.listdir(d) if os.path.isdir(os.path.join(d, f))),
                         [f"j.0.{i}" for i in range(6)])
        p = self.run_sb(self.job("dircreate", "write"))  # fio: mkdir on a folder there fails
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("File exists", p.stderr)
        shutil.rmtree(d)
        doc = self.run_json(self.job("dirstat", "read"))
        self.assertEqual(counts(doc)[0], (12, 0, 0))
        self.assertEqual(len([f for f in os.listdir(d) if os.path.isdir(os.path.join(d, f))]), 6)
        shutil.rmtree(d)
        doc = self.run_json(self.job("dirdelete", "read"))
        self.assertEqual(counts(doc)[0], (12, 0, 0))
        self.assertEqual(left(d), {})

    def test_create_then_delete_in_one_run(self):
        """fio's filecreate then filedelete (stonewall): the files are gone,
        each job counted its I/Os"""
        path = self.write_job("[global]\nnrfiles=6\nfilesize=8k\nbs=4k\ndirectory=d\n"
                              "[c]\nioengine=filecreate\n[x]\nstonewall\nioengine=filedelete\n"
                              "filename_format=c.0.$filenum\n", "cd.fio")
        os.makedirs(os.path.join(self.dir, "d"))
        doc = self.run_json(path)
        self.assertEqual([counts({"jobs": [j]})[0] for j in doc["jobs"]], [(12, 0, 0), (12, 0, 0)])
        self.assertEqual(left(os.path.join(self.dir, "d")), {})

    def test_never_removes_or_cuts_the_users(self):
        """files and folders storbench did not create are never removed,
        truncated or punched: filedelete and dirdelete fail those I/Os
        (EPERM, exit 3), ftruncate refuses the file (exit 1), a falloc trim
        fails (EPERM); every byte stays"""
        d = os.path.join(self.dir, "d")
        cases = [("filedelete", "read", 3), ("filedelete", "randread", 3),
                 ("ftruncate", "write", 1), ("ftruncate", "randwrite", 1),
                 ("falloc", "trim", 3), ("falloc", "randtrim", 3),
                 ("filestat", "read", 0), ("filecreate", "write", 0)]
        for e, rw, rc in cases:
            with self.subTest(engine=e, rw=rw):
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
                sums = {}
                for i in range(6):
                    p = os.path.join(d, f"j.0.{i}")
                    with open(p, "wb") as f:
                        f.write(os.urandom(8192))
                    sums[p] = (digest(p), os.stat(p).st_blocks)
                p = self.run_sb(self.job(e, rw))
                self.assertEqual(p.returncode, rc, p.stderr)
                if rc:
                    self.assertIn("not permitted", p.stderr)
                for path, (h, blocks) in sums.items():
                    self.assertEqual(digest(path), h, path)
                    self.assertEqual(os.stat(path).st_blocks, blocks, path)
        shutil.rmtree(d)
        os.makedirs(d)
        for i in range(6):
            os.mkdir(os.path.join(d, f"j.0.{i}"))
        p = self.run_sb(self.job("dirdelete", "read"))
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertEqual(sorted(os.listdir(d)), [f"j.0.{i}" for i in range(6)])

    def test_enghelp_lists_them(self):
        out = self.run_sb("--enghelp").stdout
        for e in ("filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete",
                  "falloc", "ftruncate"):
            self.assertRegex(out, rf"(?m)^  {e} +an? ", e)


if __name__ == "__main__":
    unittest.main()
