"""kv_profile=mlperf entry files as the official KV-cache
benchmark writes and reads them (mlcommons/storage kv_cache_benchmark,
main 058a87e):
- contents: cache.py KVCacheGenerator.generate (lines 110-160) copies a
  slice of its noise buffer from an offset drawn from the entry's key and
  _apply_xor_stamp (lines 51-108) XORs it with a 4 KiB stamp drawn from
  the key and XORs each whole 4 KiB block's first 8 bytes with the block's
  index: every 4 KiB block of every entry file is unique (no dedup);
- calls: backends.py NVMeBackend.write (lines 268-285) is np.save to an
  open file: write(header), then ndarray.tofile's fwrite of the data: its
  whole 4096-byte blocks in one write, the rest (buffered) in one more;
  NVMeBackend.read (lines 287-313) is np.load: Python's buffered read of
  4096 bytes, then fromfile through glibc stdio: read(h) from 0, a 4096-byte
  refill from 0, the whole blocks left in one read, the rest by one more
  refill.  The oracle here is numpy itself: Debian's /usr/bin/python3
  saving and loading an array of the same shape under strace (skipped,
  saying why, without strace or numpy)."""
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase

PY = "/usr/bin/python3"
BASE = ["--output-format=json", "--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2",
        "--kv_heads=2", "--head_dim=16", "--output_tokens=64", "--output_tokens_min=64", "--kv_users=1",
        "--kv_memory_capacity=0", "--kv_think_time=0", "--kv_system_prompt_probability=0",
        "--prompt_tokens_min=1", "--keep_kvcache=1"]
SYS = re.compile(r'^(?:\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)')
NPY = re.compile(r'kv_(\d+)\.npy')
PROCFD = re.compile(r'"/proc/self/fd/(\d+)"')


def have_numpy():
    if not os.access(PY, os.X_OK):
        return False
    return subprocess.run([PY, "-c", "import numpy"], capture_output=True).returncode == 0


def file_ops(trace):
    """{entry: [[(op, size asked, got), ...] per open]} from a storbench trace
    without -y: a descriptor is an entry's from its openat by name, or from
    the linkat that names its O_TMPFILE file, to its close"""
    fds, out = {}, {}
    for line in trace.splitlines():
        m = SYS.match(line)
        if not m:
            continue
        op, args, ret = m.group(1), m.group(2), int(m.group(3))
        if op == "openat" and ret >= 0:
            f = NPY.search(args)
            fds[ret] = int(f.group(1)) if f else ("tmp" if "O_TMPFILE" in args else None)
            if f:
                out.setdefault(fds[ret], []).append([])
        elif op == "linkat" and ret >= 0:
            f, k = NPY.search(args), PROCFD.search(args)
            if f and k and fds.get(int(k.group(1))) == "tmp":
                fds[int(k.group(1))] = int(f.group(1))
                out.setdefault(int(f.group(1)), []).append([])
        elif op == "close":
            fds.pop(int(args.split(",")[0]), None)
        elif op in ("read", "write"):
            fd, *_, size = [a.strip() for a in args.split(",")]
            n = fds.get(int(fd))
            if isinstance(n, int):
                out[n][-1].append((op, int(size), ret))
    return out


def numpy_ops(tmp, path, shape):
    """what numpy does to a file of this shape: (np.save's calls, np.load's calls)"""
    code = ("import numpy, sys\nshape = tuple(int(x) for x in sys.argv[2].split(','))\n"
            "a = numpy.ones(shape, dtype=numpy.float16)\nsys.stderr.write('SAVE\\n')\n"
            "with open(sys.argv[1], 'wb') as f:\n numpy.save(f, a, allow_pickle=False)\n"
            "sys.stderr.write('LOAD\\n')\nnumpy.load(sys.argv[1], allow_pickle=False)\n")
    tr = os.path.join(tmp, "np.strace")
    p = subprocess.run(["strace", "-f", "-y", "-s", "8", "-o", tr, "-e", "trace=read,write", PY, "-c", code,
                        path, ",".join(str(x) for x in shape)], capture_output=True, text=True)
    if p.returncode:
        raise AssertionError(p.stderr)
    save, load, phase = [], [], None
    with open(tr) as f:
        for line in f:
            if "SAVE" in line:
                phase = save
            elif "LOAD" in line:
                phase = load
            m = SYS.match(line)
            if phase is not None and m and m.group(1) in ("read", "write") and path + ">" in m.group(2):
                phase.append((m.group(1), int(m.group(2).split(",")[-1]), int(m.group(3))))
    return save, load


