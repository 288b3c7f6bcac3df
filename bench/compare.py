#!/usr/bin/env python3
"""Run the same job file through storbench and fio in one go and print ratios
(storbench / fio).  Runs alternate (fio, storbench, fio, storbench, ...) so
drift on the machine hits both; the median of each side is compared.
Usage: bench/compare.py [--reps N] [--storbench PATH] [--fio PATH] [NAME...]"""
import argparse
import difflib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (job file, metric, better) ; metric(json) -> float
def read_iops(j):
    return sum(job["read"]["iops"] for job in j["jobs"])

def write_iops(j):
    return sum(job["write"]["iops"] for job in j["jobs"])

def read_bw(j):
    return sum(job["read"]["bw_bytes"] for job in j["jobs"])

def write_bw(j):
    return sum(job["write"]["bw_bytes"] for job in j["jobs"])

def verify_bw(j):
    # write+verify: bytes written and read back per second of the whole job
    # (write phase + verify phase: fio's job_runtime covers both)
    return sum(job["write"]["io_bytes"] / (job["job_runtime"] / 1000.0) for job in j["jobs"])

def total_ios(j):
    return sum(job[d]["total_ios"] for job in j["jobs"] for d in ("read", "write"))


# metric "cpu_per_io": the whole process's CPU time (all its threads, from
# getrusage of the child) divided by the I/Os it did, in microseconds;
# "usr_per_io": the same for user time only (the tool's own work: system time
# is the kernel doing the I/O); "ctx_per_io": the JSON's "ctx" (context
# switches of the I/O threads, getrusage) over the I/Os
BENCHES = {
    "null-4k-randread": ("null-4k-randread.fio", read_iops, "IOPS", "higher", 3.0),
    "null-4k-randread-gtod": ("null-4k-randread-gtod.fio", read_iops, "IOPS", "higher", 3.0),
    "psync-shm-4k-randread": ("psync-shm-4k-randread.fio", read_iops, "IOPS", "higher", 1.0),
    "io_uring-shm-qd32": ("io_uring-shm-4k-randread-qd32.fio", read_iops, "IOPS", "higher", 1.2),
    "io_uring-shm-qd32-usr": ("io_uring-shm-4k-randread-qd32.fio", "usr_per_io", "usr us/IO", "lower", 0.4),
    "io_uring-shm-qd32-ctx": ("io_uring-shm-4k-randread-qd32.fio", "ctx_per_io", "ctx/IO", "lower", 1.0),
    "libaio-disk-qd64": ("libaio-disk-4k-randread-qd64.fio", read_iops, "IOPS", "higher", 1.0),
    "libaio-disk-qd64-cpu": ("libaio-disk-4k-randread-qd64.fio", "cpu_per_io", "CPU us/IO", "lower", 0.8),
    "seq-1m-direct-write": ("seq-1m-direct-write.fio", write_bw, "bytes/s", "higher", 0.98),
    "seq-1m-refill-write-shm": ("seq-1m-refill-write-shm.fio", write_bw, "bytes/s", "higher", 1.0),
    "null-4k-randwrite": ("null-4k-randwrite.fio", write_iops, "IOPS", "higher", 1.5),
    "seq-1m-direct-read": ("seq-1m-direct-read.fio", read_bw, "bytes/s", "higher", 0.98),
    "seq-128k-write-verify-crc32c": ("seq-128k-write-verify-crc32c.fio", verify_bw, "bytes/s", "higher", 1.2),
    "seq-128k-write-verify-xxhash": ("seq-128k-write-verify-xxhash.fio", verify_bw, "bytes/s", "higher", 1.2),
    "trivial-wall": ("trivial.fio", "wall", "wall s", "lower", 1.0),
    "trivial-rss": ("trivial.fio", "rss", "peak RSS KiB", "lower", 1.0),
}


