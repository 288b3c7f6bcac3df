"""storbench report's charts without artefacts, on result
documents written here with exactly the figures each defect needs: the SVG
is parsed and the points, tick labels and titles checked.

- a partial last interval (the run ended 2-22 ms into it) is left out of the
  time charts: drawn as a full interval it ended every line in a spike or a
  cliff;
- a sweep value '@iodepth' (the points hold the number) gets its bars and
  its points;
- a checkpoint job's rules table sits under "Checkpoint", and a combined
  report titles each ML section with its own job's name;
- tick labels of small values are not "0.00";
- the last tick label of a percentile axis (99.9999) stays in the picture;
- checkpoint write and read throughput are separate panels, so 0.3 GB/s
  writes beside 100 GB/s cached reads are visible."""
import json
import os
import re
import xml.etree.ElementTree as ET

from sbtest import SbCase

NS = {"s": "http://www.w3.org/2000/svg"}
TXW = 6.5   # px per character of an 11px label, at most (tools/svg.c)


def figures(html):
    """{caption: svg element} of every figure of the page"""
    out = {}
    for m in re.finditer(r"<figure><figcaption>([^<]*)</figcaption>\s*(<svg.*?</svg>)", html, re.S):
        out[m.group(1).replace("&#39;", "'").replace("&amp;", "&")] = ET.fromstring(m.group(2))
    return out


def points(svg):
    """the (x, y) points of each polyline"""
    return [[tuple(float(v) for v in p.split(",")) for p in pl.get("points").split()]
            for pl in svg.iter("{%s}polyline" % NS["s"])]


def texts(svg):
    return [t for t in svg.iter("{%s}text" % NS["s"])]


def bars(svg):
    """the data bars (rects with a <title>): (title, height)"""
    out = []
    for r in svg.iter("{%s}rect" % NS["s"]):
        t = r.find("s:title", NS)
        if t is not None:
            out.append((t.text, float(r.get("height"))))
    return out


def ts_sample(t_ms, dur_ms, iops):
    d = {"bw_bytes": int(iops * 4096), "iops": iops, "clat_mean_ns": 50000,
         "clat_max_ns": 90000, "clat_p99_ns": 80000, "clat_p50_ns": 40000}
    return {"t_ms": t_ms, "dur_ms": dur_ms, "read": d}


