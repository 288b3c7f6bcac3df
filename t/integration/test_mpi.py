"""storbench under MPI: `mpirun --oversubscribe -np 4` on this host.

One job file on four ranks gives one result at rank 0: counts summed, every
percentile that of the union of the ranks' histograms (json+ bins), file
names distinct per rank; a bad job file is one message and exit 1 on every
rank; an I/O error on rank 2 stops all ranks with rank 2's message; an
interrupt gives valid, partial JSON and 130 on every rank (SIGINT to Open
MPI's mpirun: mpirun itself exits 1; SIGUSR2 to it: 130).  Skipped (with the reason) when
mpirun is missing or storbench was built without MPI (configure
--disable-mpi)."""
import json
import math
import os
import shutil
import signal
import subprocess
import time
import unittest

from sbtest import BIN, SbCase, asan_runtime

NP = 4
TIMEOUT = 120
SHIM = os.path.join(os.path.dirname(os.path.abspath(BIN)), "t", "faults", "libsbfault.so")


def why_no_mpi():
    if not shutil.which("mpirun"):
        return "mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)"
    try:
        out = subprocess.run(["ldd", BIN], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "cannot run ldd on " + BIN
    if "libmpi" not in out:
        return "storbench built without MPI (configure found none, or --disable-mpi)"
    return None


def mpi_env():
    e = dict(os.environ)
    # Open MPI refuses root unless told twice (CI runs as root)
    e.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    # under ASan: Open MPI's libraries and plugins keep memory until exit
    # (unsymbolizable: dlclosed plugins), so LeakSanitizer is off for
    # mpirun runs; the single-process suite checks storbench's own leaks
    e["ASAN_OPTIONS"] = (e.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    return e


# each rank's own exit status, written by a wrapper to rc.RANK (mpirun
# itself only reports the first non-zero one)
WRAP = """#!/bin/sh
"$@"
echo $? > "$SB_RCDIR/rc.$OMPI_COMM_WORLD_RANK"
"""


# the same, surviving the signal mpirun sends to the rank's process group
# (the trap runs once storbench has ended) and exiting with the rank's status
WRAP_SIG = """#!/bin/sh
trap 'true' INT TERM USR2
"$@"
r=$?
echo $r > "$SB_RCDIR/.rc.$OMPI_COMM_WORLD_RANK" && mv "$SB_RCDIR/.rc.$OMPI_COMM_WORLD_RANK" "$SB_RCDIR/rc.$OMPI_COMM_WORLD_RANK"
exit $r
"""


# CLOCK_REALTIME shifted by $SB_SKEW_S seconds (LD_PRELOAD), as on a host
# whose clock is ahead
SKEW_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
int clock_gettime(clockid_t c, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);
	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	int r = real(c, ts);
	const char *s = getenv("SB_SKEW_S");
	if (!r && s && c == CLOCK_REALTIME)
		ts->tv_sec += atol(s);
	return r;
}
"""


def open_mpi_major():
    """Open MPI's major version from `mpirun --version` (0: another MPI)"""
    try:
        out = subprocess.run(["mpirun", "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    for line in out.splitlines():
        if "Open MPI" in line and line.split()[-1][:1].isdigit():
            return int(line.split()[-1].split(".")[0])
    return 0


def pct_of(bins, pct):
    """storbench's percentile (stats/hist.h): the value of the bucket holding
    the ceil(pct/100 * n)-th smallest sample"""
    items = sorted((int(v), c) for v, c in bins.items())
    n = sum(c for _, c in items)
    want = max(1, math.ceil(pct / 100.0 * n - 1e-9))
    seen = 0
    for v, c in items:
        seen += c
        if seen >= want:
            return v
    return 0


@unittest.skipIf(why_no_mpi(), why_no_mpi() or "")
class MpiTest(SbCase):
    def mpirun(self, *args, env=None, np=NP, wrap=False, timeout=TIMEOUT):
        e = mpi_env()
        extra = []
        for k, v in (env or {}).items():
            e[k] = v
            extra += ["-x", k]
        cmd = ["mpirun", "--oversubscribe", "-np", str(np), "-x", "ASAN_OPTIONS", *extra]
        if wrap:
            w = os.path.join(self.dir, "wrap.sh")
            with open(w, "w") as f:
                f.write(WRAP)
            os.chmod(w, 0o755)
            e["SB_RCDIR"] = self.dir
            cmd += ["-x", "SB_RCDIR", w]
        cmd += [os.path.abspath(BIN), *args]
        return subprocess.run(cmd, cwd=self.dir, env=e, capture_output=True, text=True, timeout=timeout)

    def rank_codes(self):
        codes = {}
        for r in range(NP):
            with open(os.path.join(self.dir, f"rc.{r}")) as f:
                codes[r] = int(f.read().strip())
        return codes

    def load(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return json.load(f)

    def test_merge_is_exact(self):
        """the merged job equals the merge of the four ranks' own results"""
        job = self.write_job("[global]\nioengine=psync\nbs=4k\nsize=2m\nunlink=1\n"
                             "[j]\nrw=randrw\nnumjobs=2\ngroup_reporting\n")
        p = self.mpirun("--output-format=json+", "--output=m.json", "--mpi_rank_results=1", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        merged = self.load("m.json")
        ranks = [self.load(f"m.json.rank{r}") for r in range(NP)]
        self.assertEqual(merged["mpi"]["ranks"], NP)
        self.assertEqual(merged["mpi"]["hosts"], 1)
        self.assertEqual(merged["mpi"]["ranks_per_host"], NP)
        for r in ranks:
            self.assertNotIn("mpi", r)  # a rank's own result is unmerged
        self.assertEqual(len(merged["jobs"]), 1)
        m = merged["jobs"][0]
        own = [r["jobs"][0] for r in ranks]
        for d in ("read", "write"):
            for key in ("io_bytes", "total_ios", "short_ios", "drop_ios"):
                self.assertEqual(m[d][key], sum(o[d][key] for o in own), (d, key))
            self.assertEqual(m[d]["runtime"], max(o[d]["runtime"] for o in own), d)
            for lat in ("clat_ns", "lat_ns"):
                union = {}
                for o in own:
                    for v, c in o[d][lat].get("bins", {}).items():
                        union[v] = union.get(v, 0) + c
                self.assertEqual(m[d][lat]["bins"], union, (d, lat))
                self.assertEqual(m[d][lat]["N"], sum(union.values()), (d, lat))
                self.assertEqual(m[d][lat]["min"], min(o[d][lat]["min"] for o in own))
                self.assertEqual(m[d][lat]["max"], max(o[d][lat]["max"] for o in own))
                pcts = m[d][lat].get("percentile", {})
                self.assertTrue(pcts or lat == "lat_ns")  # fio: lat percentiles only on request
                for k, v in pcts.items():
                    self.assertEqual(v, pct_of(union, float(k)), (d, lat, k))
        self.assertEqual(m["job_runtime"], sum(o["job_runtime"] for o in own))

    def test_normal_output_says_mpi(self):
        """the normal report is merged too and says so"""
        p = self.mpirun("--name=j", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"MPI: {NP} ranks on 1 host(s)", p.stdout)
        self.assertEqual(p.stdout.count("j: (groupid=0"), 1, p.stdout)
        self.assertIn("(4096KiB/", p.stdout)  # 4 ranks x 1 MiB
        self.assertIn(f"jobs={NP})", p.stdout)

    def test_file_names_per_rank(self):
        """default names get the rank; filename_format knows $rank and $hostname"""
        job = self.write_job("[global]\nioengine=psync\nbs=64k\nsize=256k\nrw=write\n"
                             "[a]\n[b]\nfilename_format=$jobname-$rank-$hostname.dat\n")
        p = self.mpirun("--output-format=json", "--output=o.json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        host = os.uname().nodename
        names = set(self.listing())
        for r in range(NP):
            self.assertIn(f"a.0.0.rank{r}", names)
            self.assertIn(f"b-{r}-{host}.dat", names)
        j = self.load("o.json")["jobs"]
        self.assertEqual([x["write"]["io_bytes"] for x in j], [NP * 256 * 1024] * 2)

    def test_bad_job_file_once(self):
        """rank 0 reports a bad job file once (file:line), every rank exits 1"""
        job = self.write_job("[j]\nrw=read\nsize=1m\nbogus_option=1\n")
        p = self.mpirun(job, wrap=True)
        self.assertEqual(self.rank_codes(), {r: 1 for r in range(NP)})
        msgs = [l for l in p.stderr.splitlines() if "bogus_option" in l]
        self.assertEqual(len(msgs), 1, p.stderr)
        self.assertIn("job.ini:4:", msgs[0])
        self.assertIn("rank 0 (", msgs[0])
        self.assertEqual(self.listing(), ["job.ini", "rc.0", "rc.1", "rc.2", "rc.3", "wrap.sh"])

    def test_job_text_is_rank0s(self):
        """${VAR} and '-' are rank 0's: the others parse the text rank 0 read"""
        job = self.write_job("[j]\nioengine=null\nrw=read\nbs=4k\nsize=${SZ}\n")
        # only rank 0 gets SZ=1m; another rank's own (4m) must not count
        wrap = os.path.join(self.dir, "env.sh")
        with open(wrap, "w") as f:
            f.write('#!/bin/sh\nif [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then SZ=1m; else SZ=4m; fi\n'
                    'export SZ\nexec "$@"\n')
        os.chmod(wrap, 0o755)
        e = mpi_env()
        p = subprocess.run(["mpirun", "--oversubscribe", "-np", str(NP), wrap, os.path.abspath(BIN),
                            "--output-format=json", job], cwd=self.dir, env=e, capture_output=True,
                           text=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["read"]["io_bytes"], NP * (1 << 20))

    def test_io_error_on_rank2_stops_all(self):
        """an EIO on rank 2 stops every rank (long before runtime) with rank 2's message"""
        job = self.write_job("[j]\nioengine=psync\nrw=randread\nbs=4k\nsize=4m\n"
                             "time_based\nruntime=60\nunlink=1\n")
        env = {"LD_PRELOAD": " ".join(asan_runtime() + [SHIM]),
               "SBFAULT": "pread:EIO:path=*/j.0.0.rank2:nth=100"}
        t0 = time.monotonic()
        p = self.mpirun("--output-format=json", "--output=e.json", job, env=env, wrap=True)
        took = time.monotonic() - t0
        self.assertLess(took, 50, "the other ranks ran on to their runtime")
        self.assertEqual(self.rank_codes(), {r: 3 for r in range(NP)}, p.stderr)
        errs = [l for l in p.stderr.splitlines() if l.startswith("storbench:")]
        self.assertTrue(errs and all("rank 2 (" in l for l in errs), p.stderr)
        self.assertIn("Input/output error", p.stderr)
        j = self.load("e.json")["jobs"][0]
        self.assertEqual(j["error"], 5)
        self.assertNotIn("interrupted", self.load("e.json"))

    def test_interrupt_in_one_rank_is_130_everywhere(self):
        """SIGINT in rank 1: every rank stops, partial merged JSON, 130 everywhere"""
        job = self.write_job("[j]\nioengine=psync\nrw=randread\nbs=4k\nsize=4m\n"
                             "time_based\nruntime=60\nunlink=1\n")
        env = {"LD_PRELOAD": " ".join(asan_runtime() + [SHIM]),
               "SBFAULT": "pread:SIGINT:path=*/j.0.0.rank1:nth=100"}
        p = self.mpirun("--output-format=json", "--output=i.json", job, env=env, wrap=True)
        self.assertEqual(self.rank_codes(), {r: 130 for r in range(NP)}, p.stderr)
        d = self.load("i.json")
        self.assertTrue(d["interrupted"])
        self.assertEqual(d["mpi"]["ranks"], NP)
        self.assertGreater(d["jobs"][0]["read"]["total_ios"], 0)

    def test_clock_ahead_on_one_host_does_not_hold_the_start(self):
        """rank 1's wall clock 30 s ahead (as on a host without NTP): the
        groups start within ms, not after its 30 s lead (the start instant is
        agreed on the wall clock; each rank waits at most the largest margin)"""
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            self.skipTest("no C compiler to build the clock shim")
        src = os.path.join(self.dir, "skew.c")
        with open(src, "w") as f:
            f.write(SKEW_SHIM)
        so = os.path.join(self.dir, "skew.so")
        subprocess.run([cc, "-shared", "-fPIC", "-o", so, src, "-ldl"], check=True, timeout=60)
        w = os.path.join(self.dir, "skew.sh")
        with open(w, "w") as f:
            f.write('#!/bin/sh\nif [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then\n'
                    '  export LD_PRELOAD="%s" SB_SKEW_S=30\nfi\nexec "$@"\n'
                    % " ".join(asan_runtime() + [so]))
        os.chmod(w, 0o755)
        e = mpi_env()
        e["ASAN_OPTIONS"] = (e["ASAN_OPTIONS"] + ":verify_asan_link_order=0").lstrip(":")
        t0 = time.monotonic()
        p = subprocess.run(["mpirun", "--oversubscribe", "-np", "2", "-x", "ASAN_OPTIONS", w,
                            os.path.abspath(BIN), "--output-format=json", "--output=k.json",
                            "--name=j", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m"],
                           cwd=self.dir, env=e, capture_output=True, text=True, timeout=TIMEOUT)
        took = time.monotonic() - t0
        self.assertEqual(p.returncode, 0, p.stderr)
        # the shim took: the skew is measured (the wall clocks differ by 30 s)
        self.assertGreater(self.load("k.json")["mpi"]["start_skew_ns"], 25 * 10 ** 9)
        self.assertLess(took, 25, "a rank waited for the other host's clock lead")

    def signal_mpirun(self, sig, wrap=False):
        """sig to a running `mpirun -np 4 storbench` (a 60 s null job) once
        rank 0 has started; returns (mpirun's status, stderr, the JSON)"""
        job = self.write_job("[j]\nioengine=null\nrw=randread\nbs=4k\nsize=4m\n"
                             "time_based\nruntime=60\n")
        e = mpi_env()
        out = os.path.join(self.dir, "s.json")
        cmd = ["mpirun", "--oversubscribe", "-np", str(NP)]
        if wrap:
            w = os.path.join(self.dir, "wrap.sh")
            with open(w, "w") as f:
                f.write(WRAP_SIG)
            os.chmod(w, 0o755)
            e["SB_RCDIR"] = self.dir
            cmd += ["-x", "SB_RCDIR", w]
        mp = subprocess.Popen(cmd + [os.path.abspath(BIN), "--output-format=json", "--output=" + out, job],
                              cwd=self.dir, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        # started when rank 0 opened the output before the run: results are
        # written to a temporary beside it (".s.json.XXXXXX", lib/afile.h)
        # and renamed over it at the end
        while time.monotonic() < deadline and not any(
                n.startswith(".s.json.") for n in os.listdir(self.dir)):
            time.sleep(0.1)
        time.sleep(2)
        mp.send_signal(sig)
        _, err = mp.communicate(timeout=TIMEOUT)
        d = self.load("s.json")
        self.assertTrue(d["interrupted"], err)
        self.assertEqual(d["mpi"]["ranks"], NP)
        self.assertGreater(d["jobs"][0]["read"]["total_ios"], 0)
        return mp.returncode, err, d

    def test_sigint_to_mpirun(self):
        """Ctrl-C to mpirun: the ranks stop and rank 0 writes valid, partial JSON"""
        rc, err, _ = self.signal_mpirun(signal.SIGINT)
        # Open MPI 4.1's mpirun sets its own status to 1 on SIGINT before it
        # signals the ranks (ess/hnp clean_abort; the first non-zero status
        # wins), so the ranks' 130 never reaches it; other MPIs: not 0
        if open_mpi_major() == 4:
            self.assertEqual(rc, 1, err)
        else:
            self.assertNotEqual(rc, 0, err)

    def test_sigusr2_to_mpirun_is_130(self):
        """SIGUSR2 to mpirun: forwarded to every rank, which stops as on
        SIGINT; valid partial JSON, 130 on every rank and from mpirun"""
        rc, err, _ = self.signal_mpirun(signal.SIGUSR2, wrap=True)
        self.assertEqual(rc, 130, err)
        # once the first rank has exited 130, mpirun kills the rest of the
        # job: a wrapper may die before it writes its rank's status (it
        # writes a temporary and renames it: a status is whole or absent;
        # an empty rc file was seen once in CI), but every status written is 130
        codes = {}
        for r in range(NP):
            f = os.path.join(self.dir, f"rc.{r}")
            if os.path.exists(f):
                with open(f) as fh:
                    codes[r] = int(fh.read().strip())
        self.assertTrue(codes, err)
        self.assertEqual(set(codes.values()), {130}, err)

    def test_host_counters_once_per_host(self):
        """one host-counter collector per host (its node-local rank 0): the
        "hosts" array has one entry per host, "cluster" their sum"""
        p = self.mpirun("--output-format=json", "--output=h.json", "--mpi_rank_results=1",
                        "--name=j", "--ioengine=null", "--rw=read", "--bs=4k", "--size=4m")
        self.assertEqual(p.returncode, 0, p.stderr)
        m = self.load("h.json")
        hosts = m["hosts"]
        self.assertEqual(len(hosts), m["mpi"]["hosts"])
        self.assertEqual([(h["host"], h["rank"]) for h in hosts], [(os.uname().nodename, 0)])
        c = m["cluster"]
        for k in ("node_cpu_hours", "total_net_io_lo_sent_mb", "total_net_io_ext_recv_mb"):
            self.assertAlmostEqual(c[k], sum(h[k] for h in hosts), delta=1e-6)
        self.assertEqual(c["mem_peak_bytes"], max(h["mem_peak_bytes"] for h in hosts))
        self.assertEqual(c["ncpus"], os.cpu_count())
        # the other ranks on this host collected nothing
        own = [self.load(f"h.json.rank{r}") for r in range(NP)]
        self.assertEqual(["host" in o for o in own], [True] + [False] * (NP - 1))

    def test_sweep_points_are_aggregates(self):
        """a sweep under MPI: every point's figures are the merge of all
        ranks' (counts summed), the best point is chosen on them"""
        job = self.write_job("[global]\nioengine=null\nsize=1m\nloops=2\nsweep.rw = read | write\n"
                             "[j]\nsweep.bs = 4k | 64k\n")
        p = self.mpirun("--output-format=json", "--output=s.json", "--mpi_rank_results=1", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        d = self.load("s.json")
        self.assertEqual(d["mpi"]["ranks"], NP)
        s = d["sweep"]
        self.assertEqual(s["finished_points"], 4)
        for pt in s["points"]:
            ddir = pt["values"]["rw"]
            self.assertEqual(pt["jobs"][0][ddir]["io_bytes"], NP * 2 << 20)  # 4 ranks x 2 loops
            for run in pt["runs"]:
                self.assertEqual(run[ddir]["io_bytes"], NP << 20)
        for ddir in ("read", "write"):
            pts = [x for x in s["points"] if x["values"]["rw"] == ddir]
            top = max(pts, key=lambda x: x[ddir]["bw_bytes"])
            self.assertEqual(s["best"][ddir]["values"], top["values"])
        own = self.load("s.json.rank1")["sweep"]["points"]  # a rank's own, unmerged
        self.assertEqual([x["jobs"][0][x["values"]["rw"]]["io_bytes"] for x in own], [2 << 20] * 4)

    def test_wait_for_spans_ranks(self):
        """wait_for=a starts b on every rank only when a has finished on all
        ranks: rank 3's a (8 MiB at 8 MiB/s, an existing file's size) ends
        about 1 s after the others' (64 KiB), and every rank's b is written
        after it"""
        for r in range(NP):
            with open(os.path.join(self.dir, f"a.{r}"), "wb") as f:
                f.write(b"\0" * ((8 << 20) if r == NP - 1 else 65536))
        job = self.write_job("[global]\nioengine=psync\nbs=64k\n[a]\nrw=write\nfilename_format=a.$rank\n"
                             "rate=8m\n[b]\nrw=write\nsize=64k\nfilename_format=b.$rank\nwait_for=a\n")
        p = self.mpirun("--output-format=json", "--output=w.json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        mt = lambda n: os.stat(os.path.join(self.dir, n)).st_mtime_ns
        self.assertGreater(mt(f"a.{NP - 1}") - mt("a.0"), 500_000_000)  # the slow rank is slow
        for r in range(NP):
            self.assertGreaterEqual(mt(f"b.{r}"), mt(f"a.{NP - 1}"), r)

    def test_one_rank_without_mpirun(self):
        """the MPI build without mpirun: one rank, no "mpi" object"""
        p = self.run_sb("--output-format=json", "--name=j", "--ioengine=null", "--size=1m")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("mpi", json.loads(p.stdout))


if __name__ == "__main__":
    unittest.main()
