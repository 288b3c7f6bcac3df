"""`storbench analyze` on traces in DFTracer's own format, from fixtures in
t/fixtures/dftracer/ written here from DFTracer's source.
Facts, from the dftracer repository (hariharan-devarajan/dftracer):
- v1.0.8 src/dftracer/brahma/posix.cpp:44-53 (write) and 55-64 (read):
  args fd, "count" (the length asked) and "ret" (bytes done); no "size".
- v1.0.8 src/dftracer/brahma/stdio.cpp:43-53 (fread): args "size" (of an
  item), "count" (items) and "ret" (items done).
- v1.0.8 src/dftracer/df_logger.h:427-436: "fhash" in every traced call's
  args; include/dftracer/core/typedef.h:12: HashType is unsigned long long
  (md5's first bytes: values above 2^63); core/enumeration.h:51-53: the hash
  metadata events are "FH" (file), "HH" (host), "SH" (string);
  writer/chrome_writer.cpp:222 (complete events) and 263-270 (metadata:
  args hhash, name, value; value a string for "PR" and the like).
- v1.0.2 src/dftracer/writer/chrome_writer.cpp:164-176 and 193-199: every
  size_t/ssize_t arg and id, pid, tid, ts, dur written as JSON strings;
  df_logger.h:131-138: the file as args "fname" (a string).
- docs/trace_format.rst's examples carry 16-bit hashes ("hhash":39537,
  "value":51242): two files may share one.
"""
import gzip
import json
import os
import shutil

from sbtest import SbCase

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "dftracer")


