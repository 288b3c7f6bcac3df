"""test_gpu_host.py: the GPU host collector (stats/host/gpu.c)
against a stand-in NVML (t/gpu/stubnvml.c, built as
$(B)/t/gpu/libnvidia-ml.so.1 and found through LD_LIBRARY_PATH, as the real
libnvidia-ml.so.1 is): per-GPU PCIe throughput from
nvmlDeviceGetPcieThroughput, the bytes that crossed PCIe to and from each
GPU over the run, the per-interval series and the report's chart; and the
collector saying "absent", with the reason, where NVML is missing or its
driver is not loaded."""
import ctypes.util
import json
import os
import unittest

from sbtest import BIN, SbCase

STUB_DIR = os.path.join(os.path.dirname(os.path.abspath(BIN)), "t", "gpu")
STUB = os.path.join(STUB_DIR, "libnvidia-ml.so.1")
JOB = ("[g]\nioengine=null\nsize=1g\nruntime=2\ntime_based=1\nhost_counters=gpu\n"
       "log_avg_msec=500\n")


@unittest.skipUnless(os.path.exists(STUB), "the NVML stub is not built (make %s)" % STUB)
class GpuHostCollector(SbCase):
    def run_stub(self, *args, **stub):
        env = {"LD_LIBRARY_PATH": STUB_DIR}
        env.update({"SB_STUB_NVML_" + k.upper(): str(v) for k, v in stub.items()})
        return self.run_sb(*args, self.write_job(JOB), env=env)

    def test_pcie_throughput_and_bytes_per_gpu(self):
        # NVML reports KB/s per direction (nvmlPcieUtilCounter_t: TX_BYTES 0,
        # RX_BYTES 1: RX is data arriving at the GPU); 500,000 KB/s is
        # 500 MB/s, and over a run of run_s seconds that many bytes arrived
        p = self.run_stub("--output-format=json", gpus=2, rx_kbps=500000, tx_kbps=2000,
                          util=40, mw=250000)
        self.assertEqual(p.returncode, 0, p.stderr)
        host = json.loads(p.stdout)["host"]
        devs = host["gpu"]["devices"]
        self.assertEqual([d["name"] for d in devs], ["Stub GPU 0", "Stub GPU 1"])
        run_s = host["run_s"]
        for d in devs:
            self.assertAlmostEqual(d["mean_pcie_rx_mbps"], 500.0)
            self.assertAlmostEqual(d["mean_pcie_tx_mbps"], 2.0)
            self.assertAlmostEqual(d["pcie_rx_bytes"] / (500e6 * run_s), 1.0, delta=0.02)
            self.assertAlmostEqual(d["pcie_tx_bytes"] / (2e6 * run_s), 1.0, delta=0.02)
            self.assertAlmostEqual(d["mean_util_pct"], 40.0)
            self.assertAlmostEqual(d["mean_power_w"], 250.0)
        series = host["series"]
        self.assertGreaterEqual(len(series), 2)
        for s in series:  # summed over the two GPUs
            self.assertAlmostEqual(s["gpu_pcie_rx_mbps"], 1000.0)
            self.assertAlmostEqual(s["gpu_pcie_tx_mbps"], 4.0)

    def test_normal_output_and_report_show_the_traffic(self):
        p = self.run_stub("--output-format=normal,json", "--output=o.txt", gpus=1,
                          rx_kbps=250000)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, "o.txt")) as f:
            text = f.read()
        # the bytes are the rate over the time the collector ran, which load
        # stretches: the total is checked against that time, not a fixed size
        self.assertRegex(text, r"gpu0 Stub GPU 0: .*pcie tx/rx=0\.0/250\.0MB/s \(0B/\d+\.\dMiB\)")
        j = json.loads(text[text.index("\n{") + 1:])
        rx = j["host"]["gpu"]["devices"][0]["pcie_rx_bytes"]
        self.assertAlmostEqual(rx / (250e6 * j["host"]["run_s"]), 1.0, delta=0.02)
        with open(os.path.join(self.dir, "o.json"), "w") as f:
            json.dump(j, f)
        r = self.run_sb("report", "o.json", "-o", "r.html")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.dir, "r.html")) as f:
            html = f.read()
        at = html.find("<figcaption>GPU PCIe traffic (NVML)</figcaption>")
        self.assertGreaterEqual(at, 0, "no PCIe chart in the report")
        fig = html[at:html.index("</figure>", at)]
        self.assertIn("to the GPUs", fig)  # its series, by name (legend and point titles)

    def test_driver_not_loaded_is_absent_with_the_reason(self):
        p = self.run_stub("--output-format=json", init_fail=1)
        self.assertEqual(p.returncode, 0, p.stderr)
        gpu = json.loads(p.stdout)["host"]["gpu"]
        self.assertEqual(gpu, {"absent": True, "reason": "nvmlInit: Driver Not Loaded"})

    def test_no_gpu_is_absent(self):
        p = self.run_stub("--output-format=json", gpus=0)
        gpu = json.loads(p.stdout)["host"]["gpu"]
        self.assertTrue(gpu["absent"])
        self.assertEqual(gpu["reason"], "NVML: no GPU")


@unittest.skipIf(ctypes.util.find_library("nvidia-ml"), "this machine has NVML")
class NoNvml(SbCase):
    def test_missing_library_is_named(self):
        p = self.run_sb("--output-format=json", self.write_job(JOB.replace("runtime=2", "runtime=1")))
        self.assertEqual(p.returncode, 0, p.stderr)
        gpu = json.loads(p.stdout)["host"]["gpu"]
        self.assertTrue(gpu["absent"])
        self.assertIn("libnvidia-ml.so.1", gpu["reason"])


if __name__ == "__main__":
    unittest.main()
