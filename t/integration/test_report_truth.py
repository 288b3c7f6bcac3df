"""storbench report draws only what was measured, checked on result documents written here and by parsing the SVG:

- short jobs: a series of fewer than 3 samples is drawn as points, each
  with its true span (no line between two interval ends); a partial last
  interval is never drawn as a rate; each job is on its own time axis (a
  job that ran late in the run does not sit at the right edge of a
  run-long axis);
- tick labels never end in a trailing zero ("1.50", "1.50k");
- the host charts are in MiB/s, and without a GPU the pressure chart is not
  titled "GPU";
- the job table never shows a p99 above the max, and says n/a where the job
  has no completion-latency histogram (kv_profile=mlperf);
- the KV-cache section of a kv_profile=mlperf job: the official assessment,
  latency and QoS as charts, no figure of the blocks profile, no empty hit
  ratio bar, the raw figures folded in <details>;
- sweep charts have no silent empty category: a value without data in the
  chart's direction is left out, one whose points were all skipped is
  labelled with why."""
import json
import os
import re
import xml.etree.ElementTree as ET

from sbtest import SbCase, SRC

NS = "{http://www.w3.org/2000/svg}"
ML, PW = 72, 760 - 72 - 16   # plot box of a line chart (tools/svg.c)
KV_FIXTURE = os.path.join(SRC, "t", "fixtures", "report", "kv-mlperf.json")


def sections(html):
    """h2 title -> the HTML of its section"""
    parts = re.split(r"<h2[^>]*>", html)[1:]
    return {p.split("</h2>")[0].replace("&#39;", "'"): p for p in parts}


def figures(html):
    """[(caption, svg element)] of every figure of html, in order"""
    return [(m.group(1).replace("&#39;", "'"), ET.fromstring(m.group(2)))
            for m in re.finditer(r"<figure><figcaption>([^<]*)</figcaption>\s*(<svg.*?</svg>)",
                                 html, re.S)]


def fig(html, caption):
    got = [s for c, s in figures(html) if c == caption]
    assert len(got) == 1, (caption, [c for c, _ in figures(html)])
    return got[0]


def spans(svg):
    """(t0, t1, v, x1px, x2px) of every span segment"""
    return [(float(l.get("data-t0")), float(l.get("data-t1")), float(l.get("data-v")),
             float(l.get("x1")), float(l.get("x2")))
            for l in svg.iter(NS + "line") if l.get("class") == "span"]


def polylines(svg):
    return [[tuple(float(v) for v in p.split(",")) for p in pl.get("points").split()]
            for pl in svg.iter(NS + "polyline")]


def tick_labels(svg):
    return [t.text for t in svg.iter(NS + "text")
            if t.text and t.get("transform") is None and re.fullmatch(r"-?[0-9.]+[kMGTPE]?", t.text)]


def sample(t_ms, dur_ms, iops, p99=80000, mx=90000):
    d = {"bw_bytes": int(iops * 4096), "iops": iops, "clat_mean_ns": 50000,
         "clat_max_ns": mx, "clat_p99_ns": p99, "clat_p50_ns": 40000}
    return {"t_ms": t_ms, "dur_ms": dur_ms, "read": d}


def job(name, ts):
    return {"jobname": name, "read": {"io_bytes": 4096 * 1000, "iops": 1000, "total_ios": 1000},
            "timeseries": ts}


