"""test_fio_accepts.py: job-file syntax fio 3.33 accepts and storbench must
too, each run side by side with fio --parse-only
where fio is installed."""
import os
import shutil
import subprocess
import unittest

from sbtest import SbCase

FIO = shutil.which("fio")


class FioAccepts(SbCase):
    def both(self, text, name="job.fio", fio_rc=0):
        """storbench --parse-only=job,verbose's result (the job, not this machine,
        as fio's --parse-only; the expanded jobs printed); fio's return code checked"""
        job = self.write_job(text, name=name)
        if FIO and fio_rc is not None:
            r = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(r.returncode, fio_rc, r.stdout + r.stderr)
        return job, self.run_sb("--parse-only=job,verbose", job)

    def test_threads_alias(self):
        # fio 3.33 accepts threads=N (profiles/tiobench.c:76, an int read by
        # the tiobench profile only); its examples/steadystate.fio and
        # waitfor.fio write threads=1 meaning thread
        for val, want in (("1", "1"), ("0", "0")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64k\nthreads={val}\n")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertRegex(p.stdout, rf"\n  thread += {want}\n")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "tf")))

    def test_zoned_lists_as_fio(self):
        # fio 3.33 options.c:87-116 (split_parse_ddir): an empty entry ends
        # the list; "A/" or "A" leaves the size out, and so does "A/0"; and
        # options.c:1095-1103 gives the left-out zones (100 - sum) / count
        for val, shown in (("zoned:50/5:30/15:20/", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20/:", "zoned:50/5:30/15:20/80"),
                           ("zoned:50/5:30/15:20/0", "zoned:50/5:30/15:20/80"),
                           ("zoned:60/:40/", "zoned:60/50:40/50"),
                           ("zoned_abs:60/1m:40/2m:", "zoned_abs:60/1m:40/2m")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64m\nrw=randread\n"
                               f"random_distribution={val}\n")
            self.assertEqual(p.returncode, 0, (val, p.stderr))
            self.assertIn(f"random_distribution         = {shown}\n", p.stdout)
        # refused by fio too: a zoned_abs zone needs its bytes; an empty
        # entry in the middle (fio then finds the access shares short of 100)
        for val, what in (("zoned_abs:50/1m:30/2m:20/", "expected ACCESS/BYTES"),
                          ("zoned:50/5::30/15:20/", "expected ACCESS/SIZE")):
            job, p = self.both(f"[t]\nfilename=tf\nsize=64m\nrw=randread\n"
                               f"random_distribution={val}\n", fio_rc=1)
            self.assertEqual(p.returncode, 1, val)
            self.assertIn(f"storbench: {job}:5: random_distribution={val}: ", p.stderr)
            self.assertIn(what, p.stderr)
            self.assertIn("e.g. zoned", p.stderr)
        # bssplit: fio's /0 is a left-out share too (options.c:103-106)
        job, p = self.both("[t]\nfilename=tf\nsize=64m\nrw=randread\nbssplit=4k/50:8k/0\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("read 4096/50:8192/50,", p.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "tf")))

    def test_zoned_trailing_slash_runs_as_fio(self):
        # the third zone takes the rest (80% of the file), as fio's run does
        p = self.run_sb("--name=z", "--filename=zf", "--size=8m", "--rw=randread", "--bs=4k",
                        "--io_size=4m", "--random_distribution=zoned:50/5:30/15:20/",
                        "--write_iolog=zlog")
        self.assertEqual(p.returncode, 0, p.stderr)
        zones = [0, 0, 0]
        with open(os.path.join(self.dir, "zlog")) as f:
            for line in f:
                w = line.split()
                if len(w) == 5 and w[2] == "read":  # TIME FILE read OFFSET LEN
                    off = int(w[3])
                    zones[0 if off < 8 * 2**20 * 0.05 else 1 if off < 8 * 2**20 * 0.20 else 2] += 1
        self.assertEqual(sum(zones), 1024)
        for got, want in zip(zones, (512, 307, 205)):
            self.assertLess(abs(got - want), 60, zones)

    def test_parse_only_checks_the_job_not_the_machine(self):
        # fio 3.33 --parse-only accepts CPUs, NUMA nodes and memory this
        # machine lacks (it checks them when the job runs); storbench's
        # --parse-only=job too, and the run and plain --parse-only refuse
        # them with file:line, creating nothing
        cpu = min(os.cpu_count() + 8, 1000)
        nodes = sum(1 for n in os.listdir("/sys/devices/system/node")
                    if n.startswith("node")) if os.path.isdir("/sys/devices/system/node") else 1
        mem = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGESIZE")
        cases = ((f"cpus_allowed=0-{cpu}", f"bad CPU {cpu}, which this machine does not have"),
                 (f"cpumask=0x{1 << min(cpu, 63):x}", "which this machine does not have"),
                 (f"numa_cpu_nodes=0-{nodes}", f"bad NUMA node {nodes}, which this machine"),
                 (f"numa_mem_policy=bind:{nodes}", f"bad NUMA node {nodes}, which this machine"),
                 (f"lockmem={mem * 2}", "that is all of this machine's memory"))
        for line, what in cases:
            if line.startswith("cpumask") and cpu > 63:
                continue  # a machine with more than 55 CPUs: cpumask covers 0-63 only
            job, p = self.both(f"[t]\nfilename=tf\nsize=1m\n{line}\n")
            self.assertEqual(p.returncode, 0, (line, p.stderr))
            r = self.run_sb(job)
            self.assertEqual(r.returncode, 1, (line, r.stderr))
            q = self.run_sb("--parse-only", job)  # the run's checks
            self.assertEqual((q.returncode, q.stderr), (1, r.stderr), line)
            opt = line.split("=")[0]
            self.assertIn(f"storbench: {job}:4: {opt}=", r.stderr)
            self.assertIn(what, r.stderr)
            self.assertFalse(os.path.exists(os.path.join(self.dir, "tf")), line)
        # storbench's own limits still hold in --parse-only (1024 CPUs, 64 nodes)
        job, p = self.both("[t]\nfilename=tf\nsize=1m\nnuma_cpu_nodes=70\n", fio_rc=None)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"storbench: {job}:4: numa_cpu_nodes=70: bad NUMA node 70, beyond what "
                      "storbench supports (the highest is 63)", p.stderr)
        if os.geteuid() != 0:  # another user: only root may; --parse-only accepts it
            job, p = self.both(f"[t]\nfilename=tf\nsize=1m\nuid={os.geteuid() + 1}\n")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(self.run_sb(job).returncode, 1)


if __name__ == "__main__":
    unittest.main()
