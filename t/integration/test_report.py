"""storbench report: the HTML reports of a sweep, an engine comparison, a
checkpoint and a training run are well-formed, self-contained (no reference
out of the page but the SVG namespace), hold their sections and the figures
of the JSON, escape what the JSON says, overlay several results, accept
fio's JSON, and render in a headless Chromium without console errors to a
screenshot that is not blank.  Bad inputs name the file and write nothing."""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib
from html.parser import HTMLParser

from sbtest import BIN, SRC, SbCase, sanitizer_report

VOID = {"meta", "br", "img", "input", "link", "hr", "line", "rect", "path", "polyline", "col"}
SVG_NS = "http://www.w3.org/2000/svg"


class Page(HTMLParser):
    """tags balanced, the h2/h3 titles, the visible text, svg count"""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.h2, self.text, self.svgs = [], [], [], [], 0
        self.in_h2 = False

    def handle_starttag(self, tag, attrs):
        self.svgs += tag == "svg"
        if tag == "script":
            self.errors.append("a script element")
        if tag not in VOID:
            self.stack.append(tag)
        self.in_h2 = tag == "h2"

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> at %s, open: %s" % (tag, self.getpos(), self.stack[-3:]))
        else:
            self.stack.pop()
        if tag == "h2":
            self.in_h2 = False

    def handle_data(self, data):
        self.text.append(data)
        if self.in_h2:
            self.h2.append(data)


def parse(path):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    p = Page()
    p.feed(html)
    p.close()
    return html, p, " ".join(p.text)


def png_colours(path, limit=2):
    """distinct pixel values of a PNG (8-bit RGB/RGBA, non-interlaced), up to limit"""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            seen.add(bytes(line[x:x + bpp]))
        if len(seen) >= limit:
            return seen
        prev = line
    return seen


def figures(html, caption):
    """the bodies of the figures whose caption starts with caption"""
    return [m.group(1) for m in re.finditer(r"<figure><figcaption>%s[^<]*</figcaption>(.*?)</figure>"
                                            % re.escape(caption), html, re.S)]


def strip_rows(body):
    """the rows of a heat strip: the distinct y of its rectangles (M x y h...)"""
    return {int(y) for y in re.findall(r"M[\d.]+ (\d+)h", body)}