@unittest.skipUnless(shutil.which("strace"), "strace is not installed")
class KvEntryCalls(SbCase):
    def run_traced(self, *args):
        tr = os.path.join(self.dir, "..", os.path.basename(self.dir) + ".strace")
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        p = subprocess.run(["strace", "-f", "-s", "0", "-o", tr, "-e", "trace=openat,linkat,read,write,close",
                            BIN, *BASE, "--directory=" + self.dir, *args],
                           capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(tr) as f:
            trace = f.read()
        os.unlink(tr)
        return json.loads(p.stdout)["jobs"][0]["kvcache"], file_ops(trace)

    def check(self, prompt, requests):
        k, ops = self.run_traced("--prompt_tokens=%d" % prompt, "--kv_requests=%d" % requests)
        files = sorted(os.listdir(os.path.join(self.dir, "kvcache")))
        self.assertEqual(len(files), requests)
        seen = set()
        for name in files:
            n = int(NPY.search(name).group(1))
            path = os.path.join(self.dir, "kvcache", name)
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                head = f.read(10)
            h = 10 + head[8] + 256 * head[9]
            tokens = (size - h) // 256  # 2 x 2 layers x 2 kv_heads x 16 dims x 2 bytes
            self.assertEqual(size, h + tokens * 256)
            writes, *reads = ops[n]
            d = size - h
            want = [("write", h, h)] + [("write", x, x) for x in (d - d % 4096, d % 4096) if x]
            self.assertEqual(writes, want, name)
            self.assertGreaterEqual(len(reads), 2)  # the DONTNEED open, then the read
            key = (h, size)
            if key in seen:
                continue
            seen.add(key)
            save, load = numpy_ops(self.dir, os.path.join(self.dir, "oracle.npy"), (2, 2, tokens, 2, 16))
            self.assertEqual(writes, save, "np.save of %d tokens" % tokens)
            for r in reads:
                if r:  # the open that reads (the DONTNEED one reads nothing)
                    self.assertEqual(r, load, "np.load of %d tokens" % tokens)
        return k

    @unittest.skipUnless(have_numpy(), "numpy is the oracle: apt-get install python3-numpy")
    def test_calls_as_numpy_makes_them(self):
        """data sizes of every kind: under 3968 bytes (all in the first 4096), whole
        blocks, whole blocks and a rest; contexts drawn in [c/4, c]"""
        self.check(8, 6)      # 2-8 tokens: 512-2048 bytes
        shutil.rmtree(os.path.join(self.dir, "kvcache"), ignore_errors=True)
        self.check(400, 12)   # 100-400 tokens: 25600-102400 bytes

    def test_every_4k_block_unique(self):
        """within an entry and across entries, at the file's 4 KiB blocks"""
        self.run_traced("--prompt_tokens=3000", "--kv_requests=8")
        blocks, total = set(), 0
        d = os.path.join(self.dir, "kvcache")
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as f:
                data = f.read()
            self.assertGreater(len(data), 8 * 4096)  # >= 750 tokens of 256 bytes
            for o in range(0, len(data) - 4095, 4096):
                blocks.add(data[o:o + 4096])
                total += 1
        self.assertGreater(total, 8 * 40)
        self.assertEqual(len(blocks), total)


if __name__ == "__main__":
    unittest.main()
