"""test_fio_ssdata.py: the JSON "steadystate" object's data arrays hold
ss_dur values even when the window is not full (fio's
t/steadystate_tests.py divides by their count, also when ss_ramp is longer
than the run).

fio's facts used here (fio-3.33 source):
- stat.c:1902-1910: "iops" and "bw" always get ts->ss_dur values, read from
  the ring from its head: a window not full yet gives its samples first,
  then the zeros of the slots not written (steadystate.c:68-69, 126-128:
  the tail moves from 0, the head stays 0 until the ring wraps).
"""
from sbtest import SbCase


class TestSteadyData(SbCase):
    def ss(self, runtime, dur, ramp):
        d = self.run_json("--name=s", "--ioengine=null", "--size=1G", "--rw=read",
                          "--time_based", "--runtime=%d" % runtime, "--ss=iops:10%",
                          "--ss_dur=%d" % dur, "--ss_ramp=%d" % ramp)
        return d["jobs"][0]["steadystate"]

    def test_ramp_longer_than_run(self):
        for dur in (3, 7):
            s = self.ss(1, dur, 100)
            self.assertEqual(s["attained"], 0)
            self.assertEqual(s["data"]["iops"], [0] * dur)
            self.assertEqual(s["data"]["bw"], [0] * dur)

    def test_window_not_full(self):
        # 2 s of samples in a 20 s window: the samples, then zeros, 20 in all
        s = self.ss(2, 20, 0)
        for key in ("iops", "bw"):
            v = s["data"][key]
            self.assertEqual(len(v), 20)
            nz = [x for x in v if x]
            self.assertTrue(nz, v)
            self.assertLess(len(nz), 20)
            first_zero = v.index(0)
            self.assertEqual(v[first_zero:], [0] * (20 - first_zero), v)
