"""Sweeps end to end: sweep.* lists in a job file run every point; the JSON
"sweep" object holds every point (values, repetitions, summary, fio-style
jobs) and the best point per direction; normal output ends with the sorted
table and a pasteable best configuration; files are laid out once and only
the ones the sweep made are removed (unlink=1); Ctrl-C keeps the finished
points and exits 130; a bad value in a list is a file:line error."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

from sbtest import BIN, SbCase, catches

NULL_SWEEP = """[global]
ioengine=null
size=1m
loops=2
sweep.rw = read | write
[j]
sweep.bs = 4k | 64k
"""


class SweepTest(SbCase):
    def test_sweep_json_jobs_list_every_point(self):
        """fio's tools read "jobs": a sweep lists there every point's jobs,
        each labelled with its point, as in the point's own "jobs"; the
        report and compare do not count them twice"""
        job = self.write_job(NULL_SWEEP + "[k]\nrw=randread\nsweep.iodepth = 1 | 2\n")
        d = self.run_json(job)
        pts = d["sweep"]["points"]
        self.assertEqual(len(pts), 8)
        want = []
        for p in pts:
            vals = " ".join("%s=%s" % kv for kv in p["values"].items())
            for j in p["jobs"]:
                want.append((j["jobname"] + " (" + vals + ")", p["point"], vals))
        got = [(j["jobname"], j["sweep_point"], j["sweep_values"]) for j in d["jobs"]]
        self.assertEqual(got, want)
        self.assertEqual(len(got), sum(len(p["jobs"]) for p in pts))
        # the same figures as the point's own job
        for j in d["jobs"]:
            pj = [x for x in pts[j["sweep_point"] - 1]["jobs"]
                  if j["jobname"].startswith(x["jobname"] + " (")]
            self.assertEqual(len(pj), 1)
            for dd in ("read", "write"):
                self.assertEqual(j[dd]["io_bytes"], pj[0][dd]["io_bytes"])
        path = os.path.join(self.dir, "sw.json")
        with open(path, "w") as f:
            json.dump(d, f)
        rep = os.path.join(self.dir, "sw.html")
        p = self.run_sb("report", path, "-o", rep)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(rep) as f:
            self.assertNotIn(">Job 1:", f.read())
        p = self.run_sb("compare", "--output-format=json", path, path)
        self.assertEqual(p.returncode, 0, p.stderr)
        names = [e["job"] for e in json.loads(p.stdout)["jobs"]]
        self.assertEqual(len(names), 8, names)

    def test_null_sweep_json_has_every_point_and_best(self):
        d = self.run_json(self.write_job(NULL_SWEEP))
        s = d["sweep"]
        self.assertEqual(s["metric"], "bw")
        self.assertEqual((s["total_points"], s["finished_points"]), (4, 4))
        self.assertFalse(s["interrupted"])
        pts = s["points"]
        self.assertEqual([p["values"] for p in pts],
                         [{"rw": "read", "bs": "4k"}, {"rw": "read", "bs": "64k"},
                          {"rw": "write", "bs": "4k"}, {"rw": "write", "bs": "64k"}])
        for p in pts:
            ddir = p["values"]["rw"]
            other = "write" if ddir == "read" else "read"
            self.assertEqual(p["repetitions"], 2)
            self.assertEqual(len(p["runs"]), 2)
            self.assertEqual(len(p["jobs"]), 1)  # one job, merged over two repetitions
            self.assertIn(ddir, p)
            self.assertNotIn(other, p)
            sm = p[ddir]
            self.assertEqual(sm["io_bytes"], 1 << 20)
            self.assertLessEqual(sm["bw_bytes_min"], sm["bw_bytes"])
            self.assertLessEqual(sm["bw_bytes"], sm["bw_bytes_max"])
            self.assertAlmostEqual(sm["gbps"], sm["bw_bytes"] / 2**30, places=4)
            self.assertGreaterEqual(p["overhead_ms"], 0)
            for run in p["runs"]:  # each repetition's summary
                self.assertEqual(run["error"], 0)
                self.assertNotIn(other, run)
                r = run[ddir]
                self.assertEqual(r["io_bytes"], 1 << 20)
                self.assertGreater(r["bw_bytes"], 0)
                self.assertAlmostEqual(r["gbps"], r["bw_bytes"] / 2**30, places=4)
                self.assertGreater(r["iops"], 0)
                self.assertLessEqual(r["clat_ns_p50"], r["clat_ns_p99"])
                self.assertLessEqual(r["clat_ns_p99"], r["clat_ns_p99_9"])
                self.assertGreaterEqual(r["runtime_ms"], 0)
            self.assertAlmostEqual(sm["bw_bytes"], sum(r[ddir]["bw_bytes"] for r in p["runs"]) / 2,
                                   delta=1e-6 * sm["bw_bytes"])
            self.assertEqual(sm["bw_bytes_min"], min(r[ddir]["bw_bytes"] for r in p["runs"]))
            for j in p["jobs"]:  # the ordinary fio-style job object, both repetitions
                self.assertEqual(j[ddir]["io_bytes"], 2 << 20)
                self.assertEqual(j[ddir]["total_ios"], 2 * (1 << 20) // int(p["values"]["bs"][:-1]) // 1024)
                self.assertEqual(j[ddir]["clat_ns"]["N"], j[ddir]["total_ios"])
                self.assertEqual(j["job options"]["bs"], p["values"]["bs"])
        for ddir in ("read", "write"):
            best = s["best"][ddir]
            self.assertEqual(best["values"]["rw"], ddir)
            top = max(p[ddir]["bw_bytes"] for p in pts if ddir in p)
            self.assertEqual(best["bw_bytes"], top)

    def test_normal_output_table_and_fragment(self):
        p = self.run_sb(self.write_job(NULL_SWEEP))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout
        self.assertIn("Sweep: 4 of 4 points (rw x bs), 2 repetitions each, sorted by bw", out)
        table = out[out.index("Sweep:"):out.index("Best read")]
        lines = table.splitlines()
        head = next(i for i, l in enumerate(lines) if l.split()[:1] == ["point"])
        rows = [l.split() for l in lines[head + 1:] if l.strip()]
        self.assertEqual(sorted(int(r[0]) for r in rows), [1, 2, 3, 4])
        bws = [float(r[4]) for r in rows]
        self.assertEqual(bws, sorted(bws, reverse=True))
        for ddir in ("read", "write"):
            block = out[out.index("Best " + ddir):]
            frag = block[block.index("; paste into a job file:\n"):].splitlines()[1:]
            self.assertEqual(frag[:5], ["[global]", "ioengine=null", "size=1m", "loops=2",
                                        "rw=" + ddir])
            self.assertEqual(frag[5:7], ["", "[best-%s]" % ddir])
            self.assertTrue(frag[7].startswith("bs="))

    def test_fragment_runs_the_best_points_io(self):
        """The best point's fragment holds more than the swept values: with
        only those, pasting it dropped [global]'s direct=1 (buffered I/O) and
        the job's own options.  Pasted into a job file it resolves to the
        best point's options, each one"""
        text = ("[global]\nioengine=null\nsize=1m\ndirect=1\nloops=2\ndescription=\"x;y #z\"\n"
                "sweep.rw = read | write\n[j]\nbs=8k\nrandrepeat=0\nstonewall\n"
                "sweep.iodepth = 1 | 4\n")
        p = self.run_sb(self.write_job(text))
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout
        for ddir in ("read", "write"):
            block = out[out.index("Best " + ddir):]
            point = int(re.match(r"Best \w+ \(by bw\): point (\d+)", block).group(1))
            frag = block[block.index("; paste into a job file:\n"):].split("\n", 1)[1]
            frag = frag[:frag.index("\n\n", frag.index("[best-"))] + "\n"
            q = self.run_sb("--parse-only=verbose", self.write_job(frag, "frag.ini"))
            self.assertEqual(q.returncode, 0, q.stderr)
            got = dict(re.findall(r"^  (\w+) += (.*)$", q.stdout, re.M))
            iodepth = ("1", "4")[(point - 1) % 2]  # points: rw slowest, then iodepth
            want = {"ioengine": "null", "direct": "1", "loops": "2", "randrepeat": "0",
                    "iodepth": iodepth, "size": "1048576 (1 MiB)",
                    "bs": "read 8192 (8 KiB), write 8192 (8 KiB), trim 8192 (8 KiB)", "rw": ddir,
                    "stonewall": "1", "description": "x;y #z"}
            self.assertEqual({k: got.get(k) for k in want}, want, frag)

    def test_terse_has_a_line_per_point_and_job(self):
        p = self.run_sb("--output-format=terse", self.write_job(NULL_SWEEP))
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 4, "4 points, one job each (its 2 repetitions merged)")
        for i, line in enumerate(lines):
            f = line.split(";")
            self.assertEqual((f[0], f[2]), ("3", "j"))
            rd, wr = int(f[5]), int(f[46])   # read and write io (KiB), both repetitions
            self.assertEqual((rd, wr), (2048, 0) if i < 2 else (0, 2048))

    def test_parse_only_lists_points(self):
        p = self.run_sb("--parse-only=verbose", self.write_job(NULL_SWEEP))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("sweep: 4 points = rw (2) x bs (2)", p.stdout)
        self.assertIn("point 4: rw=write bs=64k", p.stdout)

    def test_bad_value_in_list_is_file_line_error(self):
        path = self.write_job("[j]\nioengine=null\nsize=1m\nsweep.iodepth = 4 | many | 8\n")
        p = self.run_sb(path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:4: sweep.iodepth: value 'many' (2 of 3)", p.stderr)
        p = self.run_sb(self.write_job("[j]\nsize=1m\nsweep.iodeph = 1 | 2\n"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("did you mean 'sweep.iodepth'", p.stderr)

    def strace_creates(self, job, name):
        """run under strace; count the opens that created the data file"""
        log = os.path.join(self.dir, "strace.log")
        env = dict(os.environ)  # LeakSanitizer cannot run under ptrace
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,open,creat", "-o", log,
                            BIN, "--output-format=json", job], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(log) as f:
            creates = [l for l in f if name in l and "O_CREAT" in l and "= -1" not in l]
        return json.loads(p.stdout), len(creates)

    def test_memory_does_not_grow_with_repetitions(self):
        """a sweep's memory does not grow with its repetitions: each point
        keeps its 4 jobs merged over its repetitions (17 MB in all, 24 MB
        under ASan), not every repetition's full job results (180 KB of
        histograms per job; this sweep, 8 points x 16 repetitions x 4 jobs =
        512 job results, would peak at 115 MB).  The peak RSS of the child,
        taken in a fresh interpreter so that nothing else counts, must stay
        below 60 MB: keeping every repetition fails, and the merged results
        have more than twice the room.  ASan's quarantine (freed memory held back, 256
        MB) is turned off for this child: it is not the program's memory."""
        job = self.write_job("""[global]
ioengine=null
size=64k
loops=16
sweep.rw = read | write
sweep.bs = 4k | 8k | 16k | 32k
[j]
numjobs=4
""")
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0").lstrip(":")
        probe = ("import resource, subprocess, sys\n"
                 "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
                 "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        p = subprocess.run([sys.executable, "-c", probe, BIN, "--output-format=json",
                            "--output=out.json", job], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=300)
        rc, rss_kb = (int(x) for x in p.stdout.split())
        self.assertEqual(rc, 0, p.stderr)
        self.assertLess(rss_kb, 60 * 1024, f"peak RSS {rss_kb} KiB")
        with open(os.path.join(self.dir, "out.json")) as f:
            s = json.load(f)["sweep"]
        self.assertEqual(s["finished_points"], 8)
        for pt in s["points"]:
            self.assertEqual(len(pt["runs"]), 16)
            self.assertEqual(len(pt["jobs"]), 4)  # numjobs=4, each merged over 16 runs
            for j in pt["jobs"]:
                self.assertEqual(j[pt["values"]["rw"]]["io_bytes"], 16 * 64 * 1024)

    @unittest.skipUnless(shutil.which("strace"), "strace not installed")
    def test_psync_files_laid_out_once_and_removed(self):
        job = self.write_job("""[global]
ioengine=psync
directory=%s
filename=data.bin
size=2m
unlink=1
sweep.rw = write | read
sweep.bs = 4k | 64k | 1m
[j]
""" % self.dir)
        d, creates = self.strace_creates(job, "data.bin")
        self.assertEqual(creates, 1)  # six points, one lay-out
        self.assertEqual(d["sweep"]["finished_points"], 6)
        for p in d["sweep"]["points"]:
            self.assertEqual(p[p["values"]["rw"]]["io_bytes"], 2 << 20)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "data.bin")))

    def test_files_kept_with_unlink_0_and_user_files_never_removed(self):
        mine = os.path.join(self.dir, "mine.bin")
        with open(mine, "wb") as f:
            f.write(b"\x5a" * (1 << 20))
        ino = os.stat(mine).st_ino
        job = self.write_job("""[global]
ioengine=psync
size=1m
unlink=1
sweep.bs = 4k | 64k
[user]
filename=mine.bin
[made]
stonewall
filename=made.bin
unlink=0
""")
        d = self.run_json(job)
        self.assertEqual(d["sweep"]["finished_points"], 2)
        # the user's file was read by the sweep but is not storbench's to remove
        self.assertEqual(os.stat(mine).st_ino, ino)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "made.bin")))

    def test_sigint_keeps_finished_points(self):
        job = self.write_job("""[global]
ioengine=null
size=4m
time_based
runtime=1s
sweep.bs = 4k | 8k | 16k | 32k | 64k | 128k | 256k | 512k | 1m | 2m
sweep.rw = read | write
[j]
""")
        # a loaded machine may not finish the first 1 s point within the
        # wait: then the signal comes later (the finished points are what
        # is checked, not how fast they come); the 20 points take 20 s at
        # least, so no wait sees them all done
        for wait in (1.5, 4.0, 8.0):
            proc = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # from when storbench has its handler: a loaded machine can take
            # longer than a fixed delay to start it (status -2, no JSON)
            deadline = time.monotonic() + 30
            while not catches(proc.pid, signal.SIGINT) and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(wait)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 130, err)
            s = json.loads(out)["sweep"]
            self.assertTrue(s["interrupted"])
            self.assertEqual(s["total_points"], 20)
            if s["finished_points"] >= 1:
                break
        self.assertGreaterEqual(s["finished_points"], 1)
        self.assertLess(s["finished_points"], 20)
        self.assertEqual(len(s["points"]), s["finished_points"])
        for i, p in enumerate(s["points"]):
            self.assertEqual(p["point"], i + 1)
            self.assertEqual(p["repetitions"], 1)
        self.assertIn("read", s["best"])
        self.assertEqual(s["best"]["read"]["point"] % 2, 1)  # read points are the odd ones



