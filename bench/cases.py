#!/usr/bin/env python3
"""storbench against fio 3.33 on the case list of the performance table
(README, "Comparing with fio"): N alternating pairs per case (fio then
storbench, then storbench then fio, ...), medians of each side, and per
case the IOPS ratio and the CPU-per-I/O ratio (storbench / fio).

CPU per I/O is measured two ways and both are printed:
  all: the whole process tree's user + system CPU (getrusage of the child,
       the file already laid out by an unmeasured warm-up run of each tool)
       over the I/Os in the JSON: what the tool costs the machine;
  job: the JSON's usr_cpu + sys_cpu (percent of job_runtime) times
       job_runtime over total_ios: the job's own threads (fio's meaning).
The targets: every case IOPS >= 1.0x fio and CPU per I/O
<= 0.8x fio; null 4k randread IOPS >= 3.0x.  Wall-clock IOPS follow the
CPU share a tool gets: on a loaded machine read the CPU-per-I/O columns
first, and say the table was taken under load.

Usage: bench/cases.py [--pairs 5] [--runtime S] [--out FILE] [--storbench P]
                      [--fio P] [NAME...]
--out writes the markdown table (the one the README quotes) to FILE as well.
Files: tmpfs ones in a temporary folder in /dev/shm, disk ones in a
temporary folder in $BENCH_DISK_DIR (default /var/tmp); both removed.
A benchmark, not a test: nothing fails on a figure (exit 0 unless a run
fails)."""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name, job file in bench/jobs, IOPS target (CPU target is 0.8 for all)
CASES = [
    ("null 4k randread", "null-4k-randread.fio", 3.0),
    ("psync tmpfs 4k randread", "psync-shm-4k-randread.fio", 1.0),
    ("io_uring tmpfs 4k QD32", "io_uring-shm-4k-randread-qd32.fio", 1.0),
    ("libaio tmpfs 4k QD32", "libaio-shm-4k-randread-qd32.fio", 1.0),
    ("mmap tmpfs 4k randread", "mmap-shm-4k-randread.fio", 1.0),
    ("libaio disk direct 4k QD64", "libaio-disk-4k-randread-qd64.fio", 1.0),
    ("io_uring disk direct 4k QD64", "io_uring-disk-4k-randread-qd64.fio", 1.0),
    ("libaio disk direct 1m read QD8", "libaio-disk-1m-read-qd8.fio", 1.0),
    ("libaio disk direct 1m write QD8", "libaio-disk-1m-write-qd8.fio", 1.0),
]
CPU_TARGET = 0.8


def job_copy(src, d, runtime):
    """the job file, its runtime= replaced when asked"""
    with open(src) as f:
        text = f.read()
    if runtime:
        text = re.sub(r"(?m)^runtime=.*$", "runtime=%g" % runtime, text)
    dst = os.path.join(d, os.path.basename(src))
    with open(dst, "w") as f:
        f.write(text)
    return dst


