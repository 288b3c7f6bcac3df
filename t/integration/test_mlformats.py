"""Real dataset formats of workload=train (ml/train/formats.c, dataset_format=):
numpy reads storbench's npz and npy (np.save's bytes exactly), h5py its
hdf5, a TFRecord reader written here from the format's spec (no TensorFlow)
checks every CRC and decodes every tf.train.Example; each file's samples are
the dataset content stream (the raw layout's bytes); an old dataset of
random bytes is refused with the fix; the shipped resnet50 job streams its
TFRecords (strace: offsets only increase within a file, per reader)."""
import json
import os
import re
import shutil
import struct
import subprocess
import unittest

from sbtest import BIN, SRC, SbCase

PY = "/usr/bin/python3"


def has_module(mod):
    return os.path.exists(PY) and subprocess.run([PY, "-c", "import " + mod],
                                                 capture_output=True).returncode == 0


# ---- TFRecord, from the spec (tensorflow.org/tutorials/load_data/tfrecord) ----

def _crc32c_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


_T = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _T[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(c):
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(b, i):
    v = s = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << s
        s += 7
        if not x & 0x80:
            return v, i


def fields(b):
    """protobuf wire format: [(field number, wire type, value)]"""
    out, i = [], 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % wt)
        out.append((num, wt, v))
    return out


def decode_example(b):
    """tf.train.Example -> {name: ("bytes", [..]) | ("int64", [..])}"""
    feats = {}
    (num, wt, features), = fields(b)                 # Example.features = 1
    assert (num, wt) == (1, 2)
    for num, wt, entry in fields(features):          # Features.feature = 1 (map entries)
        assert (num, wt) == (1, 2)
        kv = dict((n, v) for n, _, v in fields(entry))
        (kind, _, lst), = fields(kv[2])              # Feature: bytes_list 1, float 2, int64 3
        vals = []
        for n, w, v in fields(lst):
            assert n == 1
            if kind == 3 and w == 2:                 # packed int64
                j = 0
                while j < len(v):
                    x, j = varint(v, j)
                    vals.append(x)
            else:
                vals.append(v)
        feats[kv[1].decode()] = ({1: "bytes", 3: "int64"}[kind], vals)
    return feats


def read_tfrecords(path):
    """every record's data, each CRC checked"""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    i = 0
    while i < len(data):
        hdr = data[i:i + 8]
        (n,) = struct.unpack("<Q", hdr)
        (lc,) = struct.unpack("<I", data[i + 8:i + 12])
        assert lc == masked(crc32c(hdr)), "length crc at %d" % i
        rec = data[i + 12:i + 12 + n]
        (dc,) = struct.unpack("<I", data[i + 12 + n:i + 16 + n])
        assert dc == masked(crc32c(rec)), "data crc at %d" % i
        out.append(rec)
        i += 16 + n
    assert i == len(data)
    return out


def joined(log):
    """strace -f lines, each call whole: a call another thread interrupted is
    "PID name(args <unfinished ...>" then "PID <... name resumed>rest" """
    pending, out = {}, []
    for line in open(log).read().splitlines():
        tid = line.split(None, 1)[0]
        if line.endswith(" <unfinished ...>"):
            pending[tid] = line[:-len(" <unfinished ...>")]
        elif " resumed>" in line and tid in pending:
            out.append(pending.pop(tid) + line.split(" resumed>", 1)[1])
        else:
            out.append(line)
    return out


