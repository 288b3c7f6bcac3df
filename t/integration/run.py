#!/usr/bin/env python3
"""Integration test runner: discovers t/integration/test_*.py (stdlib unittest),
runs them against the storbench binary given by --bin, prints each file's
outcome (the whole unittest output of a file that failed), skip reasons, and a
closing 'N passed, N failed, N skipped' line.

Test files run as separate processes, --jobs at a time (default:
$SB_CHECK_TESTS, else twice $SB_CHECK_JOBS or the number of CPUs: the files
sleep, wait for runtime= jobs and fsync a good part of their time, and an
idle 2-core machine left 47% of its CPU idle at 2 files, 19% at 4); the
files in SERIAL below run afterwards, one at a time, with nothing else
running.  --times FILE writes each file's wall and
CPU time and each test's wall time (slowest first)."""
import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

# Tests that need the machine to themselves for a reason other than timing:
# they start many MPI ranks (mpirun --oversubscribe: more processes than CPUs,
# each with its memory) and signal mpirun, or run a referee whose own
# behaviour follows the CPU it gets.  They run after the parallel
# part, one file at a time with nothing else running.  No test is here
# for its timing: CI machines are busy from outside too, so a test that
# asserts a time, rate or percentage widens the bound that load moves by the
# CPU time load took (sbtest.CpuLoss) or lives in bench/.  A file name alone
# means the whole file; otherwise the set of its CLASS.TEST names (the rest
# of the file runs in parallel).  The only place this list lives.
# The S3 files (sbtest.S3Server: one local Ceph radosgw each) are not here:
# a cluster takes random free ports and its own temporary directory, so
# several run side by side (test_s3server.py runs two at once); starting
# one costs about 2 CPU-seconds over 7-8 s of mostly waiting, idling about
# 0.03 CPU and 150 MB (BlueStore: the data goes to disk, not memory), so
# 4 files at a time cost at most 4 clusters, about 0.6 GB.
SERIAL = {
    "test_mpi.py": None,             # mpirun --oversubscribe -np 4 (more ranks than CPUs), SIGINT to mpirun
    "test_mpi_ml.py": None,          # ML workloads under mpirun -np 4 (more ranks than CPUs)
    # the official KV-cache benchmark side by side: a Python program (8 threads
    # under one GIL) whose own figures follow the CPU it gets; beside three
    # other test files and a CPU hog its workers were busy 4.3 of 8
    "test_kvofficial.py": {"KvOfficialSideBySide.test_overloaded_cpu_and_nvme",
                           "KvOfficialSideBySide.test_overloaded_nvme_only",
                           "KvOfficialSideBySide.test_fail_verdict",
                           "KvOfficialSideBySide.test_one_user_queued",
                           "KvOfficialSideBySide.test_four_users_nvme_only",
                           "KvOfficialSideBySide.test_low_load"},
}


def serial_part(name, test_id):
    """whether test_id (module.Class.test) of file name belongs to the serial part"""
    if name not in SERIAL:
        return False
    tests = SERIAL[name]
    return tests is None or test_id.split(".", 1)[1] in tests


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


class TimedResult(unittest.TextTestResult):
    """TextTestResult that remembers each test's wall time"""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.times = []

    def startTest(self, test):
        self._t0 = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        self.times.append((test.id(), time.monotonic() - self._t0))
        super().stopTest(test)


def counts(result):
    # a test with failing subTests counts once (their entries name the subtest)
    bad = {getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors}
    failed = len(bad) + len(result.unexpectedSuccesses)
    skipped = len({getattr(t, "test_case", t).id() for t, _ in result.skipped} - bad)
    return result.testsRun - failed - skipped, failed, skipped


def run_one(pattern, out, part):
    """run the tests of the file named pattern in this process (part: all, or
    only its serial or parallel part); write counts, skips and times as JSON to out"""
    suite = unittest.defaultTestLoader.discover(here, pattern=pattern, top_level_dir=here)
    if part != "all":
        # a file that fails to import is a _FailedTest: it goes with the parallel part
        keep = [t for t in flatten(suite)
                if serial_part(pattern, t.id()) == (part == "serial")]
        suite = unittest.TestSuite(keep)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=1, resultclass=TimedResult).run(suite)
    sys.stdout.flush()
    p, f, s = counts(result)
    with open(out, "w") as fh:
        json.dump({"passed": p, "failed": f, "skipped": s, "times": result.times,
                   "skips": [[t.id(), why] for t, why in result.skipped]}, fh)
    return 0 if f == 0 else 1


def start(name, part, args, tmp):
    tag = f"{name}.{part}"
    log = open(os.path.join(tmp, tag + ".log"), "w+")
    cmd = [sys.executable, os.path.abspath(__file__), "--bin", args.bin, "--one",
           os.path.join(tmp, tag + ".json"), "--part", part, name]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return tag, proc, log, time.monotonic()