class ReportCharts(SbCase):
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

    def test_partial_last_interval_is_not_drawn(self):
        # 10 full 100 ms intervals at 1000 IOPS, then the run stops 4 ms into
        # the 11th: 1 I/O in 4 ms would be drawn as 250 IOPS, a cliff
        ts = [ts_sample(100 * (i + 1), 100, 1000.0) for i in range(10)] + [ts_sample(1004, 4, 250.0)]
        hs = [{"t_ms": s["t_ms"], "dur_ms": s["dur_ms"], "cpu_avg": 50.0,
               "net_ext_sent": 100000 * s["dur_ms"] // 100} for s in ts]
        hs[-1]["cpu_avg"] = 5.0
        job = {"jobname": "j", "read": {"io_bytes": 40960000, "iops": 1000}, "timeseries": ts}
        html = self.report({"jobs": [job], "host": {"series": hs}})
        fig = figures(html)
        for cap in ("IOPS over time", "Bandwidth over time", "CPU utilization"):
            lines = points(fig[cap])
            self.assertTrue(lines, cap)
            for pts in lines:
                self.assertEqual(len(pts), 10, (cap, pts))
                self.assertEqual(len({y for _, y in pts}), 1, (cap, pts))  # flat: no cliff
        # a last interval of full length stays
        ts[-1] = ts_sample(1100, 100, 1000.0)
        html = self.report({"jobs": [dict(job, timeseries=ts)]})
        self.assertEqual(len(points(figures(html)["IOPS over time"])[0]), 11)

    def test_sweep_value_naming_another_option(self):
        # jobs/nvme-sweep.ini's iodepth_batch_complete_min = 1 | @iodepth: the
        # points hold the number ("16"), the option's values "@iodepth"
        pts = []
        for qd in ("4", "16", "32"):
            for cm in ("1", qd):
                pts.append({"values": {"iodepth": qd, "iodepth_batch_complete_min": cm},
                            "read": {"bw_bytes": 1048576 * (100 + int(qd) + (5 if cm == "1" else 0))},
                            "score": 1})
        doc = {"jobs": [], "sweep": {"options": [
            {"name": "iodepth", "values": ["4", "16", "32"]},
            {"name": "iodepth_batch_complete_min", "values": ["1", "@iodepth"]}],
            "points": pts}}
        fig = figures(self.report(doc))
        svg = fig["Effect of iodepth_batch_complete_min on read bandwidth (best and mean over "
                  "the other options; best value shaded)"]
        # best and mean of each value over its 3 points (none left out):
        # @iodepth 132 and (104+116+132)/3 MiB/s, 1: 137 and 122
        b = sorted(t for t, _ in bars(svg))
        self.assertEqual(b, sorted(["best, 1: 137", "mean, 1: 122", "best, @iodepth: 132",
                                    "mean, @iodepth: 117"]), b)
        self.assertTrue(all(h > 0 for _, h in bars(svg)))
        heat = [k for k in fig if k.startswith("read bandwidth over")][0]
        cells = [r for r in fig[heat].iter("{%s}rect" % NS["s"]) if r.find("s:title", NS) is not None]
        self.assertEqual(len(cells), 6, heat)  # 3 x 2 cells, all filled

    def ck_job(self, name, w_gbps, r_gbps, rules=False):
        j = {"jobname": name, "checkpoint": {
            "write": [{"index": i, "gbps": w_gbps, "duration_s": 10.0} for i in range(2)],
            "read": [{"index": 0, "gbps": r_gbps, "duration_s": 0.03}]}}
        if rules:
            j["rules"] = {"benchmark": "checkpointing", "verdict": "OPEN",
                          "checks": [{"name": "ckpt-check", "pass": True}]}
        return j

    def sections(self, html):
        """h2 title -> the HTML of its section"""
        parts = re.split(r"<h2[^>]*>", html)[1:]
        return {p.split("</h2>")[0]: p for p in parts}

    def test_rules_and_titles_of_ml_sections(self):
        ck = self.ck_job("llama3-8b", 0.3, 100.0, rules=True)
        sec = self.sections(self.report({"jobs": [ck]}))
        self.assertIn("Checkpoint: llama3-8b", sec)
        self.assertNotIn("Training: llama3-8b", sec)
        self.assertIn("ckpt-check", sec["Checkpoint: llama3-8b"])
        # combined: job 0 is a checkpoint in one result, a training run in the other
        tr = {"jobname": "unet3d", "train": {"epochs": [{"epoch": 1, "au_pct": 95.0}]},
              "rules": {"benchmark": "training", "verdict": "CLOSED",
                        "checks": [{"name": "train-check", "pass": True}]}}
        sec = self.sections(self.report({"jobs": [ck]}, {"jobs": [tr]}))
        self.assertEqual(sorted(k for k in sec if ":" in k and k.split(":")[0] in
                                ("Training", "Checkpoint")),
                         ["Checkpoint: llama3-8b", "Training: unet3d"])
        self.assertIn("train-check", sec["Training: unet3d"])
        self.assertNotIn("ckpt-check", sec["Training: unet3d"])
        self.assertIn("ckpt-check", sec["Checkpoint: llama3-8b"])

    def test_checkpoint_write_bars_visible_beside_cached_reads(self):
        fig = figures(self.report({"jobs": [self.ck_job("ck", 0.3, 100.0)]}))
        w = fig["Checkpoint throughput: write (per checkpoint, slowest rank's time)"]
        r = fig["Checkpoint throughput: read (per checkpoint, slowest rank's time)"]
        plot_h = float([x for x in w.iter("{%s}rect" % NS["s"]) if x.get("class") == "f"][0]
                       .get("height"))
        self.assertEqual(len(bars(w)), 2)
        for _, h in bars(w) + bars(r):
            self.assertGreater(h, plot_h / 2)

    def test_small_tick_labels(self):
        # 300 to 600 bytes per 100 ms: 0.003-0.006 MB/s on the network chart
        hs = [{"t_ms": 100 * (i + 1), "dur_ms": 100, "net_ext_sent": 300 + 30 * i} for i in range(11)]
        fig = figures(self.report({"jobs": [], "host": {"series": hs}}))
        svg = fig["Network throughput"]
        labels = [t.text for t in texts(svg) if t.get("text-anchor") == "end" and
                  t.get("transform") is None]
        self.assertGreater(len(labels), 3)
        self.assertEqual(len(labels), len(set(labels)), labels)
        self.assertNotIn("0.00", labels)
        self.assertIn("0.004", labels)

    def test_percentile_tick_in_picture(self):
        pct = {"50.000000": 40000, "99.000000": 80000, "99.900000": 90000,
               "99.990000": 95000, "99.999900": 120000}
        job = {"jobname": "j", "read": {"io_bytes": 4096, "iops": 1, "total_ios": 10,
                                        "clat_ns": {"percentile": pct, "N": 10}}}
        fig = figures(self.report({"jobs": [job]}))
        svg = [v for k, v in fig.items() if "percentile" in k.lower()][0]
        width = float(svg.get("width"))
        labs = {t.text: t for t in texts(svg)}
        self.assertIn("99.9999", labs)
        for lab, t in labs.items():
            if not lab or t.get("transform"):
                continue
            x, n = float(t.get("x")), len(lab) * TXW
            anchor = t.get("text-anchor", "start")
            right = x + (n / 2 if anchor == "middle" else 0 if anchor == "end" else n)
            self.assertLessEqual(right, width, (lab, x, anchor))
