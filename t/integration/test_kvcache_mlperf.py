"""workload=kvcache kv_profile=mlperf: the official MLCommons KV-cache
benchmark's storage I/O.  Facts from mlcommons/storage
kv_cache_benchmark/kv_cache/:
- backends.py NVMeBackend.write: np.save to <key>.npy, f.flush(), os.fsync;
  NVMeBackend.read: os.open, os.posix_fadvise(fd, 0, 0, 4 = DONTNEED),
  os.close, then np.load; NVMeBackend.delete: unlink.
- cache.py KVCacheGenerator.generate: float16, shape (num_layers, 2, tokens,
  kv_heads, kv_dim_per_head); _ensure_space_in_tier: the last tier (NVMe)
  deletes its LRU entries; _evaluate_storage_performance: NVMe write device
  p95 < 500 ms, read device p95 < 200 ms, CPU p95 < 150 ms, hit rate > 0.3.
- benchmark.py process_requests: step 2 reads every previous turn's entry,
  step 3 writes the request's entry (prefill), step 5 reads it (decode) and
  re-reads it ceil(generate_tokens / 32) times (cfg decode.batch_size 32).
The strace checks run one user on one worker, so the events are in order."""
import json
import os
import re
import shutil
import subprocess
import unittest

import time

from sbtest import BIN, SRC, SbCase

SHAPE = (2, 2, 16)  # layers, kv_heads, head_dim: 256 bytes per token at fp16
BASE = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
        "--head_dim=16", "--prompt_tokens=64", "--prompt_tokens_min=64", "--output_tokens=64",
        "--output_tokens_min=64", "--kv_users=1", "--kv_memory_capacity=0", "--kv_think_time=0",
        "--kv_system_prompt_probability=0"]  # official default 0.2 shortens contexts: off here
ENTRY = 64 * 256
EV = re.compile(r'^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)')
NPY = re.compile(r'kv_(\d+)\.npy')


TMP = re.compile(r'=\s+(\d+)<[^>]*/(#\d+)>')  # an unnamed file (O_TMPFILE): fd, inode name
LINK = re.compile(r'"/proc/self/fd/(\d+)"')


RESUMED = re.compile(r'^(\d+)\s+<\.\.\. \w+ resumed>(.*)$')


def whole_lines(trace):
    """strace -f's lines with each call whole: a call another thread's call
    cut in two ("PID call(args <unfinished ...>", later "PID <... call
    resumed> rest) = ret", which a busy machine makes common) is joined back,
    at the place it finished"""
    pending = {}
    for line in trace.splitlines():
        pid = line.split(" ", 1)[0]
        if line.endswith("<unfinished ...>"):
            pending[pid] = line[:-len("<unfinished ...>")].rstrip()
            continue
        m = RESUMED.match(line)
        if m and m.group(1) in pending:
            line = pending.pop(m.group(1)) + m.group(2)
        yield line


def events(trace):
    """(op, entry id) in order: create, open (read-only), fadvise, fsync, write, unlink.
    An entry made unnamed (openat O_TMPFILE, marked), then linked under its
    name (linkat), is created at the linkat; its descriptor keeps showing
    the inode's unnamed name (#INO), mapped back to the entry here."""
    out, fd_tmp, tmp_entry = [], {}, {}
    for line in whole_lines(trace):
        m = EV.match(line)
        if not m:
            continue
        op, args, ret = m.group(1), m.group(2), int(m.group(3))
        pid = line.split()[0]
        if op == "openat" and "O_TMPFILE" in args and ret >= 0:
            t = TMP.search(line)
            if t:
                fd_tmp[(pid, t.group(1))] = t.group(2)
            continue
        f = NPY.search(args)
        if op == "linkat" and f and ret >= 0:
            fd = LINK.search(args)
            if fd and (pid, fd.group(1)) in fd_tmp:
                tmp_entry[fd_tmp[(pid, fd.group(1))]] = int(f.group(1))
        if not f:
            t = re.search(r'/(#\d+)>', args)
            if not t or t.group(1) not in tmp_entry or ret < 0:
                continue
            n = tmp_entry[t.group(1)]
        elif ret < 0:
            continue
        else:
            n = int(f.group(1))
        if op == "openat":
            out.append(("create" if "O_CREAT" in args else "open", n))
        elif op == "linkat":
            out.append(("create", n))
        elif op == "fadvise64":
            out.append(("dontneed" if "POSIX_FADV_DONTNEED" in args else "fadvise", n))
        elif op in ("fsync", "write", "unlink", "close", "read"):
            out.append((op, n))
    return out