class FormatsTest(SbCase):
    FILES, SPF = 3, 4

    def job(self, fmt, name=None, extra=""):
        d = os.path.join(self.dir, name or fmt)
        text = ("[t]\nworkload=train\ndataset_files=%d\nsamples_per_file=%d\nrecord_length=1000\n"
                "record_length_stdev=100\nbatch_size=2\nread_threads=2\nepochs=1\ncomputation_time=0\n"
                "ioengine=psync\nbs=4k\ndataset_format=%s\ndata_dir=%s\n%s"
                % (self.FILES, self.SPF, fmt, d, extra))
        return self.write_job(text, name=(name or fmt) + ".ini"), os.path.join(d, "train")

    def gen(self, fmt, name=None):
        job, d = self.job(fmt, name)
        p = self.run_sb("--datagen", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        return job, d

    def raw_samples(self):
        """the payload of each file: the raw layout's bytes"""
        _, d = self.gen("raw")
        return [open(os.path.join(d, "img_%d_of_3.npz" % i), "rb").read() for i in range(self.FILES)]

    def py(self, code):
        p = subprocess.run([PY, "-c", code], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    @unittest.skipUnless(has_module("numpy"), "needs python3-numpy (/usr/bin/python3)")
    def test_numpy_reads_npz_and_npy(self):
        raw = self.raw_samples()
        _, dz = self.gen("npz")
        _, dy = self.gen("npy")
        got = self.py("""
import json, numpy as np, io, zipfile
out = []
for i in range(3):
    z = np.load('%s/img_%%d_of_3.npz' %% i)
    x, y = z['x'], z['y']
    assert zipfile.ZipFile('%s/img_%%d_of_3.npz' %% i).testzip() is None
    a = np.load('%s/img_%%d_of_3.npy' %% i)
    b = io.BytesIO(); np.save(b, a)
    same = b.getvalue() == open('%s/img_%%d_of_3.npy' %% i, 'rb').read()
    b = io.BytesIO(); np.savez(b, x=x, y=y)
    samez = b.getvalue() == open('%s/img_%%d_of_3.npz' %% i, 'rb').read()
    out.append([list(x.shape), str(x.dtype), list(y.shape), str(y.dtype), int(y.sum()),
                x.tobytes().hex(), bool((a == x).all()), same, samez, np.__version__])
print(json.dumps(out))""" % (dz, dz, dy, dy, dz))
        for i, (xs, xt, ys, yt, ysum, xhex, eq, same, samez, npv) in enumerate(got):
            self.assertEqual(xs[2], self.SPF)                 # DLIO: (dim1, dim2, samples)
            self.assertEqual(xs[0] * xs[1] * xs[2], len(raw[i]))
            self.assertEqual((xt, ys, yt, ysum), ("uint8", [self.SPF], "int64", 0))
            self.assertEqual(bytes.fromhex(xhex), raw[i])     # the dataset's content stream
            self.assertTrue(eq)
            self.assertTrue(same, "np.save of the same array writes other bytes")
            # byte for byte numpy 1.24's np.savez (DLIO's npz_generator),
            # its zip64 extra fields included (storbench before: 40 bytes short)
            if npv.startswith("1.24."):
                self.assertTrue(samez, "np.savez of the same arrays writes other bytes")

    @unittest.skipUnless(has_module("h5py"), "needs python3-h5py (/usr/bin/python3)")
    def test_h5py_reads_hdf5(self):
        raw = self.raw_samples()
        job, d = self.job("hdf5")
        p = self.run_sb("--datagen", job)
        if p.returncode == 1 and "without libhdf5" in p.stderr:
            self.skipTest("storbench built without libhdf5")
        self.assertEqual(p.returncode, 0, p.stderr)
        got = self.py("""
import json, h5py
out = []
for i in range(3):
    f = h5py.File('%s/img_%%d_of_3.hdf5' %% i, 'r')
    r = f['records_0']
    out.append([sorted(f.keys()), list(r.shape), str(r.dtype), r.chunks, r.compression,
                [int(v) for v in f['labels'][:]], r[:].tobytes().hex(), r.id.get_offset()])
print(json.dumps(out))""" % d)
        for i, (keys, shape, dt, chunks, comp, labels, hexdata, off) in enumerate(got):
            self.assertEqual(keys, ["labels", "records_0"])
            self.assertEqual(shape[0], self.SPF)              # DLIO: (samples, dim1, dim2)
            self.assertEqual((dt, chunks, comp, labels), ("uint8", None, None, [0] * self.SPF))
            self.assertEqual(bytes.fromhex(hexdata), raw[i])
        # reading: through the engine, one read per sample of exactly its slice
        # (libhdf5's own small metadata reads, finding records_0, come besides)
        if not shutil.which("strace"):
            return
        log = os.path.join(self.dir, "st")
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")  # LSan cannot run traced
        p = subprocess.run(["strace", "-f", "-e", "trace=pread64", "-y", "-o", log, BIN, job],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        text = "\n".join(joined(log))
        sample = len(raw[0]) // self.SPF
        reads = [int(m.group(2)) for m in
                 re.finditer(r"pread64\(\d+<([^>]*img_0_of_3.hdf5)>, .*?, %d, (\d+)\)" % sample, text)]
        self.assertEqual(sorted(reads), [got[0][7] + k * sample for k in range(self.SPF)])

    def test_tfrecord_reference_reader(self):
        raw = self.raw_samples()
        _, d = self.gen("tfrecord")
        for i in range(self.FILES):
            recs = read_tfrecords(os.path.join(d, "img_%d_of_3.tfrecord" % i))
            self.assertEqual(len(recs), self.SPF)
            size = len(raw[i]) // self.SPF
            for k, r in enumerate(recs):
                ex = decode_example(r)
                self.assertEqual(sorted(ex), ["image", "size"])   # DLIO's tf_generator
                # "size" holds DLIO's dimension int(sqrt(record_length)), not the
                # record's bytes (tf_generator.py:62, config.py:312)
                self.assertEqual(ex["size"], ("int64", [31]))
                self.assertEqual(ex["image"], ("bytes", [raw[i][k * size:(k + 1) * size]]))

    def test_reads_per_format(self):
        """npz/npy: the whole file per sample; tfrecord: each file once, streamed"""
        for fmt in ("npz", "npy", "tfrecord"):
            job, d = self.gen(fmt)
            sizes = [os.path.getsize(os.path.join(d, n)) for n in sorted(os.listdir(d))]
            j = self.run_json(job)["jobs"][0]
            if fmt == "tfrecord":   # 1 reader would read each file once; 2 readers overlap by < bs
                self.assertGreaterEqual(j["read"]["io_bytes"], sum(sizes))
                self.assertLess(j["read"]["io_bytes"], sum(sizes) + 2 * 4096 * self.FILES)
            else:
                self.assertEqual(j["read"]["io_bytes"], self.SPF * sum(sizes))

    def test_old_random_dataset_refused(self):
        """a dataset of the former random bytes: the size (or, same size, the header)
        tells the user to regenerate in a new data_dir; nothing is deleted or changed"""
        for fmt in ("npz", "npy", "tfrecord", "hdf5"):
            with self.subTest(fmt=fmt):
                _, draw = self.gen("raw", "old" + fmt)
                job, d = self.job(fmt, "old" + fmt)
                ext = fmt
                for n in os.listdir(draw):
                    os.rename(os.path.join(draw, n), os.path.join(d, n.replace(".npz", "." + ext)))
                before = {n: open(os.path.join(d, n), "rb").read() for n in os.listdir(d)}
                p = self.run_sb(job)
                if fmt == "hdf5" and "without libhdf5" in p.stderr:
                    continue
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("wrong size or contents", p.stderr)
                self.assertIn("img_0_of_3." + ext, p.stderr)
                self.assertIn("set data_dir= to a new directory", p.stderr)
                self.assertIn("hdf5" in fmt and "not an HDF5 file" or "bytes, this dataset", p.stderr)
                self.assertEqual({n: open(os.path.join(d, n), "rb").read() for n in os.listdir(d)}, before)
        # the right size but random bytes: the header check
        _, d = self.gen("tfrecord", "same")
        f = os.path.join(d, "img_1_of_3.tfrecord")
        n = os.path.getsize(f)
        with open(f, "wb") as fh:
            fh.write(os.urandom(n))
        job, _ = self.job("tfrecord", "same")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("img_1_of_3.tfrecord is not a tfrecord file of this dataset", p.stderr)
        self.assertEqual(os.path.getsize(f), n)

    def test_bad_inputs(self):
        job, d = self.job("tfrecord", "v", "dataset_verify=1\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("v.ini:15", p.stderr)
        self.assertIn("dataset_verify=1", p.stderr)
        self.assertIn("dataset_format=raw", p.stderr)
        self.assertFalse(os.path.exists(os.path.dirname(d)))
        job, d = self.job("parquet", "p")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("p.ini:13", p.stderr)
        self.assertIn("parquet", p.stderr)
        self.assertFalse(os.path.exists(os.path.dirname(d)))


    def test_hdf5_refused_without_libhdf5(self):
        """a build without libhdf5 (./configure --disable-hdf5) refuses
        dataset_format=hdf5 at its line, with the reason and the fix"""
        job, d = self.job("hdf5", "h")
        p = self.run_sb(job)
        if p.returncode == 0:
            self.skipTest("this storbench has libhdf5 (build one with ./configure --disable-hdf5)")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("h.ini:13: dataset_format=hdf5: this storbench was built without libhdf5", p.stderr)
        self.assertIn("apt-get install libhdf5-dev", p.stderr)
        self.assertFalse(os.path.exists(os.path.dirname(d)))


class ShippedResnet50Test(SbCase):
    @unittest.skipUnless(shutil.which("strace"), "needs strace")
    def test_resnet50_streams_tfrecords(self):
        """jobs/train-resnet50.ini: every reader thread's reads of a file go
        forward (offsets increase), in bs-sized reads, and every byte of
        every file is read each epoch"""
        d = os.path.join(self.dir, "r50")
        env = dict(os.environ, FILES="4", SCALE="0.01", DATA_DIR=d, ASAN_OPTIONS="detect_leaks=0")
        self.assertEqual(self.run_sb("--datagen", os.path.join(SRC, "jobs", "train-resnet50.ini"),
                                     env=env).returncode, 0)
        log = os.path.join(self.dir, "st")
        p = subprocess.run(["strace", "-f", "-e", "trace=pread64", "-y", "-o", log, BIN,
                            "--output-format=json", os.path.join(SRC, "jobs", "train-resnet50.ini")],
                           cwd=self.dir, env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        names = sorted(os.listdir(os.path.join(d, "train")))
        self.assertTrue(all(n.endswith(".tfrecord") for n in names), names)
        sizes = {n: os.path.getsize(os.path.join(d, "train", n)) for n in names}
        per, spans = {}, {}
        main = open(log).read().split(None, 1)[0]      # storbench's main thread: the checks
        pat = re.compile(r"^(\d+) +pread64\(\d+<[^>]*/([^/>]+\.tfrecord)>, .*?, (\d+), (\d+)\)")
        for line in joined(log):
            m = pat.match(line)
            if m and m.group(1) != main:
                tid, name, n, off = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
                per.setdefault((tid, name), []).append(off)
                spans.setdefault(name, []).append((off, n))
                self.assertTrue(n == 131072 or off + n == sizes[name], line)   # bs=128k reads
        self.assertGreater(len(per), 0)
        for (tid, name), offs in per.items():
            runs = [o for o in offs]
            # a thread's reads of one file go forward; a new epoch starts again at 0
            back = [i for i in range(1, len(runs)) if runs[i] <= runs[i - 1]]
            for i in back:
                self.assertEqual(runs[i], 0, (tid, name, runs))
            self.assertLessEqual(len(back), 4, (tid, name))                    # 5 epochs
        # no gaps; DLIO interleaves the 4 files (read_threads=8 >= 4) record by
        # record: 12 steps of 400 of the 5004 samples take 1200 records of each
        # file (tf_reader.py:91-92), the last 51 of every file may stay unread
        self.assertEqual(sorted(spans), names)
        for name, sp in spans.items():
            end = 0
            for off, n in sorted(sp):
                self.assertLessEqual(off, end, name)
                end = max(end, off + n)
            self.assertGreaterEqual(end, sizes[name] * 1200 // 1251, name)
