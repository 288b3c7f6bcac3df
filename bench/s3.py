#!/usr/bin/env python3
"""ioengine=s3 against curl on a local S3 server:
PUT and GET of 4 KiB and 16 MiB objects at queue depth 1 and 32, storbench
beside curl 7.88 for the same object size and count, alternating the two
tools run by run (R rounds, medians): ops/s, MiB/s, p99 latency and CPU per
request.

storbench: one job per run, rw=write (PUT) or rw=read (GET) of N objects of
the size (bs = s3_object_size = the size, size = N x the size, iodepth=QD,
lat_percentiles=1).  ops/s and MiB/s are the JSON's (the job's runtime: the
checks before the first I/O, a listing and a HEAD per object already there
for a PUT job, are not in them); p99 is lat_ns's (queued to completed).
CPU per request two ways: "job", the JSON's usr_cpu + sys_cpu times
job_runtime over the requests (the job thread during the I/O: fio's
meaning); "proc", getrusage of the child process over the requests (all of
it: start, the checks before the first I/O, output).
curl: one process per run over a config file of N URLs (one connection at
QD 1: transfers one after the other, reused connection); QD 32 is one
process with --parallel --parallel-max 32 --parallel-immediate.  ops/s and
MiB/s are N over the process's wall time; p99 from -w '%{time_total}' of
each transfer; CPU per request from getrusage of the child (all of it).
PUT sends one file of random bytes (/dev/shm) with -T to distinct keys, GET
writes to /dev/null.  storbench's GET of a whole object is a plain one, as
curl's (engines/s3req.c drops the Range header then: radosgw answers a
ranged GET, 206, more slowly: 4 KiB at QD 1 on the 2-core VM about 1.65 ms
against 1.3 ms per request, curl either way); --curl-range makes curl send
Range: bytes=0-(size-1), as storbench's reads of part of an object do.  Every answer must be 2xx (else the script stops).

Server: its own Ceph radosgw through t/integration/sbtest.S3Server, or
--endpoint URL --bucket B --access-key K --secret-key S [--region R].
Objects go under a prefix of their own (bench-s3-PID-TIME/); on a given
server they are deleted at the end unless --keep (the server this script
starts is stopped and its directory removed, objects and all; --keep leaves
it running until Enter is pressed, to look at them).

Usage: bench/s3.py [--rounds 3] [--scale F] [--out FILE] [--storbench P]
                   [--sizes 4k,16m] [--qds 1,32] [--keep] [server options]
A benchmark, not a test: nothing fails on a figure (exit 0 unless a run or
a request fails)."""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SRC, "t", "integration"))

KiB, MiB = 1024, 1024 * 1024
# objects per run for (size, QD), about 2-5 s each on the 2-core test VM;
# --scale multiplies them
COUNTS = {(4 * KiB, 1): 1500, (4 * KiB, 32): 6000, (16 * MiB, 1): 32, (16 * MiB, 32): 64}


def size_name(n):
    return f"{n // MiB} MiB" if n >= MiB else f"{n // KiB} KiB"


def parse_size(s):
    s = s.strip().lower()
    mult = {"k": KiB, "m": MiB}.get(s[-1:], 1)
    return int(s[:-1] if s[-1:] in "km" else s) * mult


