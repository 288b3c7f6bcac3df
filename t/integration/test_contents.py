"""Buffer contents (run/contents.c, lib/datagen.c) and ML data verification
(ml/content.c): what storbench writes must not be something storage can
compress or dedupe unless the job asks for it, and checkpoint_verify /
dataset_verify must catch and classify a corrupted byte.

The written files are measured with python's zlib (level 6, gzip's default)
and by hashing every 4 KiB block.  The target is 1 GiB files; make check
uses 64 MiB ones (SB_CONTENTS_MIB raises it), which is 16384 blocks: enough
to see one duplicate block or a 1% compression."""
import hashlib
import json
import os
import shutil
import zlib

from sbtest import SRC, SbCase
from test_faults import SHIM, shim_env

MIB = int(os.environ.get("SB_CONTENTS_MIB", "64"))
SHM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def measure(paths):
    """(zlib ratio, share of 4 KiB blocks that repeat an earlier one) over the files"""
    comp = zlib.compressobj(6)
    raw = packed = blocks = 0
    seen = set()
    for p in paths:
        with open(p, "rb") as f:
            while True:
                b = f.read(1 << 20)
                if not b:
                    break
                raw += len(b)
                packed += len(comp.compress(b))
                for i in range(0, len(b), 4096):
                    blocks += 1
                    seen.add(hashlib.blake2b(b[i:i + 4096], digest_size=16).digest())
    packed += len(comp.flush())
    return raw / packed, (blocks - len(seen)) / blocks