def cpu_count():
    with open("/proc/stat") as f:
        return 1 + max(int(l.split()[0][3:]) for l in f if l.startswith("cpu") and l[3].isdigit())


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Reports(SbCase):
    """the four kinds of run, run once for the class"""

    @classmethod
    def setUpClass(cls):
        cls._cls_tmp = tempfile.TemporaryDirectory(prefix="sbrep.")
        d = cls.cdir = cls._cls_tmp.name
        cls.json = {}
        jobs = {
            "sweep": "[global]\ndirectory=%s\nsize=2m\nioengine=psync\nsweep.rw = randread | read\n"
                     "[s]\nsweep.bs = 4k | 64k | 1m\nsweep.iodepth = 1 | 2\n" % d,
            "checkpoint": "[ck]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\n"
                          "checkpoint_folder=%s/ck\nmodel=llama3-8b\ncheckpoint_scale=0.0002\n"
                          "num_checkpoints_write=2\nnum_checkpoints_read=1\n" % d,
            "train": "[t]\nworkload=train\nioengine=psync\nepochs=2\ndataset_files=16\n"
                     "record_length=64k\nbatch_size=2\nread_threads=2\ncomputation_time=5ms\n"
                     "data_dir=%s/ds\nrules=mlperf\nstats_interval=1\n" % d,
            "tiered": "[tc]\nworkload=checkpoint\nioengine=psync\nbs=256k\ndrop_caches=0\n"
                      "checkpoint_folder=%s/tck\ncheckpoint_cache_folder=%s/tcache\n"
                      "model=llama3-8b\ncheckpoint_scale=0.0002\nnum_checkpoints_write=2\n"
                      "num_checkpoints_read=1\ncheckpoint_flush=async\n"
                      "time_between_checkpoints=0.2\n" % (d, d),
            "kvcache": "[kv]\nworkload=kvcache\nioengine=psync\nbs=1m\ndirectory=%s\n"
                       "model=llama3-8b\nkv_block_tokens=16\nkv_requests=40\nprompt_tokens=64\n"
                       "output_tokens=16\nprefix_reuse=0.5\nkv_memory_capacity=0\n"
                       "kv_disk_capacity=256m\n" % d,
        }
        env = dict(os.environ, DIR=d, SIZE="8m", RUNTIME="1")
        for name, text in list(jobs.items()) + [("engines", None)]:
            job = os.path.join(SRC, "jobs", "engine-compare.ini")
            if text is not None:
                job = os.path.join(d, name + ".ini")
                with open(job, "w") as f:
                    f.write(text)
            p = subprocess.run([BIN, "--output-format=json+", job], cwd=d, env=env,
                               capture_output=True, text=True, timeout=300)
            assert p.returncode == 0 and not sanitizer_report(p.stderr), (name, p.returncode, p.stderr)
            path = os.path.join(d, name + ".json")
            with open(path, "w") as f:
                f.write(p.stdout)
            cls.json[name] = path

    @classmethod
    def tearDownClass(cls):
        cls._cls_tmp.cleanup()

    def doc(self, name):
        with open(self.json[name]) as f:
            return json.load(f)

    def report(self, *names, args=()):
        out = os.path.join(self.dir, "_".join(names) + ".html")
        p = self.run_sb("report", *[self.json[n] for n in names], "-o", out, *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        html, page, text = parse(out)
        self.assertEqual(page.errors, [])
        self.assertEqual(page.stack, [])
        self.assertGreater(page.svgs, 0)
        self.assertEqual(set(re.findall(r"https?://[^\"'\s<>]*", html)), {SVG_NS})
        self.assertLess(len(html), 5 << 20)
        return out, html, page, text

    def test_sweep(self):
        out, html, page, text = self.report("sweep")
        self.assertIn("Sweep", page.h2)
        # default axes: the options with the most values (bs: 3; rw, iodepth: 2, rw first)
        self.assertIn("read bandwidth over bs and rw", text)
        self.assertIn("Effect of iodepth on read bandwidth", text)
        best = self.doc("sweep")["sweep"]["best"]["read"]
        # the best point is the first, highlighted row of the points table
        m = re.search(r'<tr class="best"><td>(\d+)</td>', html)
        self.assertEqual(int(m.group(1)), best["point"])
        self.assertIn("%.1f" % (best["bw_bytes"] / 1048576), text)
        self.assertIn("sweep.bs = 4k | 64k | 1m", text)
        # --heatmap picks the axes
        out, html, page, text = self.report("sweep", args=("--heatmap=iodepth,rw",))
        self.assertIn("read bandwidth over iodepth and rw", text)

    def test_engines(self):
        out, html, page, text = self.report("engines")
        self.assertIn("Comparisons", page.h2)
        doc = self.doc("engines")
        for c in doc["comparisons"]:
            for row in c["rows"]:
                self.assertIn("x%.2f" % row["ratio"], text)
                self.assertIn("%.0f" % row["iops"], text)
        for j in doc["jobs"]:
            self.assertIn("Job %d: %s" % (doc["jobs"].index(j) + 1, j["jobname"]), page.h2)
        self.assertIn("Completion latency percentiles", text)
        self.assertIn("Completion latency histogram", text)
        self.assertIn("Bandwidth over time", text)

    def test_checkpoint(self):
        out, html, page, text = self.report("checkpoint")
        self.assertIn("Checkpoint: ck", page.h2)
        ck = self.doc("checkpoint")["jobs"][0]["checkpoint"]
        for e in ck["write"] + ck["read"]:
            self.assertIn("%.3f" % e["gbps"], text)
            self.assertIn("%.3f" % e["duration_s"], text)
        self.assertIn("Checkpoint throughput", text)

    def test_per_cpu_strip(self):
        # the host series has each CPU's busy %: the heat strip has one row per CPU
        for name in ("checkpoint", "engines"):
            with self.subTest(name):
                ncpu = len(self.doc(name)["host"]["series"][0]["cpus"])
                self.assertEqual(ncpu, cpu_count())
                out, html, page, text = self.report(name)
                strips = figures(html, "Per-CPU utilization (%s.json, %d CPUs)" % (name, ncpu))
                self.assertEqual(len(strips), 1, "no per-CPU strip")
                self.assertEqual(len(strip_rows(strips[0])), ncpu)
                self.assertNotIn("the result has no per-CPU series", text)

    def test_p50_over_time(self):
        # the latency-over-time chart draws p50, p99 and max from the series
        doc = self.doc("engines")
        self.assertTrue(any("clat_p50_ns" in s.get("read", {}) for j in doc["jobs"]
                            for s in j.get("timeseries", [])), "no clat_p50_ns in the series")
        out, html, page, text = self.report("engines")
        lat = figures(html, "Completion latency over time")
        self.assertTrue(lat)
        for what in ("read p50", "read p99", "read max"):
            self.assertIn(what, lat[0])

    def test_checkpoint_per_rank(self):
        # durations per rank: one bar per rank and checkpoint, each the JSON's
        ck = self.doc("checkpoint")["jobs"][0]["checkpoint"]
        out, html, page, text = self.report("checkpoint")
        bars = figures(html, "Checkpoint duration per rank (checkpoint.json")
        self.assertEqual(len(bars), 1, "no per-rank chart")
        for r in range(ck["ranks"]):
            self.assertIn("rank %d" % r, bars[0])
        for e in ck["write"] + ck["read"]:
            self.assertEqual(len(e["per_rank"]), ck["ranks"])

    def test_tiered_and_kvcache(self):
        # the tiered checkpoint's blocking and flush
        # times per checkpoint, the KV cache's hit ratios and figures
        tc = self.doc("tiered")["jobs"][0]["checkpoint"]["tiered"]
        out, html, page, text = self.report("tiered")
        bars = figures(html, "Tiered checkpoint: time the application was blocked")
        self.assertEqual(len(bars), 1)
        self.assertIn("application blocked", bars[0])
        self.assertIn("flush", bars[0])
        self.assertEqual(len(tc["checkpoints"]), 2)
        kv = self.doc("kvcache")["jobs"][0]["kvcache"]
        out, html, page, text = self.report("kvcache")
        self.assertIn("KV cache: kv", page.h2)
        self.assertTrue(figures(html, "KV-cache hit ratios"))
        self.assertIn(str(kv["requests"]), text)
        self.assertIn(str(kv["disk_reads"]), text)

    def test_train(self):
        out, html, page, text = self.report("train")
        self.assertIn("Training: t", page.h2)
        j = self.doc("train")["jobs"][0]
        self.assertIn("Accelerator utilization per epoch", text)
        self.assertIn(j["rules"]["verdict"], text)
        for c in j["rules"]["checks"]:
            self.assertIn(c["fix"], text)
        self.assertIn("%.6g" % j["train"]["au_pct"], text)

    def test_overlay(self):
        # two results on the same axes: one legend entry per result
        out, html, page, text = self.report("train", "checkpoint")
        self.assertIn("train.json: read", text)
        self.assertIn("checkpoint.json: read", text)
        self.assertIn("Training: t", page.h2)
        self.assertIn("Checkpoint: ck", page.h2)
        self.assertIn("Job 1: t / ck", page.h2)

    def test_escaped(self):
        doc = self.doc("checkpoint")
        evil = "<script>alert('x')</script> & \"q\""
        doc["jobs"][0]["jobname"] = evil
        doc["system"] = {"cpu": {"model": evil, "cores": 8},
                         "devices": [{"name": "nvme0n1", "model": "<b>x</b>"}]}
        path = os.path.join(self.dir, "evil.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        out = os.path.join(self.dir, "evil.html")
        p = self.run_sb("report", path, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        html, page, text = parse(out)
        self.assertEqual(page.errors, [])
        self.assertNotIn("<script", html)
        self.assertNotIn("<b>x", html)
        self.assertIn(evil, text)
        self.assertIn("System", page.h2)
        self.assertIn("nvme0n1", text)

    def test_fio_json(self):
        if not shutil.which("fio"):
            self.skipTest("fio is not installed")
        job = self.write_job("[f]\nfilename=%s/f\nsize=2m\nrw=randread\nbs=4k\n" % self.dir)
        p = subprocess.run(["fio", "--output-format=json+", job], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.json["fio"] = os.path.join(self.dir, "fio.json")
        with open(self.json["fio"], "w") as f:
            f.write(p.stdout)
        out, html, page, text = self.report("fio")
        self.assertIn("Job 1: f", page.h2)
        self.assertIn("Completion latency percentiles", text)
        self.assertIn("fio-3", text)

    def test_chromium(self):
        exe = chromium()
        if not exe:
            self.skipTest("chromium is not installed (apt-get install chromium)")
        names = ("sweep", "engines", "checkpoint", "train", "engines+checkpoint", "tiered", "kvcache")
        outs = {}
        for name in names:
            with self.subTest(name):
                # the last: p50 over time, the per-CPU strips and the per-rank
                # durations of two results in one page
                out, html = self.report(*name.split("+"))[:2]
                if "+" in name:
                    strips = figures(html, "Per-CPU utilization (")
                    self.assertEqual([len(strip_rows(b)) for b in strips], [cpu_count()] * 2)
                    self.assertTrue(figures(html, "Checkpoint duration per rank"))
                    self.assertIn("p50", figures(html, "Completion latency over time")[0])
                outs[name] = out
        # the screenshots side by side, as many at a time as there are CPUs
        # (a chromium start is seconds of CPU), each page checked as before
        todo, running, done = list(outs), {}, {}
        while todo or running:
            while todo and len(running) < max(1, os.cpu_count() or 1):
                name = todo.pop(0)
                png = os.path.join(self.dir, name + ".png")
                log = open(os.path.join(self.dir, name + ".stderr"), "w+")  # no pipe to fill
                proc = subprocess.Popen([exe, "--headless", "--no-sandbox", "--disable-gpu",
                                         "--user-data-dir=" + os.path.join(self.dir, "prof-" + name),
                                         "--window-size=800,600", "--screenshot=" + png,
                                         "--enable-logging=stderr", "--v=0", "file://" + outs[name]],
                                        stdout=subprocess.DEVNULL, stderr=log, text=True)
                running[name] = (proc, png, log)
            name = next(iter(running))
            proc, png, log = running.pop(name)
            try:
                proc.wait(timeout=120)
                why = ""
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                why = "chromium timed out after 120 s\n"
            log.seek(0)
            done[name] = (proc.returncode, why + log.read(), png)
            log.close()
        for name, (rc, err, png) in done.items():
            with self.subTest(name):
                self.assertEqual(rc, 0, err)
                console = [l for l in err.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
                self.assertEqual(console, [])
                self.assertGreaterEqual(len(png_colours(png)), 2, "blank screenshot")


class BadInput(SbCase):
    def fails(self, args, code, *needles):
        before = self.listing()
        p = self.run_sb("report", *args)
        self.assertEqual(p.returncode, code, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertEqual(self.listing(), before)   # no report written
        return p

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)
        return name

    def test_missing_file(self):
        self.fails(["nope.json", "-o", "r.html"], 1, "nope.json", "cannot open", "No such file")

    def test_not_json(self):
        self.write("bad.json", '{"jobs": [\n  {"jobname": "a",}\n]}\n')
        self.fails(["bad.json", "-o", "r.html"], 1, "bad.json", "line 2, column")

    def test_not_a_result(self):
        self.write("x.json", '{"hello": [1, 2]}\n')
        self.fails(["x.json", "-o", "r.html"], 1, "x.json", "not a storbench or fio result",
                   "--output-format=json")

    def test_one_bad_of_several(self):
        # the good file's report is not written either
        self.write("good.json", '{"jobs": []}\n')
        self.fails(["good.json", "nope.json", "-o", "r.html"], 1, "nope.json")

    def test_bad_command_line(self):
        self.write("good.json", '{"jobs": []}\n')
        self.fails([], 2, "no result file")
        self.fails(["good.json"], 2, "no output file", "-o REPORT.html")
        self.fails(["good.json", "-o"], 2, "-o needs a file name")
        self.fails(["good.json", "-o", "r.html", "--colour"], 2, "unknown option '--colour'")
        self.fails(["good.json", "-o", "r.html", "--heatmap=bs"], 2, "--heatmap=bs", "two swept options")
        self.fails(["good.json", "-o", "r.html", "--heatmap=bs,iodepth"], 2, "no result is a sweep")
        self.write("sw.json", '{"jobs": [], "sweep": {"options": [{"name": "bs", "values": ["4k"]},'
                   ' {"name": "rw", "values": ["read"]}], "points": []}}\n')
        self.fails(["sw.json", "-o", "r.html", "--heatmap=bs,iodepth"], 2, "sw.json sweeps bs, rw")

    def test_help(self):
        p = self.run_sb("report", "--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("--heatmap=X,Y", p.stdout)


if __name__ == "__main__":
    unittest.main()