def run(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    out = p.stdout
    start = out.find("{")
    data = json.loads(out[start:]) if start >= 0 else None
    usr = after.ru_utime - before.ru_utime
    cpu = usr + (after.ru_stime - before.ru_stime)
    return data, wall, after.ru_maxrss, (cpu, usr)


def measure(tool, path, job, metric, env, extra=()):
    cmd = [path, "--output-format=json", *extra, job]
    data, wall, rss, cpu = run(cmd, env)
    if metric == "wall":
        return wall
    if metric == "rss":
        return rss  # children's max RSS so far: run trivial benches in their own process
    if metric == "cpu_per_io":
        return cpu[0] * 1e6 / total_ios(data)
    if metric == "usr_per_io":
        return cpu[1] * 1e6 / total_ios(data)
    if metric == "ctx_per_io":
        return sum(job["ctx"] for job in data["jobs"]) / total_ios(data)
    return metric(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--storbench", default=os.path.join(HERE, "..", "build", "storbench"))
    ap.add_argument("--fio", default=shutil.which("fio"))
    ap.add_argument("--fio-thread", action="store_true",
                    help="also run fio --thread (jobs as threads, as storbench runs them) and print "
                         "storbench / fio --thread")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    bad = [n for n in a.names if n not in BENCHES]
    if bad:  # a message with the names, not a KeyError traceback
        near = difflib.get_close_matches(bad[0], list(BENCHES), n=1)
        ap.error("unknown benchmark '%s'%s; the benchmarks are: %s" % (
            bad[0], " (did you mean '%s'?)" % near[0] if near else "", ", ".join(BENCHES)))
    if not a.fio:
        sys.exit("bench: fio not found (apt-get install fio)")
    fio_ver = subprocess.run([a.fio, "--version"], capture_output=True, text=True).stdout.strip()
    names = a.names or list(BENCHES)
    disk_base = os.environ.get("BENCH_DISK_DIR", "/var/tmp")
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as d, \
            tempfile.TemporaryDirectory(dir=disk_base, prefix="sbbench.") as dd:
        env = dict(os.environ, BENCH_DIR=d, BENCH_DISK_DIR=dd)
        print(f"storbench vs {fio_ver}, {a.reps} alternating runs each, median; "
              f"tmpfs files in {d}, disk files in {dd}")
        print(f"{'benchmark':26} {'metric':14} {'fio':>14} {'storbench':>14} {'ratio':>7} {'target':>8}")
        for name in names:
            jobf, metric, label, better, target = BENCHES[name]
            job = os.path.join(HERE, "jobs", jobf)
            t = None
            if metric == "rss":
                # one fresh python per side so RUSAGE_CHILDREN's max is that tool's
                vals = {}
                for tool, path in (("fio", a.fio), ("storbench", a.storbench)):
                    code = ("import resource,subprocess,sys;"
                            "subprocess.run(sys.argv[1:],capture_output=True,check=True);"
                            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
                    rs = [int(subprocess.run([sys.executable, "-c", code, path, "--output-format=json", job],
                                             env=env, capture_output=True, text=True, check=True).stdout)
                          for _ in range(a.reps)]
                    vals[tool] = statistics.median(rs)
                f, s = vals["fio"], vals["storbench"]
            else:
                fv, sv, tv = [], [], []
                for _ in range(a.reps):
                    fv.append(measure("fio", a.fio, job, metric, env))
                    sv.append(measure("storbench", a.storbench, job, metric, env))
                    if a.fio_thread:
                        tv.append(measure("fio", a.fio, job, metric, env, ("--thread",)))
                f, s = statistics.median(fv), statistics.median(sv)
                t = statistics.median(tv) if tv else None
            ratio = s / f if f else float("nan")
            goal = f"{'>=' if better == 'higher' else '<='}{target:.2f}"
            ok = (ratio >= target) if better == "higher" else (ratio <= target)
            line = f"{name:26} {label:14} {f:14.4g} {s:14.4g} {ratio:7.2f} {goal:>8} {'ok' if ok else 'MISSED'}"
            if a.fio_thread and metric != "rss":
                line += f"   fio --thread {t:14.1f}, storbench / fio --thread {s / t:5.2f}"
            print(line)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