class ContentsTest(SbCase):
    def setUp(self):
        super().setUp()
        self.where = SHM and os.path.join(SHM, "sbcontents.%d" % os.getpid())
        if self.where:
            os.makedirs(self.where)
        else:
            self.where = self.dir

    def tearDown(self):
        if self.where != self.dir:
            shutil.rmtree(self.where, ignore_errors=True)
        super().tearDown()

    def write(self, opts, size="%dm" % MIB, bs="4k", rw="write", extra=""):
        path = os.path.join(self.where, "f")
        if os.path.exists(path):
            os.unlink(path)
        job = self.write_job("[w]\nfilename=%s\nsize=%s\nbs=%s\nrw=%s\n%s%s" %
                             (path, size, bs, rw, extra, "".join(o + "\n" for o in opts)))
        self.run_json(job)
        return path

    def test_scramble_whole_buffers_is_incompressible_and_unique(self):
        for bs, rw, extra in (("4k", "write", ""), ("1m", "write", ""),
                              ("64k", "randwrite", "ioengine=libaio\niodepth=8\n")):
            with self.subTest(bs=bs, rw=rw):
                ratio, dup = measure([self.write(["scramble_whole_buffers=1"], bs=bs, rw=rw,
                                                 extra=extra)])
                self.assertLessEqual(ratio, 1.01)     # gzip saves at most 1%
                self.assertEqual(dup, 0)              # no duplicate 4 KiB block

    def test_default_scramble_unique_per_sector(self):
        """scramble_buffers=1 (the default), fio's meaning: no two 512-byte
        sectors written are equal, across the writes of a thread (the same
        offsets of two files written by turns), of two threads and of two
        jobs on the same offsets (gtod_reduce: no clock read per write)"""
        cases = (("4k", "write", ""), ("1m", "write", ""), ("512", "randwrite", ""),
                 ("64k", "randwrite", "ioengine=libaio\niodepth=8\n"),
                 ("4k", "write", "nrfiles=4\nfile_service_type=roundrobin\n"),
                 ("4k", "randwrite", "nrfiles=2\ngtod_reduce=1\n"),
                 ("8k", "write", "numjobs=2\n"), ("4k", "write", "iodepth=4\nioengine=libaio\n"))
        for bs, rw, extra in cases:
            with self.subTest(bs=bs, rw=rw, extra=extra):
                d = os.path.join(self.where, "s")
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
                job = self.write_job("[w]\ndirectory=%s\nsize=8m\nbs=%s\nrw=%s\n%s"
                                     "[w2]\ndirectory=%s\nsize=8m\nbs=%s\nrw=%s\n%s" %
                                     (d, bs, rw, extra, d, bs, rw, extra))
                self.run_json(job)
                files = sorted(os.path.join(d, n) for n in os.listdir(d))
                self.assertGreaterEqual(len(files), 2)
                seen, sectors = set(), 0
                for p in files:
                    with open(p, "rb") as f:
                        data = f.read()
                    self.assertEqual(len(data) % 512, 0)
                    for i in range(0, len(data), 512):
                        sectors += 1
                        seen.add(hashlib.blake2b(data[i:i + 512], digest_size=16).digest())
                self.assertEqual(sectors - len(seen), 0, "duplicate 512-byte sectors")

    def test_default_scramble_touches_few_bytes(self):
        """fio's cost: a write changes at most 24 bytes of each 512-byte
        sector of the buffer (one io unit: consecutive 4 KiB blocks of a
        sequential psync job are that buffer's successive writes);
        scramble_whole_buffers changes every byte"""
        for opts, most, least in (([], 24, 1), (["scramble_whole_buffers=1"], 512, 400)):
            with self.subTest(opts=opts):
                with open(self.write(opts, size="1m"), "rb") as f:
                    data = f.read()
                for b in range(4096, len(data), 4096):
                    for s in range(0, 4096, 512):
                        x, y = data[b - 4096 + s:b - 4096 + s + 512], data[b + s:b + s + 512]
                        n = sum(1 for i in range(512) if x[i] != y[i])
                        self.assertLessEqual(n, most, (b, s))
                        self.assertGreaterEqual(n, least, (b, s))

    def test_refill_buffers(self):
        ratio, dup = measure([self.write(["refill_buffers=1"], bs="1m")])
        self.assertLessEqual(ratio, 1.01)
        self.assertEqual(dup, 0)

    def test_scramble_off_reuses_the_buffer(self):
        """fio's scramble_buffers=0: one buffer written again and again"""
        ratio, dup = measure([self.write(["scramble_buffers=0"], size="8m")])
        self.assertGreater(dup, 0.99)

    def test_compress_percentage(self):
        for chunk in ("512", "4k"):
            with self.subTest(chunk=chunk):
                ratio, _ = measure([self.write(["buffer_compress_percentage=50",
                                                "buffer_compress_chunk=" + chunk])])
                self.assertAlmostEqual(ratio, 2.0, delta=0.1)   # within 5% of 2.0

    def test_dedupe_percentage(self):
        for mode in ("repeat", "working_set"):
            with self.subTest(mode=mode):
                _, dup = measure([self.write(["dedupe_percentage=30", "dedupe_mode=" + mode])])
                self.assertAlmostEqual(dup, 0.30, delta=0.02)

    def test_zero_buffers(self):
        with open(self.write(["zero_buffers=1"], size="1m"), "rb") as f:
            self.assertEqual(f.read(), bytes(1 << 20))

    def test_pattern_wins_over_zero_buffers(self):
        """fio 3.33 accepts both and writes the pattern"""
        with open(self.write(["zero_buffers=1", "buffer_pattern=0xab"], size="8k"), "rb") as f:
            self.assertEqual(f.read(), b"\xab" * 8192)

    def test_buffer_pattern_as_fio(self):
        # fio 3.33 writes de ad fa ce 61 62 f4 ff ff ff, repeated
        with open(self.write(['buffer_pattern=0xdeadface"ab"-12'], size="8k"), "rb") as f:
            data = f.read()
        unit = bytes.fromhex("deadface6162f4ffffff")
        self.assertEqual(data[:4096], (unit * 410)[:4096])
        self.assertEqual(data[4096:], data[:4096])

    def test_buffer_pattern_string(self):
        with open(self.write(['buffer_pattern="abcd"'], size="4k"), "rb") as f:
            self.assertEqual(f.read(), b"abcd" * 1024)

    def test_buffer_pattern_offset(self):
        with open(self.write(['buffer_pattern="ab"%o'], size="16k"), "rb") as f:
            data = f.read()
        for off in range(0, 16384, 4096):
            blk = data[off:off + 4096]
            self.assertEqual(blk[:2], b"ab")
            self.assertEqual(int.from_bytes(blk[2:10], "little"), off)
            self.assertEqual(int.from_bytes(blk[12:20], "little"), off)

    def test_checkpoint_llama3_8b_contents(self):
        """the shipped job, scaled down, two checkpoints kept: nothing to compress or dedupe"""
        with open(os.path.join(SRC, "jobs", "checkpoint-llama3-8b.ini")) as f:
            text = f.read()
        text = text.replace("num_checkpoints_write=10", "num_checkpoints_write=2")
        text = text.replace("num_checkpoints_read=10", "num_checkpoints_read=1")
        # storbench's own bytes (rules=mlperf defaults to DLIO's torch.rand
        # floats: test_ckpt_content.py)
        job = self.write_job(text + "keep_checkpoints=1\ncheckpoint_verify=1\ncheckpoint_content=unique\n")
        folder = os.path.join(self.where, "ck")
        doc = self.run_json(job, env={"SCALE": "0.0002", "PAUSE": "0", "CHECKPOINT_FOLDER": folder}, timeout=120)
        v = doc["jobs"][0]["verify"]
        self.assertEqual((v["type"], v["failures"]), ("contents", 0))
        self.assertGreater(v["bytes_checked"], 0)
        files = [os.path.join(d, n) for d, _, ns in os.walk(folder) for n in ns]
        self.assertEqual(len(files), 2 * 16)     # 8 ranks x (model + optimizer) x 2
        ratio, dup = measure(sorted(files))
        self.assertLessEqual(ratio, 1.01)
        self.assertEqual(dup, 0)

    def test_checkpoint_llama3_8b_asks_for_ratios(self):
        """the same checkpoint asking for 2:1 compression, then for 30% duplicate blocks"""
        with open(os.path.join(SRC, "jobs", "checkpoint-llama3-8b.ini")) as f:
            text = f.read()
        text = text.replace("num_checkpoints_write=10", "num_checkpoints_write=2")
        text = text.replace("num_checkpoints_read=10", "num_checkpoints_read=1")
        for opt, want_ratio, want_dup in (("buffer_compress_percentage=50", 2.0, 0.0),
                                          ("dedupe_percentage=30", None, 0.30)):
            folder = os.path.join(self.where, "ck-" + opt.split("=")[0])
            job = self.write_job(text + "keep_checkpoints=1\ncheckpoint_content=unique\n%s\n" % opt)
            self.run_json(job, env={"SCALE": "0.0002", "PAUSE": "0", "CHECKPOINT_FOLDER": folder}, timeout=120)
            files = [os.path.join(d, n) for d, _, ns in os.walk(folder) for n in ns]
            ratio, dup = measure(sorted(files))
            if want_ratio:
                self.assertLess(abs(ratio - want_ratio) / want_ratio, 0.05, (opt, ratio))
            self.assertLessEqual(abs(dup - want_dup), 0.02, (opt, dup))


