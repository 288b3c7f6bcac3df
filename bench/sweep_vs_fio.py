#!/usr/bin/env python3
"""jobs/nvme-sweep.ini in one storbench run against the same points run as
separate fio invocations (what DeepSpeed's sweep script and fio users' shell
loops do): one fio process per point with loops=N, `sync` (and, as root, a
page-cache drop) before each, as the sweep does before each repetition.
Prints both wall times and the ratio.  Usage: bench/sweep_vs_fio.py [--size 4m]"""
import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)

# the lists of jobs/nvme-sweep.ini (DeepSpeed's original single-process sweep)
RW = ["read", "write"]
BS = ["128k", "256k", "1m"]
DEPTH = [4, 16, 32]
JOBS = [1, 2, 4, 8]
SUBMIT = [1, 0]            # single submit on / off (0 = iodepth)
OVERLAP = ["1", "@"]       # complete_min 1 / = iodepth


def drop_caches():
    os.sync()
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("1")
    except OSError:
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="4m")
    ap.add_argument("--loops", type=int, default=3)
    ap.add_argument("--storbench", default=os.path.join(SRC, "build", "storbench"))
    ap.add_argument("--fio", default=shutil.which("fio"))
    a = ap.parse_args()
    if not a.fio:
        sys.exit("bench: fio not found (apt-get install fio)")
    base = os.environ.get("BENCH_DISK_DIR", "/var/tmp")
    with tempfile.TemporaryDirectory(dir=base, prefix="sbsweep.") as d:
        env = dict(os.environ, DIR=d, SIZE=a.size)
        t0 = time.monotonic()
        p = subprocess.run([a.storbench, "--output-format=json", "--output=" + os.path.join(d, "s.json"),
                            os.path.join(SRC, "jobs", "nvme-sweep.ini")], env=env,
                           capture_output=True, text=True)
        sb_wall = time.monotonic() - t0
        if p.returncode:
            sys.exit(f"storbench failed: {p.stderr}")
        points = list(itertools.product(RW, BS, DEPTH, JOBS, SUBMIT, OVERLAP))
        t0 = time.monotonic()
        for rw, bs, depth, jobs, submit, overlap in points:
            drop_caches()
            cmin = depth if overlap == "@" else 1
            cmd = [a.fio, "--output-format=json", "--name=sweep", f"--directory={d}", "--ioengine=libaio",
                   "--direct=1", f"--size={a.size}", f"--loops={a.loops}", "--group_reporting",
                   f"--rw={rw}", f"--bs={bs}", f"--iodepth={depth}", f"--numjobs={jobs}",
                   f"--iodepth_batch_submit={submit}", f"--iodepth_batch_complete_min={cmin}"]
            q = subprocess.run(cmd, capture_output=True, text=True)
            if q.returncode:
                sys.exit(f"fio failed: {' '.join(cmd)}\n{q.stderr}")
        fio_wall = time.monotonic() - t0
    print(f"{len(points)} points x loops={a.loops}, {a.size} per worker, libaio direct=1")
    print(f"storbench, one run of jobs/nvme-sweep.ini: {sb_wall:8.1f} s")
    print(f"fio, one invocation per point:            {fio_wall:8.1f} s")
    print(f"ratio storbench / fio wall time:          {sb_wall / fio_wall:8.2f}")


if __name__ == "__main__":
    sys.exit(main())
