"""Normal output of the ML workloads says only what is true:

- a checkpoint, training or kvcache job's header line says its workload,
  not `rw=read` and block sizes it never used; a plain job's stays fio's;
- an ML job whose I/O depths were not recorded prints no "IO depths" rows
  of 0% in every column (they would say the queue was empty);
- `--datagen` runs no epoch: no "AU=0.00% (target ...: NOT met)" line."""
import re

from sbtest import SbCase

CKPT = """[global]
ioengine=psync
bs=1m
[ck]
workload=checkpoint
model=llama3-8b
ranks=8
checkpoint_scale=0.0002
checkpoint_folder={dir}/ckpt
num_checkpoints_write=1
num_checkpoints_read=1
"""

KV = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
      "--head_dim=16", "--prompt_tokens=64", "--prompt_tokens_min=64", "--output_tokens=64",
      "--output_tokens_min=64", "--kv_users=1", "--kv_memory_capacity=0", "--kv_think_time=0",
      "--kv_requests=3", "--kv_disk_capacity=1m"]

TRAIN = """[global]
ioengine=psync
bs=1m
[tr]
workload=train
train_model=unet3d
train_scale=0.002
dataset_files=28
data_dir={dir}/data
"""

DEPTHS = re.compile(r"^\s+IO depths\s+:(.*)$", re.M)


class MlNormalOutput(SbCase):
    def check(self, out, workload):
        head = out.splitlines()[0]
        self.assertRegex(head, r"^\S+: \(g=0\): workload=%s, ioengine=\w+$" % workload, head)
        self.assertNotIn("rw=", head)
        for m in DEPTHS.finditer(out):   # present only with something in it
            self.assertNotRegex(m.group(1), r"^( \S+=0\.0%,?)+$", m.group(0))

    def test_checkpoint(self):
        p = self.run_sb(self.write_job(CKPT.format(dir=self.dir)))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check(p.stdout, "checkpoint")

    def test_kvcache(self):
        p = self.run_sb(*KV, f"--directory={self.dir}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check(p.stdout, "kvcache")
        self.assertIn("STORAGE PERFORMANCE ASSESSMENT", p.stdout)

    def test_datagen_prints_no_au(self):
        job = self.write_job(TRAIN.format(dir=self.dir))
        p = self.run_sb("--datagen", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check(p.stdout, "train")
        line = [ln for ln in p.stdout.splitlines() if ln.startswith("  train ")]
        self.assertEqual(len(line), 1, p.stdout)
        self.assertNotIn("AU=", line[0])
        self.assertNotIn("NOT met", p.stdout)
        self.assertIn("no epoch ran", line[0])

    def test_plain_job_header_unchanged(self):
        p = self.run_sb("--name=a", "--ioengine=null", "--rw=randread", "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines()[0], "a: (g=0): rw=randread, bs=(R) 4096B-4096B, "
                         "(W) 4096B-4096B, (T) 4096B-4096B, ioengine=null, iodepth=1")
        self.assertTrue(DEPTHS.search(p.stdout))
