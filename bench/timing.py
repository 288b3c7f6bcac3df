#!/usr/bin/env python3
"""Timing accuracy: how close storbench comes to what a job asks for in
time, the figures the tests (t/) only bound where other load leaves room
(make check keeps the caps strict and widens every lower bound by the CPU
time other load took, t/integration/sbtest.py CpuLoss).  Each case runs
--reps times and prints the median of the measured figure, the target, the
median ratio and the median CPU time lost to other load (PSI, the same
measure as the tests').  Read the figures from an idle machine: a lost
time near 0.
Usage: bench/timing.py [--reps N] [--storbench PATH] [NAME...]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "t", "integration"))
from sbtest import CpuLoss  # noqa: E402

NULL = "ioengine=null\nsize=1g\nbs=4k\ntime_based\n"


def au_want(compute_s, batch_bytes, rate):
    """AU with prefetch, one consumer and a rate cap (ml/train/au.h)"""
    return 100 * compute_s / max(compute_s, batch_bytes / rate)


# name: (job text, what to read from the JSON job, target, unit)
CASES = {
    # rate= reached (the test: never above; below by load only)
    "rate-20m-psync": ("[r]\nioengine=psync\nfilename={dir}/rate.dat\nsize=64m\nrw=read\n"
                       "rate=20m\ntime_based\nruntime=2\n",
                       lambda j: j["read"]["bw_bytes"] / 2 ** 20, 20.0, "MiB/s"),
    "rate-iops-3000-randrw": ("[r]\n" + NULL + "rw=randrw\nrwmixread=80\nrate_iops=3000\n"
                              "runtime=2\n", lambda j: j["read"]["iops"], 3000.0, "IOPS"),
    # thinktime_iotime: the rate cap catches up after each pause
    "thinktime-catch-up": ("[t]\n" + NULL + "rw=read\nruntime=2\nthinktime=300ms\n"
                           "thinktime_iotime=200ms\nrate_iops=1000\n",
                           lambda j: j["read"]["total_ios"], 2001.0, "I/Os"),
    # the AU of a training job held back by rate=100m (test_ml)
    "au-rate-100m": ("[t]\nworkload=train\nioengine=null\nepochs=1\ndataset_files=160\n"
                     "record_length=1m\nbatch_size=4\nread_threads=2\ncomputation_time=20ms\n"
                     "rate=100m\ndata_dir={dir}/ds\n",
                     lambda j: j["train"]["au_pct"], au_want(0.02, 4 * 2 ** 20, 100 * 2 ** 20), "%"),
    # the AU of a training job storage never stalls
    "au-null": ("[t]\nworkload=train\nioengine=null\nepochs=1\ndataset_files=64\n"
                "record_length=64k\nbatch_size=2\nread_threads=2\ncomputation_time=40ms\n"
                "data_dir={dir}/ds\n", lambda j: j["train"]["au_pct"], 100.0, "%"),
    # how late a time_based job ends (the tests: never early)
    "runtime-1s-late": ("[r]\n" + NULL + "rw=read\nruntime=1\nrate_iops=1000\n",
                        lambda j: j["job_runtime"], 1000.0, "ms"),
}


def once(sb, text, tmp):
    path = os.path.join(tmp, "job.ini")
    with open(path, "w") as f:
        f.write(text.format(dir=tmp))
    with CpuLoss() as lost:
        p = subprocess.run([sb, "--output-format=json", path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"timing: storbench failed ({p.returncode}):\n{p.stderr}")
    return json.loads(p.stdout)["jobs"][0], lost.s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    ap.add_argument("names", nargs="*", help="cases to run (default: all)")
    a = ap.parse_args()
    names = a.names or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit("timing: no case %s (cases: %s)" % (", ".join(unknown), ", ".join(CASES)))
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    print(f"{'case':24} {'measured':>10} {'target':>10} {'unit':6} {'ratio':>7} {'lost s':>7}")
    with tempfile.TemporaryDirectory(prefix="sbtiming.", dir=shm) as tmp:
        for name in names:
            text, pick, target, unit = CASES[name]
            got, lost = [], []
            for _ in range(a.reps):
                j, l = once(a.storbench, text, tmp)
                got.append(pick(j))
                lost.append(l)
            m = statistics.median(got)
            print(f"{name:24} {m:10.1f} {target:10.1f} {unit:6} {m / target:7.3f} "
                  f"{statistics.median(lost):7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
