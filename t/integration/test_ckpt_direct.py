"""test_ckpt_direct.py: workload=checkpoint with direct=1.  O_DIRECT takes
only offsets and lengths that are multiples of the file's direct-I/O
alignment, and checkpoint files rarely are (llama3-8b at
checkpoint_scale=0.0001: a 200,756-byte model file).  Before, every engine
failed on the last partial block ("write ... at offset 200704 (52 bytes):
Invalid argument", exit 3).  Now a write covers the last block whole and
cuts the file to its size; a read takes the tail through a descriptor
without O_DIRECT (ml/checkpoint/phase.c direct_io)."""
import errno
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase

JOB = ["--name=c", "--workload=checkpoint", "--model=llama3-8b", "--checkpoint_scale=0.0001",
       "--num_checkpoints_write=1", "--num_checkpoints_read=1", "--keep_checkpoints=1",
       "--checkpoint_content=dlio", "--iodepth=4"]


def files(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


class CheckpointDirect(SbCase):
    def setUp(self):
        super().setUp()
        try:
            fd = os.open(os.path.join(self.dir, "probe"), os.O_CREAT | os.O_WRONLY | os.O_DIRECT)
            os.close(fd)
        except OSError as e:
            if e.errno == errno.EINVAL:
                self.skipTest("the file system of %s has no O_DIRECT (tmpfs?)" % self.dir)
            raise

    def run_ckpt(self, eng, direct, folder):
        return self.run_sb(*JOB, "--ioengine=" + eng, "--direct=%d" % direct,
                           "--checkpoint_folder=" + os.path.join(self.dir, folder))

    def test_every_engine_writes_and_reads_unaligned_files(self):
        p = self.run_ckpt("psync", 0, "buffered")
        self.assertEqual(p.returncode, 0, p.stderr)
        want = files(os.path.join(self.dir, "buffered"))
        self.assertTrue(any(len(v) % 4096 for v in want.values()), "no unaligned file to test")
        for eng in ("sync", "psync", "libaio", "io_uring", "posixaio"):
            with self.subTest(engine=eng):
                p = self.run_ckpt(eng, 1, eng)
                self.assertEqual(p.returncode, 0, p.stderr)
                got = files(os.path.join(self.dir, eng))
                self.assertEqual(sorted(got), sorted(want))
                for name in want:  # same size, same bytes as the buffered run
                    self.assertEqual(len(got[name]), len(want[name]), name)
                    self.assertTrue(got[name] == want[name], name)

    @unittest.skipUnless(shutil.which("strace"), "strace is not installed")
    def test_o_direct_used_and_files_cut(self):
        out = os.path.join(self.dir, "st")
        folder = os.path.join(self.dir, "d")
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,ftruncate", "-o", out, BIN,
                            *JOB, "--ioengine=libaio", "--direct=1",
                            "--checkpoint_folder=" + folder],
                           cwd=self.dir, capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            text = f.read()
        opened = re.findall(r'openat\(AT_FDCWD, "[^"]*\.pt", ([^,]*)', text)
        self.assertTrue(opened and all("O_DIRECT" in fl for fl in opened if "O_CREAT" in fl), opened)
        sizes = {n: len(v) for n, v in files(folder).items()}
        unaligned = sum(1 for v in sizes.values() if v % 4096)
        cuts = re.findall(r"ftruncate\(\d+, (\d+)", text)  # "<unfinished ...>" too
        self.assertEqual(len(cuts), unaligned, text[-2000:])
        self.assertEqual(sorted(int(c) for c in cuts), sorted(v for v in sizes.values() if v % 4096))


class TrainDirect(CheckpointDirect):
    """training reads with direct=1: npz files read whole and TFRecord
    records read at any offset (DLIO's readers) widen to whole blocks, and
    what lies in a file's last partial block comes through a descriptor
    without O_DIRECT; before, the first unaligned read failed with EINVAL
    ("read .../img_0_of_8.npz at offset 98304 (2050 bytes)")"""

    def test_each_format(self):
        for model in ("unet3d", "resnet50", "cosmoflow"):
            with self.subTest(model=model):
                d = os.path.join(self.dir, model)
                os.mkdir(d)
                p = self.run_sb("--output-format=json", "--name=t", "--workload=train",
                                "--train_model=" + model, "--ioengine=libaio", "--direct=1",
                                "--directory=" + d, "--dataset_files=8", "--epochs=1",
                                "--computation_time=1ms", "--batch_size=1", "--train_scale=0.01")
                self.assertEqual(p.returncode, 0, p.stderr)
                j = json.loads(p.stdout)["jobs"][0]
                data = sum(os.path.getsize(os.path.join(r, n))
                           for r, _, ns in os.walk(os.path.join(d, "data")) for n in ns)
                # whole blocks through the engine: at least the part of the
                # files in whole blocks, at most one block more per read
                self.assertGreater(j["read"]["io_bytes"], 0)
                self.assertGreaterEqual(j["read"]["io_bytes"] + 8 * 4096, data)


if __name__ == "__main__":
    unittest.main()
