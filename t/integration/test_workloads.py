"""Workload conformance (HOWTO section 11), as test_engines is for engines:
every workload the binary registers, listed by `storbench
--workload-conformance` with the description its row carries (struct
sb_wl_conformance, run/workload.h), is run from that description alone - no
workload is named here.  Each must: run on the null engine and with psync
on a temporary folder (tmpfs where there is one); stop at runtime= and at
SIGINT with its results printed (exit 130); leave nothing in its folder
unless asked to keep it (or, for what it keeps on purpose, only files
marked kept); write JSON that parses with its own member; print its block
of normal output; refuse one of its options on another workload's job with
file:line, the option and the fix, writing nothing; sweep one of its
options.  SB_CONFORM_WORKLOADS=a,b limits the run to those workloads
(t/test-toyworkload.sh)."""
import fnmatch
import json
import os
import signal
import subprocess
import tempfile
import time

from sbtest import BIN, SbCase, catches, sanitizer_report

REQUIRED = ("quick", "endless", "sweep_opt", "sweep_a", "sweep_b", "json_key", "normal")
# a bound far above any run's own time: the endless runs last hours unstopped
STOP_BOUND_S = 90


def registered():
    p = subprocess.run([BIN, "--workload-conformance"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("storbench --workload-conformance: exit %d\n%s" % (p.returncode, p.stderr))
    wls = json.loads(p.stdout)["workloads"]
    only = os.environ.get("SB_CONFORM_WORKLOADS")
    if only:
        wls = [w for w in wls if w["name"] in only.split(",")]
    return wls


def job_text(w, engine, folder, *extra, drop=()):
    """[section] of workload w: its quick lines, tidy, then each extra text;
    a later line sets an option again in place of an earlier one (a job
    section takes an option once)"""
    opts = {}
    c = w["conformance"]
    for text in (c["quick"], c.get("tidy"), *extra):
        for line in (text or "").splitlines():
            if line.strip():
                k, v = line.split("=", 1)
                opts[k.strip()] = v.strip()
    for k in drop:
        opts.pop(k, None)
    head = "[wl-%s]\nworkload=%s\nioengine=%s\ndirectory=%s\n" % (w["name"], w["name"], engine, folder)
    return head + "".join("%s=%s\n" % kv for kv in opts.items())


class WorkloadConformance(SbCase):
    @classmethod
    def setUpClass(cls):
        cls.wls = registered()

    def setUp(self):
        super().setUp()
        # psync's folder on tmpfs where there is one (small sizes only)
        base = None
        if os.access("/dev/shm", os.W_OK):
            st = os.statvfs("/dev/shm")
            base = "/dev/shm" if st.f_bavail * st.f_frsize > 1 << 30 else None
        self._fast = tempfile.TemporaryDirectory(prefix="sbwl.", dir=base)
        self.n = 0

    def tearDown(self):
        self._fast.cleanup()
        super().tearDown()

    def folder(self):
        self.n += 1
        d = os.path.join(self._fast.name, "f%d" % self.n)
        os.mkdir(d)
        return d

    def job(self, text):
        self.n += 1
        return self.write_job(text, "job%d.ini" % self.n)

    def run_json(self, job, *args, rc=0):
        p = self.run_sb("--output-format=json", *args, job)
        self.assertEqual(p.returncode, rc, "exit %d\n%s\n%s" % (p.returncode, p.stderr, p.stdout[-1500:]))
        return json.loads(p.stdout)

    def assert_section(self, w, doc):
        job = doc["jobs"][0]
        self.assertIn(w["conformance"]["json_key"], job, "the job's JSON has no %r member" %
                      w["conformance"]["json_key"])
        return job

    def leftovers(self, folder):
        out = []
        for root, _, files in os.walk(folder):
            out += [os.path.relpath(os.path.join(root, f), folder) for f in files]
        return sorted(out)

    def assert_tidy(self, w, folder):
        """nothing left but what the workload keeps on purpose, and that
        marked kept (storbench --cleanup would remove none of it)"""
        kept = w["conformance"].get("kept")
        left = self.leftovers(folder)
        stray = [f for f in left if not (kept and fnmatch.fnmatch(f, kept))]
        self.assertEqual(stray, [], "%s left files in its folder" % w["name"])
        if not left:
            return
        self.assert_all_kept(folder)

    def assert_all_kept(self, folder):
        p = self.run_sb("--cleanup", folder, "--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("would remove 0 files and 0 folders", p.stdout)
        self.assertIn("left 0 files storbench did not make", p.stdout)

    def test_every_workload_describes_its_conformance_run(self):
        self.assertGreaterEqual(len(self.wls), 1)
        for w in self.wls:
            with self.subTest(workload=w["name"]):
                c = w["conformance"]
                self.assertIsNotNone(c, "%s: its row has no .conformance (run/workload.h)" % w["name"])
                for k in REQUIRED:
                    self.assertTrue(c.get(k), "%s: conformance.%s is empty" % (w["name"], k))
                if w["options"]:
                    self.assertIn(c["sweep_opt"], w["options"],
                                  "%s: sweep_opt should be one of its own options" % w["name"])

    def test_runs_on_null_and_psync_leaving_nothing(self):
        for w in self.wls:
            for eng in ("null", "psync"):
                with self.subTest(workload=w["name"], engine=eng):
                    d = self.folder()
                    doc = self.run_json(self.job(job_text(w, eng, d)))
                    job = self.assert_section(w, doc)
                    self.assertEqual(job["error"], 0)
                    self.assertFalse(doc.get("interrupted", False))
                    self.assert_tidy(w, d)

    def test_keeps_what_it_is_asked_to_keep(self):
        for w in self.wls:
            if not w["conformance"].get("keep"):
                continue
            with self.subTest(workload=w["name"]):
                d = self.folder()
                self.run_json(self.job(job_text(w, "psync", d, w["conformance"]["keep"])))
                self.assertNotEqual(self.leftovers(d), [], "keep=%r kept nothing" % w["conformance"]["keep"])
                self.assert_all_kept(d)

    def test_normal_output_has_its_block(self):
        for w in self.wls:
            with self.subTest(workload=w["name"]):
                p = self.run_sb(self.job(job_text(w, "null", self.folder())))
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn(w["conformance"]["normal"], p.stdout)

    def test_stops_at_runtime_with_results(self):
        for w in self.wls:
            with self.subTest(workload=w["name"]):
                d = self.folder()
                t0 = time.monotonic()
                doc = self.run_json(self.job(job_text(w, "psync", d, w["conformance"]["endless"],
                                                      "runtime=1s")))
                self.assertLess(time.monotonic() - t0, STOP_BOUND_S, "runtime=1s did not stop it")
                self.assert_section(w, doc)
                self.assertFalse(doc.get("interrupted", False))
                self.assert_tidy(w, d)

    def test_sigint_stops_it_with_results_exit_130(self):
        for w in self.wls:
            with self.subTest(workload=w["name"]):
                d = self.folder()
                job = self.job(job_text(w, "psync", d, w["conformance"]["endless"], "runtime=1h"))
                p = subprocess.Popen([BIN, "--output-format=json", job], cwd=self.dir, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                t0 = time.monotonic()
                while not catches(p.pid, signal.SIGINT) and p.poll() is None and time.monotonic() - t0 < 30:
                    time.sleep(0.05)
                time.sleep(1.0)  # into its run
                self.assertIsNone(p.poll(), "it ended before SIGINT")
                p.send_signal(signal.SIGINT)
                try:
                    out, err = p.communicate(timeout=STOP_BOUND_S)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.communicate()
                    self.fail("SIGINT did not stop it")
                self.assertIsNone(sanitizer_report(err), err)
                self.assertEqual(p.returncode, 130, err)
                doc = json.loads(out)
                self.assertTrue(doc.get("interrupted"))
                self.assert_section(w, doc)
                self.assert_tidy(w, d)

    def test_its_option_on_another_workload_is_refused(self):
        for w in self.wls:
            if not w["options"]:
                continue  # only parse's own options (io): nothing of its own to refuse
            c = w["conformance"]
            other = next((o for o in self.wls + registered_all() if o["name"] != w["name"]
                          and c["sweep_opt"] not in o["options"] and o["conformance"]), None)
            if other is None:
                continue
            with self.subTest(workload=w["name"], on=other["name"]):
                d = self.folder()
                text = job_text(other, "psync", d)
                line = text.count("\n") + 1
                text += "%s=%s\n" % (c["sweep_opt"], c["sweep_a"])
                job = self.job(text)
                p = self.run_sb(job)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("%s:%d: %s=%s" % (os.path.basename(job), line, c["sweep_opt"], c["sweep_a"]),
                              p.stderr)
                self.assertIn("workload=%s" % w["name"], p.stderr)  # the fix: which workload it is for
                self.assertIn("remove %s=" % c["sweep_opt"], p.stderr)
                self.assertEqual(p.stdout, "")
                self.assertEqual(self.leftovers(d), [], "a refused job wrote files")

    def test_sweeps_one_of_its_options(self):
        for w in self.wls:
            c = w["conformance"]
            with self.subTest(workload=w["name"], option=c["sweep_opt"]):
                d = self.folder()
                text = job_text(w, "null", d, drop=(c["sweep_opt"],))
                text += "sweep.%s = %s | %s\n" % (c["sweep_opt"], c["sweep_a"], c["sweep_b"])
                doc = self.run_json(self.job(text))
                sw = doc["sweep"]
                self.assertEqual((sw["total_points"], sw["finished_points"]), (2, 2))
                self.assertEqual([pt["values"][c["sweep_opt"]] for pt in sw["points"]],
                                 [c["sweep_a"], c["sweep_b"]])
                self.assertEqual([pt["error"] for pt in sw["points"]], [0, 0])
                self.assert_tidy(w, d)


def registered_all():
    """every workload, also those SB_CONFORM_WORKLOADS leaves out (the other
    workload of the refusal check)"""
    p = subprocess.run([BIN, "--workload-conformance"], capture_output=True, text=True, timeout=60)
    return json.loads(p.stdout)["workloads"]
