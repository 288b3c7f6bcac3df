"""test_analyze_fields.py: `storbench analyze` says which numeric fields of a
trace it could not use, for every numeric field and every
kind of bad value, and never adds them up.

Rule (HOWTO "analyze", tools/trace_num.h): ts, dur, pid, args.size,
args.count, args.ret and args.rank are usable when they are JSON numbers or
strings in JSON's number syntax (DFTracer up to v1.0.2), not negative (a
negative args.ret is a failed call: 0 bytes, as dfanalyzer counts no size
for ret <= 0), integers where they count things, and within the field's
range.  Anything else is counted in `unusable_fields` under the field's name
and said on stderr; the event still counts, with that field taken as 0 (ts,
dur, pid, size, count), ignored (rank) or the whole size (ret).  Before
this, a negative dur or size was added up silently (time and bytes went
down) and "inf", hex or 1e999 were taken as numbers.

Each case writes a two-event trace: a good read and the same read with one
field replaced."""
import json
import os

from sbtest import SbCase

GOOD = {"ts": 1000, "dur": 10, "pid": 7, "size": 4096, "ret": 4096}

# bad for every field: not numbers, NaN-likes, infinities, out of any range
NOT_NUMBERS = ['"abc"', 'true', 'false', 'null', '{}', '[1]', '""', '"inf"', '"-inf"',
               '"NaN"', '"nan"', '"Infinity"', '"0x10"', '" 5"', '"5 "', '"+5"', '"5e"',
               '"1e999"', '1e999', '-1e999', '18446744073709551616', '9223372036854775808',
               '"18446744073709551616"', '1e300']
NEGATIVE = ['-5', '"-5"', '-0.5', '-1e3', '"-1e3"', '-9223372036854775807']
FRACTION = ['4096.5', '"4096.5"', '0.25']
# per field: extra bad values, values that must stay usable
FIELDS = {
    "ts": (NEGATIVE, ['0', '"1000"', '1000.5', '"1.0005e3"', '1e3']),
    "dur": (NEGATIVE, ['0', '"10"', '10.25', '"1e1"', '1E1']),
    "pid": (NEGATIVE + FRACTION + ['4294967296'], ['0', '"7"', '7.0', '4294967295']),
    "args.size": (NEGATIVE + FRACTION, ['0', '"4096"', '4096.0', '"9007199254740993"']),
    "args.count": (NEGATIVE + FRACTION, ['0', '"4096"', '4096.0', '4e3']),
    "args.ret": (FRACTION, ['0', '"4096"', '-1', '"-1"', '99999']),
    "args.rank": (NEGATIVE + FRACTION + ['2147483647'], ['0', '"3"', '3.0', '2147483646']),
}


def event(field=None, raw=None, eid=1):
    """one POSIX read as JSON text, with `field` (top level or args.X) set to
    the raw JSON text `raw`; args.count replaces args.size when tested"""
    top = {"id": eid, "name": "read", "cat": "POSIX", "pid": GOOD["pid"], "tid": 7,
           "ts": GOOD["ts"] + eid, "dur": GOOD["dur"], "ph": "X"}
    args = {"fname": "/d/x", "size": GOOD["size"], "ret": GOOD["ret"]}
    if field == "args.count":
        args = {"fname": "/d/x", "count": GOOD["size"], "ret": GOOD["ret"]}
    parts = []
    for k, v in top.items():
        parts.append('"%s":%s' % (k, raw if field == k else json.dumps(v)))
    a = ['"%s":%s' % (k, json.dumps(v)) for k, v in args.items() if "args." + k != field]
    if field and field.startswith("args."):
        a.append('"%s":%s' % (field[5:], raw))
    parts.append('"args":{%s}' % ",".join(a))
    return "{" + ",".join(parts) + "}"


