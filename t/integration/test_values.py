"""test_values.py: fio's built-in values ($ncpus, $pagesize, $mb_memory) and
arithmetic in option values, run side by side with fio 3.33 where fio gives
the same meaning (its keyword math through bc), and storbench's own meaning
where fio 3.33 differs on purpose (see HOWTO "Built-in values and arithmetic").
"""
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase

NCPUS = os.sysconf("SC_NPROCESSORS_CONF")
PAGE = os.sysconf("SC_PAGESIZE")
MB = os.sysconf("SC_PHYS_PAGES") * PAGE // (1024 * 1024)
JOB = "[j]\nioengine=null\nrw=read\nbs=1\nsize={}\n"


class Values(SbCase):
    def io_bytes(self, value):
        path = self.write_job(JOB.format(value))
        return self.run_json(path)["jobs"][0]["read"]["io_bytes"]

    def test_keywords_and_math(self):
        # value -> bytes; what fio 3.33 printed as io_bytes on the same file
        cases = {
            "$mb_memory": MB, "$mb_memory/4": MB // 4, "$mb_memory*2": MB * 2,
            "$pagesize*2": PAGE * 2, "$ncpus*4": NCPUS * 4, "$ncpus+1": NCPUS + 1,
            "($ncpus+1)*2": (NCPUS + 1) * 2, "$pagesize-1": PAGE - 1,
        }
        for v, want in cases.items():
            self.assertEqual(self.io_bytes(v), want, v)

    @unittest.skipUnless(shutil.which("fio") and shutil.which("bc"), "fio and bc not installed")
    def test_same_as_fio(self):
        for v in ("$mb_memory/4", "$pagesize*2", "($ncpus+1)*2", "$pagesize-1"):
            path = self.write_job(JOB.format(v), "fio.ini")
            p = subprocess.run(["fio", "--output-format=json", path], capture_output=True,
                               text=True, cwd=self.dir, timeout=120)
            import json
            fio_bytes = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]["read"]["io_bytes"]
            self.assertEqual(self.io_bytes(v), fio_bytes, v)

    def test_arithmetic(self):
        # fio's evaluator (values that start with '('; fio 3.33 as Debian builds it has
        # no evaluator) and operators without parentheses (fio 3.33 ignores "*2" in 4k*2)
        for v, want in {"(1+1)*1m": 2 << 20, "(7/2)*1k": 3072, "(1.5*1m)": 1572864,
                        "(2^10)": 1024, "(10%3)": 1, "4k*2": 8192, "1m-4k": 1044480}.items():
            self.assertEqual(self.io_bytes(v), want, v)

    def test_split_time_int(self):
        path = self.write_job("[j]\nioengine=null\nrw=read\nbs=4k*2\nsize=(8k*4)\n"
                              "numjobs=$ncpus/$ncpus\nruntime=(1m+30s)\n")
        j = self.run_json(path)["jobs"][0]
        self.assertEqual(j["read"]["io_bytes"], 32768)
        self.assertEqual(j["read"]["total_ios"], 4)
        self.assertEqual(len(self.run_json(path)["jobs"]), 1)

    def test_cmdline(self):
        j = self.run_json("--name=j", "--ioengine=null", "--rw=read", "--bs=1",
                          "--size=$pagesize*3")
        self.assertEqual(j["jobs"][0]["read"]["io_bytes"], PAGE * 3)


if __name__ == "__main__":
    unittest.main()
