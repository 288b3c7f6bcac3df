"""README.md's "An MLPerf Storage submission, end to end": the shell block
after <!-- mlperf:submit --> runs as it stands (bash -e), with small sizes in
place of the real ones: each replaced text must be in the block, so the
README and this test cannot drift apart.  datasize -> datagen -> 6 training
runs and a checkpointing run with RESULTS_DIR (results_dir=) -> validate."""
import glob
import os
import re
import subprocess
import unittest

from sbtest import BIN, SRC, SbCase, validate_rc
from test_mlsubmit import datasize

# README text -> what the test runs instead (the real sizes take hours)
SMALL = (("SCALE=1 ", "SCALE=0.0001 "), ("ACCELERATORS=8 ", "ACCELERATORS=1 "),
         ("/mnt/nvme/unet3d", "ds"), ("CHECKPOINT_FOLDER=/mnt/nvme/ckpt ", "PAUSE=0 CHECKPOINT_FOLDER=ck "))


def readme_block():
    with open(os.path.join(SRC, "README.md")) as f:
        text = f.read()
    after = text.split("<!-- mlperf:submit -->", 1)[1]
    m = re.match(r"\s*```sh\n(.*?)```", after, re.S)
    assert m, "no ```sh block after <!-- mlperf:submit -->"
    return m.group(1)


class ReadmeSubmissionTest(SbCase):
    def test_commands_run(self):
        block = readme_block()
        for real, small in SMALL:
            self.assertIn(real, block)
            block = block.replace(real, small)
        lines = block.splitlines()
        at = next(i for i, l in enumerate(lines) if l.startswith("export FILES=$(./storbench datasize"))
        # what datasize said, then 14 files (2 steps of batch 7) for the test
        lines.insert(at + 1, 'echo "DATASIZE_FILES=$FILES"; export FILES=14')
        os.symlink(os.path.abspath(BIN), os.path.join(self.dir, "storbench"))
        os.symlink(os.path.join(SRC, "jobs"), os.path.join(self.dir, "jobs"))
        p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", "\n".join(lines)], cwd=self.dir,
                           capture_output=True, text=True, timeout=600)
        # the block ends with validate, whose exit status is its verdict (0 CLOSED, 4
        # OPEN, 5 INVALID); every command before it must succeed (bash -e)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stdout[-3000:] + p.stderr[-3000:])
        # datasize: mlpstorage's count for 1 accelerator, 1 host of 256 GiB
        self.assertIn("DATASIZE_FILES=%d\n" % datasize("unet3d", 1, 256, 1), p.stdout)
        # datagen made the 14 files once; the runs found them
        self.assertEqual(len(os.listdir(os.path.join(self.dir, "ds", "train"))), 14)
        res = os.path.join(self.dir, "results")
        self.assertEqual(len(glob.glob(os.path.join(res, "training", "unet3d", "run", "*"))), 6)
        self.assertEqual(len(glob.glob(os.path.join(res, "checkpointing", "llama3-8b", "*"))), 1)
        # validate's report closes the block
        out = p.stdout.split("training/unet3d: 6 runs", 1)
        self.assertEqual(len(out), 2, p.stdout[-3000:])
        self.assertIn("checkpointing/llama3-8b: 1 run", p.stdout)
        self.assertRegex(out[1], r"submission training/unet3d: INVALID")   # 14 files: not CLOSED
        self.assertRegex(p.stdout, r"\noverall: (CLOSED|OPEN|INVALID)\n")


if __name__ == "__main__":
    unittest.main()