@unittest.skipUnless(shutil.which("strace"), "strace is not installed")
class KvMlperfTrace(SbCase):
    def traced(self, *args):
        tr = os.path.join(self.dir, "..", os.path.basename(self.dir) + ".strace")
        # LeakSanitizer cannot run under ptrace (the sanitizer build)
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        p = subprocess.run(["strace", "-f", "-y", "-s", "0", "-o", tr, "-e",
                            "trace=openat,linkat,write,read,fsync,fadvise64,unlink,close", BIN,
                            "--output-format=json", *BASE, f"--directory={self.dir}", *args],
                           capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(tr) as f:
            trace = f.read()
        os.unlink(tr)
        return json.loads(p.stdout)["jobs"][0]["kvcache"], events(trace)

    def reads(self, ev):
        """the entries read, in order: each an open after a DONTNEED open/close"""
        return [n for i, (op, n) in enumerate(ev) if op == "open" and i >= 2 and
                ev[i - 1] == ("close", n) and ev[i - 2] == ("dontneed", n)]

    def test_files_fsync_fadvise_rereads_turns(self):
        k, ev = self.traced("--kv_requests=30", "--kv_disk_capacity=1g", "--keep_kvcache=1")
        m = k["mlperf"]
        creates = [n for op, n in ev if op == "create"]
        self.assertEqual(len(creates), 30)  # one file per entry, one entry per request
        self.assertEqual(len(set(creates)), 30)
        # every create: data written, then fsync, then close, nothing else between
        for i, (op, n) in enumerate(ev):
            if op != "create":
                continue
            j = i + 1
            while ev[j] == ("write", n):
                j += 1
            self.assertGreater(j, i + 1, "no write after the create of %d" % n)
            self.assertEqual(ev[j:j + 2], [("fsync", n), ("close", n)])
        # every open that reads data follows an open, DONTNEED, close of the same file
        opens = [i for i, (op, n) in enumerate(ev) if op == "open"]
        data = self.reads(ev)
        self.assertEqual(len(opens), 2 * len(data))
        self.assertEqual(sum(1 for op, _ in ev if op == "dontneed"), len(data))
        self.assertEqual(len(data), m["cache_stats"]["read_iops"])
        # per request: after the create, 1 decode read + ceil(64 / 32) re-reads of
        # the entry; before the next create, every earlier turn of its conversation
        seq = []
        for i, (op, n) in enumerate(ev):
            if op == "create":
                seq.append(("c", n))
            elif op == "open" and n in data and i >= 2 and ev[i - 2] == ("dontneed", n):
                seq.append(("r", n))
        conv_start, longest = None, 0
        for idx, n in enumerate(creates):
            at = seq.index(("c", n))
            self.assertEqual(seq[at + 1:at + 4], [("r", n)] * 3, "decode + 2 re-reads of entry %d" % n)
            nxt = seq.index(("c", creates[idx + 1])) if idx + 1 < len(creates) else len(seq)
            turns = [x[1] for x in seq[at + 4:nxt]]
            if idx + 1 < len(creates):
                if not turns:
                    conv_start = idx + 1
                else:  # all previous turns of the conversation, oldest first
                    self.assertEqual(turns, creates[conv_start:idx + 1])
                    longest = max(longest, len(turns))
            if conv_start is None:
                conv_start = 0
        self.assertGreaterEqual(longest, 2, "no conversation of 3 turns in 30 requests")
        self.assertEqual(m["multi_turn_stats"]["cache_misses"], 0)
        # numpy loads each file: float16 (layers, 2, tokens, kv_heads, head_dim)
        files = sorted(os.listdir(os.path.join(self.dir, "kvcache")))
        self.assertEqual(len(files), 30)
        code = ("import numpy, sys\nfor p in sys.argv[1:]:\n a = numpy.load(p)\n"
                " print(a.dtype, a.shape)\n")
        p = subprocess.run(["/usr/bin/python3", "-c", code] +
                           [os.path.join(self.dir, "kvcache", f) for f in files],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(set(p.stdout.split("\n")) - {""}, {"float16 (2, 2, 64, 2, 16)"})

    def test_rereads_every_n_tokens(self):
        k, ev = self.traced("--kv_requests=6", "--kv_disk_capacity=1g", "--kv_decode_reread_tokens=16")
        creates = [n for op, n in ev if op == "create"]
        data = self.reads(ev)
        for n in creates:  # 1 decode read + ceil(64 / 16) re-reads, plus later turns' reads
            self.assertGreaterEqual(data.count(n), 5)
        self.assertEqual(k["mlperf"]["cache_stats"]["decode_reads"], len(data))

    def test_unlink_on_eviction(self):
        # the NVMe tier holds 4 entries (of 16 KiB + a 128-byte header)
        k, ev = self.traced("--kv_requests=20", "--kv_disk_capacity=66k")
        m = k["mlperf"]
        unlinked = [n for op, n in ev if op == "unlink"]
        created = [n for op, n in ev if op == "create"]
        self.assertGreater(m["cache_stats"]["evictions"], 0)
        self.assertEqual(sorted(unlinked), sorted(created))  # evicted or removed at the end
        live, most = set(), 0
        for op, n in ev:
            if op == "create":
                live.add(n)
            elif op == "unlink":
                self.assertIn(n, live)
                live.discard(n)
            elif op == "open":
                self.assertIn(n, live, "read of an evicted entry")
            most = max(most, len(live))
        self.assertLessEqual(most, 5)
        self.assertEqual(self.listing(), [])  # files and folder removed at the end


class KvMlperf(SbCase):
    def kv(self, *args):
        d = self.run_json(*BASE, f"--directory={self.dir}", *args)
        return d["jobs"][0], d["jobs"][0]["kvcache"]

    def test_json_keys(self):
        job, k = self.kv("--kv_requests=40", "--kv_users=6", "--kv_memory_capacity=64k",
                         "--kv_gpu_mem=32k", "--kv_disk_capacity=1m", "--decode_time_per_token=50us")
        self.assertEqual(k["profile"], "mlperf")
        m = k["mlperf"]
        self.assertEqual(m["total_requests"], 40)
        self.assertEqual(m["total_tokens"], 40 * 64)
        for key in ("avg_throughput_tokens_per_sec", "storage_throughput_tokens_per_sec",
                    "requests_per_second", "elapsed_time", "total_storage_io_time"):
            self.assertGreater(m[key], 0, key)
        # the rate is computed from the unrounded elapsed time; elapsed_time is printed to
        # 1 ns (%.9f), so the recomputed rate may differ by tokens / e^2 * 0.5 ns, plus the
        # rate's own rounding to 6 decimals
        e = m["elapsed_time"]
        self.assertAlmostEqual(m["avg_throughput_tokens_per_sec"], 40 * 64 / e,
                               delta=40 * 64 / (e * e) * 1e-9 + 1e-5)
        for lat in ("end_to_end_latency_ms", "storage_io_latency_ms", "generation_latency_ms"):
            d = m[lat]
            self.assertEqual(d["n"], 40)
            self.assertLessEqual(d["p50"], d["p95"])
            self.assertLessEqual(d["p95"], d["p99"])
            self.assertLessEqual(d["p99"], d["p9999"])
            self.assertGreater(d["mean"], 0)
        self.assertAlmostEqual(m["generation_latency_ms"]["mean"], 64 * 0.05, delta=0.2)
        c = m["cache_stats"]
        self.assertEqual(c["write_iops"], c["prefill_writes"])
        self.assertEqual(c["cache_hits"] + c["cache_misses"], c["read_iops"] + c["cache_misses"])
        self.assertGreater(c["tier_gpu_kv_bytes_written_gb"], 0)
        self.assertGreater(c["offloads_storage"], 0)
        for key in ("storage_read_device_p95_ms", "storage_read_host_p95_ms", "gpu_read_p9999_ms",
                    "tier_storage_read_bandwidth_gbps", "tier_cpu_write_bandwidth_gbps",
                    "storage_tokens_processed", "read_write_ratio"):
            self.assertIn(key, c)
        h = c["storage_health"]
        self.assertIn(h["overall_status"], ("PASS", "FAIL"))
        names = [x["name"] for x in h["criteria"]]
        self.assertIn("Storage Tier Read Device P95 < 200ms", names)
        self.assertIn("Cache Hit Rate > 30%", names)
        self.assertEqual(h["passed_count"], sum(x["passed"] for x in h["criteria"]))
        self.assertEqual(h["overall_status"] == "PASS", h["passed_count"] == h["total_count"])
        q = m["qos_metrics"]
        self.assertEqual(sum(q[c]["total_requests"] for c in q), 40)
        self.assertEqual(q["interactive"]["target_latency_p95_ms"], 50)
        self.assertEqual(q["batch"]["target_latency_p95_ms"], 1000)
        for c in q.values():
            self.assertTrue(0 <= c["sla_compliance"] <= 1)
        self.assertIn("hit_rate", m["multi_turn_stats"])
        self.assertEqual(self.listing(), [])

    def test_normal_output(self):
        p = self.run_sb(*BASE, f"--directory={self.dir}", "--kv_requests=10")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"STORAGE PERFORMANCE ASSESSMENT: (PASS|FAIL) \(\d/\d criteria\)")
        self.assertIn("end-to-end latency", p.stdout)
        self.assertIn("storage device/host p95 (ms)", p.stdout)

    def test_prefill_only_decode_only_tp(self):
        _, k = self.kv("--kv_requests=10", "--kv_prefill_only=1", "--kv_disk_capacity=1m")
        self.assertEqual(k["mlperf"]["cache_stats"]["decode_reads"],
                         k["mlperf"]["cache_stats"]["multi_turn_hits"])
        self.assertEqual(k["mlperf"]["cache_stats"]["write_iops"], 10)
        _, k = self.kv("--kv_requests=10", "--kv_decode_only=1", "--kv_disk_capacity=100m")
        c = k["mlperf"]["cache_stats"]
        self.assertEqual(c["write_iops"], 0)      # the pre-populated entries are not counted
        self.assertEqual(c["read_iops"], 10 * 3)  # decode + 2 re-reads each
        _, k = self.kv("--kv_requests=4", "--kv_tensor_parallel=2", "--kv_disk_capacity=1m")
        self.assertEqual(k["mlperf"]["cache_stats"]["total_write_bytes"], 4 * ENTRY // 2)

    def test_user_templates(self):
        """workload.py DEFAULT_USER_TEMPLATES: contexts 512..25000 tokens per user,
        a request draws [c/4, c]; think times 0.1..1.5 s"""
        t0 = time.monotonic()
        d = self.run_json("--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2",
                          "--kv_heads=2", "--head_dim=16", "--kv_users=3", "--kv_requests=6",
                          "--kv_disk_capacity=64m", f"--directory={self.dir}")
        m = d["jobs"][0]["kvcache"]["mlperf"]
        c = m["cache_stats"]
        self.assertEqual(m["total_requests"], 6)
        self.assertGreaterEqual(time.monotonic() - t0, 0.08)  # every user thinks first
        per = c["total_write_bytes"] / c["write_iops"] / 256
        self.assertTrue(128 <= per <= 25000, per)
        self.assertTrue(50 // 4 <= m["total_tokens"] / 6 <= 800, m["total_tokens"])

    def test_npy_tp_fp8(self):
        """tensor parallel: cache.py stores the flat first 1/tp of the elements"""
        self.kv("--kv_requests=3", "--kv_tensor_parallel=2", "--kv_bytes_per_element=1",
                "--kv_disk_capacity=1m", "--keep_kvcache=1")
        folder = os.path.join(self.dir, "kvcache")
        files = [os.path.join(folder, f) for f in sorted(os.listdir(folder))]
        self.assertEqual(len(files), 3)
        code = "import numpy, sys\nfor p in sys.argv[1:]:\n a = numpy.load(p)\n print(a.dtype, a.shape)\n"
        p = subprocess.run(["/usr/bin/python3", "-c", code, *files], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(set(p.stdout.split("\n")) - {""}, {"uint8 (4096,)"})

    def test_rules_mlperf_default(self):
        job, k = self.kv("--kv_requests=5", "--rules=mlperf")
        self.assertEqual(k["profile"], "mlperf")
        p = self.run_json("--name=kv", "--workload=kvcache", "--layers=2", "--kv_heads=2",
                          "--head_dim=16", "--kv_requests=5", f"--directory={self.dir}")
        self.assertEqual(p["jobs"][0]["kvcache"]["profile"], "blocks")

    def test_shipped_job(self):
        """jobs/kvcache-llama3-8b.ini: under 30 s, with the official assessment"""
        t0 = time.monotonic()
        p = self.run_sb("--output-format=json", os.path.join(SRC, "jobs", "kvcache-llama3-8b.ini"),
                        timeout=90)
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(p.returncode, 0, p.stderr)
        m = json.loads(p.stdout)["jobs"][0]["kvcache"]["mlperf"]
        self.assertIn(m["cache_stats"]["storage_health"]["overall_status"], ("PASS", "FAIL"))
        self.assertGreaterEqual(m["cache_stats"]["storage_health"]["total_count"], 2)
        self.assertEqual(self.listing(), [])

    def test_conversation_cap(self):
        """kv_max_turns_per_conv=N: a user starts a new conversation once its
        current one has N turns (benchmark.py:444-451, the official
        conversation.max_turns_per_conv), so step 2 of a request reads at
        most N - 1 earlier turns; 1: every request starts one, step 2 reads
        nothing"""
        args = ["--output-format=json", *BASE, f"--directory={self.dir}", "--kv_users=2",
                "--kv_think_time=2ms", "--decode_time_per_token=1ms", "--kv_requests=60"]
        seen = {}
        for cap in (1, 2, 50):
            p = self.run_sb(*args, "--kv_max_turns_per_conv=%d" % cap, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            m = json.loads(p.stdout)["jobs"][0]["kvcache"]["mlperf"]
            mt = m["multi_turn_stats"]
            seen[cap] = mt["cache_hits"] + mt["cache_misses"]
            self.assertLessEqual(seen[cap], (cap - 1) * m["total_requests"], (cap, mt))
        self.assertEqual(seen[1], 0)
        self.assertGreater(seen[50], seen[2])  # 60 requests of 2 users: conversations past 2 turns

    def test_bad_input(self):
        cases = [
            ("kv_gpu_mem=1g\n", 4, r"kv_gpu_mem= applies to kv_profile=mlperf only.*set kv_profile=mlperf, or remove kv_gpu_mem="),
            ("kv_max_turns_per_conv=4\n", 4,
             r"kv_max_turns_per_conv= applies to kv_profile=mlperf only.*set kv_profile=mlperf, or remove"),
            ("kv_profile=mlperf\nkv_max_turns_per_conv=0\n", 5, r"kv_max_turns_per_conv"),
            ("kv_profile=mlperf\nkv_prefill_only=1\nkv_decode_only=1\n", 6, r"kv_decode_only.*leave nothing to run: set one of them to 0"),
            ("kv_profile=mlperf\ndirect=1\n", 5, r"direct=1 is not what kv_profile=mlperf measures.*set direct=0, or kv_profile=blocks"),
            ("kv_profile=npy\n", 4, r"kv_profile"),
            # the job's section line: check_tier in ml/kvcache/kvcache.c names the job
            ("kv_profile=mlperf\ndirectory=/nonexistent-sb/a\n", 1,
             r"/nonexistent-sb/a is not a writable directory: set directory= to one"),
        ]
        for i, (extra, line, msg) in enumerate(cases):
            job = self.write_job("[kv]\nworkload=kvcache\nmodel=llama3-8b\n" + extra, f"b{i}.ini")
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertRegex(p.stderr, rf"b{i}\.ini:{line}: .*" + msg)
        self.assertEqual(self.listing(), [f"b{i}.ini" for i in range(len(cases))])


if __name__ == "__main__":
    unittest.main()
