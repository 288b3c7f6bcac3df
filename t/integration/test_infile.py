"""The one reader (os/infile.c, HOWTO "7. Safety"): every file a user hands
storbench to read is a regular file (a FIFO or a device is refused before a
byte is read, unless the option documents it, as read_iolog= does), at most
its size cap (the message names the cap in bytes), lines at most their
bound (FILE:LINE named), and a results tree is walked without following a
symlink (it is named in a warning, never followed).  Every test here runs
with a timeout: before the reader, a FIFO was read for ever and /dev/zero
until memory ran out."""
import json
import os
import shutil

import test_mlsubmit
from sbtest import SbCase, validate_rc

T = 60  # seconds: a hang fails the test instead of blocking the suite


def sparse(path, size):
    with open(path, "wb") as f:
        f.truncate(size)
    return path


class ToolInputsTest(SbCase):
    """report, compare and analyze: a command-line argument that is not a
    regular file is a bad command line (exit 2); one over the cap exit 1"""

    def result(self):
        job = self.write_job("[j]\nioengine=null\nsize=64k\nbs=4k\n")
        p = self.run_sb(job, "--output-format=json", "--output=r.json", timeout=T)
        self.assertEqual(p.returncode, 0, p.stderr)
        return os.path.join(self.dir, "r.json")

    def commands(self, bad, good):
        return {"report": ["report", bad, "-o", "out.html"],
                "report (second input)": ["report", good, bad, "-o", "out.html"],
                "compare": ["compare", good, bad],
                "compare (first input)": ["compare", bad, good],
                "analyze": ["analyze", bad]}

    def test_fifo_device_directory_refused(self):
        good = self.result()
        fifo = os.path.join(self.dir, "in.fifo")
        os.mkfifo(fifo)
        link = os.path.join(self.dir, "link.json")
        os.symlink(fifo, link)  # a symlink to a FIFO is the FIFO
        for bad, kind in ((fifo, "FIFO"), ("/dev/zero", "character device"), (link, "FIFO"),
                          (self.dir, "directory")):
            for name, args in self.commands(bad, good).items():
                with self.subTest(cmd=name, input=bad):
                    p = self.run_sb(*args, timeout=T)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertIn(bad, p.stderr)
                    self.assertIn(kind, p.stderr)
                    self.assertIn("must be a regular file", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out.html")))

    def test_results_json_cap(self):
        good = self.result()
        big = sparse(os.path.join(self.dir, "big.json"), (1 << 30) + 1)
        for name, args in self.commands(big, good).items():
            if name == "analyze":
                continue
            with self.subTest(cmd=name):
                p = self.run_sb(*args, timeout=T)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(big, p.stderr)
                self.assertIn("at most 1073741824 bytes", p.stderr)
        # at the cap's edge a file is still read (and judged as JSON)
        edge = sparse(os.path.join(self.dir, "edge.json"), 64)
        p = self.run_sb("compare", good, edge, timeout=T)
        self.assertNotIn("at most", p.stderr)

    def test_analyze_trace_cap(self):
        big = sparse(os.path.join(self.dir, "big.pfw"), (1 << 40) + 1)
        p = self.run_sb("analyze", big, timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(big, p.stderr)
        self.assertIn("at most 1099511627776 bytes", p.stderr)


class ValidateTreeTest(SbCase):
    """validate walks RESULTS_DIR without following a symlink inside it"""
    make_tree = test_mlsubmit.ValidateTest.make_tree

    def validate(self, root, rc=None):
        p = self.run_sb("validate", root, timeout=T)
        self.assertEqual(p.returncode, validate_rc(p.stdout) if rc is None else rc,
                         p.stdout + p.stderr)
        return p

    def test_results_dir_not_a_folder(self):
        fifo = os.path.join(self.dir, "res.fifo")
        os.mkfifo(fifo)
        reg = os.path.join(self.dir, "res.json")
        with open(reg, "w") as f:
            f.write("{}")
        for arg, kind in ((fifo, "FIFO"), ("/dev/zero", "character device"), (reg, "regular file")):
            with self.subTest(arg=arg):
                p = self.validate(arg, rc=2)
                self.assertIn(arg, p.stderr)
                self.assertIn(kind, p.stderr)
                self.assertIn("not a folder", p.stderr)

    def test_latest_link_not_counted_twice(self):
        root = self.make_tree()
        shutil.rmtree(self.runs[5])
        latest = os.path.join(os.path.dirname(self.runs[4]), "latest")
        os.symlink(os.path.basename(self.runs[4]), latest)
        p = self.validate(root)
        self.assertIn("runs: expected 6 (1 warm-up + 5 measured), actual 5 -> INVALID", p.stdout)
        self.assertIn(latest, p.stderr)
        self.assertIn("not followed", p.stderr)
        # a link to a run outside the tree is not counted either
        outside = os.path.join(self.dir, "elsewhere")
        shutil.copytree(self.runs[0], os.path.join(outside, "20250101_120009"))
        os.symlink(outside, os.path.join(root, "training", "unet3d", "more"))
        p = self.validate(root)
        self.assertIn("actual 5", p.stdout)

    def test_link_to_root_not_walked(self):
        root = self.make_tree()
        link = os.path.join(root, "training", "slash")
        os.symlink("/", link)
        p = self.validate(root)
        self.assertIn("submission training/unet3d: CLOSED", p.stdout)
        self.assertIn(link, p.stderr)

    def test_linked_file_in_a_run_not_followed(self):
        root = self.make_tree()
        s = os.path.join(self.runs[2], "summary.json")
        os.unlink(s)
        os.symlink(os.path.join(self.runs[1], "summary.json"), s)
        p = self.validate(root, rc=1)
        self.assertIn(s, p.stderr)
        self.assertIn("not followed", p.stderr)
        meta = [f for f in os.listdir(self.runs[3]) if f.endswith("_metadata.json")][0]
        m = os.path.join(self.runs[3], meta)
        os.rename(m, m + ".real")
        os.symlink(m + ".real", m)
        os.unlink(s)
        shutil.copy(os.path.join(self.runs[1], "summary.json"), s)
        p = self.validate(root, rc=1)
        self.assertIn(m, p.stderr)

    def test_fifo_and_device_in_a_run(self):
        root = self.make_tree()
        s = os.path.join(self.runs[2], "summary.json")
        os.unlink(s)
        os.mkfifo(s)
        p = self.validate(root, rc=1)
        self.assertIn(s, p.stderr)
        self.assertIn("FIFO", p.stderr)
        os.unlink(s)
        if os.geteuid() == 0:
            os.mknod(s, 0o600 | 0o020000, os.makedev(1, 5))  # /dev/zero's node
            p = self.validate(root, rc=1)
            self.assertIn(s, p.stderr)
            self.assertIn("character device", p.stderr)
        os.unlink(s)
        sparse(s, (1 << 30) + 1)
        p = self.validate(root, rc=1)
        self.assertIn(s, p.stderr)
        self.assertIn("at most 1073741824 bytes", p.stderr)


class JobInputsTest(SbCase):
    """job files, includes, kv_trace= and read_iolog= through the reader"""

    def test_job_file_kinds_and_caps(self):
        fifo = os.path.join(self.dir, "j.fifo")
        os.mkfifo(fifo)
        zl = os.path.join(self.dir, "zero.ini")
        os.symlink("/dev/zero", zl)
        for path, want in ((fifo, "FIFO"), ("/dev/zero", "character device"), (zl, "character device")):
            with self.subTest(job=path):
                p = self.run_sb(path, timeout=T)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn(path, p.stderr)
                self.assertIn(want, p.stderr)
                inc = self.write_job("[j]\nioengine=null\nsize=4k\ninclude %s\n" % path, "inc.ini")
                p = self.run_sb(inc, timeout=T)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("inc.ini:4:", p.stderr)
                self.assertIn(want, p.stderr)
        # includes count together: two 9 MiB includes pass 16 MiB
        for n in ("a", "b"):
            with open(os.path.join(self.dir, n + ".inc"), "w") as f:
                f.write(("; " + "x" * 1000 + "\n") * (9 * 1024))
        job = self.write_job("[j]\nioengine=null\nsize=4k\ninclude a.inc\ninclude b.inc\n", "two.ini")
        p = self.run_sb(job, timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("two.ini:5:", p.stderr)
        self.assertIn("16 MiB together (16777216 bytes", p.stderr)
        big = sparse(os.path.join(self.dir, "big.ini"), (16 << 20) + 1)
        p = self.run_sb(big, timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("16777216 bytes", p.stderr)

    def test_job_line_bound(self):
        job = self.write_job("[j]\nioengine=null\nsize=4k\ndescription=%s\n" % ("d" * ((1 << 20) + 1)))
        p = self.run_sb(job, timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:4:", p.stderr)
        self.assertIn("1048576", p.stderr)

    def kv_job(self, trace):
        return self.write_job("[kv]\nworkload=kvcache\nmodel=llama3-8b\nioengine=null\n"
                              "directory=%s\nkv_trace=%s\n" % (self.dir, trace))

    def test_kv_trace(self):
        fifo = os.path.join(self.dir, "t.fifo")
        os.mkfifo(fifo)
        big = sparse(os.path.join(self.dir, "big.csv"), (1 << 30) + 1)
        for trace, want in ((fifo, "FIFO"), ("/dev/zero", "character device"),
                            (big, "at most 1073741824 bytes")):
            with self.subTest(trace=trace):
                p = self.run_sb(self.kv_job(trace), "--parse-only", timeout=T)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("kv_trace=" + trace, p.stderr)
                self.assertIn(want, p.stderr)

    def test_read_iolog(self):
        big = sparse(os.path.join(self.dir, "big.log"), (16 << 30) + 1)
        job = self.write_job("[r]\nioengine=null\nread_iolog=%s\n" % big)
        p = self.run_sb(job, "--parse-only", timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(big, p.stderr)
        self.assertIn("at most 17179869184 bytes", p.stderr)
        job = self.write_job("[r]\nioengine=null\nread_iolog=/dev/zero\n")
        p = self.run_sb(job, "--parse-only", timeout=T)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("character device", p.stderr)
        self.assertIn("regular file or a FIFO", p.stderr)


if __name__ == "__main__":
    import unittest
    unittest.main()
