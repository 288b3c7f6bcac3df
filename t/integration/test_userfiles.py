"""Files storbench did not make: one rule in
run/files.c, "is this file the user's" (it exists and this run did not make
it), for every layout path: such a file is never extended, truncated or
filled unless a job writes its data.  fio 3.33 refuses the extension under
--readonly ("fio: refusing extend of file due to read-only",
filesetup.c:127) and then fails the job on the short read (err=5, exit 1);
without --readonly it unlinks the user's file and lays out a new one
(filesetup.c:136-141: td_read -> new_layout, then td_io_unlink_file): seen
here with fio 3.33 on a 1 MiB file and size=4m, the file's hash changed.
storbench refuses both before any I/O (exit 1, file:line, the option, the
sizes, the fix).  A verify_only job on a missing file is refused instead of
creating it (fio 3.33 creates it, zero-filled, and fails the verify: "bad
magic header 0"), and filename= naming a directory is refused at the plan
(fio: "err=21 ... Is a directory" at its first I/O or unlink)."""
import hashlib
import json
import os
import unittest

from sbtest import SbCase

MB = 1 << 20


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def tree(d):
    """every path under d with its size and hash: what a run must not change"""
    out = {}
    for base, dirs, files in os.walk(d):
        for n in dirs:
            out[os.path.relpath(os.path.join(base, n), d)] = "dir"
        for n in files:
            p = os.path.join(base, n)
            out[os.path.relpath(p, d)] = (os.path.getsize(p), digest(p))
    return out


class UserFiles(SbCase):
    def user_file(self, name, size=MB):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        return path

    def refused(self, *args, texts=()):
        """storbench exits 1 naming texts and changes nothing under self.dir"""
        before = tree(self.dir)
        p = self.run_sb(*args)
        self.assertEqual(p.returncode, 1, p.stderr)
        for t in texts:
            self.assertIn(t, p.stderr)
        self.assertEqual(tree(self.dir), before, "the run changed or created files")
        return p

    def test_read_does_not_extend_a_user_file(self):
        self.user_file("user.dat")
        for extra in (["--readonly"], [], ["--create_only=1"]):
            self.refused("--name=r", "--filename=user.dat", "--rw=read", "--bs=4k", "--size=4m",
                         *extra, texts=("storbench: <cmdline>: job r: size=4m needs user.dat to "
                                        "hold 4194304 bytes, but it holds 1048576",
                                        "lower size= to fit the 1048576 bytes there",
                                        "drop size= to use the whole file"))
        # a verifier (verify_only, or a read job with verify=) checks the
        # file as it is: the blocks past its end are lost data (exit 3,
        # never_written), and the file is not extended
        before = tree(self.dir)
        for extra in (["--rw=write", "--verify=crc32c", "--verify_only=1"], ["--verify=crc32c"]):
            p = self.run_sb("--name=r", "--filename=user.dat", "--rw=read", "--bs=4k",
                            "--size=4m", *extra)
            self.assertEqual(p.returncode, 3, p.stderr)
            self.assertIn("verify: never_written in user.dat at offset 0 ", p.stderr)
            self.assertEqual(tree(self.dir), before, "the run changed or created files")

    def test_job_file_names_the_line(self):
        self.user_file("user.dat")
        job = self.write_job("[global]\nbs=4k\n[r]\nfilename=user.dat\nrw=randread\n"
                             "offset=512k\nsize=1m\n")
        self.refused("--readonly", job,
                     texts=(f"storbench: {job}:7: job r: size=1m from offset=512k needs user.dat "
                            "to hold 1572864 bytes", "lower size= or offset="))

    def test_filename_list_and_opendir(self):
        self.user_file("b")
        # a and c are missing: laid out for the read as usual, but only once
        # the whole plan is accepted, so nothing is created here
        self.refused("--name=r", "--filename=a:b:c", "--rw=read", "--bs=4k", "--size=12m",
                     texts=("needs b to hold 4194304 bytes, but it holds 1048576",))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "a")))
        self.user_file("tree/x", 64 * 1024)
        self.user_file("tree/sub/y", 64 * 1024)
        self.refused("--name=r", "--opendir=tree", "--rw=read", "--bs=4k", "--size=2m",
                     texts=("needs tree/sub/y to hold 1048576 bytes, but it holds 65536",))

    def test_what_stays_allowed(self):
        path = self.user_file("user.dat")
        h = digest(path)
        # a read within the file, and one without size= (the whole file)
        for size in (["--size=1m"], []):
            d = self.run_json("--name=r", "--filename=user.dat", "--rw=read", "--bs=4k", *size)
            self.assertEqual(d["jobs"][0]["read"]["io_bytes"], MB)
        self.assertEqual(digest(path), h)
        # a job that writes the file may extend it (fio does too)
        d = self.run_json("--name=w", "--filename=user.dat", "--rw=write", "--bs=4k", "--size=2m")
        self.assertEqual(d["jobs"][0]["write"]["io_bytes"], 2 * MB)
        self.assertEqual(os.path.getsize(path), 2 * MB)
        # a file this run made may grow from one sweep point to the next
        d = self.run_json("--name=s", "--filename=made.dat", "--rw=read", "--bs=4k",
                          "--sweep.size=1m|3m", "--unlink=1")
        pts = d["sweep"]["points"]
        self.assertEqual([(p["error"], p["read"]["io_bytes"]) for p in pts], [(0, MB), (0, 3 * MB)])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "made.dat")))

    def test_verify_only_on_a_missing_file(self):
        job = self.write_job("[v]\nfilename=missing.dat\nrw=write\nbs=4k\nsize=1m\n"
                             "verify=crc32c\nverify_only=1\n")
        self.refused(job, texts=(f"storbench: {job}:7: job v: verify_only=1 checks the data an "
                                 "earlier run wrote to missing.dat, which does not exist",
                                 "run the job without verify_only=1 first"))
        self.assertEqual(self.listing(), ["job.ini"])
        # written by an earlier run, then verified: allowed
        args = ("--name=v", "--filename=f.dat", "--rw=write", "--bs=4k", "--size=1m",
                "--verify=crc32c")
        self.run_json(*args, "--do_verify=0")
        d = self.run_json(*args, "--verify_only=1")
        self.assertEqual(d["jobs"][0]["error"], 0)

    def test_filename_is_a_directory(self):
        os.mkdir(os.path.join(self.dir, "d"))
        for rw in ("read", "write"):
            self.refused("--name=r", "--filename=d", f"--rw={rw}", "--bs=4k", "--size=1m",
                         texts=("storbench: <cmdline>: job r: filename=d: d is a directory",
                                "use directory=d"))
        job = self.write_job("[r]\nrw=read\nsize=1m\nfilename=d\n")
        self.refused(job, texts=(f"storbench: {job}:4: job r: filename=d: d is a directory",))
        self.assertEqual(os.listdir(os.path.join(self.dir, "d")), [])
        # the name storbench makes (jobname.0.0) is a directory
        os.mkdir(os.path.join(self.dir, "d", "g.0.0"))
        job = self.write_job("[g]\nrw=read\nsize=1m\ndirectory=d\n", "g.ini")
        self.refused(job, texts=(f"storbench: {job}:4: job g: d/g.0.0, the file storbench names "
                                 "for it, is a directory", "give filename= or another directory="))


if __name__ == "__main__":
    unittest.main()