def reap(proc, block):
    """the CPU seconds (user + system) of a test file's process and of the
    processes it waited for (storbench runs), once it has ended; None while
    it runs (block=False)"""
    pid, status, ru = os.wait4(proc.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime


def finish(name, tag, proc, log, t0, tmp, total, cpu):
    """print one file's outcome; add its counts to total"""
    rc = proc.returncode
    wall = time.monotonic() - t0
    log.seek(0)
    text = log.read()
    log.close()
    try:
        with open(os.path.join(tmp, tag + ".json")) as fh:
            r = json.load(fh)
    except (OSError, ValueError):
        # the file did not load, or its process died: one failure, whole output
        r = {"passed": 0, "failed": 1, "skipped": 0, "times": [], "skips": []}
    if rc != 0 and r["failed"] == 0:
        r["failed"] = 1
    label = name + (" (serial part)" if tag.endswith(".serial") and SERIAL[name] else "")
    if r["failed"]:
        print(f"---- {label}: output\n{text.rstrip()}\n----")
    print(f"{label}: {r['passed']} passed, {r['failed']} failed, {r['skipped']} skipped ({wall:.1f} s)",
          flush=True)
    for k in ("passed", "failed", "skipped"):
        total[k] += r[k]
    total["skips"] += r["skips"]
    total["times"] += r["times"]
    total["files"].append((label, wall, cpu))


def previous_times(path):
    """{file name: wall seconds} from an earlier --times file, or {}"""
    last = {}
    try:
        with open(path or "") as fh:
            for line in fh:
                if line.startswith("# tests"):
                    break
                f = line.split()  # wall seconds, CPU seconds, file name
                if not line.startswith("#") and len(f) == 3 and f[2].endswith(".py"):
                    last[f[2]] = float(f[0])
    except (OSError, ValueError):
        pass
    return last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--counts")
    ap.add_argument("--times", help="write per-file wall and CPU times and per-test wall times here")
    ap.add_argument("--jobs", type=int,
                    help="test files run at once (default $SB_CHECK_TESTS, else twice $SB_CHECK_JOBS or nproc)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--part", default="all", help=argparse.SUPPRESS)
    ap.add_argument("pattern", nargs="*", default=["test_*.py"],
                    help="test files to run (shell patterns; default test_*.py)")
    args = ap.parse_args()
    os.environ["SB_BIN"] = os.path.abspath(args.bin)
    args.bin = os.path.abspath(args.bin)
    if args.one:
        return run_one(args.pattern[0], args.one, args.part)

    jobs = (args.jobs or int(os.environ.get("SB_CHECK_TESTS") or 0) or
            2 * (int(os.environ.get("SB_CHECK_JOBS") or 0) or os.cpu_count() or 1))
    names = sorted(n for n in os.listdir(here) if n.endswith(".py")
                   and any(fnmatch.fnmatch(n, p) for p in args.pattern))
    # whole files in SERIAL run only serially; partly serial files run twice
    par = [(n, "parallel" if n in SERIAL else "all") for n in names if SERIAL.get(n, ()) is not None]
    ser = [(n, "serial") for n in names if n in SERIAL]
    # longest first, by the previous run's times (--times), else by the
    # committed durations.txt (an idle 2-core run's; a fresh clone has no
    # previous run), so that no long file starts last
    last = previous_times(args.times) or previous_times(os.path.join(here, "durations.txt"))
    par.sort(key=lambda np: -last.get(np[0], 0.0))
    total = {"passed": 0, "failed": 0, "skipped": 0, "skips": [], "times": [], "files": []}
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sbrun.") as tmp:
        running = {}
        queue = list(par)
        while queue or running:
            while queue and len(running) < jobs:
                n, part = queue.pop(0)
                running[n] = start(n, part, args, tmp)
            time.sleep(0.1)
            for n, (tag, proc, log, ts) in list(running.items()):
                cpu = reap(proc, False)
                if cpu is not None:
                    del running[n]
                    finish(n, tag, proc, log, ts, tmp, total, cpu)
        for n, part in ser:
            tag, proc, log, ts = start(n, part, args, tmp)
            finish(n, tag, proc, log, ts, tmp, total, reap(proc, True))
    wall = time.monotonic() - t0
    for tid, why in sorted(total["skips"]):
        print(f"SKIPPED {tid}: {why}")
    if args.times:
        with open(args.times, "w") as fh:
            cpu = sum(c for _, _, c in total["files"])
            fh.write(f"# integration wall time {wall:.1f} s, jobs={jobs}, CPU {cpu:.1f} s;"
                     " files, slowest first: wall s, CPU s (user + system, storbench's included)\n")
            for n, w, c in sorted(total["files"], key=lambda x: -x[1]):
                fh.write(f"{w:8.1f} {c:8.1f}  {n}\n")
            fh.write("# tests, slowest first\n")
            for tid, w in sorted(total["times"], key=lambda x: -x[1]):
                fh.write(f"{w:8.1f}  {tid}\n")
    print(f"integration: {total['passed']} passed, {total['failed']} failed, {total['skipped']} skipped"
          f" ({wall:.0f} s, {jobs} at a time)")
    if args.counts:
        with open(args.counts, "w") as f:
            f.write(f"{total['passed']} {total['failed']} {total['skipped']}\n")
    return 0 if total["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
