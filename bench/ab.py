#!/usr/bin/env python3
"""A/B of several builds (and fio) on one job file in one go: runs alternate
tool by tool, repetition by repetition, so drift on the machine hits all of
them.  Per run and as medians it prints read IOPS, context switches per I/O
(the JSON's "ctx" over the I/Os: the I/O threads' voluntary + involuntary
switches, as fio counts them), user and system CPU per I/O in microseconds
(the whole process, from getrusage of the child) and read clat p50/p99/mean
in microseconds.  For changes to an engine's wait path, where IOPS alone
hides a latency cost.
Usage: bench/ab.py [--reps N] JOB NAME=BINARY [NAME=BINARY ...]
  e.g. bench/ab.py --reps 5 bench/jobs/io_uring-shm-4k-randread-qd32.fio \\
           fio=/usr/bin/fio main=/work/main/build/storbench new=build/storbench"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

KEYS = ("iops", "ctx_io", "usr_us_io", "sys_us_io", "p50_us", "p99_us", "mean_us")


def one(path, job, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([path, "--output-format=json", job], env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"ab: {path} {job} failed ({p.returncode}):\n{p.stderr}")
    j = json.loads(p.stdout[p.stdout.find("{"):])
    jobs = j["jobs"]
    n = sum(x["read"]["total_ios"] + x["write"]["total_ios"] for x in jobs)
    rd = jobs[0]["read"]
    pc = rd["clat_ns"].get("percentile", {})
    return dict(iops=sum(x["read"]["iops"] + x["write"]["iops"] for x in jobs),
                ctx_io=sum(x["ctx"] for x in jobs) / n,
                usr_us_io=(after.ru_utime - before.ru_utime) * 1e6 / n,
                sys_us_io=(after.ru_stime - before.ru_stime) * 1e6 / n,
                p50_us=pc.get("50.000000", 0) / 1000, p99_us=pc.get("99.000000", 0) / 1000,
                mean_us=rd["clat_ns"]["mean"] / 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("job")
    ap.add_argument("tools", nargs="+", help="NAME=BINARY")
    a = ap.parse_args()
    tools = [t.split("=", 1) for t in a.tools]
    if any(len(t) != 2 for t in tools):
        sys.exit("ab: tools are NAME=BINARY")
    d = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        env = dict(os.environ, BENCH_DIR=d)
        res = {}
        print(f"{'rep':3} {'tool':10} " + " ".join(f"{k:>10}" for k in KEYS))
        for r in range(a.reps):
            for name, path in tools:
                row = one(path, a.job, env)
                res.setdefault(name, []).append(row)
                print(f"{r:3} {name:10} " + " ".join(f"{row[k]:10.3f}" for k in KEYS), flush=True)
        print("median:")
        for name, rows in res.items():
            print(f"{'':3} {name:10} " + " ".join(f"{statistics.median(x[k] for x in rows):10.3f}"
                                                  for k in KEYS))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