def count_for(size, qd, scale):
    base = COUNTS.get((size, qd)) or max(8, int(6e6 / size) if size < MiB else 2 * qd)
    return max(qd, int(base * scale))


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(-(-0.99 * len(xs) // 1)) - 1))]


def rusage_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Bench:
    def __init__(self, a, srv, tmp):
        self.a, self.srv, self.tmp = a, srv, tmp
        self.prefix = f"bench-s3-{os.getpid()}-{int(time.time())}"
        self.env = dict(os.environ, AWS_ACCESS_KEY_ID=srv["access_key"],
                        AWS_SECRET_ACCESS_KEY=srv["secret_key"], AWS_REGION=srv["region"],
                        AWS_DEFAULT_REGION=srv["region"])
        self.payload = {}

    # ---------------------------------------------------------- storbench
    def sb(self, op, size, qd, n):
        s = self.srv
        job = os.path.join(self.tmp, "s3.fio")
        with open(job, "w") as f:
            f.write(f"[s3]\nioengine=s3\nhttp_host={s['host']}\ns3_bucket={s['bucket']}\n"
                    f"s3_path_style=1\nhttp_s3_region={s['region']}\n"
                    f"filename={self.prefix}/sb-{size}\ns3_object_size={size}\nbs={size}\n"
                    f"size={n * size}\nrw={'write' if op == 'PUT' else 'read'}\n"
                    f"iodepth={qd}\nlat_percentiles=1\n")
        c0, t0 = rusage_cpu(), time.monotonic()
        p = subprocess.run([self.a.storbench, "--output-format=json", job], env=self.env,
                           capture_output=True, text=True)
        wall, cpu = time.monotonic() - t0, rusage_cpu() - c0
        if p.returncode != 0:
            sys.exit(f"s3 bench: storbench {op} {size_name(size)} QD{qd} failed "
                     f"({p.returncode}):\n{p.stderr[-3000:]}")
        j = json.loads(p.stdout[p.stdout.find("{"):])["jobs"][0]
        d = j["write" if op == "PUT" else "read"]
        if d["total_ios"] != n:
            sys.exit(f"s3 bench: storbench {op} did {d['total_ios']} I/Os, not {n}")
        eng = j.get("engine", {})
        bad = {k: eng.get(k) for k in ("http_4xx", "http_5xx", "retries", "connection_errors")
               if eng.get(k)}
        if bad:
            print(f"  note: storbench {op} {size_name(size)} QD{qd}: {bad}", flush=True)
        pct = (d.get("lat_ns", {}).get("percentile") or d["clat_ns"]["percentile"])
        return dict(ops=d["iops"], mibs=d["bw_bytes"] / MiB, p99=pct["99.000000"] / 1e6,
                    cpu=(j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e3 / n,
                    cpu_proc=cpu * 1e6 / n, wall=wall, runtime=j["job_runtime"] / 1e3,
                    requests=eng.get("requests"))

    # ---------------------------------------------------------- curl
    def payload_file(self, size):
        if size not in self.payload:
            path = os.path.join(self.a.payload_dir, f"sbs3-{os.getpid()}-{size}")
            with open(path, "wb") as f:
                f.write(os.urandom(size))
            self.payload[size] = path
        return self.payload[size]

    def curl(self, op, size, qd, n):
        s = self.srv
        cfg = os.path.join(self.tmp, "curl.cfg")
        base = f"{s['endpoint']}/{s['bucket']}/{self.prefix}/curl-{size}"
        with open(cfg, "w") as f:
            for i in range(n):
                f.write(f'url = "{base}/{i}"\n')
                if op == "PUT":
                    f.write(f'upload-file = "{self.payload_file(size)}"\n')
                f.write('output = "/dev/null"\n')
        args = [self.a.curl, "-sS", "--aws-sigv4", f"aws:amz:{s['region']}:s3",
                "--user", f"{s['access_key']}:{s['secret_key']}",
                "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
                "-w", "%{http_code} %{time_total}\\n", "-K", cfg]
        if op == "GET" and self.a.curl_range:   # the request storbench sends
            args[1:1] = ["-H", f"Range: bytes=0-{size - 1}"]
        if qd > 1:
            args[1:1] = ["--parallel", "--parallel-max", str(qd), "--parallel-immediate"]
        c0, t0 = rusage_cpu(), time.monotonic()
        p = subprocess.run(args, capture_output=True, text=True)
        wall, cpu = time.monotonic() - t0, rusage_cpu() - c0
        lines = [ln.split() for ln in p.stdout.splitlines() if ln.strip()]
        bad = [ln for ln in lines if not ln[0].startswith("2")]
        if p.returncode != 0 or len(lines) != n or bad:
            sys.exit(f"s3 bench: curl {op} {size_name(size)} QD{qd}: exit {p.returncode}, "
                     f"{len(lines)} of {n} transfers, {len(bad)} not 2xx "
                     f"({bad[:3]}):\n{p.stderr[-2000:]}")
        lat = [float(ln[1]) for ln in lines]
        return dict(ops=n / wall, mibs=n * size / MiB / wall, p99=p99(lat) * 1e3,
                    cpu=cpu * 1e6 / n, cpu_proc=cpu * 1e6 / n, wall=wall, runtime=wall)

    def cleanup(self, client):
        """DELETE every key under this run's prefix (8 at a time)"""
        from concurrent.futures import ThreadPoolExecutor
        keys = [k for k, _ in client.list(self.srv["bucket"], self.prefix + "/")]

        def rm(k):
            r = client.delete(self.srv["bucket"], k)
            if not r.ok and r.status != 404:
                print(f"s3 bench: DELETE {k}: {r}", file=sys.stderr)
        with ThreadPoolExecutor(8) as ex:
            list(ex.map(rm, keys))
        return len(keys)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the object counts")
    ap.add_argument("--sizes", default="4k,16m")
    ap.add_argument("--qds", default="1,32")
    ap.add_argument("--out")
    ap.add_argument("--keep", action="store_true", help="leave the objects in the bucket")
    ap.add_argument("--storbench", default=os.path.join(SRC, "build", "storbench"))
    ap.add_argument("--curl", default="/usr/bin/curl")
    ap.add_argument("--curl-range", action="store_true",
                    help="curl GETs send Range: bytes=0-(size-1) (storbench sends none for a whole object)")
    ap.add_argument("--payload-dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None)
    ap.add_argument("--endpoint", help="http://HOST:PORT of a running S3 server")
    ap.add_argument("--bucket")
    ap.add_argument("--access-key")
    ap.add_argument("--secret-key")
    ap.add_argument("--region", default="us-east-1")
    a = ap.parse_args()
    if a.payload_dir is None:
        a.payload_dir = tempfile.gettempdir()
    sizes = [parse_size(x) for x in a.sizes.split(",")]
    qds = [int(x) for x in a.qds.split(",")]
    import s3client
    server = None
    if a.endpoint:
        if not (a.bucket and a.access_key and a.secret_key):
            ap.error("--endpoint needs --bucket, --access-key and --secret-key")
        if not a.endpoint.startswith("http://"):
            ap.error("--endpoint: http://HOST:PORT (storbench's https=on is not wired here)")
        srv = dict(endpoint=a.endpoint.rstrip("/"), bucket=a.bucket, access_key=a.access_key,
                   secret_key=a.secret_key, region=a.region)
        what = f"the server at {a.endpoint}"
    else:
        import sbtest
        print("starting radosgw (t/s3/start-s3.sh) ...", flush=True)
        import unittest
        try:
            server = sbtest.S3Server()
        except unittest.SkipTest as e:   # radosgw not installed: say what is missing
            sys.exit(f"s3 bench: {e} (or give --endpoint)")
        srv = dict(endpoint=server.endpoint, bucket=server.bucket, access_key=server.access_key,
                   secret_key=server.secret_key, region=server.region)
        what = "a local Ceph radosgw (t/s3/start-s3.sh: BlueStore, tcp_nodelay=1) on the same machine"
    srv["host"] = srv["endpoint"].split("://", 1)[1]
    client = s3client.S3Client(srv["endpoint"], srv["access_key"], srv["secret_key"],
                               srv["region"])
    curl_ver = subprocess.run([a.curl, "--version"], capture_output=True,
                              text=True).stdout.split("\n")[0].split(" (")[0]
    load0 = loadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        b = Bench(a, srv, tmp)
        try:
            for size in sizes:
                for qd in qds:
                    n = count_for(size, qd, a.scale)
                    res = {(t, op): [] for t in ("sb", "curl") for op in ("PUT", "GET")}
                    for r in range(a.rounds):
                        tools = (("sb", b.sb), ("curl", b.curl))
                        if r % 2:
                            tools = tools[::-1]
                        for op in ("PUT", "GET"):
                            for t, fn in tools:
                                x = fn(op, size, qd, n)
                                res[(t, op)].append(x)
                                print(f"{size_name(size):>7} QD{qd:<2} {op} {n:5} objects "
                                      f"round {r + 1} {t:4}: {x['ops']:9.1f} ops/s "
                                      f"{x['mibs']:8.1f} MiB/s p99 {x['p99']:8.2f} ms "
                                      f"CPU {x['cpu']:8.1f} us/req (proc {x['cpu_proc']:.1f}) "
                                      f"wall {x['wall']:.2f} s", flush=True)
                    for op in ("PUT", "GET"):
                        med = {t: {k: statistics.median(x[k] for x in res[(t, op)])
                                   for k in ("ops", "mibs", "p99", "cpu", "cpu_proc", "wall",
                                             "runtime")}
                               for t in ("sb", "curl")}
                        rows.append(dict(size=size, qd=qd, op=op, n=n, **{
                            f"{t}_{k}": v for t in med for k, v in med[t].items()}))
        finally:
            if server and not a.keep:
                print(f"objects under {b.prefix}/ go with the server's directory", flush=True)
            elif not a.keep:
                try:
                    print(f"removed {b.cleanup(client)} objects under {b.prefix}/", flush=True)
                except Exception as e:  # a dead server: say so, keep the results
                    print(f"s3 bench: cleanup failed: {e}", file=sys.stderr)
            else:
                print(f"kept the objects under {srv['bucket']}/{b.prefix}/")
            for p in b.payload.values():
                os.unlink(p)
            if server:
                if a.keep:
                    print(f"server kept: S3_ENDPOINT={server.endpoint} S3_BUCKET={server.bucket} "
                          f"S3_ACCESS_KEY={server.access_key} S3_SECRET_KEY={server.secret_key}; "
                          "press Enter to stop it", flush=True)
                    try:
                        input()
                    except EOFError:
                        pass
                server.stop()
    head = (f"storbench ioengine=s3 vs {curl_ver} against {what}; "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs "
            f"shared by the server and the client; load average {load0} at the start, "
            f"{loadavg()} at the end; {a.rounds} alternating rounds, medians.\n"
            "storbench: ops/s and MiB/s over the job's runtime, p99 of lat_ns (queued to done), "
            "CPU per request of the job thread (JSON usr_cpu+sys_cpu x job_runtime) and, in "
            "brackets, of the whole process (getrusage: start, pre-I/O listing and HEADs, "
            "output). curl: one process per run (QD 1: one connection, transfers in turn; "
            "QD 32: --parallel --parallel-max 32), ops/s and MiB/s over its wall time, p99 of "
            "-w %{time_total}, CPU per request from getrusage of the process. "
            + ("curl GETs send a Range header for the whole object (storbench's are plain).\n\n"
               if a.curl_range else
               "Both GET whole objects without a Range header (200).\n\n"))
    table = head + ("| object | QD | op | objects | storbench ops/s | storbench MiB/s | "
                    "curl ops/s | curl MiB/s | ratio sb/curl | storbench p99 ms | curl p99 ms | "
                    "storbench CPU us/req (proc) | curl CPU us/req |\n"
                    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        table += (f"| {size_name(r['size'])} | {r['qd']} | {r['op']} | {r['n']} | "
                  f"{r['sb_ops']:.1f} | {r['sb_mibs']:.1f} | {r['curl_ops']:.1f} | "
                  f"{r['curl_mibs']:.1f} | {r['sb_ops'] / r['curl_ops']:.2f} | "
                  f"{r['sb_p99']:.2f} | {r['curl_p99']:.2f} | "
                  f"{r['sb_cpu']:.0f} ({r['sb_cpu_proc']:.0f}) | {r['curl_cpu']:.0f} |\n")
    print()
    print(table)
    if a.out:
        with open(a.out, "w") as f:
            f.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
