"""The I/O path's clock (HOWTO: Clock): the TSC where fio 3.33 reads it (an
invariant TSC, whatever the kernel's clocksource: arch/arch-x86-common.h:35-37
and gettime.c:424-426 of fio 3.33), reported in the JSON's "clock" object, and
the drift guard that falls back to clock_gettime when the TSC and
CLOCK_MONOTONIC drift apart (injected here with STORBENCH_TEST_TSC_DRIFT_PPM,
which skews the calibrated TSC rate)."""
import os
import platform
import time
import unittest

from sbtest import SbCase, CpuLoss

CPU_INV = ("processor\t: 0\nvendor_id\t: GenuineIntel\n"
           "flags\t\t: fpu tsc msr rdtscp lm constant_tsc nopl nonstop_tsc cpuid\n")
CPU_NOT = "processor\t: 0\nflags\t\t: fpu tsc msr rdtscp lm constant_tsc nopl cpuid\n"
CS = "/sys/devices/system/clocksource/clocksource0/current_clocksource"


def invariant_tsc_here():
    if platform.machine() != "x86_64":
        return False
    try:
        with open("/proc/cpuinfo") as f:
            words = set(f.read().split())
    except OSError:
        return False
    return {"constant_tsc", "nonstop_tsc"} <= words


NULLJOB = "[t]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based\nruntime=%s\n%s"


class TestClockChoice(SbCase):
    def tree(self, cpuinfo, clocksource):
        root = os.path.join(self.dir, "root")
        for rel, text in (("/proc/cpuinfo", cpuinfo), (CS, clocksource)):
            os.makedirs(os.path.dirname(root + rel), exist_ok=True)
            with open(root + rel, "w") as f:
                f.write(text)
        return root

    def clock(self, extra="", env=None):
        job = self.write_job("[t]\nioengine=null\nrw=randread\nsize=4m\n" + extra)
        p = self.run_sb("--output-format=json", job, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        import json
        return json.loads(p.stdout)["clock"]

    @unittest.skipUnless(platform.machine() == "x86_64", "no TSC")
    def test_kvm_clock_guest_with_invariant_tsc_uses_tsc(self):
        # a KVM guest (kernel clocksource kvm-clock) whose CPU shows
        # constant_tsc + nonstop_tsc: fio 3.33 reads the TSC there
        # (gettime.c:424-426), and so does storbench
        c = self.clock(env={"STORBENCH_TEST_CLOCK_ROOT": self.tree(CPU_INV, "kvm-clock\n")})
        self.assertEqual(c["source"], "tsc", c)
        self.assertIn("as fio's clocksource=cpu", c["reason"])
        self.assertFalse(c["tsc_fallback"])
        self.assertEqual(c["drift_tolerance_ns"], 100000)
        self.assertEqual(c["drift_tolerance_ppm"], 1000)

    def test_no_invariant_tsc_or_non_tsc_kernel_clock_uses_clock_gettime(self):
        for cpu, cs, why in ((CPU_NOT, "kvm-clock\n", "no invariant TSC"),
                             (CPU_INV, "hpet\n", "kernel keeps time without the TSC")):
            c = self.clock(env={"STORBENCH_TEST_CLOCK_ROOT": self.tree(cpu, cs)})
            self.assertEqual(c["source"], "clock_gettime", (cs, c))
            self.assertIn(why, c["reason"])
            self.assertFalse(c["tsc_fallback"])
            self.assertNotIn("max_drift_ns", c)

    def test_clocksource_option_wins(self):
        env = {"STORBENCH_TEST_CLOCK_ROOT": self.tree(CPU_INV, "tsc\n")}
        for cs in ("clock_gettime", "gettimeofday"):
            c = self.clock("clocksource=%s\n" % cs, env=env)
            self.assertEqual(c["source"], cs)
            self.assertEqual(c["reason"], "clocksource= option")


@unittest.skipUnless(invariant_tsc_here(), "no invariant TSC on this machine")
class TestTscRuntime(SbCase):
    """A run's reported runtime against the wall time around the process
    (which includes start-up and tear-down, so it is never shorter)."""

    def timed(self, runtime_s, env=None):
        import json
        job = self.write_job(NULLJOB % (runtime_s, ""))
        t0 = time.monotonic()
        with CpuLoss() as self.lost:
            p = self.run_sb("--output-format=json", job, env=env)
        wall = time.monotonic() - t0
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)
        return j["clock"], j["jobs"][0]["job_runtime"] / 1000.0, wall, p.stderr

    def test_runtime_agrees_with_wall_time(self):
        c, rt, wall, _ = self.timed(2)
        self.assertEqual(c["source"], "tsc", c)
        self.assertFalse(c["tsc_fallback"], c)
        self.assertGreater(c["drift_checks"], 10)  # every 50 ms tick
        self.assertLess(abs(c["max_drift_ns"]), 100000 + 2e9 * 1e-3, c)
        self.assertGreaterEqual(rt, 2.0)
        # the process lasted at least the runtime it reports (0.1% + 1 ms),
        # and not much longer (start-up and tear-down, and what other load
        # took from the run: CpuLoss)
        self.assertGreaterEqual(wall, rt * 0.999 - 0.001, (rt, wall))
        self.assertLess(wall - rt, 1.5 + self.lost.s, (rt, wall))

    def test_fast_tsc_falls_back(self):
        # the TSC scaled 25% fast: without the guard a 2 s run would end
        # after 1.6 s of wall time and say 2 s
        c, rt, wall, err = self.timed(2, {"STORBENCH_TEST_TSC_DRIFT_PPM": "250000"})
        self.assertEqual(c["source"], "tsc")
        self.assertTrue(c["tsc_fallback"], c)
        self.assertGreater(c["fallback_drift_ns"], 100000)
        self.assertLess(c["fallback_ms"], 1000)
        self.assertIn("clock: the TSC drifted +", err)
        self.assertIn("clock_gettime from then on", err)
        self.assertGreaterEqual(wall, rt * 0.999 - 0.001 - c["fallback_drift_ns"] / 1e9, (rt, wall, c))

    def test_slow_tsc_falls_back(self):
        # 40% slow: without the guard a 2 s run would last 3.3 s
        c, rt, wall, err = self.timed(2, {"STORBENCH_TEST_TSC_DRIFT_PPM": "-400000"})
        self.assertTrue(c["tsc_fallback"], c)
        self.assertLess(c["fallback_drift_ns"], -100000)
        self.assertIn("clock: the TSC drifted -", err)
        self.assertLess(wall - rt, 1.0 + self.lost.s, (rt, wall, c))


if __name__ == "__main__":
    unittest.main()