class DftracerFormat(SbCase):
    def analyze(self, name, gz=False):
        path = os.path.join(FIX, name)
        if gz:  # as DFTracer leaves it: `gzip -f` of the text (chrome_writer.cpp:126)
            dst = os.path.join(self.dir, name + ".gz")
            with open(path, "rb") as f, gzip.open(dst, "wb") as g:
                shutil.copyfileobj(f, g)
            path = dst
        p = self.run_sb("analyze", "--output-format=json", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout), p.stderr

    def test_count_is_the_size(self):
        for gz in (False, True):
            a, err = self.analyze("v1.0.8.pfw", gz)
            self.assertNotIn("warning", err)
            self.assertEqual(a["events"], 11)
            self.assertEqual(a["metadata_events"], 6)  # HH, SH, PR, 3 FH
            ops = {o["name"]: o for o in a["operations"]}
            self.assertEqual(ops["read"]["bytes"], 3 * 131072 + 4096)  # ret: the short last read
            self.assertEqual(ops["pwrite64"]["bytes"], 2 * 65536)
            self.assertEqual(ops["fread"]["bytes"], 8 * 100 + 8 * 25)  # size x ret items
            self.assertEqual(ops["open64"]["bytes"], 0)
            cls = {c["class"]: c for c in a["file_classes"]}  # 64-bit hashes resolve
            self.assertEqual(cls["/data/train/img_.npz"]["bytes"], 3 * 131072 + 4096)
            self.assertEqual(cls["/ckpt/model.pt"]["bytes"], 131072)
            self.assertEqual(cls["/data/train/labels.csv"]["bytes"], 1000)
            self.assertEqual(a["hash_collisions"], [])

    def test_numbers_written_as_strings(self):
        a, err = self.analyze("v1.0.2-strings.pfw")
        self.assertNotIn("warning", err)
        self.assertEqual(a["events"], 4)
        self.assertEqual(a["first_ts_us"], 1700000000000100)
        self.assertAlmostEqual(a["io_time_s"], 150e-6, delta=1e-9)
        ops = {o["name"]: o for o in a["operations"]}
        self.assertEqual(ops["read"]["bytes"], 3 * 4096)
        self.assertEqual(ops["write"]["bytes"], 1000)
        cls = {c["class"]: c for c in a["file_classes"]}
        self.assertEqual(cls["/data/a_.npz"]["pid"], 4200)
        self.assertEqual(cls["/data/a_.npz"]["files"], 3)

    def test_colliding_hashes_are_reported(self):
        a, err = self.analyze("collide16.pfw")
        self.assertIn("storbench: warning: analyze: file hash 40721 names 2 files "
                      "(/usr/lib/libz.so, /data/out_3.dat)", err)
        self.assertIn("listed as fhash:40721", err)
        self.assertEqual(a["hash_collisions"],
                         [{"fhash": "40721", "names": ["/usr/lib/libz.so", "/data/out_3.dat"]}])
        cls = {c["class"]: c for c in a["file_classes"]}
        self.assertNotIn("/usr/lib/libz.so", cls)  # not named after the first record
        self.assertEqual(cls["fhash:40721"]["count"], 165)
        self.assertEqual(cls["fhash:40721"]["bytes"], 165 * 4096)
        self.assertEqual(cls["/data/in_.dat"]["bytes"], 512)

    def test_file_class_keeps_the_shared_directory(self):
        # a file class drops digits that number files (steps, shards), not
        # the name of the directory every file is under (lustre3, run7)
        files = ["/lustre3/run7/ckpt/global_epoch1_step2/layer_12.pt",
                 "/lustre3/run7/ckpt/global_epoch1_step10/layer_3.pt",
                 "/lustre3/run7/data/img_001.npz"]
        ev = []
        for i, f in enumerate(files):
            ev.append({"id": 2 * i, "name": "FH", "cat": "dftracer", "pid": 7, "tid": 7, "ph": "M",
                       "args": {"name": f, "value": 100 + i}})
            ev.append({"id": 2 * i + 1, "name": "read", "cat": "POSIX", "pid": 7, "tid": 7,
                       "ts": 100 + i, "dur": 5, "ph": "X",
                       "args": {"fhash": 100 + i, "count": 4096, "ret": 4096}})
        path = os.path.join(self.dir, "cls.pfw")
        with open(path, "w") as f:
            f.write("[\n" + "\n".join(json.dumps(e) for e in ev) + "\n]\n")
        p = self.run_sb("analyze", "--output-format=json", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        cls = {c["class"]: c["files"] for c in json.loads(p.stdout)["file_classes"]}
        self.assertEqual(cls, {"/lustre3/run7/ckpt/global_epoch_step/layer_.pt": 2,
                               "/lustre3/run7/data/img_.npz": 1})

    def test_unusable_fields_are_said(self):
        a, err = self.analyze("unusable.pfw")
        self.assertIn('analyze: 1 events have no usable "ts" (missing, negative, out of range or not a number): '
                      'time taken as 0', err)
        self.assertIn('analyze: 1 events have no usable "args.size"', err)
        self.assertIn("analyze: 3 read/write events carry neither args.size nor args.count", err)
        self.assertEqual(a["unusable_fields"],
                         {"ts": 1, "args.size": 1, "args.size or args.count": 3})
        self.assertEqual(a["events"], 5)
        # storbench's own traces use every field
        job = self.write_job("[n]\nioengine=null\nrw=randrw\nbs=4k\nsize=4m\nwrite_trace=t.pfw.gz\n")
        self.run_json(job)
        p = self.run_sb("analyze", "--output-format=json", os.path.join(self.dir, "t.pfw.gz"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        self.assertEqual(json.loads(p.stdout)["unusable_fields"], {})

    def test_text_table_with_long_names(self):
        # a file name (or category, operation) longer than its
        # column must not push the figures of that row right: each table's
        # columns widen to the longest name, so every row of a table ends where
        # its header does (the figures are right-aligned).
        longf = "/mnt/datasets/imagenet-1k/train/n01440764/ILSVRC2012_val_00000293_shard.npz"
        cat, op = "torch.utils.data.dataloader", "_MultiProcessingDataLoaderIter.__next__"
        ev = [{"id": 0, "name": "FH", "cat": "dftracer", "pid": 7, "tid": 7, "ph": "M",
               "args": {"name": longf, "value": 11}},
              {"id": 1, "name": "read", "cat": "POSIX", "pid": 7, "tid": 7, "ts": 100, "dur": 5,
               "ph": "X", "args": {"fhash": 11, "count": 4096, "ret": 4096}},
              {"id": 2, "name": op, "cat": cat, "pid": 7, "tid": 7, "ts": 90, "dur": 50,
               "ph": "X", "args": {}}]
        path = os.path.join(self.dir, "long.pfw")
        with open(path, "w") as f:
            f.write("[\n" + "\n".join(json.dumps(e) for e in ev) + "\n]\n")
        p = self.run_sb("analyze", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        blocks = [b.splitlines() for b in p.stdout.split("\n\n")]
        tables = [b for b in blocks if b and b[0].rstrip().endswith("MiB/s")]
        self.assertEqual([t[0].split()[0] for t in tables], ["category", "category", "file"])
        for t in tables:
            self.assertGreaterEqual(len(t), 2, t)
            self.assertEqual({len(line) for line in t}, {len(t[0])}, "\n".join(t))
        # the class drops the digits below the directory all files share
        # (here the one file's own: imagenet-1k, n01440764 stay): 63
        # characters, wider than the 40 of old
        cls = "/mnt/datasets/imagenet-1k/train/n01440764/ILSVRC_val__shard.npz"
        self.assertTrue(any(line.startswith(cls + " ") for line in tables[2]), tables[2])
        self.assertTrue(any(line.startswith(cat + " ") for line in tables[1]))
