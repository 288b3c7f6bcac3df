"""workload=checkpoint as DLIO runs it: checkpoint_io=torch issues the
write() calls torch.save makes (strace of storbench against strace of
Debian's python3-torch saving tensors of the same sizes through open(f,
"wb"), as DLIO's PyTorchCheckpointing.save_state does), checkpoint_rank_sync
(DLIO: rank 0's own duration unless on), time_between_checkpoints before
every write and read, and both units (GB/s = 1e9, GiB/s = 2^30)."""
import json
import os
import re
import shutil
import subprocess
import time
import unittest

from sbtest import BIN, SbCase

# a tiny explicit shape: one rank, ZeRO-3, 2 transformer layers
SHAPE = dict(hidden=256, ffn=512, layers=2, heads=4, kv_heads=2, vocab=2000, tp=1, pp=1, dp=1,
             zero_stage=3)


def layer_bytes(m, layer):
    """DLIO's per-layer bytes (fp16), as ml/model.h states them"""
    h, L = m["hidden"], m["layers"]
    kv = (h // m["heads"]) * m["kv_heads"]
    if layer in (0, L + 1):
        n = h * m["vocab"]
    elif layer == L + 2:
        n = h
    else:
        n = h + h * (h + 2 * kv) + h * h + h + 3 * h * m["ffn"]
    return 2 * n


def params(m):
    h, L = m["hidden"], m["layers"]
    return sum(layer_bytes(m, i) for i in range(L + 3)) // 2


def torch_python():
    """a python3 with torch (Debian's python3-torch), or None; finds the
    module without importing it (an import of torch takes seconds, and the
    oracle run imports it anyway: a torch that is found but broken fails
    there, with its traceback)"""
    find = "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)"
    for py in ("/usr/bin/python3", shutil.which("python3")):
        if py and subprocess.run([py, "-c", find], capture_output=True).returncode == 0:
            return py
    return None


def strace_writes(cmd, want, cwd):
    """{basename: [write sizes]} of the files whose path contains want"""
    log = os.path.join(cwd, "strace.txt")
    # LeakSanitizer cannot run under ptrace (a sanitizer build under strace)
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    p = subprocess.run(["strace", "-f", "-y", "-o", log, "-e", "trace=write,pwrite64,writev", *cmd],
                       cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stderr
    out = {}
    for line in open(log):
        m = re.search(r'(?:p?write(?:64)?|writev)\(\d+<([^>]*)>.*\) = (\d+)$', line.strip())
        if m and want in m.group(1):
            out.setdefault(os.path.basename(m.group(1)), []).append(int(m.group(2)))
    return out


# PATH SIZES [PATH SIZES ...]: one torch.save per PATH (one python, one
# import torch for all of them)
SAVE = """
import sys, torch
for path, arg in zip(sys.argv[1::2], sys.argv[2::2]):
    sizes = [int(x) for x in arg.split(",")]
    state = {"t%d" % i: torch.randint(-128, 128, (n,), dtype=torch.int8) for i, n in enumerate(sizes)}
    with open(path, "wb") as f:
        torch.save(state, f)
"""


class TorchSaveTest(SbCase):
    def ckpt_job(self, extra="", io="torch", name="job.ini"):
        body = "".join("%s=%d\n" % kv for kv in SHAPE.items())
        return self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=64k\ndrop_caches=0\n"
                              "checkpoint_folder=%s\nnum_checkpoints_write=1\nnum_checkpoints_read=0\n"
                              "checkpoint_io=%s\n%s%s" % (os.path.join(self.dir, "ck"), io, body, extra),
                              name=name)

    @unittest.skipUnless(shutil.which("strace"), "needs strace")
    def test_write_sizes_match_torch_save(self):
        py = torch_python()
        if not py:
            self.skipTest("needs python3-torch (apt-get install python3-torch) as the oracle")
        job = self.ckpt_job("keep_checkpoints=1\n")
        sb = strace_writes([BIN, "--output-format=json", job], "/ck/", self.dir)
        model = sb["zero_pp_rank_0_mp_rank_0_model_states.pt"]
        optim = sb["zero_pp_rank_0_mp_rank_0_optim_states.pt"]
        L = SHAPE["layers"]
        m_tensors = [layer_bytes(SHAPE, i) for i in range(L + 3)]
        o = 4 * (3 * params(SHAPE) + 15 * SHAPE["hidden"])
        o_tensors = [o // 3, o // 3, o - 2 * (o // 3)]
        with open(os.path.join(self.dir, "save.py"), "w") as f:
            f.write(SAVE)
        cases = (("model", m_tensors, model), ("optim", o_tensors, optim))
        refs = strace_writes([py, "save.py"] + [a for name, tensors, _ in cases for a in (
                             os.path.join(self.dir, "torch_" + name + ".pt"), ",".join(map(str, tensors)))],
                             "torch_", self.dir)
        for name, tensors, got in cases:
            path = os.path.join(self.dir, "torch_" + name + ".pt")
            ref = refs["torch_" + name + ".pt"]
            self.assertEqual(len(got), len(ref), "%s: storbench %s, torch.save %s" % (name, got, ref))
            for g, r in zip(got, ref):
                if r in tensors:   # a tensor's own write: exact
                    self.assertEqual(g, r, "%s: storbench %s, torch.save %s" % (name, got, ref))
                else:              # framing: data.pkl is estimated
                    self.assertLess(abs(g - r), 256, "%s: storbench %s, torch.save %s" % (name, got, ref))
            self.assertLess(abs(sum(got) - os.path.getsize(path)), 256)

    def test_bs_mode_unchanged(self):
        job = self.ckpt_job(io="bs", name="bs.ini")
        r = self.run_json(job)["jobs"][0]["checkpoint"]
        self.assertEqual(r["requests"], "bs")
        self.assertEqual(r["bytes_framing"], 0)
        r = self.run_json(self.ckpt_job())["jobs"][0]["checkpoint"]
        self.assertEqual(r["requests"], "torch")
        self.assertGreater(r["bytes_framing"], 0)

    def test_howto_matches_the_bytes_written(self):
        """checkpoint_io=torch files hold storbench's buffer in torch.save's
        request sizes (no zip signature, torch.load cannot open them), not
        torch's zip archive.  HOWTO must say what the files are: a zip
        archive only if they start with b"PK\\x03\\x04"."""
        self.run_json(self.ckpt_job("keep_checkpoints=1\n"))
        files = [os.path.join(r, n) for r, _, ns in os.walk(os.path.join(self.dir, "ck")) for n in ns]
        self.assertTrue(files)
        heads = set()
        for path in files:
            with open(path, "rb") as f:
                heads.add(f.read(4) == b"PK\x03\x04")
        self.assertEqual(len(heads), 1, "some files are zip archives, some not")
        is_zip = heads.pop()
        howto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "HOWTO.md")
        with open(howto) as f:
            text = f.read()
        start = text.index("**Request sizes** (`checkpoint_io`)")
        para = " ".join(text[start:text.index("\n\n", start)].split())
        claims_zip = "the file is torch's zip archive" in para or "files are torch's zip archive" in para
        says_not = "not its file format" in para and "torch.load` cannot open" in para
        self.assertFalse(is_zip, "the files are zip archives: HOWTO and this test need updating")
        self.assertFalse(claims_zip, "HOWTO calls the files torch's zip archive; they are not: " + para[:300])
        self.assertTrue(says_not, "HOWTO must say only the request sizes are torch's: " + para[:300])

    def test_torch_with_direct_refused(self):
        job = self.ckpt_job("direct=1\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:9", p.stderr)     # the checkpoint_io= line
        self.assertIn("checkpoint_io=torch", p.stderr)
        self.assertIn("direct=1", p.stderr)
        self.assertIn("set checkpoint_io=bs", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "ck")))

    def test_rank_sync_and_units(self):
        # 4 ranks (dp=4): a checkpoint lasts rank 0's own time (DLIO's
        # default) or, with checkpoint_rank_sync=1, until the slowest rank ends
        shape = dict(SHAPE, dp=4)
        body = "".join("%s=%d\n" % kv for kv in shape.items())
        res = {}
        for sync in (0, 1):
            job = self.write_job("[ck]\nworkload=checkpoint\nioengine=null\nbs=64k\n"
                                 "num_checkpoints_write=2\nnum_checkpoints_read=2\nranks=4\n"
                                 "checkpoint_rank_sync=%d\n%s" % (sync, body), name="j%d.ini" % sync)
            res[sync] = self.run_json(job)["jobs"][0]["checkpoint"]
        for sync, c in res.items():
            for p in c["write"] + c["read"]:
                self.assertAlmostEqual(p["gibps"] * 2 ** 30, p["gbps"] * 1e9, delta=p["gbps"] * 1e6)
        self.assertEqual(res[0]["rank_sync"], False)
        self.assertEqual(res[1]["rank_sync"], True)
        for p in res[0]["write"] + res[0]["read"]:
            self.assertEqual(p["duration_s"], p["rank0_s"])
            self.assertGreaterEqual(p["slowest_s"], p["rank0_s"])
        for p in res[1]["write"] + res[1]["read"]:
            self.assertEqual(p["duration_s"], p["slowest_s"])
            self.assertGreaterEqual(p["slowest_s"], p["rank0_s"])

    def test_sleep_before_every_write_and_read(self):
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=null\nbs=64k\n"
                             "num_checkpoints_write=2\nnum_checkpoints_read=1\n"
                             "time_between_checkpoints=300ms\n" +
                             "".join("%s=%d\n" % kv for kv in SHAPE.items()))
        t0 = time.monotonic()
        self.run_json(job)
        # DLIO: before each of the 2 writes and the read: 3 x 0.3 s (was 1 x 0.3)
        self.assertGreaterEqual(time.monotonic() - t0, 0.9)


if __name__ == "__main__":
    unittest.main()