class VerifyTest(SbCase):
    """checkpoint_verify and dataset_verify catch and classify corruption"""

    CKPT = ("[c]\nworkload=checkpoint\nmodel=llama3-8b\nranks=8\nioengine=psync\nbs=256k\n"
            "checkpoint_scale=0.0001\nnum_checkpoints_write=2\nnum_checkpoints_read=2\n"
            "drop_caches=0\ncheckpoint_verify=1\ncheckpoint_folder=%s\n")

    def ckpt(self, env=None):
        job = self.write_job(self.CKPT % os.path.join(self.dir, "ck"))
        p = self.run_sb("--output-format=json", job, env=env)
        return p, json.loads(p.stdout)["jobs"][0]["verify"]

    def test_clean_checkpoint_passes(self):
        p, v = self.ckpt()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(v["failures"], 0)
        self.assertEqual(v["blocks_checked"] * 4096 >= v["bytes_checked"] > 0, True)

    def test_flipped_byte_in_one_optimizer_file(self):
        """sbfault's FLIP changes one byte on its way to storage (pwrite): the
        write succeeds, the restore must find the byte, file and offset"""
        if not os.path.exists(SHIM):
            self.skipTest("the fault shim is not built (%s)" % SHIM)
        off = 3 * 4096 + 77
        p, v = self.ckpt(shim_env("pwrite:FLIP:offset=%d:path=*step2/*rank_1_*optim*" % off))
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertEqual(v["failures"], 1)
        self.assertEqual(v["bit_corruption"], 1)
        f = v["first_failures"][0]
        self.assertEqual(f["kind"], "bit_corruption")
        self.assertTrue(f["file"].endswith("global_epoch1_step2/zero_pp_rank_1_mp_rank_0_optim_states.pt"),
                        f["file"])
        self.assertEqual((f["offset"], f["length"], f["thread"]), (3 * 4096, 4096, 1))
        self.assertIn("first at offset %d" % off, f["found"])
        self.assertIn("verify", p.stderr + p.stdout)

    TRAIN = ("[t]\nworkload=train\ndataset_files=6\nsamples_per_file=2\nrecord_length=40000\n"
             "batch_size=2\nread_threads=2\nepochs=1\ncomputation_time=0\nshuffle=both\n"
             "dataset_verify=1\ndata_dir=%s\n")

    def test_dataset_corruptions(self):
        ds = os.path.join(self.dir, "ds")
        job = self.write_job(self.TRAIN % ds)
        self.assertEqual(self.run_sb("--datagen", job).returncode, 0)
        v = self.run_json(job)["jobs"][0]["verify"]
        self.assertEqual(v["failures"], 0)
        self.assertEqual(v["bytes_checked"], 6 * 2 * 40000)
        ratio, dup = measure(sorted(os.path.join(ds, "train", n) for n in os.listdir(os.path.join(ds, "train"))))
        self.assertLessEqual(ratio, 1.01)
        self.assertEqual(dup, 0)
        f0, f2 = (os.path.join(ds, "train", "img_%d_of_6.npz" % i) for i in (0, 2))
        with open(f0, "rb") as f:
            first = f.read(8192)
        with open(f2, "r+b") as f:
            f.seek(4096 + 100)                    # one flipped bit
            b = f.read(1)
            f.seek(4096 + 100)
            f.write(bytes([b[0] ^ 0x40]))
            f.seek(16384)                         # file 0's second block, misplaced
            f.write(first[4096:])
            f.seek(32768)                         # a lost write: zeroes
            f.write(bytes(4096))
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 3, p.stderr)
        v = json.loads(p.stdout)["jobs"][0]["verify"]
        got = sorted((x["kind"], x["offset"], os.path.basename(x["file"])) for x in v["first_failures"])
        self.assertEqual(got, [("bit_corruption", 4096, "img_2_of_6.npz"),
                               ("misplaced", 16384, "img_2_of_6.npz"),
                               ("never_written", 32768, "img_2_of_6.npz")])
        self.assertEqual(v["failures"], 3)
        mis = [x for x in v["first_failures"] if x["kind"] == "misplaced"][0]
        self.assertIn("dataset file #0 at offset 4096", mis["found"])


