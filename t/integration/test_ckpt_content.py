"""checkpoint_content=: what the checkpoint files hold.

dlio: DLIO's bytes.  dlio_benchmark (branch mlperf_storage_v2.0, commit
392621b) makes its tensors once, in BaseCheckpointing.__init__
(checkpointing/base_checkpointing.py:113-160), with torch.rand
(pytorch_checkpointing.py:66-68: get_tensor_core, randomize=True by default,
utils/config.py:117) in model_datatype fp16 for the model states and
optimizer_datatype fp32 for the optimizer states (config.py:108-109), and
save_checkpoint (base_checkpointing.py:385-415) writes the same state dicts
at every checkpoint: every checkpoint repeats the previous one byte for
byte.  torch.rand's values are k * 2^-24 (fp32) / k * 2^-11 (fp16), so
gzip -1 shrinks them a little: about 1.11x / 1.19x, measured here with
torch.save(torch.rand(...)) as the oracle.

unique: storbench's random bytes, new in every checkpoint: 1.00x and no 4 KiB
block of one checkpoint found in the next.

Default: dlio under rules=mlperf (the official reference), unique otherwise."""
import glob
import os
import shutil
import subprocess
import unittest
import zlib

from sbtest import SbCase

SHAPE = dict(hidden=256, ffn=512, layers=2, heads=4, kv_heads=2, vocab=2000, tp=1, pp=1, dp=1,
             zero_stage=3)

# torch.save of torch.rand tensors of n bytes, gzip -1 ratio printed
ORACLE = """
import io, sys, zlib, torch
n = int(sys.argv[1])
for dt, w in ((torch.float32, 4), (torch.float16, 2)):
    b = io.BytesIO()
    torch.save({"a": torch.rand(n // w, dtype=dt)}, b)
    d = b.getvalue()
    print(len(d) / len(zlib.compress(d, 1)))
"""


def gzip1(data):
    return len(data) / len(zlib.compress(data, 1))


def torch_python():
    find = "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)"
    for py in ("/usr/bin/python3", shutil.which("python3")):
        if py and subprocess.run([py, "-c", find], capture_output=True).returncode == 0:
            return py
    return None


class CheckpointContentTest(SbCase):
    def run_ckpt(self, extra):
        body = "".join("%s=%d\n" % kv for kv in SHAPE.items())
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=64k\ndrop_caches=0\n"
                             "checkpoint_folder=%s\nnum_checkpoints_write=2\nnum_checkpoints_read=1\n"
                             "keep_checkpoints=1\ncheckpoint_verify=1\n%s%s"
                             % (os.path.join(self.dir, "ck"), body, extra))
        res = self.run_json(job)
        v = res["jobs"][0]["verify"]
        self.assertEqual(v["failures"], 0, v)
        files = {}
        for f in sorted(glob.glob(os.path.join(self.dir, "ck", "*", "*.pt"))):
            step = os.path.basename(os.path.dirname(f))
            kind = "optim" if "optim" in f else "model"
            with open(f, "rb") as fh:
                files[(step, kind)] = fh.read()
        self.assertEqual(len(files), 4, sorted(files))
        return files

    @staticmethod
    def repeated(a, b):
        """share of b's 4 KiB blocks found anywhere in a"""
        blocks = {a[i:i + 4096] for i in range(0, len(a), 4096)}
        n = (len(b) + 4095) // 4096
        return sum(b[i:i + 4096] in blocks for i in range(0, len(b), 4096)) / n

    def test_dlio_compresses_as_torch_rand_and_repeats(self):
        f = self.run_ckpt("checkpoint_content=dlio\n")
        s1, s2 = "global_epoch1_step1", "global_epoch1_step2"
        opt, mod = gzip1(f[(s1, "optim")]), gzip1(f[(s1, "model")])
        self.assertTrue(1.10 <= opt <= 1.15, "optimizer states (fp32) gzip -1 %.4fx" % opt)
        self.assertTrue(1.15 <= mod <= 1.23, "model states (fp16) gzip -1 %.4fx" % mod)
        for kind in ("optim", "model"):  # DLIO saves the same tensors every time
            self.assertEqual(f[(s1, kind)], f[(s2, kind)], kind + ": checkpoint 2 differs from 1")
        py = torch_python()
        if py:  # the oracle: torch.save(torch.rand(...)) of the same size
            p = subprocess.run([py, "-c", ORACLE, str(len(f[(s1, "optim")]))],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            t32, t16 = (float(x) for x in p.stdout.split())
            self.assertAlmostEqual(opt, t32, delta=0.01)
            self.assertAlmostEqual(mod, t16, delta=0.01)

    def test_dlio_values_are_floats_in_0_1(self):
        import array
        f = self.run_ckpt("checkpoint_content=dlio\n")
        a = array.array("f")
        a.frombytes(f[("global_epoch1_step1", "optim")])
        inside = [x for x in a if 0.0 <= x < 1.0]
        # 8 bytes per 4 KiB block are its stamp (checkpoint_verify's): 0.2%
        self.assertGreater(len(inside) / len(a), 0.997)
        self.assertAlmostEqual(sum(inside) / len(inside), 0.5, delta=0.005)

    def test_unique_is_incompressible_and_new(self):
        f = self.run_ckpt("checkpoint_content=unique\n")
        s1, s2 = "global_epoch1_step1", "global_epoch1_step2"
        for kind in ("optim", "model"):
            r = gzip1(f[(s1, kind)])
            self.assertTrue(0.99 <= r < 1.005, "%s gzip -1 %.4fx" % (kind, r))
            self.assertEqual(self.repeated(f[(s1, kind)], f[(s2, kind)]), 0.0)

    def test_default_unique_and_dlio_under_mlperf(self):
        f = self.run_ckpt("")
        self.assertLess(gzip1(f[("global_epoch1_step1", "optim")]), 1.005)
        shutil.rmtree(os.path.join(self.dir, "ck"))
        f = self.run_ckpt("rules=mlperf\n")
        self.assertGreater(gzip1(f[("global_epoch1_step1", "optim")]), 1.10)
        self.assertEqual(f[("global_epoch1_step1", "optim")], f[("global_epoch1_step2", "optim")])

    def test_bad_value_names_file_line_option(self):
        body = "".join("%s=%d\n" % kv for kv in SHAPE.items())
        job = self.write_job("[ck]\nworkload=checkpoint\ncheckpoint_folder=%s\n%s"
                             "checkpoint_content=torch\n" % (os.path.join(self.dir, "ck"), body))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:", p.stderr)
        self.assertIn("checkpoint_content", p.stderr)
        self.assertIn("dlio", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "ck")))


if __name__ == "__main__":
    unittest.main()
