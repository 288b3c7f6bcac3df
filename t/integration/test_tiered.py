"""Tiered (burst-buffer) checkpoints: workload=checkpoint with
checkpoint_cache_folder= (ml/checkpoint/tiered.c).  checkpoint_flush=async
with enough compute between checkpoints blocks the application for the
cache-tier write only and each flush ends before the next checkpoint; with
no compute the flushes queue and the report says by how much each fell
behind; partner copies and xor parity are the right bytes (a lost rank's
files are rebuilt here from the parity and the other ranks' files); restart
reads say which tier they came from; bad inputs are refused before anything
is written."""
import json
import os
import shutil
import unittest

from sbtest import CpuLoss, SbCase

BASE = ("[ck]\nworkload=checkpoint\nmodel=llama3-8b\nsubset=1\nioengine=psync\nbs=1m\n"
        "drop_caches=0\ncheckpoint_scale=0.0005\n")

# Outside the write to the cache (cache_write_s: its folders made, the
# ranks' threads started and joined), an async checkpoint's blocking window
# holds only a mutex hand-over to the flusher (evictions run on the flusher,
# outside the mutex): microseconds when idle.  50 ms (plus 10% of the write) absorbs
# scheduler delays on a loaded 2-core machine and is still far below the
# flush it must exclude (the sync test shows blocking >= cache + flush).
# What other load took from the run (CpuLoss) widens it by as much.
TOL_S = 0.05
TOL_REL = 0.10


def files_under(root):
    out = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = p
    return out


def read(p):
    with open(p, "rb") as f:
        return f.read()


