"""workload=kvcache kv_profile=mlperf with several users: the entries' file
I/O runs in parallel, outside the job's lock.  The official
benchmark does the same: mlcommons/storage
kv_cache_benchmark/kv_cache/cache.py MultiTierCache keeps a lock per entry
(entry_locks, _get_entry_lock) and a metadata lock held only for the
bookkeeping, and benchmark.py runs one thread per user
(process_requests), so several users' np.save / np.load are in flight at
once.  Shown here without LD_PRELOAD: strace -f timestamps give, per
thread, each entry file's interval from its openat to its close; intervals
of different threads must overlap."""
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase

# 256 bytes per token at fp16: entries of 256 KiB to 1 MiB
BASE = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
        "--head_dim=16", "--prompt_tokens=4096", "--prompt_tokens_min=1024", "--output_tokens=64",
        "--kv_memory_capacity=0", "--kv_think_time=0"]
LINE = re.compile(r'^(\d+)\s+(\d+\.\d+)\s+(openat|close)\((.*)\)\s+=\s+(-?\d+)(<[^>]*>)?\s+<(\d+\.\d+)>')
# a call another thread's call interrupted: "<unfinished ...>", then "<... openat resumed>"
HALF = re.compile(r'^(\d+)\s+(\d+\.\d+)\s+(openat|close)\((.*?)\s*<unfinished \.\.\.>')
REST = re.compile(r'^(\d+)\s+\d+\.\d+\s+<\.\.\. (openat|close) resumed>(.*)\)\s+=\s+(-?\d+)(<[^>]*>)?'
                  r'\s+<(\d+\.\d+)>')
NPY = re.compile(r'kv_(\d+)\.npy')


def calls(trace):
    """(pid, start, op, args, ret, returned path, duration) of each openat/close"""
    half = {}
    for line in trace.splitlines():
        m = LINE.match(line)
        if m:
            pid, t, op, args, ret, path, dur = m.groups()
            yield pid, float(t), op, args, int(ret), path or "", float(dur)
            continue
        m = HALF.match(line)
        if m:
            half[m.group(1)] = (float(m.group(2)), m.group(4))
            continue
        m = REST.match(line)
        if m and m.group(1) in half:
            pid, op, rest, ret, path, dur = m.groups()
            t, args = half.pop(pid)
            yield pid, t, op, args + rest, int(ret), path or "", float(dur)


def intervals(trace):
    """(start, end, pid, entry) of each open..close of an entry file"""
    open_at, out = {}, []
    for pid, t, op, args, ret, path, dur in calls(trace):
        f = NPY.search(args + path)
        if not f or ret < 0:
            continue
        key = (pid, ret if op == "openat" else int(args.split("<")[0]))
        if op == "openat":
            open_at[key] = (t, int(f.group(1)))
        elif key in open_at:
            start, n = open_at.pop(key)
            out.append((start, t + dur, pid, n))
    return out


def most_in_flight(iv):
    """the most entry I/Os of different threads in flight at one instant"""
    ev = sorted([(s, 1, p) for s, _, p, _ in iv] + [(e, -1, p) for _, e, p, _ in iv],
                key=lambda x: (x[0], x[1]))
    now, best = {}, 0
    for _, d, p in ev:
        now[p] = now.get(p, 0) + d
        best = max(best, sum(1 for v in now.values() if v > 0))
    return best


@unittest.skipUnless(shutil.which("strace"), "strace is not installed")
class KvConcurrent(SbCase):
    def traced(self, *args):
        tr = os.path.join(self.dir, "..", os.path.basename(self.dir) + ".cstrace")
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        p = subprocess.run(["strace", "-f", "-ttt", "-T", "-y", "-s", "0", "-o", tr, "-e",
                            "trace=openat,close", BIN, "--output-format=json", *BASE,
                            f"--directory={self.dir}", *args],
                           capture_output=True, text=True, timeout=300, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(tr) as f:
            trace = f.read()
        os.unlink(tr)
        return json.loads(p.stdout)["jobs"][0]["kvcache"], intervals(trace)

    def test_users_io_overlaps(self):
        k, iv = self.traced("--kv_users=8", "--kv_requests=40", "--kv_disk_capacity=1g")
        # each request: its write, the decode read and re-reads (two opens each: the
        # DONTNEED one, then the read), earlier turns' reads
        self.assertGreaterEqual(len(iv), 40 * 5, "every entry file I/O seen")
        self.assertGreater(len({p for _, _, p, _ in iv}), 1, "several workers did entry I/O")
        self.assertGreater(most_in_flight(iv), 1, "more than one entry I/O in flight at once")
        self.assertEqual(k["mlperf"]["total_requests"], 40)

    def test_eviction_under_load(self):
        """a small NVMe tier: entries are deleted while others are read and
        written; every read finds its file (an unlink never hits a file in
        use: the run would fail with ENOENT) and the counts add up"""
        k, iv = self.traced("--kv_users=8", "--kv_requests=60", "--kv_disk_capacity=4m")
        m = k["mlperf"]
        self.assertEqual(m["total_requests"], 60)
        self.assertGreater(m["cache_stats"]["evictions"], 0)
        self.assertGreater(most_in_flight(iv), 1)
        d = os.path.join(self.dir, "kvcache")
        self.assertEqual(os.listdir(d) if os.path.isdir(d) else [], [], "files left behind")


if __name__ == "__main__":
    unittest.main()