class BadInputTest(SbCase):
    def refused(self, text, *needles):
        job = self.write_job(text)
        before = sorted(os.listdir(self.dir))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before)   # nothing written
        return p

    IO = "[w]\nfilename=data\nsize=1m\nrw=write\n"

    def test_compress_percentage_range(self):
        self.refused(self.IO + "buffer_compress_percentage=101\n", "job.ini:5",
                     "buffer_compress_percentage", "101", "0 to 100")

    def test_dedupe_percentage_range(self):
        self.refused(self.IO + "dedupe_percentage=150\n", "job.ini:5", "dedupe_percentage",
                     "150", "0 to 100")

    def test_bad_pattern(self):
        for pat, why in (("0xZZ", "no hex digits"), ('"abc', "no closing"),
                         ('0x12"a"%', "unexpected '%'"), ('12"ab"x', "unexpected 'x'"),
                         ("-1" * 130, "longer than 512")):
            with self.subTest(pat=pat):
                self.refused(self.IO + "buffer_pattern=%s\n" % pat, "job.ini:5", "buffer_pattern=",
                             why, "e.g. buffer_pattern=0xdeadbeef")

    def test_bad_dedupe_mode(self):
        self.refused(self.IO + "dedupe_mode=sometimes\n", "job.ini:5", "dedupe_mode", "sometimes",
                     "working_set")

    def test_checkpoint_verify_without_reads(self):
        self.refused("[c]\nworkload=checkpoint\nmodel=llama3-8b\ncheckpoint_scale=0.00001\n"
                     "num_checkpoints_read=0\ncheckpoint_verify=1\ncheckpoint_folder=ck\n",
                     "job.ini:6", "checkpoint_verify=1", "num_checkpoints_read=0",
                     "set num_checkpoints_read=1")

    def test_verify_with_null_engine(self):
        self.refused("[c]\nworkload=checkpoint\nmodel=llama3-8b\ncheckpoint_scale=0.00001\n"
                     "ioengine=null\ncheckpoint_verify=1\n", "job.ini:6", "checkpoint_verify=1",
                     "ioengine=null", "pick a real engine")
        self.refused("[t]\nworkload=train\ndataset_files=4\nrecord_length=4096\nbatch_size=1\n"
                     "ioengine=null\ndataset_verify=1\n", "job.ini:7", "dataset_verify=1",
                     "ioengine=null")

    def test_verify_option_on_wrong_workload(self):
        self.refused(self.IO + "checkpoint_verify=1\n", "checkpoint_verify", "workload=checkpoint")