class ReportTruth(SbCase):
    def report(self, *docs):
        paths = []
        for i, d in enumerate(docs):
            paths.append(os.path.join(self.dir, f"r{i}.json"))
            with open(paths[-1], "w") as f:
                json.dump(d, f)
        out = os.path.join(self.dir, "r.html")
        p = self.run_sb("report", *paths, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return f.read()

    def job_charts(self, html, name):
        return dict(figures(sections(html)["Job %d: %s" % (self.jobno[name], name)]))

    def test_short_jobs_are_points_with_their_spans(self):
        # a run of 60 s: a long job from 0, then a 1 s job started at 55 s
        # (one full sample), a ~1 s job whose second sample is the 8 ms tail
        # (partial), and a 2-sample job of two full intervals
        long_ts = [sample(1000 * (i + 1), 1000, 1000.0) for i in range(60)]
        one = [sample(56000, 1000, 1500.0)]
        tail = [sample(57000, 996, 2000.0), sample(57008, 8, 40.0)]
        two = [sample(58500, 1000, 700.0), sample(59500, 1000, 900.0)]
        cases = {"long": long_ts, "one": one, "tail": tail, "two": two}
        self.jobno = {n: i + 1 for i, n in enumerate(cases)}
        html = self.report({"jobs": [job(n, ts) for n, ts in cases.items()]})
        for name, ts in cases.items():
            charts = self.job_charts(html, name)
            for cap in ("IOPS over time", "Bandwidth over time", "Completion latency over time"):
                svg = charts[cap]
                sp, pl = spans(svg), polylines(svg)
                if name == "long":
                    self.assertFalse(sp, (name, cap))
                    self.assertTrue(pl, (name, cap))
                    # its own axis from its own start: the first point is at
                    # the left of the plot, the last at its right
                    self.assertLess(pl[0][0][0], ML + PW * 0.1, (name, cap, pl[0][:2]))
                    continue
                # no line at all: every sample is a point with its span
                self.assertFalse(pl, (name, cap, pl))
                self.assertTrue(sp, (name, cap))
                full = [s for s in ts if s["dur_ms"] * 2 >= max(x["dur_ms"] for x in ts)]
                start = (ts[0]["t_ms"] - ts[0]["dur_ms"]) / 1000
                want = sorted((round((s["t_ms"] - s["dur_ms"]) / 1000 - start, 3),
                               round(s["t_ms"] / 1000 - start, 3)) for s in full)
                per_series = {}
                for t0, t1, v, x1, x2 in sp:
                    per_series.setdefault((t0, t1), []).append(v)
                    self.assertGreater(x2, x1, (name, cap))
                    # the job's own axis: its spans fill most of the plot
                    # (the last sample ends past 60% of its width)
                self.assertEqual(sorted(per_series), want, (name, cap))
                self.assertGreater(max(x2 for *_, x2 in sp), ML + PW * 0.6, (name, cap))
                self.assertLess(min(x1 for *_, x1, _ in sp), ML + PW * 0.1, (name, cap))
                if cap == "IOPS over time":
                    vals = sorted(v for vs in per_series.values() for v in vs)
                    self.assertEqual(vals, sorted(s["read"]["iops"] for s in full), name)
            # the partial tail (8 ms, 40 IOPS) is not drawn anywhere
            if name == "tail":
                self.assertNotIn(40.0, [v for *_, v, _x1, _x2 in spans(charts["IOPS over time"])])

    def test_tick_labels_have_no_trailing_zeros(self):
        # CPU 0.2-1.9 %: ticks 0, 0.5, 1, 1.5, 2; IOPS 1200-1900: 1.5k ...
        hs = [{"t_ms": 100 * (i + 1), "dur_ms": 100, "cpu_avg": 0.2 + 0.17 * i} for i in range(11)]
        ts = [sample(100 * (i + 1), 100, 1200.0 + 70 * i) for i in range(11)]
        self.jobno = {"j": 1}
        html = self.report({"jobs": [job("j", ts)], "host": {"series": hs}})
        labels = []
        for cap, svg in figures(html):
            labels += tick_labels(svg)
        self.assertIn("1.5", labels)
        self.assertTrue(any(l.endswith("k") for l in labels), labels)
        bad = [l for l in labels if re.search(r"\.[0-9]*0[kMGTPE]?$", l)]
        self.assertEqual(bad, [], labels)

    def host_doc(self, gpu):
        hs = []
        for i in range(11):
            s = {"t_ms": 100 * (i + 1), "dur_ms": 100, "disk_read_bytes": 1048576 // 10,
                 "net_ext_sent": 1048576 // 10, "psi_io_some_pct": 3.0}
            if gpu:
                s["gpu_util_pct"] = 50.0
            hs.append(s)
        return {"jobs": [], "host": {"series": hs}}

    def test_host_charts_mib_and_gpu_title(self):
        html = self.report(self.host_doc(False))
        caps = [c for c, _ in figures(html)]
        self.assertNotIn("GPU and I/O pressure", caps)
        self.assertIn("I/O pressure", caps)
        host = sections(html)["Host"]
        self.assertNotIn("MB/s", host)
        for cap in ("Disk throughput", "Network throughput"):
            svg = fig(html, cap)
            ylab = [t.text for t in svg.iter(NS + "text") if t.get("transform")][0]
            self.assertIn("MiB/s", ylab)
            # 1 MiB per second exactly: the flat line sits on the tick "1"
            ys = {y for pl in polylines(svg) for _, y in pl}
            self.assertEqual(len(ys), 1, ys)
            one = [t for t in svg.iter(NS + "text") if t.text == "1" and t.get("text-anchor") == "end"]
            self.assertTrue(one, cap)
            self.assertAlmostEqual(float(one[0].get("y")) - 4, ys.pop(), delta=0.11)
        caps = [c for c, _ in figures(self.report(self.host_doc(True)))]
        self.assertIn("GPU and I/O pressure", caps)

    def table_rows(self, html):
        return re.findall(r"<tr><td>r0\.json</td><td>(\w+)</td>((?:<td[^>]*>[^<]*</td>)+)</tr>", html)

    def test_job_table_p99_not_above_max(self):
        # histogram percentiles are bucket midpoints: p99 may be reported a
        # little above the largest latency seen
        for p99, mx, mn in ((101000, 100000, 1000), (500, 100000, 1000), (99000, 100000, 1000)):
            j = {"jobname": "j", "read": {"io_bytes": 4096, "iops": 1, "total_ios": 10,
                                          "clat_ns": {"N": 10, "min": mn, "max": mx, "mean": 5000.0,
                                                      "percentile": {"50.000000": p99 / 2,
                                                                     "99.000000": p99}}}}
            rows = self.table_rows(self.report({"jobs": [j]}))
            self.assertEqual(len(rows), 1, rows)
            cells = re.findall(r"<td[^>]*>([^<]*)</td>", rows[0][1])
            mean, p50, p99c, maxc = (float(c) for c in cells[2:6])
            self.assertLessEqual(p99c, maxc, cells)
            self.assertLessEqual(p50, p99c, cells)
            self.assertGreaterEqual(p50, mn / 1000, cells)
            self.assertEqual(p99c, min(max(p99, mn), mx) / 1000, cells)

    def test_kvcache_mlperf_section(self):
        with open(KV_FIXTURE) as f:
            doc = json.load(f)
        html = self.report(doc)
        # no clat histogram under kv_profile=mlperf: n/a, never 0.0
        rows = self.table_rows(html)
        self.assertEqual([d for d, _ in rows], ["read", "write"])
        for _, cells in rows:
            c = re.findall(r"<td[^>]*>([^<]*)</td>", cells)
            self.assertEqual(c[2:6], ["n/a"] * 4, c)
        sec = [v for k, v in sections(html).items() if k.startswith("KV cache")]
        self.assertEqual(len(sec), 1, list(sections(html)))
        kv = sec[0]
        # the other profile's figures are not shown
        for k in ("memory_hit_ratio", "disk_hit_ratio", "block_tokens", "blocks_looked_up",
                  "ttft_us", "storage_ttft_us", "prefix_hits", "memory tier", "disk tier"):
            self.assertNotIn(k, kv, k)
        # the assessment, readable
        self.assertRegex(kv, r"assessment: <span[^>]*>PASS</span> \(3 of 3 criteria\)")
        self.assertIn("Storage Tier Read Device P95 &lt; 200ms", kv)
        caps = dict(figures(kv))
        lat = caps["Request latency: end-to-end, storage I/O and generation (ms)"]
        cats = [t.text for t in lat.iter(NS + "text") if t.text in
                ("end-to-end", "storage I/O", "generation")]
        self.assertEqual(cats, ["end-to-end", "storage I/O", "generation"])
        q = [v for k, v in caps.items() if k.startswith("QoS")][0]
        qb = [r.find(NS + "title").text for r in q.iter(NS + "rect") if r.find(NS + "title") is not None]
        m = doc["jobs"][0]["kvcache"]["mlperf"]["qos_metrics"]
        self.assertEqual(sorted(t.split(":")[0] for t in qb),
                         sorted(k for k, v in m.items() if v["total_requests"] > 0))
        # hit ratios: no empty bar
        hr = caps["KV-cache hit ratios"]
        hb = [(r.find(NS + "title").text, float(r.get("height"))) for r in hr.iter(NS + "rect")
              if r.find(NS + "title") is not None]
        self.assertTrue(hb)
        self.assertTrue(all(h > 0 for _, h in hb), hb)
        # raw tables fold away behind the charts: every kv table is in a <details>
        outside = re.sub(r"<details>.*?</details>", "", kv, flags=re.S)
        self.assertNotIn('<table class="kv">', outside)
        self.assertIn("<details>", kv)
        self.assertLess(kv.index("<figure>"), kv.index("<details>"))

    def test_sweep_no_silent_empty_category(self):
        pts, skipped, n = [], [], 0
        reason = ("iomem=cudamalloc: libcuda.so.1 not found (libcuda.so.1: cannot open shared "
                  "object file: No such file or directory): install the NVIDIA driver")
        for rw in ("read", "write"):
            for mem in ("malloc", "cudamalloc"):
                n += 1
                vals = {"rw": rw, "iomem": mem}
                if mem == "cudamalloc":
                    skipped.append({"point": n, "values": vals, "skipped": True, "reason": reason})
                    continue
                pts.append({"point": n, "values": vals, "score": 1,
                            rw: {"bw_bytes": 1048576 * (300 if rw == "read" else 200)}})
        doc = {"jobs": [], "sweep": {"options": [{"name": "rw", "values": ["read", "write"]},
                                                 {"name": "iomem", "values": ["malloc", "cudamalloc"]}],
                                     "points": pts, "skipped": skipped, "skipped_points": 2}}
        html = self.report(doc)
        for d in ("read", "write"):
            for opt in ("rw", "iomem"):
                cap = ("Effect of %s on %s bandwidth (best and mean over the other options; "
                       "best value shaded)" % (opt, d))
                svg = fig(html, cap)
                texts = [t for t in svg.iter(NS + "text")]
                bar_titles = [r.find(NS + "title").text for r in svg.iter(NS + "rect")
                              if r.find(NS + "title") is not None]
                with_bar = {t.split(": ")[0].split(", ")[-1] for t in bar_titles}
                cats = [t.text for t in texts if t.text in ("read", "write", "malloc", "cudamalloc")]
                empty = [t.text for t in texts if t.get("class") == "empty"]
                for c in cats:
                    # every category has a bar or says why it has none
                    self.assertTrue(c in with_bar or c == "cudamalloc", (cap, c, with_bar))
                if opt == "rw":
                    self.assertEqual(cats, [d], cap)   # the other direction's value is left out
                    self.assertEqual(empty, [], cap)
                else:
                    self.assertEqual(cats, ["malloc", "cudamalloc"], cap)
                    self.assertEqual(empty, ["skipped: no libcuda.so.1"], cap)
