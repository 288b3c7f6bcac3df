#!/usr/bin/env python3
"""report_scale.py: `storbench report` on a 1-hour run with 1 s samples and
64 CPUs (target: under 1 s and under 5 MB).

The result is built synthetically: one job reading and writing for 3600 s
with a 3600-sample time series, a json+ latency histogram, and a host series
of 3600 samples each with the 64 CPUs' utilization ("cpus", as the per-CPU
heat strip reads it) and every host column.  (storbench itself keeps at most
2048 host samples, so this is more than a real run writes.)

    python3 bench/report_scale.py [--bin build/storbench] [--seconds 3600]
                                  [--cpus 64] [--repeat 5] [--keep DIR]

Prints the JSON's size, the best and median wall and CPU time of the report
over --repeat runs and the report's size; exits 1 when the best wall time or
the size misses its target."""
import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def result(seconds, cpus):
    rnd = random.Random(1)
    ts, host = [], []
    for s in range(seconds):
        t = (s + 1) * 1000
        wave = 1 + 0.3 * math.sin(s / 60)
        d = {}
        for name in ("read", "write"):
            iops = 50000 * wave * (1 + 0.05 * rnd.random())
            d[name] = {"bw_bytes": int(iops * 4096), "iops": round(iops, 6),
                       "clat_mean_ns": int(80000 / wave), "clat_max_ns": int(2e6 * (1 + rnd.random())),
                       "clat_p99_ns": int(250000 / wave), "clat_p50_ns": int(70000 / wave)}
        ts.append({"t_ms": t, "dur_ms": 1000, **d})
        per = [round(min(100.0, max(0.0, 40 * wave + 20 * rnd.random() + (c % 8) * 3)), 2)
               for c in range(cpus)]
        host.append({"t_ms": t, "dur_ms": 1000, "cpu_avg": round(sum(per) / cpus, 3),
                     "cpu_min": min(per), "cpu_max": max(per), "cpus": per,
                     "mem_pct": round(30 + 5 * wave, 3), "dirty_bytes": rnd.randrange(1 << 28),
                     "writeback_bytes": rnd.randrange(1 << 24),
                     "disk_read_bytes": int(2e8 * wave), "disk_write_bytes": int(2e8 * wave),
                     "disk_util_pct": round(80 * wave / 1.3, 3), "fs_used_pct": 40.0,
                     "net_lo_sent": 0, "net_lo_recv": 0, "net_ext_sent": rnd.randrange(10 ** 6),
                     "net_ext_recv": rnd.randrange(10 ** 6), "rapl_watts": round(150 * wave, 2),
                     "psi_io_some_pct": round(5 * rnd.random(), 3), "psi_io_full_pct": 1.0})
    bins = {}
    for i in range(1200):   # fio-like log-linear buckets from 1 us to ~100 ms
        ns = int(1000 * 10 ** (i / 240))
        bins[str(ns)] = max(1, int(1e6 * math.exp(-((i - 400) / 120) ** 2)))
    tot = sum(bins.values())
    direction = {"io_bytes": 50000 * 4096 * seconds, "bw_bytes": 50000 * 4096, "iops": 50000.0,
                 "runtime": seconds * 1000, "total_ios": tot,
                 "clat_ns": {"min": 1000, "max": 100000000, "mean": 80000.0, "stddev": 1.0, "N": tot,
                             "percentile": {"50.000000": 70000, "99.000000": 250000}, "bins": bins}}
    return {"storbench version": "storbench-bench", "time": "synthetic",
            "global options": {"runtime": str(seconds)},
            "jobs": [{"jobname": "hour", "groupid": 0, "job options": {"rw": "randrw"},
                      "read": direction, "write": direction, "usr_cpu": 10.0, "sys_cpu": 30.0,
                      "timeseries": ts}],
            "host": {"run_s": seconds, "samples": seconds,
                     "cpu": {"ncpus": cpus, "cpu_avg_utilization_pct": 50.0},
                     "mem": {"mem_total_bytes": 1 << 38}, "series_intervals_per_sample": 1,
                     "series": host}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "storbench"))
    ap.add_argument("--seconds", type=int, default=3600)
    ap.add_argument("--cpus", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", help="write the JSON and the report into this folder")
    a = ap.parse_args()
    d = a.keep or tempfile.mkdtemp(prefix="sbrep.")
    os.makedirs(d, exist_ok=True)
    js, html = os.path.join(d, "hour.json"), os.path.join(d, "hour.html")
    with open(js, "w") as f:
        json.dump(result(a.seconds, a.cpus), f)
    times, cpu = [], []
    for _ in range(a.repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([a.bin, "report", js, "-o", html], capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        if p.returncode:
            sys.exit("storbench report failed (%d): %s" % (p.returncode, p.stderr))
    times.sort()
    cpu.sort()
    size = os.path.getsize(html)
    print("input %.1f MB (%d s, %d CPUs); report over %d runs: wall best %.3f s, median %.3f s; "
          "CPU (user+sys) best %.3f s, median %.3f s; %.2f MB written"
          % (os.path.getsize(js) / 1e6, a.seconds, a.cpus, a.repeat, times[0],
             times[len(times) // 2], cpu[0], cpu[len(cpu) // 2], size / 1e6))
    # the best wall time: on a loaded machine the others include waiting for a core
    ok = times[0] < 1.0 and size < 5e6
    print("target (< 1 s, < 5 MB):", "met" if ok else "MISSED")
    if not a.keep:
        os.unlink(js)
        os.unlink(html)
        os.rmdir(d)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