class AnalyzeFieldsTest(SbCase):
    def analyze(self, lines):
        path = os.path.join(self.dir, "t.pfw")
        with open(path, "w") as f:
            f.write("[\n" + "\n".join(lines) + "\n]\n")
        return self.run_sb("analyze", "--output-format=json", path)

    def ok(self, lines, what):
        p = self.analyze(lines)
        self.assertEqual(p.returncode, 0, "%s: %s" % (what, p.stderr))
        return json.loads(p.stdout), p.stderr

    def test_bad_values_are_unusable(self):
        for field, (extra, _) in FIELDS.items():
            for raw in extra + NOT_NUMBERS:
                what = "%s=%s" % (field, raw)
                a, err = self.ok([event(eid=0), event(field, raw)], what)
                self.assertEqual(a["unusable_fields"], {field: 1}, what)
                self.assertIn('1 events have no usable "%s"' % field, err, what)
                self.assertEqual(a["events"], 2, what)
                op = a["operations"][0]
                good_s = GOOD["dur"] / 1e6
                if field == "dur":  # taken as 0: the sum is the good event's
                    self.assertAlmostEqual(a["io_time_s"], good_s, delta=1e-9, msg=what)
                else:
                    self.assertAlmostEqual(a["io_time_s"], 2 * good_s, delta=1e-9, msg=what)
                if field in ("args.size", "args.count"):  # bytes 0
                    self.assertEqual(op["bytes"], GOOD["size"], what)
                else:  # ret unusable: the whole size
                    self.assertEqual(op["bytes"], 2 * GOOD["size"], what)
                if field == "ts":  # taken as 0
                    self.assertEqual(a["first_ts_us"], 0, what)
                if field == "pid":
                    self.assertIn(0, [r["pid"] for r in a["ranks"]["per_rank"]], what)
                if field == "args.rank":  # ignored: no rank anywhere
                    self.assertEqual([r.get("rank") for r in a["ranks"]["per_rank"]], [None],
                                     what)
                for v in a["ranks"]["per_rank"]:
                    self.assertGreaterEqual(v["io_time_s"], 0, what)

    def test_good_values_are_used(self):
        for field, (_, good) in FIELDS.items():
            for raw in good:
                what = "%s=%s" % (field, raw)
                a, err = self.ok([event(eid=0), event(field, raw)], what)
                self.assertEqual(a["unusable_fields"], {}, what)
                self.assertNotIn("no usable", err, what)
                val = json.loads(raw)
                val = float(val) if isinstance(val, str) else val
                op = a["operations"][0]
                if field == "dur":
                    self.assertAlmostEqual(a["io_time_s"], (GOOD["dur"] + val) / 1e6,
                                           delta=1e-6, msg=what)  # printed to the us
                if field in ("args.size", "args.count"):  # ret when it fits, else the size
                    self.assertEqual(op["bytes"], GOOD["size"] + min(int(val), GOOD["ret"]), what)
                if field == "args.ret":  # ret <= size: ret bytes; negative: 0; past: size
                    got = op["bytes"] - GOOD["size"]
                    want = 0 if val < 0 else int(val) if val <= GOOD["size"] else GOOD["size"]
                    self.assertEqual(got, want, what)
                if field == "args.rank":
                    self.assertIn(int(val), [r.get("rank") for r in a["ranks"]["per_rank"]],
                                  what)

    def test_exact_large_size(self):
        """a size written as a string keeps every digit (2^53 + 1)"""
        line = event().replace('"size":4096', '"size":"9007199254740993"')
        line = line.replace('"ret":4096', '"ret":9007199254740993')
        a, _ = self.ok([line], "exact")
        self.assertEqual(a["operations"][0]["bytes"], 9007199254740993)

    def test_size_times_count_past_range(self):
        """STDIO: size x count items past 2^63 bytes is unusable, not wrapped"""
        ev = {"id": 1, "name": "fread", "cat": "STDIO", "pid": 7, "tid": 7, "ts": 5,
              "dur": 1, "ph": "X", "args": {"size": 2 ** 62, "count": 4}}
        a, err = self.ok([json.dumps(ev)], "product")
        self.assertEqual(a["unusable_fields"], {"args.size": 1})
        self.assertEqual(a["operations"][0]["bytes"], 0)

    def test_bare_nan_is_not_json(self):
        """unquoted NaN or Infinity is no JSON: the line is refused (exit 1,
        FILE:LINE), as any line that is not an event"""
        for raw in ("NaN", "Infinity", "-Infinity"):
            p = self.analyze([event(eid=0), event("dur", raw)])
            self.assertEqual(p.returncode, 1, raw)
            self.assertIn("t.pfw:3", p.stderr, raw)
