#!/usr/bin/env python3
"""Host-counter overhead: the same job with host_counters=all (sampled every
stats_interval=1s, perf events on the I/O threads) against host_counters=none,
on the null engine and on psync reads from a file in /dev/shm.  Runs
alternate (all, none, all, none, ...) so drift hits both sides; the median
IOPS of each side is compared.  The target: within 1%.
Usage: bench/overhead.py [--reps N] [--runtime S] [--storbench PATH]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

JOBS = {
    "null-4k-randread": "ioengine=null\nrw=randread\nbs=4k\nsize=1g\n",
    "psync-shm-4k-randread": "ioengine=psync\ndirectory={dir}\nfilename=bench-ovh.dat\n"
                             "rw=randread\nbs=4k\nsize=256m\n",
}


def iops(sb, text, tmp):
    path = os.path.join(tmp, "job.ini")
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([sb, "--output-format=json", path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"overhead: storbench failed ({p.returncode}):\n{p.stderr}")
    return sum(j["read"]["iops"] for j in json.loads(p.stdout)["jobs"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--runtime", type=int, default=4)
    ap.add_argument("--counters", default="all", help="host_counters= of the measured side")
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    a = ap.parse_args()
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="sbovh.", dir=shm) as tmp:
        print(f"{'bench':24} {a.counters + ' IOPS':>12} {'none IOPS':>12} {'ratio':>9}")
        for name, body in JOBS.items():
            res = {a.counters: [], "none": []}
            for _ in range(a.reps):
                for hc in (a.counters, "none"):
                    text = (f"[{name}]\n" + body.format(dir=tmp) +
                            f"runtime={a.runtime}\ntime_based\nstats_interval=1\n"
                            f"host_counters={hc}\n")
                    res[hc].append(iops(a.storbench, text, tmp))
            m_all, m_none = statistics.median(res[a.counters]), statistics.median(res["none"])
            print(f"{name:24} {m_all:12.0f} {m_none:12.0f} {m_all / m_none:9.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
