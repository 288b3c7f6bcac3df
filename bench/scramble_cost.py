#!/usr/bin/env python3
"""Cost per byte of the two buffer scrambles (run/contents.c), as a ratio:
scramble_buffers=1 (fio's: 24 bytes stamped per 512-byte sector,
sb_dg_scramble) against scramble_whole_buffers=1 (every byte XORed with a
fresh word, sb_dg_xor).  A micro-benchmark built from the project's own
object (build/lib/datagen.o, compiled with the project's flags by make): a
small C driver runs each function over one buffer of each size again and
again and reads the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other
load on the machine changes the figures little.  --e2e also runs the null
engine with 1 MiB writes under each option (and scramble_buffers=0) and
prints user CPU per write from getrusage.
Usage: bench/scramble_cost.py [--build build] [--reps 5] [--e2e]
A benchmark, not a test: nothing fails on a figure."""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lib/datagen.h"
static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	size_t len = strtoull(argv[1], NULL, 0);
	double budget = atof(argv[2]); /* bytes per measurement */
	unsigned char *b = aligned_alloc(4096, len);
	sb_dg_random(1, 0, b, len);
	unsigned long n = (unsigned long)(budget / len) + 1, m = n * 8;
	volatile unsigned char sink = 0;
	double t0 = cpu_s();
	for (unsigned long i = 0; i < m; i++) {
		sb_dg_scramble(b, len, i * len, (unsigned)i, i, i * 0x9e3779b97f4a7c15ull);
		sink ^= b[i % len];
	}
	double ts = (cpu_s() - t0) / ((double)m * len);
	t0 = cpu_s();
	for (unsigned long i = 0; i < n; i++) {
		sb_dg_xor(b, len, i * 0x9e3779b97f4a7c15ull);
		sink ^= b[i % len];
	}
	double tw = (cpu_s() - t0) / ((double)n * len);
	printf("%.6g %.6g\n", ts * 1e9, tw * 1e9); /* ns per byte */
	return sink == 1 && 0;
}
"""


def build_driver(build, d):
    src = os.path.join(d, "scramble_cost.c")
    exe = os.path.join(d, "scramble_cost")
    with open(src, "w") as f:
        f.write(DRIVER)
    obj = os.path.join(build, "lib", "datagen.o")
    if not os.path.exists(obj):
        sys.exit(f"scramble_cost: {obj} missing: run make first")
    subprocess.run(["cc", "-O2", "-I", ROOT, src, obj, "-o", exe], check=True)
    return exe


def e2e(sb, reps):
    rows = {}
    with tempfile.TemporaryDirectory() as d:
        for _ in range(reps):
            for name, opt in (("none", "scramble_buffers=0"), ("fio-style", "scramble_buffers=1"),
                              ("whole", "scramble_whole_buffers=1")):
                job = os.path.join(d, "j.fio")
                with open(job, "w") as f:
                    f.write("[w]\nioengine=null\nrw=write\nbs=1m\nsize=64g\nruntime=1\n"
                            "time_based=1\n%s\n" % opt)
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                p = subprocess.run([sb, "--output-format=json", job], capture_output=True,
                                   text=True, check=True)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                j = json.loads(p.stdout[p.stdout.find("{"):])
                n = sum(x["write"]["total_ios"] for x in j["jobs"])
                rows.setdefault(name, []).append((r1.ru_utime - r0.ru_utime) * 1e6 / n)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print("null engine, 1 MiB writes, user CPU per write (us), median of %d:" % reps)
    for k, v in med.items():
        print(f"  {k:10} {v:9.2f}")
    ds, dw = med["fio-style"] - med["none"], med["whole"] - med["none"]
    if dw > 0:
        print(f"  cost over none: fio-style {ds:.2f} us, whole {dw:.2f} us, ratio {ds / dw:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--e2e", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        exe = build_driver(a.build, d)
        print("CPU ns per byte (thread CPU time), median of %d; ratio = fio-style / whole" % a.reps)
        print(f"{'buffer':>8} {'fio-style':>10} {'whole':>10} {'ratio':>7}")
        for size in (512, 4096, 65536, 1 << 20):
            s, w = [], []
            for _ in range(a.reps):
                out = subprocess.run([exe, str(size), str(256 << 20)], capture_output=True,
                                     text=True, check=True).stdout.split()
                s.append(float(out[0]))
                w.append(float(out[1]))
            ms, mw = statistics.median(s), statistics.median(w)
            print(f"{size:8} {ms:10.4f} {mw:10.4f} {ms / mw:7.3f}")
    if a.e2e:
        e2e(os.path.join(a.build, "storbench"), a.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