class TieredTest(SbCase):
    def job(self, extra, cache=None):
        self.cache = cache or os.path.join(self.dir, "cache")
        self.shared = os.path.join(self.dir, "shared")
        return self.write_job(BASE + "checkpoint_folder=%s\ncheckpoint_cache_folder=%s\n%s"
                              % (self.shared, self.cache, extra))

    def tier(self, extra, cache=None):
        res = self.run_json(self.job(extra, cache))
        return res["jobs"][0]["checkpoint"]

    def test_async_enough_compute(self):
        with CpuLoss() as lost:
            c = self.tier("ranks=4\nnum_checkpoints_write=3\nnum_checkpoints_read=0\n"
                          "time_between_checkpoints=1.5\ncheckpoint_flush=async\nflush_threads=2\n")
        t = c["tiered"]
        self.assertEqual((t["flush"], t["redundancy"]), ("async", "single"))
        pts = t["checkpoints"]
        self.assertEqual(len(pts), 3)
        for i, p in enumerate(pts):
            self.assertGreater(p["cache_write_s"], 0)
            self.assertLessEqual(abs(p["blocking_s"] - p["cache_write_s"]),
                                 TOL_S + lost.s + TOL_REL * p["cache_write_s"], p)
            self.assertGreater(p["flush_s"], 0)
            # the flush starts when the cache write is done, in the compute
            self.assertGreaterEqual(p["flush_start_at_s"], p["ready_at_s"])
            if i + 1 < len(pts):
                self.assertLess(p["flush_start_at_s"], pts[i + 1]["start_at_s"])
                # overlaps the compute but for the blocking window's tail
                self.assertGreater(p["overlap_pct"], 90 - 100 * lost.s / p["flush_s"], p)
            # ends before the next checkpoint starts, 1.5 s of compute later,
            # unless other load held the flush back about that long
            if lost.s < 1.0:
                self.assertFalse(p["behind"], p)
                self.assertEqual(p["behind_s"], 0)
                if i + 1 < len(pts):
                    self.assertLessEqual(p["flush_end_at_s"], pts[i + 1]["start_at_s"])
        self.assertEqual(t["behind_count"], sum(1 for p in pts if p["behind"]))
        per = c["bytes_model"] + c["bytes_optimizer"]
        self.assertEqual(t["shared_bytes"], 3 * per)
        self.assertEqual(t["cache_bytes"], 3 * per)
        self.assertEqual(os.listdir(self.dir), ["job.ini"])  # all removed again

    def test_sync_blocks_for_the_flush(self):
        t = self.tier("ranks=2\nnum_checkpoints_write=2\nnum_checkpoints_read=0\n"
                      "checkpoint_flush=sync\n")["tiered"]
        for p in t["checkpoints"]:
            self.assertGreaterEqual(p["blocking_s"], p["cache_write_s"] + p["flush_s"])
            self.assertEqual(p["overlap_s"], 0)

    def test_async_falls_behind(self):
        # no compute at all, and a flush of 4 KiB requests on one thread
        # against the ranks' 1 MiB requests: the flushes queue up
        shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        cache = os.path.join(shm, "sbtier.%d" % os.getpid()) if shm else None
        try:
            t = self.tier("ranks=4\nnum_checkpoints_write=4\nnum_checkpoints_read=0\n"
                          "checkpoint_flush=async\nflush_threads=1\nflush_bs=4k\n",
                          cache)["tiered"]
        finally:
            if cache:
                self.assertFalse(os.path.exists(cache))
        pts = t["checkpoints"]
        behind = [p for p in pts if p["behind"]]
        self.assertGreaterEqual(len(behind), 1, pts)
        self.assertEqual(t["behind_count"], len(behind))
        for k in range(1, len(pts)):
            want = pts[k - 1]["flush_end_at_s"] - pts[k]["ready_at_s"]
            if pts[k]["behind"]:
                self.assertAlmostEqual(pts[k]["behind_s"], want, delta=2e-6)
                self.assertGreater(pts[k]["behind_s"], 0)
                # a flush starts when the one before it ends
                self.assertGreaterEqual(pts[k]["flush_start_at_s"], pts[k - 1]["flush_end_at_s"])
            else:
                self.assertLessEqual(want, 1e-6)
        self.assertAlmostEqual(t["max_behind_s"], max(p["behind_s"] for p in pts), delta=2e-6)
        self.assertGreater(t["drain_s"], 0)

    def test_restart_source(self):
        c = self.tier("ranks=2\nnum_checkpoints_write=3\nnum_checkpoints_read=3\ncache_keep=1\n"
                      "checkpoint_flush=sync\n")
        src = [r["source"] for r in c["tiered"]["restart_reads"]]
        self.assertEqual(src, ["shared", "shared", "cache"])
        self.assertEqual((c["tiered"]["reads_cache"], c["tiered"]["reads_shared"]), (1, 2))

    def test_normal_output(self):
        p = self.run_sb(self.job("ranks=2\nnum_checkpoints_write=2\nnum_checkpoints_read=1\n"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("tiered: cache %s, flush=async" % self.cache, p.stdout)
        self.assertIn("restart reads: 0 from the cache, 1 from the shared tier", p.stdout)
        self.assertRegex(p.stdout, r"#1: blocking [0-9.]+ s \(cache write [0-9.]+, redundancy")

    def kept(self, extra):
        """one checkpoint, flushed (sync) and kept in both tiers"""
        c = self.tier("num_checkpoints_write=1\nnum_checkpoints_read=0\ncheckpoint_flush=sync\n"
                      "keep_checkpoints=1\n" + extra)
        shared = files_under(os.path.join(self.shared, "global_epoch1_step1"))
        self.assertEqual(len(shared), c["files"])
        return c, shared

    def rank_files(self, r):
        d = os.path.join(self.cache, "rank%d" % r, "global_epoch1_step1")
        return {f: os.path.join(d, f) for f in sorted(os.listdir(d))
                if os.path.isfile(os.path.join(d, f))}

    def test_partner(self):
        c, shared = self.kept("ranks=3\ncheckpoint_redundancy=partner\n")
        seen = 0
        for r in range(3):
            own = self.rank_files(r)
            self.assertTrue(own)
            p = (r + 1) % 3
            pdir = os.path.join(self.cache, "rank%d" % p, "global_epoch1_step1", "partner_rank%d" % r)
            self.assertEqual(sorted(os.listdir(pdir)), sorted(own))
            for f, path in own.items():
                self.assertEqual(read(path), read(shared[f]))  # the flush copied the cache
                self.assertEqual(read(os.path.join(pdir, f)), read(path))
                seen += 1
        self.assertEqual(seen, c["files"])
        self.assertEqual(c["tiered"]["redundancy_bytes"], c["bytes_model"] + c["bytes_optimizer"])

    def test_xor_rebuilds_a_lost_rank(self):
        ranks, set_size = 5, 3
        c, shared = self.kept("ranks=%d\ncheckpoint_redundancy=xor\nset_size=%d\n" % (ranks, set_size))
        streams = {}
        for r in range(ranks):  # a rank's stream: its files in name order, concatenated
            streams[r] = b"".join(read(p) for f, p in sorted(self.rank_files(r).items()))
        xdir = os.path.join(self.cache, "xor", "global_epoch1_step1")
        sets = [list(range(s, min(s + set_size, ranks))) for s in range(0, ranks, set_size)]
        self.assertEqual(sorted(os.listdir(xdir)), ["set%d.xor" % i for i in range(len(sets))])
        for i, members in enumerate(sets):
            parity = read(os.path.join(xdir, "set%d.xor" % i))
            self.assertEqual(len(parity), max(len(streams[r]) for r in members))
            for lost in members:
                # lose the rank's cache folder; rebuild from parity + the others
                gone = os.path.join(self.cache, "rank%d" % lost)
                away = os.path.join(self.dir, "lost")
                originals = self.rank_files(lost)
                shutil.move(gone, away)
                acc = bytearray(parity)
                for r in members:
                    if r == lost:
                        continue
                    s = b"".join(read(p) for f, p in sorted(self.rank_files(r).items()))
                    for b in range(len(s)):
                        acc[b] ^= s[b]
                off = 0
                for f in sorted(originals):  # sizes from the shared tier's copy
                    n = os.path.getsize(shared[f])
                    rebuilt = bytes(acc[off:off + n])
                    off += n
                    self.assertEqual(rebuilt, read(os.path.join(away, "global_epoch1_step1", f)),
                                     "rank %d file %s" % (lost, f))
                self.assertEqual(bytes(acc[off:]), bytes(len(acc) - off))  # padding
                shutil.move(away, gone)
        per = c["bytes_model"] + c["bytes_optimizer"]
        self.assertEqual(c["tiered"]["cache_bytes"], per + sum(max(len(streams[r]) for r in m)
                                                               for m in sets))


class TieredBadInput(SbCase):
    def refused(self, extra, line, opt, value, fix, cache="cache"):
        job = self.write_job(BASE + "ranks=2\ncheckpoint_folder=%s\ncheckpoint_cache_folder=%s\n%s"
                             % (os.path.join(self.dir, "shared"), os.path.join(self.dir, cache)
                                if cache else "", extra))
        before = sorted(os.listdir(self.dir))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("job.ini:%d" % line if line else "job.ini:", p.stderr)
        self.assertIn(opt, p.stderr)
        self.assertIn(value, p.stderr)
        self.assertIn(fix, p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before)  # nothing written
        return p.stderr

    def test_cache_is_the_shared_folder(self):
        self.refused("", 11, "checkpoint_cache_folder=", os.path.join(self.dir, "shared"),
                     "node-local folder other than", cache="shared")

    def test_cache_is_the_shared_folder_by_another_name(self):
        os.mkdir(os.path.join(self.dir, "shared"))
        self.refused("", 0, "checkpoint_cache_folder=", os.path.join(self.dir, "shared/."),
                     "node-local folder other than the shared tier", cache="shared/.")

    def test_xor_set_size_1(self):
        self.refused("checkpoint_redundancy=xor\nset_size=1\n", 13, "set_size=1",
                     "an xor set needs at least 2 ranks", "set set_size=2 or more")

    def test_partner_one_rank(self):
        self.refused("checkpoint_redundancy=partner\nranks=1\n", 13, "ranks=1",
                     "cannot be its own partner", "or checkpoint_redundancy=single")

    def test_flush_threads_0(self):
        self.refused("flush_threads=0\n", 12, "flush_threads=0", "no thread", "set flush_threads=1")

    def test_flush_bs_0(self):
        self.refused("flush_bs=0\n", 12, "flush_bs=0", "0 bytes", "set flush_bs=")

    def test_cache_keep_0(self):
        self.refused("cache_keep=0\n", 12, "cache_keep=0", "must hold", "set cache_keep=1")

    def test_none_cannot_read_evicted(self):
        self.refused("checkpoint_flush=none\nnum_checkpoints_write=3\nnum_checkpoints_read=1\n",
                     12, "checkpoint_flush=none", "cache_keep=1 checkpoints", "set cache_keep=3")

    def test_tier_option_without_cache(self):
        job = self.write_job(BASE + "checkpoint_folder=%s\nflush_threads=4\n"
                             % os.path.join(self.dir, "shared"))
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:10", p.stderr)
        self.assertIn("flush_threads=4 applies to tiered checkpoints only", p.stderr)
        self.assertIn("set checkpoint_cache_folder=", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_null_engine(self):
        self.refused("ioengine=null\n", 0, "ioengine=null", "nothing to flush",
                     "use a file engine")

    def test_cache_step_folder_exists(self):
        os.makedirs(os.path.join(self.dir, "cache", "rank1", "global_epoch1_step2"))
        self.refused("num_checkpoints_write=2\nnum_checkpoints_read=0\n", 0,
                     "checkpoint_cache_folder=", "global_epoch1_step2 already exists",
                     "refusing to overwrite it")
        self.assertEqual(os.listdir(os.path.join(self.dir, "cache", "rank1")),
                         ["global_epoch1_step2"])


if __name__ == "__main__":
    unittest.main()