def one(path, job, env):
    """(IOPS, CPU us per I/O all, CPU us per I/O job) of one run"""
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([path, "--output-format=json", job], env=env, capture_output=True,
                       text=True)
    a = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"cases: {path} {job} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    j = json.loads(p.stdout[p.stdout.find("{"):])
    jobs = j["jobs"]
    n = sum(x[d]["total_ios"] for x in jobs for d in ("read", "write"))
    iops = sum(x[d]["iops"] for x in jobs for d in ("read", "write"))
    cpu_all = (a.ru_utime - b.ru_utime + a.ru_stime - b.ru_stime) * 1e6 / n
    cpu_job = sum((x["usr_cpu"] + x["sys_cpu"]) / 100 * x["job_runtime"] * 1e3
                  for x in jobs) / n
    return iops, cpu_all, cpu_job


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--runtime", type=float, default=0, help="seconds per run (default: the job's)")
    ap.add_argument("--out")
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    ap.add_argument("--fio", default=shutil.which("fio"))
    ap.add_argument("names", nargs="*", help="cases whose name contains one of these")
    a = ap.parse_args()
    if not a.fio:
        sys.exit("cases: fio not found (apt-get install fio)")
    cases = [c for c in CASES if not a.names or any(n in c[0] for n in a.names)]
    if not cases:
        ap.error("no case matches; the cases are: " + ", ".join(c[0] for c in CASES))
    fio_ver = subprocess.run([a.fio, "--version"], capture_output=True, text=True).stdout.strip()
    disk = os.environ.get("BENCH_DISK_DIR", "/var/tmp")
    loads = [loadavg()]
    rows = []
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as d, \
            tempfile.TemporaryDirectory(dir=disk, prefix="sbbench.") as dd, \
            tempfile.TemporaryDirectory() as jd:
        env = dict(os.environ, BENCH_DIR=d, BENCH_DISK_DIR=dd)
        for name, jobf, target in cases:
            src = os.path.join(HERE, "jobs", jobf)
            job = job_copy(src, jd, a.runtime)
            warm_dir = os.path.join(jd, "warm")
            os.makedirs(warm_dir, exist_ok=True)
            warm = job_copy(src, warm_dir, 0.5)
            for tool in (a.fio, a.storbench):   # lay the files out, unmeasured
                one(tool, warm, env)
            res = {"fio": [], "storbench": []}
            for i in range(a.pairs):
                order = (("fio", a.fio), ("storbench", a.storbench))
                for tool, path in (order if i % 2 == 0 else order[::-1]):
                    res[tool].append(one(path, job, env))
            med = {t: [statistics.median(r[k] for r in v) for k in range(3)]
                   for t, v in res.items()}
            pair_ratio = [s[0] / f[0] for f, s in zip(res["fio"], res["storbench"])]
            f, s = med["fio"], med["storbench"]
            row = dict(name=name, fio_iops=f[0], sb_iops=s[0], iops_ratio=s[0] / f[0],
                       iops_min=min(pair_ratio), iops_max=max(pair_ratio),
                       fio_cpu=f[1], sb_cpu=s[1], cpu_ratio=s[1] / f[1],
                       fio_cpu_job=f[2], sb_cpu_job=s[2],
                       cpu_job_ratio=s[2] / f[2] if f[2] else float("nan"), target=target)
            row["ok"] = row["iops_ratio"] >= target and row["cpu_ratio"] <= CPU_TARGET
            rows.append(row)
            print(f"{name:32} IOPS {f[0]:12.0f} {s[0]:12.0f} {row['iops_ratio']:5.2f}x "
                  f"({row['iops_min']:.2f}-{row['iops_max']:.2f})  CPU us/IO all {f[1]:8.3f} "
                  f"{s[1]:8.3f} {row['cpu_ratio']:5.2f}  job {f[2]:8.3f} {s[2]:8.3f} "
                  f"{row['cpu_job_ratio']:5.2f}  {'ok' if row['ok'] else 'MISSED'}", flush=True)
    loads.append(loadavg())
    head = (f"storbench vs {fio_ver}, {a.pairs} alternating pairs per case, medians; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs, "
            f"load average {loads[0]} at the start, {loads[1]} at the end; "
            f"CPU per I/O: the whole process (getrusage) / the job threads (JSON)\n\n")
    table = head + ("| case | fio IOPS | storbench IOPS | IOPS ratio (pairs min-max) | "
                    "fio CPU us/IO | storbench CPU us/IO | CPU ratio (all / job) | target |\n"
                    "|---|---:|---:|---:|---:|---:|---:|---|\n")
    for r in rows:
        table += (f"| {r['name']} | {r['fio_iops']:.0f} | {r['sb_iops']:.0f} | "
                  f"{r['iops_ratio']:.2f}x ({r['iops_min']:.2f}-{r['iops_max']:.2f}) | "
                  f"{r['fio_cpu']:.3f} | {r['sb_cpu']:.3f} | "
                  f"{r['cpu_ratio']:.2f} / {r['cpu_job_ratio']:.2f} | "
                  f"IOPS >= {r['target']:.1f}x, CPU <= {CPU_TARGET}: "
                  f"{'met' if r['ok'] else 'missed'} |\n")
    print()
    print(table)
    if a.out:
        with open(a.out, "w") as f:
            f.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
