#!/usr/bin/env python3
"""Output time against the number of jobs: numjobs=N on the null engine (4k
random reads, runtime=1s), written as normal, terse and JSON.  The I/O ends
at the JSON's "timestamp_ms" (the wall clock when the threads' results start
being collected); everything from there to the exit of storbench counts:
collecting the results, writing them and freeing them.  JSON is always written last, so normal and terse are timed as
"FORMAT,json" minus "json" alone.  The target:
numjobs=4096 writes its normal and JSON output in under 1 s.  Not a test:
nothing fails on a timing.
Usage: bench/output_scale.py [--jobs 1000,4096] [--reps N] [--timeout S]
                             [--storbench PATH]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

JOB = """[global]
ioengine=null
size=1m
bs=4k
rw=randread
runtime=1
time_based

[j]
numjobs={n}
"""


def output_s(sb, job, fmt, out, timeout):
    """seconds from the end of the I/O to the exit; None on a timeout"""
    try:
        subprocess.run([sb, f"--output-format={fmt}", f"--output={out}", job],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout,
                       check=True)
    except subprocess.TimeoutExpired:
        return None
    end = time.time()
    with open(out) as f:
        text = f.read()
    start = 0 if text.startswith("{") else text.index("\n{") + 1  # the JSON comes last
    return end - json.loads(text[start:])["timestamp_ms"] / 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", default="1000,4096", help="numjobs values, comma separated")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    a = ap.parse_args()
    print(f"{'numjobs':>8} {'normal s':>10} {'json s':>10} {'terse s':>10}")
    with tempfile.TemporaryDirectory(prefix="sbout.") as tmp:
        job, out = os.path.join(tmp, "job.ini"), os.path.join(tmp, "out")
        for n in (int(x) for x in a.jobs.split(",")):
            with open(job, "w") as f:
                f.write(JOB.format(n=n))
            res = {}
            for fmt in ("json", "normal,json", "terse,json"):
                runs = [output_s(a.storbench, job, fmt, out, a.timeout) for _ in range(a.reps)]
                res[fmt] = None if None in runs else statistics.median(runs)
            base = res["json"]

            def show(v):
                return f"{'>' + str(int(a.timeout)):>10}" if v is None else f"{v:10.3f}"

            def minus(v):
                return None if v is None or base is None else max(v - base, 0.0)
            print(f"{n:8d} {show(minus(res['normal,json']))} {show(base)} "
                  f"{show(minus(res['terse,json']))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
