"""The ML workloads under MPI: `mpirun --oversubscribe -np 4`.

Checkpoint: the ranks are the MPI processes (a process runs its block of
them as threads); the four processes together write exactly the DLIO file
set of the job's ranks, each process exactly its own ranks' files (its own
JSON), and the merged durations span all of them.  Train: the accelerators
are the processes' (4 x 1), the dataset is sharded over all of them, so every
dataset file is read once per epoch across the ranks (counted with strace
when it is installed, and from the per-rank JSON); samples/s is the sum, AU
the mean.  Skipped with the reason when mpirun is missing or storbench was
built without MPI."""
import glob
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import BIN, SbCase
from test_ml import ckpt_files, tree
from test_mpi import NP, TIMEOUT, mpi_env, why_no_mpi

# tp*pp*dp = 4 ranks, ZeRO-1 with two pipeline stages: layer files and
# optimizer files, distinct per rank
SHAPE4 = dict(hidden=64, ffn=160, layers=5, heads=8, kv_heads=2, vocab=1000,
              tp=2, pp=2, dp=1, zero_stage=1)
SHAPE8 = dict(SHAPE4, dp=2)


def shape_opts(m):
    return "".join("%s=%d\n" % (k, v) for k, v in m.items())


@unittest.skipIf(why_no_mpi(), why_no_mpi() or "")
class MpiMlTest(SbCase):
    def mpirun(self, *args, wrap=None, np=NP):
        e = mpi_env()
        cmd = ["mpirun", "--oversubscribe", "-np", str(np), "-x", "ASAN_OPTIONS", *(wrap or []),
               os.path.abspath(BIN), *args]
        return subprocess.run(cmd, cwd=self.dir, env=e, capture_output=True, text=True,
                              timeout=TIMEOUT)

    def load(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return json.load(f)

    def ckpt(self, m, extra=""):
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=64k\ndrop_caches=0\n"
                             "checkpoint_folder=%s\n%snum_checkpoints_write=2\nnum_checkpoints_read=1\n"
                             "keep_checkpoints=1\n%s" % (os.path.join(self.dir, "ck"), shape_opts(m), extra))
        p = self.mpirun("--output-format=json", "--output=m.json", "--mpi_rank_results=1", job)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return self.load("m.json"), [self.load("m.json.rank%d" % r) for r in range(NP)]

    def check_ckpt(self, m, ranks):
        merged, own = self.ckpt(m)
        want = ckpt_files(m, ranks, 1.0)
        expect = {"global_epoch1_step%d/%s" % (s, n): b for s in (1, 2) for n, b in want.items()}
        self.assertEqual(tree(os.path.join(self.dir, "ck")), expect)
        total = sum(want.values())
        j = merged["jobs"][0]
        self.assertEqual(j["error"], 0)
        self.assertEqual(j["write"]["io_bytes"], 2 * total)
        self.assertEqual(j["read"]["io_bytes"], total)
        ck = j["checkpoint"]
        self.assertEqual((ck["ranks"], ck["files"]), (ranks, len(want)))
        self.assertEqual(len(ck["write"]), 2)
        self.assertEqual(len(ck["read"]), 1)
        # each process wrote exactly its block of ranks' files
        per = ranks // NP
        for r in range(NP):
            mine = ckpt_files_of(m, range(r * per, (r + 1) * per))
            self.assertEqual(own[r]["jobs"][0]["write"]["io_bytes"], 2 * sum(mine.values()), r)
            self.assertEqual(own[r]["jobs"][0]["read"]["io_bytes"], sum(mine.values()), r)
        # per_rank: each process its own ranks, by their global numbers, and
        # their bytes; the merged result lists every process's (below)
        for r in range(NP):
            block = list(range(r * per, (r + 1) * per))
            for ph in ("write", "read"):
                for pt in own[r]["jobs"][0]["checkpoint"][ph]:
                    self.assertEqual([x["rank"] for x in pt["per_rank"]], block, (r, ph))
                    self.assertEqual([x["bytes"] for x in pt["per_rank"]],
                                     [sum(ckpt_files_of(m, [q]).values()) for q in block], (r, ph))
        self.check_per_rank_merged(m, ranks, ck, own)
        # the merged slowest time spans every process's ranks
        for ph in ("write", "read"):
            for k, pt in enumerate(ck[ph]):
                slow = max(o["jobs"][0]["checkpoint"][ph][k]["slowest_s"] for o in own)
                self.assertGreaterEqual(pt["slowest_s"], slow * 0.999, (ph, k))
                self.assertGreater(pt["duration_s"], 0)
        return merged, own

    def check_per_rank_merged(self, m, ranks, ck, own):
        """the merged per_rank lists every rank of the world once, in rank
        order, each with its own process's duration and bytes, its start and
        end moved to the first start over all processes"""
        per = ranks // NP
        for ph in ("write", "read"):
            for k, pt in enumerate(ck[ph]):
                pr = pt["per_rank"]
                self.assertEqual([x["rank"] for x in pr], list(range(ranks)), (ph, k))
                self.assertEqual([x["bytes"] for x in pr],
                                 [sum(ckpt_files_of(m, [q]).values()) for q in range(ranks)], (ph, k))
                for x in pr:
                    mine = own[x["rank"] // per]["jobs"][0]["checkpoint"][ph][k]["per_rank"]
                    o = [y for y in mine if y["rank"] == x["rank"]][0]
                    self.assertEqual(x["duration_s"], o["duration_s"], (ph, k, x))
                    self.assertGreaterEqual(x["start_s"], o["start_s"] - 1e-9, (ph, k, x))
                    self.assertAlmostEqual(x["end_s"] - x["start_s"], x["duration_s"], delta=1e-6)
                # offsets from the first start over all processes: the first
                # is 0, the last end is the merged slowest time
                self.assertAlmostEqual(min(x["start_s"] for x in pr), 0, delta=1e-6)
                self.assertAlmostEqual(max(x["end_s"] for x in pr), pt["slowest_s"], delta=1e-6)

    def test_checkpoint_one_rank_per_process(self):
        """4 ranks on 4 processes: the DLIO file set of 4 ranks"""
        self.check_ckpt(SHAPE4, 4)

    def test_checkpoint_two_ranks_per_process(self):
        """8 ranks on 4 processes: each runs 2 as threads; the set of 8"""
        self.check_ckpt(SHAPE8, 8)

    def test_checkpoint_fewer_ranks_than_processes(self):
        """ranks=2 on 4 processes is refused once, exit 1, nothing written"""
        m = dict(SHAPE4, pp=1)
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=64k\n"
                             "checkpoint_folder=%s\n%s" % (os.path.join(self.dir, "ck"), shape_opts(m)))
        p = self.mpirun("--output-format=json", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stderr.count("ranks=2 ranks for 4 MPI processes"), 1, p.stderr)
        self.assertIn("mpirun -np 2", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "ck")))

    def test_tiered_refused_under_mpi(self):
        """checkpoint_cache_folder= under 4 processes is refused once, exit 1,
        naming the file and line, the option, its value and the fix; nothing
        written in either tier"""
        cache = os.path.join(self.dir, "cache")
        job = self.write_job("[ck]\nworkload=checkpoint\nioengine=psync\nbs=64k\n"
                             "checkpoint_folder=%s\n%scheckpoint_cache_folder=%s\n"
                             % (os.path.join(self.dir, "ck"), shape_opts(SHAPE4), cache))
        p = self.mpirun("--output-format=json", job)
        self.assertEqual(p.returncode, 1, p.stderr)
        msg = "checkpoint_cache_folder=%s: tiered checkpoints run in one process" % cache
        self.assertEqual(p.stderr.count(msg), 1, p.stderr)
        self.assertIn("%s:1: job ck" % job, p.stderr)
        self.assertIn("run it without mpirun", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "ck")))
        self.assertFalse(os.path.exists(cache))

    def train_job(self, extra=""):
        return self.write_job("[t]\nworkload=train\nioengine=psync\nbs=64k\nepochs=2\n"
                              "data_dir=%s\ndataset_files=16\nsamples_per_file=1\nrecord_length=16k\n"
                              "batch_size=1\naccelerators=1\nread_threads=1\ncomputation_time=1ms\n%s"
                              % (os.path.join(self.dir, "ds"), extra))

    def test_train_sharded_over_ranks(self):
        """every dataset file is read once per epoch across the 4 ranks"""
        job = self.train_job()
        wrap = []
        strace = shutil.which("strace")
        if strace:
            w = os.path.join(self.dir, "st.sh")
            with open(w, "w") as f:
                f.write('#!/bin/sh\nexec %s -f -qq -e trace=openat -o "%s/st.$OMPI_COMM_WORLD_RANK" "$@"\n'
                        % (strace, self.dir))
            os.chmod(w, 0o755)
            wrap = [w]
        p = self.mpirun("--output-format=json", "--output=m.json", "--mpi_rank_results=1", job, wrap=wrap)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        merged = self.load("m.json")
        own = [self.load("m.json.rank%d" % r)["jobs"][0] for r in range(NP)]
        j = merged["jobs"][0]
        t = j["train"]
        size = 16 * 16384
        self.assertEqual(j["error"], 0)
        self.assertEqual(t["reader_threads"], NP)             # 4 accelerators x 1
        self.assertEqual(t["steps_per_epoch"], 4)            # 16 samples / 1 / 4 ranks
        self.assertEqual(len(t["epochs"]), 2)
        for e in t["epochs"]:
            self.assertEqual(e["steps"], 16)                 # all ranks' steps
        self.assertGreaterEqual(j["read"]["io_bytes"], 2 * size)
        for r, o in enumerate(own):
            self.assertEqual(o["train"]["reader_threads"], 1)
            self.assertEqual([e["steps"] for e in o["train"]["epochs"]], [4, 4], r)
        # samples/s the sum over the ranks, AU the mean
        for k, e in enumerate(t["epochs"]):
            sps = sum(o["train"]["epochs"][k]["samples_per_s"] for o in own)
            au = sum(o["train"]["epochs"][k]["au_pct"] for o in own) / NP
            self.assertAlmostEqual(e["samples_per_s"], sps, delta=1e-5 + sps * 1e-9)
            self.assertAlmostEqual(e["au_pct"], au, delta=1e-5)  # JSON: 6 decimals
        if not strace:
            return
        opens = {}
        for f in glob.glob(os.path.join(self.dir, "st.*")):
            with open(f) as fh:
                for line in fh:
                    mm = re.search(r'openat\(.*"([^"]*/ds/train/[^"]+)", O_RDONLY', line)
                    if mm and "= -1" not in line:
                        opens[mm.group(1)] = opens.get(mm.group(1), 0) + 1
        self.assertEqual(len(opens), 16, opens)
        self.assertEqual(set(opens.values()), {2}, opens)    # once per epoch, 2 epochs


    def test_train_rules_judge_the_world(self):
        """rules=mlperf counts the accelerators of all processes"""
        p = self.mpirun("--output-format=json", "--output=m.json", "--mpi_rank_results=1",
                        self.train_job("epochs=1\nrules=mlperf\n"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        def fix(doc):
            rules = doc["jobs"][0]["rules"]["checks"]
            return [c for c in rules if c["name"] == "steps_per_epoch"][0]["fix"]
        self.assertIn("on 4 accelerator(s)", fix(self.load("m.json")))
        self.assertIn("of the 1 client host(s)", json.dumps(self.load("m.json")["jobs"][0]["rules"]))


def ckpt_files_of(m, ranks, scale=1.0):
    """{name: bytes} of the files the given ranks write (ckpt_files per rank:
    a rank's files are those the set of ranks 0..r has that 0..r-1 has not)"""
    out = {}
    for r in ranks:
        before = ckpt_files(m, r, scale) if r else {}
        upto = ckpt_files(m, r + 1, scale)
        out.update({k: v for k, v in upto.items() if k not in before})
    return out