class SweepDropsAndProgress(SbCase):
    """dropping the page cache before each repetition can take most
    of a sweep's time (jobs/nvme-sweep.ini as root: 287 of 392 s for its 864
    repetitions).  A point
    whose jobs all do O_DIRECT I/O (on an engine that honours it) leaves none
    of its data in the cache, so it is dropped once, before the point's first
    repetition; buffered (and mmap) points still before each.  The drops are
    counted as opens of /proc/sys/vm/drop_caches under strace (they are
    opened whether or not the write is then permitted)."""

    def drops(self, job, *args):
        log = os.path.join(self.dir, "strace.txt")
        # LeakSanitizer cannot run under ptrace (a sanitizer build): leaks off
        env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                             ":detect_leaks=0").lstrip(":"))
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log, BIN,
                            "--output-format=json", *args, job], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(log) as f:
            return sum('"/proc/sys/vm/drop_caches"' in line for line in f), p

    def test_direct_points_drop_once(self):
        if not shutil.which("strace"):
            self.skipTest("strace not installed")
        job = self.write_job("[global]\nioengine=psync\nsize=256k\nloops=3\ndrop_caches=1\n"
                             "rw=read\nsweep.direct = 0 | 1\n[j]\n")
        n, p = self.drops(job)
        self.assertEqual(n, 3 + 1, p.stderr)  # buffered: each repetition; direct: once
        sw = json.loads(p.stdout)["sweep"]
        self.assertEqual([q["repetitions"] for q in sw["points"]], [3, 3])
        # mmap goes through the page cache whatever direct= says
        job = self.write_job("[global]\nioengine=mmap\ndirect=1\nsize=256k\nloops=3\n"
                             "drop_caches=1\nrw=read\nsweep.bs = 4k | 64k\n[j]\n", "m.ini")
        self.assertEqual(self.drops(job)[0], 6)
        # no disk I/O (null): once per point
        job = self.write_job("[global]\nioengine=null\nsize=256k\nloops=3\ndrop_caches=1\n"
                             "sweep.bs = 4k | 64k\n[j]\n", "n.ini")
        self.assertEqual(self.drops(job)[0], 2)
        job = self.write_job("[global]\nioengine=null\nsize=256k\nloops=3\ndrop_caches=0\n"
                             "sweep.bs = 4k | 64k\n[j]\n", "z.ini")
        self.assertEqual(self.drops(job)[0], 0)

    def test_progress_through_the_points(self):
        job = self.write_job(NULL_SWEEP)
        p = self.run_sb("--output-format=json", "--eta=always", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.startswith("sweep: point")]
        self.assertEqual([l.split()[2] for l in lines], ["1/4", "2/4", "3/4", "4/4"], p.stderr)
        self.assertIn("rw=read bs=4k", lines[0])
        self.assertRegex(lines[0], r"GiB/s  \(\d+ s, about \d+ s left\)$")
        self.assertRegex(lines[-1], r"about 0 s left\)$")
        # not a terminal (CI logs), or --eta=never: nothing
        for args in ((), ("--eta=never",)):
            p = self.run_sb("--output-format=json", *args, job)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("sweep: point", p.stderr)
        # a terminal: the lines come by themselves (--eta=auto)
        import pty
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(self.dir)
            os.execv(BIN, [BIN, "--output-format=terse", job])
        out = b""
        while True:
            try:
                b = os.read(fd, 65536)
            except OSError:
                break
            if not b:
                break
            out += b
        os.waitpid(pid, 0)
        self.assertIn(b"sweep: point 4/4", out)


if __name__ == "__main__":
    unittest.main()
