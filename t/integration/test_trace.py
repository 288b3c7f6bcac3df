"""I/O traces (write_trace=, trace_sample=) and `storbench analyze`.

The trace is checked by a reference reader written here from DFTracer's
published format description (docs/trace_format.rst of the dftracer
repository) and from the gzip format (RFC 1952), without any storbench code:
a "[" line, then one JSON event per line; complete events ("ph":"X") with
id, name, cat, pid, tid, ts and dur in microseconds and an "args" dictionary;
file and host names stored as hashes (args "fhash", "hhash") whose strings
are metadata events ("ph":"M", name "FH"/"HH", args name and value).  The
file is one gzip stream (one member per sweep point), as DFTracer's own
traces: v1.0.8 src/dftracer/writer/chrome_writer.cpp:118-126 runs
`gzip -f` on the finished file, one member; each member ends on a line."""
import gzip
import json
import os
import signal
import struct
import subprocess
import time
import zlib

from sbtest import BIN, SbCase


# ---- the reference reader ----

def gzip_members(data):
    """[(offset, text)] of each gzip member, each decompressed on its own"""
    out, off = [], 0
    while off < len(data):
        d = zlib.decompressobj(wbits=31)
        text = d.decompress(data[off:]) + d.flush()
        assert d.eof, "gzip member at byte %d is cut short" % off
        out.append((off, text.decode()))
        off = len(data) - len(d.unused_data)
    return out


def read_trace(path):
    """(events, file names by hash, host names by hash); checks each line"""
    with open(path, "rb") as f:
        data = f.read()
    members = gzip_members(data)
    lines = []
    for off, text in members:
        assert text.endswith("\n"), "member at byte %d does not end on a line boundary" % off
        lines += text.split("\n")[:-1]
    assert lines[0] == "[", "the trace does not open with a '[' line (Perfetto's array)"
    events, fh, hh = [], {}, {}
    for n, line in enumerate(lines[1:], 2):
        e = json.loads(line)
        assert isinstance(e, dict), "line %d is not an object" % n
        if e["ph"] == "M":
            assert e["cat"] == "dftracer" and e["name"] in ("FH", "HH"), line
            assert isinstance(e["args"]["name"], str) and isinstance(e["args"]["value"], int)
            (fh if e["name"] == "FH" else hh)[e["args"]["value"]] = e["args"]["name"]
            continue
        assert e["ph"] == "X", "line %d: ph %r" % (n, e["ph"])
        for k in ("id", "pid", "tid", "ts", "dur"):
            assert isinstance(e[k], int) and e[k] >= 0, "line %d: %s=%r" % (n, k, e.get(k))
        assert e["pid"] > 0 and e["tid"] > 0, "line %d: no pid or tid" % n
        assert isinstance(e["name"], str) and isinstance(e["cat"], str)
        assert e["args"]["hhash"] in hh, "line %d: hhash without an HH record before it" % n
        if "fhash" in e["args"]:
            assert e["args"]["fhash"] in fh, "line %d: fhash without an FH record before it" % n
        events.append(e)
    ids = [e["id"] for e in events]
    assert len(set(ids)) == len(ids), "ids repeat"
    return events, fh, hh, members


