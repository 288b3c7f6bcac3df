#!/usr/bin/env python3
"""Tracing overhead (write_trace=): psync 4k random reads from a
file in /dev/shm, one thread, without a trace, tracing every I/O, and tracing
one I/O in 100 (trace_sample=100); runs alternate (off, all, sampled, off,
...) so drift hits every side; the median IOPS of each side is compared with
the untraced one.  Targets: every I/O <= 10% fewer IOPS, trace_sample=100
<= 1%.  --engine null measures the tool's own per-I/O cost instead.
Also prints the spread (min-max over the repetitions) so noise is visible.
Usage: bench/trace_overhead.py [--reps N] [--runtime S] [--engine psync|null] [--storbench PATH]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

SIDES = (("off", ""), ("every I/O", "write_trace={dir}/t.pfw.gz\n"),
         ("trace_sample=100", "write_trace={dir}/t.pfw.gz\ntrace_sample=100\n"))


def iops(sb, text, tmp):
    path = os.path.join(tmp, "job.ini")
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([sb, "--output-format=json", path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"trace_overhead: storbench failed ({p.returncode}):\n{p.stderr}")
    return sum(j["read"]["iops"] for j in json.loads(p.stdout)["jobs"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--runtime", type=int, default=3)
    ap.add_argument("--engine", default="psync", choices=("psync", "null"))
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    a = ap.parse_args()
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="sbtrace.", dir=shm) as tmp:
        body = (f"[{a.engine}-4k-randread]\nioengine={a.engine}\ndirectory={tmp}\n"
                f"filename=bench-trace.dat\nrw=randread\nbs=4k\nsize=256m\n"
                f"runtime={a.runtime}\ntime_based\nhost_counters=none\n")
        res = {name: [] for name, _ in SIDES}
        for _ in range(a.reps):
            for name, extra in SIDES:
                res[name].append(iops(a.storbench, body + extra.format(dir=tmp), tmp))
        base = statistics.median(res["off"])
        print(f"{'side':18} {'median IOPS':>12} {'min':>10} {'max':>10} {'vs off':>8}")
        for name, _ in SIDES:
            v = res[name]
            m = statistics.median(v)
            print(f"{name:18} {m:12.0f} {min(v):10.0f} {max(v):10.0f} {m / base:8.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
