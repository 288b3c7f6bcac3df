"""read_order=dlio: the reads of workload=train in the
order DLIO makes them, seen under strace (per thread: the files it reads, in
order).  Facts from dlio_benchmark branch mlperf_storage_v2.0, commit
392621b:
- PyTorch loader (unet3d's npz): dlio_sampler yields each rank's sample ids
  range(start, end) ascending every epoch (torch_data_loader.py:95-107); the
  map it indexes is keyed by global id, so sample_shuffle moves no read
  (config.py:449-466), and file_shuffle is the iterative sampler's only
  (config.py:337-341, 459-466).
- TF loader (resnet50's, cosmoflow's tfrecord): rank r reads list positions
  r, r+N, ... (Dataset.shard, tf_reader.py:85-88), read_threads files at
  once, one record of each in turn (num_parallel_reads,
  tf_reader.py:91-92).  The list is the sorted one: DLIO shuffles
  file_list_train with numpy (config.py:459-466, main.py:396), but the
  reader hands it to tf.data.Dataset.list_files(shuffle=False)
  (tf_reader.py:84), whose MatchingFiles op sorts every name it matched
  (tensorflow/core/kernels/matching_files_op.cc: std::sort of its output),
  so rank 0 of 2 reads sorted[0::2] and rank 1 sorted[1::2] every epoch;
  with subfolders the sorted paths run subfolder by subfolder.
read_order=reshuffle keeps storbench's older order (contiguous blocks per
rank, reshuffled every epoch) for OPEN experiments."""
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase


def strace_files(cmd, cwd):
    """per thread other than the main one: the dataset files it reads, in
    order (consecutive reads of one file count once), in thread order"""
    log = os.path.join(cwd, "strace.txt")
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    p = subprocess.run(["strace", "-f", "-y", "-o", log, "-e", "trace=pread64,read,preadv", *cmd],
                       cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stderr
    main, seqs = None, {}
    for line in open(log):
        m = re.match(r"(\d+) +(\w+)\(", line)
        if not m:
            continue
        tid = int(m.group(1))
        if main is None:
            main = tid  # strace's first line is the process itself
        f = re.match(r"\d+ +(?:pread64|read|preadv)\(\d+<[^>]*img_(\d+)_of_\d+\.\w+>", line)
        if not f or tid == main:
            continue
        s = seqs.setdefault(tid, [])
        if not s or s[-1] != int(f.group(1)):
            s.append(int(f.group(1)))
    return list(seqs.values())


@unittest.skipUnless(shutil.which("strace"), "needs strace")
class DlioOrderTest(SbCase):
    def order(self, fmt, extra, files=8, spf=1, batch=1, threads=0, epochs=2, bs="64k"):
        job = self.write_job(
            "[t]\nworkload=train\nioengine=psync\nbs=%s\nepochs=%d\ndata_dir=%s\n"
            "dataset_format=%s\ndataset_files=%d\nsamples_per_file=%d\nrecord_length=4k\n"
            "batch_size=%d\naccelerators=2\nread_threads=%d\n%s"
            % (bs, epochs, os.path.join(self.dir, "ds"), fmt, files, spf, batch, threads, extra))
        self.run_json(job)  # makes the dataset: the traced run only reads
        seqs = strace_files([BIN, "--output-format=json", job], self.dir)
        self.read_bytes = self.run_json(job)["jobs"][0]["read"]["io_bytes"]
        self.ds_bytes = sum(os.path.getsize(os.path.join(self.dir, "ds", "train", f))
                            for f in os.listdir(os.path.join(self.dir, "ds", "train")))
        return seqs

    def test_pytorch_loader_ascending_every_epoch(self):
        # shuffle=both: DLIO's unet3d has file_shuffle and sample_shuffle set
        # and still reads ascending (the sampler), storbench reshuffled
        seqs = self.order("npz", "shuffle=both\n")
        self.assertEqual(sorted(seqs), [[0, 1, 2, 3]] * 2 + [[4, 5, 6, 7]] * 2, seqs)

    def test_tfrecord_sharded_and_interleaved(self):
        # rank r: files r, r+2, ...; read_threads=2 files interleaved, one
        # record each in turn; batch 8 = 2 files x 4 records: one reader's.
        # Each file is its own stream (bs-sized reads, as tf's buffered
        # streams): the two files' reads alternate, no byte is read twice
        seqs = self.order("tfrecord", "shuffle=none\n", spf=4, batch=8, threads=2, bs="4k")
        pairs = [(0, 2), (4, 6), (1, 3), (5, 7)]
        self.assertEqual(len(seqs), 8, seqs)  # 2 ranks x 2 readers x 2 epochs
        for s in seqs:
            self.assertIn(tuple(sorted(set(s))), pairs, seqs)
            self.assertGreaterEqual(len(s), 6, "not interleaved: %s" % s)
        self.assertEqual(sorted(tuple(sorted(set(s))) for s in seqs), sorted(pairs * 2))
        self.assertEqual(self.read_bytes, 2 * self.ds_bytes)

    def test_tfrecord_file_shuffle_never_reaches_the_reader(self):
        # cosmoflow's file_shuffle=seed: DLIO's numpy shuffle
        # (np.random.seed(124) on 16 files: [11, 10, 13, 3, 6, 5, 15, 8, ...])
        # is undone by list_files' sort (tf_reader.py:84): rank r reads
        # sorted[r::2], the same every epoch
        for shuffle in ("file", "both", "none"):
            seqs = self.order("tfrecord", "shuffle=%s\n" % shuffle, files=16, epochs=2)
            self.assertEqual(sorted(seqs), [list(range(0, 16, 2))] * 2 + [list(range(1, 16, 2))] * 2,
                             (shuffle, seqs))

    def test_tfrecord_sorted_paths_with_subfolders(self):
        # file i lives in train/<i % 3>/ (DLIO's generator,
        # data_generator.py:95): the sorted paths are train/0/... (0, 3, 6)
        # then train/1/... (1, 4, 7) then train/2/... (2, 5): rank 0 reads
        # positions 0, 2, 4, 6 of [0, 3, 6, 1, 4, 7, 2, 5]
        seqs = self.order("tfrecord", "shuffle=file\nsubfolders=3\n", files=8, epochs=1)
        self.assertEqual(sorted(seqs), [[0, 6, 4, 2], [3, 1, 7, 5]], seqs)

    def test_reshuffle_keeps_the_old_order(self):
        # read_order=reshuffle: contiguous blocks per rank (TFRecord too)
        seqs = self.order("tfrecord", "shuffle=none\nread_order=reshuffle\n", epochs=1)
        self.assertEqual(sorted(seqs), [[0, 1, 2, 3], [4, 5, 6, 7]], seqs)
        # and a new shuffle each epoch
        seqs = self.order("npz", "shuffle=both\nread_order=reshuffle\n", files=32, epochs=2)
        self.assertNotEqual(sorted(seqs[:2]), sorted(seqs[2:]), seqs)


if __name__ == "__main__":
    unittest.main()