class TraceCase(SbCase):
    def ckpt(self, extra=""):
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\n"
                             "checkpoint_folder=%s/ckpt\nmodel=llama3-8b\ncheckpoint_scale=0.00002\n"
                             "num_checkpoints_write=2\nnum_checkpoints_read=2\n"
                             "write_trace=%s/ck.pfw.gz\n%s" % (self.dir, self.dir, extra))
        return self.run_json(job)["jobs"][0], os.path.join(self.dir, "ck.pfw.gz")

    def analyze(self, *args):
        p = self.run_sb("analyze", "--output-format=json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_checkpoint_trace_reference_reader(self):
        j, path = self.ckpt()
        t0 = time.time()
        events, fh, hh, _ = read_trace(path)
        io = [e for e in events if e["cat"] == "POSIX"]
        app = [e for e in events if e["cat"] == "storbench"]
        self.assertEqual(len(io) + len(app), len(events))
        for e in events:  # microseconds since the Unix epoch, from this run
            self.assertLess(abs(e["ts"] / 1e6 - t0), 600, e)
        for e in io:
            a = e["args"]
            self.assertIn(e["name"], ("read", "write", "fsync"))
            self.assertTrue(fh[a["fhash"]].startswith(self.dir + "/ckpt/global_epoch"), fh[a["fhash"]])
            for k in ("offset", "size", "ret"):
                self.assertIsInstance(a[k], int, e)
            if e["name"] != "fsync":
                self.assertEqual(a["ret"], a["size"], e)
                self.assertLessEqual(a["size"], 256 * 1024)
        for d in ("read", "write"):
            self.assertEqual(sum(e["args"]["size"] for e in io if e["name"] == d), j[d]["io_bytes"])
            self.assertEqual(len([e for e in io if e["name"] == d]), j[d]["total_ios"])
        self.assertEqual(len([e for e in io if e["name"] == "fsync"]), j["sync"]["total_ios"])
        # one event per rank and checkpoint; their span is the checkpoint's
        # slowest_s (first start to last end over the ranks; duration_s is
        # rank 0's own time, DLIO's default, since checkpoint_rank_sync)
        ranks = j["checkpoint"]["ranks"]
        for d in ("write", "read"):
            for p in j["checkpoint"][d]:
                ev = [e for e in app if e["name"] == "checkpoint_" + d and
                      e["args"]["checkpoint"] == p["index"]]
                self.assertEqual(len(ev), ranks)
                span = max(e["ts"] + e["dur"] for e in ev) - min(e["ts"] for e in ev)
                self.assertAlmostEqual(span / 1e6, p["slowest_s"], delta=2e-6)
                for e in ev:  # the rank's I/O events lie inside its phase event
                    mine = [x for x in io if x["tid"] == e["tid"] and x["name"] == d]
                    self.assertTrue(mine)
                    for x in mine:
                        if e["ts"] <= x["ts"] <= e["ts"] + e["dur"]:
                            self.assertLessEqual(x["ts"] + x["dur"], e["ts"] + e["dur"] + 1)

    def test_checkpoint_per_rank(self):
        # per checkpoint: each rank's start and end (s from the checkpoint's
        # first start), duration and bytes; the slowest rank's span is the
        # checkpoint's slowest_s, rank 0's its rank0_s
        j, path = self.ckpt()
        ck = j["checkpoint"]
        per_ckpt = ck["bytes_model"] + ck["bytes_optimizer"]
        for d in ("write", "read"):
            for p in ck[d]:
                pr = p["per_rank"]
                self.assertEqual([r["rank"] for r in pr], list(range(ck["ranks"])))
                self.assertEqual(sum(r["bytes"] for r in pr), per_ckpt)
                self.assertEqual(min(r["start_s"] for r in pr), 0)
                for r in pr:
                    self.assertAlmostEqual(r["end_s"] - r["start_s"], r["duration_s"], delta=2e-9)
                self.assertAlmostEqual(max(r["end_s"] for r in pr), p["slowest_s"], delta=2e-9)
                self.assertAlmostEqual(pr[0]["duration_s"], p["rank0_s"], delta=2e-9)
        # the trace: every event of a rank's thread says its rank
        events, _, _, _ = read_trace(path)
        rank_of = {}
        for e in events:
            self.assertIn("rank", e["args"], e)
            self.assertEqual(rank_of.setdefault(e["tid"], e["args"]["rank"]), e["args"]["rank"])
        self.assertEqual(sorted(set(rank_of.values())), list(range(ck["ranks"])))

    def test_sweep_trace_holds_every_point(self):
        job = self.write_job("[global]\nioengine=psync\nsize=256k\nloops=2\nfilename=%s/sw.dat\n"
                             "write_trace=%s/sw.pfw.gz\nsweep.rw = read | write\n[j]\n"
                             "sweep.bs = 4k | 64k\n" % (self.dir, self.dir))
        d = self.run_json(job)
        pts = d["sweep"]["points"]
        self.assertEqual(len(pts), 4)
        want = {"read": 0, "write": 0}
        for p in pts:
            for r in p["runs"]:
                for k in want:
                    want[k] += r.get(k, {}).get("io_bytes", 0)
        self.assertEqual(want, {"read": 2 * 2 * 256 * 1024, "write": 2 * 2 * 256 * 1024})
        path = os.path.join(self.dir, "sw.pfw.gz")
        events, _, _, _ = read_trace(path)   # one '[' line, ids unique over the points
        got = {k: sum(e["args"]["size"] for e in events if e["name"] == k) for k in want}
        self.assertEqual(got, want)
        ops = {o["name"]: o for o in self.analyze(path)["operations"]}
        self.assertEqual({k: ops[k]["bytes"] for k in want}, want)
        # a new run of storbench starts the file afresh
        self.run_json(self.write_job("[j]\nioengine=psync\nsize=64k\nrw=read\nfilename=%s/sw.dat\n"
                                     "write_trace=%s/sw.pfw.gz\n" % (self.dir, self.dir),
                                     name="one.ini"))
        events, _, _, _ = read_trace(path)
        self.assertEqual(sum(e["args"]["size"] for e in events if e["name"] == "read"), 65536)

    def test_training_events(self):
        job = self.write_job("[t]\nworkload=train\nioengine=psync\nepochs=2\ndataset_files=16\n"
                             "record_length=64k\nbatch_size=2\nread_threads=2\naccelerators=2\n"
                             "computation_time=1ms\ndata_dir=%s/ds\nwrite_trace=tr.pfw.gz\n" % self.dir)
        j = self.run_json(job)["jobs"][0]
        events, _, _, _ = read_trace(os.path.join(self.dir, "tr.pfw.gz"))
        app = [e for e in events if e["cat"] == "storbench"]
        epochs = [e for e in app if e["name"] == "epoch"]
        self.assertEqual([e["args"]["epoch"] for e in epochs], [1, 2])
        for e, r in zip(epochs, j["train"]["epochs"]):
            self.assertAlmostEqual(e["dur"] / 1e6, r["duration_s"], delta=1e-3)
        steps = sum(r["steps"] for r in j["train"]["epochs"])
        for name in ("step", "compute"):
            self.assertEqual(len([e for e in app if e["name"] == name]), steps)
        for c in (e for e in app if e["name"] == "compute"):  # inside its step, at least 1 ms
            s = [e for e in app if e["name"] == "step" and e["tid"] == c["tid"] and
                 e["args"]["step"] == c["args"]["step"]]
            self.assertEqual(len(s), 1)
            self.assertLessEqual(s[0]["ts"], c["ts"])
            self.assertGreaterEqual(c["dur"], 1000)
        reads = [e for e in events if e["name"] == "read"]
        self.assertEqual(sum(e["args"]["size"] for e in reads), j["read"]["io_bytes"])

    def test_analyze_matches_the_run(self):
        j, path = self.ckpt()
        a = self.analyze(path)
        ops = {(o["cat"], o["name"]): o for o in a["operations"]}
        for d in ("read", "write"):
            o = ops[("POSIX", d)]
            self.assertEqual(o["bytes"], j[d]["io_bytes"])
            self.assertEqual(o["count"], j[d]["total_ios"])
            # durations: the run's clat sum, to the trace's microsecond per event
            clat = j[d]["clat_ns"]["mean"] * j[d]["clat_ns"]["N"] / 1e9
            self.assertAlmostEqual(o["time_s"], clat, delta=1e-6 * o["count"] + 1e-6)
        self.assertAlmostEqual(ops[("POSIX", "fsync")]["time_s"], j["checkpoint"]["fsync_s"],
                               delta=1e-6 * j["sync"]["total_ios"] + 1e-6)
        self.assertEqual(ops[("storbench", "checkpoint_write")]["count"], 2 * j["checkpoint"]["ranks"])
        # the checkpoint ranks are threads of one pid: their events carry args
        # "rank", and analyze counts each rank (it counted 1 pid before)
        ranks = j["checkpoint"]["ranks"]
        self.assertEqual(a["ranks"]["count"], ranks)
        per = {r["rank"]: r for r in a["ranks"]["per_rank"]}
        self.assertEqual(sorted(per), list(range(ranks)))
        for r in range(ranks):
            # its application time: its checkpoint events, the JSON's per_rank
            # durations (to the trace's microsecond per event)
            want = sum(p["per_rank"][r]["duration_s"] for d in ("write", "read")
                       for p in j["checkpoint"][d])
            self.assertAlmostEqual(per[r]["app_time_s"], want, delta=1e-6 * 4 + 1e-6)
            self.assertEqual(per[r]["app_count"], 4)
            want = sum(p["per_rank"][r]["bytes"] for d in ("write", "read") for p in j["checkpoint"][d])
            self.assertEqual(per[r]["io_bytes"], want)
        self.assertAlmostEqual(a["io_time_s"], sum(o["time_s"] for o in a["operations"]
                                                   if o["cat"] == "POSIX"), delta=1e-5)
        classes = {c["class"] for c in a["file_classes"]}
        # the class drops the digits below the directory every file is under
        # (whose digits are names: the test's own folder keeps them)
        self.assertIn(self.dir + "/ckpt/global_epoch_step/zero_pp_rank__mp_rank__model_states.pt",
                      classes)
        self.assertEqual(sum(c["bytes"] for c in a["file_classes"]),
                         j["read"]["io_bytes"] + j["write"]["io_bytes"])
        # the text output carries the same table
        p = self.run_sb("analyze", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("checkpoint_write", p.stdout)
        self.assertIn("zero_pp_rank__mp_rank__optim_states.pt", p.stdout)

    def test_filters(self):
        j, path = self.ckpt()
        events, fh, _, _ = read_trace(path)
        a = self.analyze("--filter=name:write", path)
        self.assertEqual([o["name"] for o in a["operations"]], ["write"])
        self.assertEqual(a["operations"][0]["bytes"], j["write"]["io_bytes"])
        a = self.analyze("--filter=cat:storbench", path)
        self.assertEqual({o["cat"] for o in a["operations"]}, {"storbench"})
        prefix = self.dir + "/ckpt/global_epoch1_step1/"
        want = sum(e["args"]["size"] for e in events
                   if "fhash" in e["args"] and fh[e["args"]["fhash"]].startswith(prefix))
        a = self.analyze("--filter=file:" + prefix, path)
        self.assertEqual(sum(o["bytes"] for o in a["operations"]), want)
        self.assertGreater(want, 0)
        mid = sorted(e["ts"] for e in events)[len(events) // 2]
        a = self.analyze("--filter=time:%d-" % mid, path)
        self.assertEqual(a["events"], len([e for e in events if e["ts"] >= mid]))
        a = self.analyze("--filter=time:0-1", path)
        self.assertEqual(a["events"], 0)

    def test_one_gzip_stream(self):
        # zindex and dfanalyzer slow down with every gzip
        # member before a line; DFTracer writes one (chrome_writer.cpp:126,
        # gzip -f).  A trace of 20,000 events (4 MB of text) is one member.
        job = self.write_job("[n]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\nnumber_ios=20000\n"
                             "write_trace=t.pfw.gz\n")
        j = self.run_json(job)["jobs"][0]
        path = os.path.join(self.dir, "t.pfw.gz")
        events, _, _, members = read_trace(path)
        self.assertEqual(len(members), 1, "one gzip stream, not %d members" % len(members))
        with open(path, "rb") as f:
            data = f.read()
        self.assertEqual(data[:3], b"\x1f\x8b\x08")  # RFC 1952, deflate
        self.assertEqual(len(events), j["read"]["total_ios"])
        # "[", HH, the job's file's FH, the events
        self.assertEqual(gzip.decompress(data).decode().count("\n"), len(events) + 3)
        self.assertEqual(self.analyze("--threads=3", path)["events"], len(events))

    def test_killed_run_leaves_a_readable_prefix(self):
        # The text is deflated in blocks of at most 256 KiB, each ending on a
        # line and a full flush, and written at once: what a SIGKILL leaves
        # decompresses (Python's zlib, gzip) up to the last whole block.  The
        # trace is written to a temporary beside it (".k.pfw.gz.XXXXXX", the
        # writer gate) renamed over k.pfw.gz at the end: a killed run leaves
        # the prefix there and an earlier k.pfw.gz as it was.
        job = self.write_job("[n]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\ntime_based=1\n"
                             "runtime=60\nwrite_trace=k.pfw.gz\n")
        old = os.path.join(self.dir, "k.pfw.gz")
        with open(old, "w") as f:
            f.write("an earlier trace\n")
        p = subprocess.Popen([os.path.abspath(BIN), job], cwd=self.dir, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        path = None
        try:
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30:
                tmp = [n for n in os.listdir(self.dir) if n.startswith(".k.pfw.gz.")]
                path = os.path.join(self.dir, tmp[0]) if tmp else None
                if path and os.path.getsize(path) > 400000:
                    break
                time.sleep(0.05)
        finally:
            p.send_signal(signal.SIGKILL)
            p.wait()
        self.assertEqual(p.returncode, -signal.SIGKILL)
        with open(old) as f:
            self.assertEqual(f.read(), "an earlier trace\n", "a killed run replaced the old trace")
        with open(path, "rb") as f:
            data = f.read()
        self.assertGreater(len(data), 400000)
        d = zlib.decompressobj(wbits=31)
        text = d.decompress(data)
        self.assertFalse(d.eof)  # the stream's end was never written
        # a kill during a block's write (the kernel may stop a large write
        # between pages) leaves part of that block: its text may end inside
        # a line, never more than one block's worth past the last whole line
        tail = len(text) - (text.rfind(b"\n") + 1)
        self.assertLess(tail, 256 * 1024, "more than a block past the last line")
        lines = text[:len(text) - tail].decode().split("\n")[:-1]
        self.assertEqual(lines[0], "[")
        ev = [json.loads(line) for line in lines[1:]]
        self.assertEqual([e["id"] for e in ev], list(range(len(ev))))
        self.assertGreater(len(ev), 10000)
        # Python's gzip module reads the same lines (less what it had
        # decoded in the read that meets the cut), then reports the cut
        got = b""
        with self.assertRaises(EOFError):
            with gzip.open(path) as g:
                while True:
                    b = g.read(65536)
                    if not b:
                        break
                    got += b
        self.assertTrue(text.startswith(got))
        self.assertGreater(len(got), len(text) - (1 << 20))

    def test_trace_sample(self):
        for every, want in ((1, 1000), (7, 142), (1000, 1), (1001, 0)):
            job = self.write_job("[n]\nioengine=null\nrw=read\nbs=4k\nsize=64m\nnumber_ios=1000\n"
                                 "write_trace=s.pfw.gz\ntrace_sample=%d\n" % every)
            j = self.run_json(job)["jobs"][0]
            self.assertEqual(j["read"]["total_ios"], 1000)
            events, _, _, _ = read_trace(os.path.join(self.dir, "s.pfw.gz"))
            self.assertEqual(len(events), want, "trace_sample=%d" % every)
            if events:  # the N-th, 2N-th, ... I/O of a sequential job
                self.assertEqual(events[0]["args"]["offset"], (every - 1) * 4096)

    def foreign(self, name, text, gz=True):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(gzip.compress(text.encode()) if gz else text.encode())
        return path

    def test_reads_dftracer_and_dlio_traces(self):
        ev = ('{"id":%d,"name":"%s","cat":"POSIX","pid":%d,"tid":1,"ts":%d,"dur":%d,"ph":"X",'
              '"args":{"hhash":1,"fhash":%d,"size":%d,"ret":%d}}')
        lines = ["[", '{"id":0,"name":"HH","cat":"dftracer","pid":1,"tid":1,"ph":"M",'
                      '"args":{"name":"node","value":1}}']
        for f in range(3):
            lines.append('{"id":0,"name":"FH","cat":"dftracer","pid":1,"tid":1,"ph":"M",'
                         '"args":{"name":"/data/img_%03d.npz","value":%d}}' % (f, 100 + f))
        for i in range(6000):  # more than one 1 MiB chunk of text
            lines.append(ev % (i, "read", 10 + i % 2, 1000 + i, 5, 100 + i % 3, 4096, 4096))
        lines.append('{"id":1,"name":"train","cat":"dlio_benchmark","pid":10,"tid":1,"ts":900,'
                     '"dur":7000,"ph":"X","args":{"epoch":1}}')
        dft = self.foreign("dft.pfw.gz", "\n".join(lines) + "\n")
        a = self.analyze(dft)
        self.assertEqual(a["events"], 6001)
        ops = {(o["cat"], o["name"]): o for o in a["operations"]}
        self.assertEqual(ops[("POSIX", "read")]["bytes"], 6000 * 4096)
        self.assertAlmostEqual(ops[("POSIX", "read")]["time_s"], 0.03, delta=1e-9)
        self.assertEqual(a["ranks"]["count"], 2)
        self.assertAlmostEqual(a["app_time_s"], 0.007)
        self.assertEqual(a["ranks"]["max"]["app_time_pid"], 10)
        cls = {(c["class"], c["pid"]): c for c in a["file_classes"]}
        self.assertEqual(cls[("/data/img_.npz", 10)]["count"], 3000)
        self.assertEqual(cls[("/data/img_.npz", 10)]["files"], 3)
        # JSON array form (commas, a closing ']'), plain text, file names in args
        arr = ["[", '{"name":"write","cat":"POSIX","pid":3,"tid":3,"ts":5,"dur":2,"ph":"X",'
                    '"args":{"fname":"/ck/a1.pt","size":10}},',
               '{"name":"write","cat":"POSIX","pid":3,"tid":3,"ts":9,"dur":2,"ph":1,'
               '"args":{"fname":"/ck/a2.pt","size":20}}', "]"]
        a = self.analyze(self.foreign("arr.pfw", "\n".join(arr) + "\n", gz=False))
        self.assertEqual(a["events"], 2)
        self.assertEqual(a["file_classes"][0]["class"], "/ck/a.pt")
        self.assertEqual(a["file_classes"][0]["bytes"], 30)

    def test_bad_inputs(self):
        missing = os.path.join(self.dir, "nope.pfw.gz")
        p = self.run_sb("analyze", missing)
        self.assertEqual(p.returncode, 1)
        self.assertIn("%s: No such file or directory" % missing, p.stderr)
        # a bad line in a plain gzip trace: the file and its line number
        lines = ["["] + ['{"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":%d,"dur":1,"ph":"X",'
                         '"args":{"size":1}}' % i for i in range(9000)]
        lines[7000] = '{"name":"read",'
        bad = self.foreign("bad.pfw.gz", "\n".join(lines) + "\n")
        p = self.run_sb("analyze", bad)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:7001: " % bad, p.stderr)
        p = self.run_sb("analyze", self.foreign("obj.pfw", "[\n[1,2]\n", gz=False))
        self.assertEqual(p.returncode, 1)
        self.assertIn("obj.pfw:2: ", p.stderr)
        p = self.run_sb("analyze", self.foreign("num.pfw", "[\n7\n", gz=False))
        self.assertEqual(p.returncode, 1)
        self.assertIn("num.pfw:2: not an event", p.stderr)
        # corrupt gzip: in storbench's older traces (parallel members with
        # the "SB" length field), in a storbench trace (one stream) and in a
        # plain one
        old, first = bytearray(), 0
        for k in range(3):
            body = zlib.compressobj(1, zlib.DEFLATED, -15)
            text = ("[\n" if k == 0 else "") + '{"ph":"X","name":"read","cat":"POSIX"}\n' * 2000
            raw = body.compress(text.encode()) + body.flush()
            head = b"\x1f\x8b\x08\x04" + bytes(5) + b"\x03\x08\x00SB\x04\x00"
            n = len(head) + 4 + len(raw) + 8
            old += head + struct.pack("<I", n) + raw + struct.pack("<II", zlib.crc32(text.encode()),
                                                                   len(text))
            first = first or len(old)
        with open(os.path.join(self.dir, "old.pfw.gz"), "wb") as f:
            f.write(old)
        self.assertEqual(self.analyze(os.path.join(self.dir, "old.pfw.gz"))["events"], 6000)
        for i in range(first + 40, first + 80):
            old[i] ^= 0x5a
        with open(os.path.join(self.dir, "old.pfw.gz"), "wb") as f:
            f.write(old)
        p = self.run_sb("analyze", os.path.join(self.dir, "old.pfw.gz"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("old.pfw.gz: corrupt gzip data in the member at byte %d" % first, p.stderr)
        job = self.write_job("[n]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\n"
                             "write_trace=t.pfw.gz\n")
        self.run_json(job)
        path = os.path.join(self.dir, "t.pfw.gz")
        with open(path, "rb") as f:
            data = bytearray(f.read())
        for i in range(len(data) // 2, len(data) // 2 + 40):
            data[i] ^= 0x5a
        with open(path, "wb") as f:
            f.write(data)
        p = self.run_sb("analyze", path)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s: corrupt gzip data in the member at byte 0" % path, p.stderr)
        plain = gzip.compress(b"[\n" + b'{"ph":"X"}\n' * 1000)
        cut = self.foreign("cut.pfw.gz", "")
        with open(cut, "wb") as f:
            f.write(plain[:len(plain) // 2])
        p = self.run_sb("analyze", cut)
        self.assertEqual(p.returncode, 1)
        self.assertIn("%s: corrupt gzip data in the member at byte 0" % cut, p.stderr)
        for args, what in ((["--filter=size:3", path], "--filter=size:3"),
                           (["--filter=time:abc-", path], "--filter=time:abc-"),
                           (["--threads=0", path], "--threads=0"), ([], "no trace named")):
            p = self.run_sb("analyze", *args)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("<cmdline>", p.stderr)
            self.assertIn(what, p.stderr)

    def test_bad_job_options(self):
        # (write_trace= with no value resets it, as fio's write_iolog=: no trace)
        for body, line, what in (("write_trace=%s/no/such/t.pfw.gz\n" % self.dir, 4,
                                  "the folder %s/no/such does not exist" % self.dir),
                                 ("write_trace=t.pfw.gz\ntrace_sample=0\n", 5, "trace_sample")):
            job = self.write_job("[n]\nioengine=null\nsize=1m\n" + body, name="bad.ini")
            before = self.listing()
            p = self.run_sb(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("%s:%d:" % (job, line), p.stderr)
            self.assertIn(what, p.stderr)
            self.assertEqual(self.listing(), before, "files were written")
