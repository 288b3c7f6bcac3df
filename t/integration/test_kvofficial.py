"""kv_profile=mlperf side by side with the official MLCommons
KV-cache benchmark (mlcommons/storage kv_cache_benchmark, main 058a87e),
on the same settings, under load.  The official user model
(kv_cache/benchmark.py):
- generate_requests/user_worker (benchmark.py:429-489): each user is its
  own thread that sleeps think_time x U(0.8, 1.2) (line 434), then issues a
  request onto the priority queue (line 489) without waiting for its
  earlier ones: a user can have several requests queued;
- the request's turn joins its conversation when it is issued
  (ConversationManager.add_turn, conversation.py:79-96, called at
  benchmark.py:466), and process_requests step 2 (benchmark.py:545-556)
  reads every key of the conversation but its own
  (get_all_previous_turn_keys, conversation.py:105-111), so turns issued
  but not yet served (not yet written) miss (cache.py:776-779);
- min(users, 500) workers (benchmark.py:1232) take the highest priority,
  then the earliest (benchmark.py:426, queue.PriorityQueue);
- a request with a system prompt (prefix_cache.py:59-63, probability 0.2
  by default) looks up kv_system_<hash>, which nothing writes (a miss),
  and its decode reads count as system_prompt_hits (benchmark.py:541,
  600; cache.py:806).

Settings chosen so that every figure compared is decided by the model and
not by the machine's speed (the tests must not depend on load):
- the generation time (2 ms/token, [g/4, g] tokens, both tools sleep it)
  exceeds think time x users / (users of the top class >= 1), so the top
  QoS class alone outruns the workers: the queue only grows, on a slow
  machine faster.  Each served request then finds its conversation issued
  to the end and its earlier turns written (served in order), whatever the
  speed: step 2's hit fraction is well under 1 (0.6-0.7 measured) and
  the lookups per request follow the conversation lengths (continue with
  probability 0.8), so the hit rate is a property of the model, not of
  the disk or the CPU;
- entries are small (tiny-1b, 32 or 64 tokens, <= 1.5 MiB), and the run
  short (8 users, ~300 requests in 5 s).  The hit rate of a short run
  carries sampling noise: its requests belong to few conversations,
  whose lengths are geometric and whose step-2 lookups grow as their
  square.  At the official cap of 50 turns the official code alone, on
  the NVMe-only setting, gave 0.894 to 0.947 on four 5 s runs
  (0.922-0.955 on three 10 s runs), and it and storbench once differed
  by 0.059: two runs of the same model differ by more than 0.05 about
  one time in seven.  So the settings cap conversations at 6 turns in
  both tools (the official config.yaml conversation.max_turns_per_conv,
  read at conversation.py:50 and checked at benchmark.py:444-451;
  kv_max_turns_per_conv= here), which bounds the step-2 lookups per
  request: three runs of each tool then gave 0.886-0.895 (official) and
  0.892-0.898 (storbench) on the NVMe-only setting, 0.891-0.898 and
  0.896-0.901 on the CPU + NVMe one.  The decode re-reads (always hits,
  one per batch of 8 tokens: ~8 per request) are not so many that the
  hit rate stops telling the models apart: one request in flight per
  user gives ~1.0, the official model ~0.89;
- the request count depends on each tool's storage speed (a Python and a
  C program on a loaded machine), so it is compared as each tool's worker
  occupancy: requests x (mean storage + mean generation time per request)
  / (workers x elapsed), the fraction of time its workers served; under
  this overload both keep every worker busy (about 1) however fast the
  machine is, and requests within 10% of each other in that unit is the
  issue's "request count within 10%" with the machine's speed divided out;
- PASS/FAIL: the hit-rate criterion is decided by the model (above), the
  latency criteria (device p95 < 200/500 ms) by the machine; the overall
  verdict is compared where the hit rate decides it (FAIL_TINY: prefill
  only, so no decode reads, which always hit, and an NVMe tier of 0.1 MiB,
  smaller than any entry, so it holds the last one written: a turn hits
  only the turn served just before it), the hit-rate criterion's verdict
  everywhere.  In FAIL_TINY the hit rate is hits over step-2 lookups
  alone, the noisiest figure: at the 50-turn cap the official code gave
  0.079 to 0.258, near the criterion's 0.3; capped at 12 turns, 0.126 to
  0.174 (official) and 0.157 to 0.166 (storbench) on three runs each.
  There both under 0.3, the same verdict and the values within 0.1 are
  compared (0.05 on the two overload settings); not the hits per request,
  which follow each tool's storage speed under load (0.96 against 1.29
  on one loaded run); occupancy is not compared there: every
  write there unlinks the entry before (and waits while another worker
  reads it), time neither tool counts in a request's storage time, whose
  share grows with the machine's load.

Two more settings (one user, think 50 ms, 15 s; four users, think 0.1 s,
20 s) and a low load are compared on request counts (within
10%, each overloaded count with its generation draw divided out:
counts_agree), hit rates (0.05) and the verdict.

The official code: SB_KVBENCH (a kv_cache_benchmark directory: git -C
<mirror of mlcommons/storage> archive HEAD kv_cache_benchmark | tar -x),
else /tmp/kvref/kv_cache_benchmark; it runs under /usr/bin/python3 with
Debian's python3-numpy and python3-yaml (apt-get install python3-numpy
python3-yaml), GPU tier off.  Missing: the side-by-side tests skip, saying
why.  The side-by-side tests run in t/integration/run.py's serial part,
with no other test file beside them: the official code is a Python
program whose figures follow the CPU it gets."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from sbtest import BIN, CpuLoss, SbCase, asan_runtime

PY = "/usr/bin/python3"
OFFICIAL = os.environ.get("SB_KVBENCH", "/tmp/kvref/kv_cache_benchmark")
GB = 1 << 30

# users, think (s), context and generation tokens (the user templates' ranges
# pinned), run seconds, CPU and NVMe tier bytes (0 CPU: none; 0 NVMe: the
# official default, 95% of the free space), decode batch (re-read every N tokens),
# prefill_only (no decode reads: --prefill-only, benchmark.py:589), turns (a
# conversation's cap: conversation.max_turns_per_conv, kv_max_turns_per_conv=)
OVERLOAD_CPU = dict(users=8, think=0.01, ctx=32, gen=100, secs=5, cpu=int(0.01 * GB), nvme=0, batch=8,
                    turns=6)
OVERLOAD_NVME = dict(users=8, think=0.01, ctx=64, gen=100, secs=5, cpu=0, nvme=0, batch=8, turns=6)
FAIL_TINY = dict(users=4, think=0.025, ctx=32, gen=100, secs=4, cpu=0, nvme=int(0.0001 * GB), batch=32,
                 prefill_only=True, turns=12)
# one user, think 50 ms, 15 s, with a CPU tier as the official default has
# one (--cpu-mem-gb 32); four users, think 0.1 s, 20 s, on the NVMe tier
# alone; and a low load:
# think time well over a request's service time, so no turn waits in a queue
ONE_USER = dict(users=1, think=0.05, ctx=64, gen=100, secs=15, cpu=GB, nvme=0, batch=8, turns=6)
FOUR_USERS = dict(users=4, think=0.1, ctx=64, gen=100, secs=20, cpu=0, nvme=0, batch=8, turns=6)
LOW_LOAD = dict(users=2, think=0.5, ctx=64, gen=20, secs=15, cpu=0, nvme=0, batch=8, turns=6)


def why_no_official():
    if not os.path.isfile(os.path.join(OFFICIAL, "kv_cache", "benchmark.py")):
        return ("the official kv_cache_benchmark is not at %s (set SB_KVBENCH to a checkout: git archive "
                "of mlcommons/storage's kv_cache_benchmark)" % OFFICIAL)
    if not os.access(PY, os.X_OK):
        return "%s is missing (Debian's python3 runs the official code)" % PY
    p = subprocess.run([PY, "-c", "import numpy, yaml"], capture_output=True, text=True)
    if p.returncode:
        return "the official code needs numpy and yaml: apt-get install python3-numpy python3-yaml"
    return None


def official_yaml(s, path):
    """config.yaml keys the official code reads: user_templates (workload.py
    UserSimulator), decode.batch_size (benchmark.py:603)"""
    t = "{context_range: [%d, %d], generation_range: [%d, %d], think_time_range: [%g, %g]}" % (
        s["ctx"], s["ctx"], s["gen"], s["gen"], s["think"], s["think"])
    with open(path, "w") as f:
        f.write("user_templates:\n")
        for name in ("chatbot", "coding", "document"):
            f.write("  %s: %s\n" % (name, t))
        f.write("decode:\n  batch_size: %d\n" % s["batch"])
        f.write("conversation:\n  max_turns_per_conv: %d\n" % s.get("turns", 50))


def run_official(s, tmp):
    cfg = os.path.join(tmp, "official.yaml")
    official_yaml(s, cfg)
    out = os.path.join(tmp, "official.json")
    args = [PY, "kv-cache.py", "--config", cfg, "--num-users", str(s["users"]), "--duration", str(s["secs"]),
            "--gpu-mem-gb", "0", "--cpu-mem-gb", repr(s["cpu"] / GB), "--cache-dir", os.path.join(tmp, "oc"),
            "--generation-mode", "fast", "--model", "tiny-1b", "--seed", "1", "--output", out]
    if s["nvme"]:
        args += ["--storage-capacity-gb", repr(s["nvme"] / GB)]
    if s.get("prefill_only"):
        args.append("--prefill-only")
    p = subprocess.run(args, cwd=OFFICIAL, capture_output=True, text=True, timeout=300)
    if p.returncode:
        raise AssertionError("the official benchmark failed: " + p.stderr[-2000:])
    with open(out) as f:
        return json.load(f)["summary"]


def sb_args(s, d):
    a = ["--output-format=json", "--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--model=tiny-1b",
         "--kv_users=%d" % s["users"], "--runtime=%d" % s["secs"], "--prompt_tokens=%d" % s["ctx"],
         "--prompt_tokens_min=1", "--output_tokens=%d" % s["gen"], "--output_tokens_min=1",
         "--kv_think_time=%dus" % round(s["think"] * 1e6), "--decode_time_per_token=2ms", "--kv_gpu_mem=0",
         "--kv_memory_capacity=%d" % s["cpu"], "--kv_decode_reread_tokens=%d" % s["batch"],
         "--kv_max_turns_per_conv=%d" % s.get("turns", 50), "--directory=" + d, "--randseed=1"]
    if s["nvme"]:
        a.append("--kv_disk_capacity=%d" % s["nvme"])
    if s.get("prefill_only"):
        a.append("--kv_prefill_only=1")
    return a


def figures(m):
    """hit rate, occupancy x workers, lookups and hits per request, verdict, hit-rate criterion passed"""
    c = m["cache_stats"]
    n = m["total_requests"]
    busy = n * (m["storage_io_latency_ms"]["mean"] + m["generation_latency_ms"]["mean"]) / 1e3
    crit = [x for x in c["storage_health"]["criteria"] if x["name"].startswith("Cache Hit Rate")]
    return dict(requests=n, hit=c["cache_hit_rate"], busy=busy / m["elapsed_time"],
                gen=m["generation_latency_ms"]["mean"],
                lookups=(c["cache_hits"] + c["cache_misses"]) / max(n, 1), hits=c["cache_hits"] / max(n, 1),
                verdict=c["storage_health"]["overall_status"], hit_ok=crit[0]["passed"] if crit else None,
                mt=m["multi_turn_stats"]["hit_rate"])


class KvOfficialSideBySide(SbCase):
    def setUp(self):
        super().setUp()
        why = why_no_official()
        if why:
            self.skipTest(why)
        if asan_runtime():
            # the model is compared, not this build's speed: once, in the plain build
            # (2.5 minutes of side-by-side runs; the sanitizers see the same code in
            # test_kvcache_mlperf and test_kvconc)
            self.skipTest("a sanitizer build: the side-by-side runs are the plain build's")
        self.tmp = tempfile.mkdtemp(prefix="sbkvoff")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        super().tearDown()

    def both(self, s):
        with CpuLoss() as lost:
            off = figures(run_official(s, self.tmp))
        # the share of the official run its threads may have waited for a CPU
        off["lost"] = min(1.0, lost.s / s["secs"])
        d = os.path.join(self.tmp, "sb")
        os.makedirs(d, exist_ok=True)
        p = self.run_sb(*sb_args(s, d), timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        sb = figures(json.loads(p.stdout)["jobs"][0]["kvcache"]["mlperf"])
        sys.stderr.write("\n  official  %s\n  storbench %s\n" % (off, sb))
        return off, sb

    def agree(self, s, off, sb, fail):
        say = "official %s, storbench %s" % (off, sb)
        workers = min(s["users"], 500)
        self.assertEqual(off["hit_ok"], sb["hit_ok"], say)
        if fail:  # the hit rate decides the verdict; in FAIL_TINY it is hits over
            # step-2 lookups alone, the noisiest figure (module doc): within 0.1
            self.assertEqual(off["verdict"], sb["verdict"], say)
            self.assertLess(max(off["hit"], sb["hit"]), 0.3, say)
            self.assertLess(abs(off["hit"] - sb["hit"]), 0.1, say)
        else:
            # occupancy: both tools' workers busy most of the time (module doc); how busy
            # follows each tool's share of a loaded CPU: the official workers wait for the
            # GIL and the CPU, time neither storage nor generation (5.5 against 6.9 of 8 on
            # one loaded run, 4.3 against 7.6 beside three other test files and a CPU hog),
            # so the bound is a quarter of the workers plus the share of the official run
            # that load may have taken (sbtest.CpuLoss: on a saturated machine it checks
            # nothing)
            self.assertLess(abs(off["busy"] - sb["busy"]) / workers, 0.25 + off["lost"], say)
            self.assertLess(abs(off["hit"] - sb["hit"]), 0.05, say)
            # queued turns miss: about half the reloads (one request in flight per user: all hit)
            self.assertLess(max(off["mt"], sb["mt"]), 0.8, say)

    def test_overloaded_cpu_and_nvme(self):
        """8 users, think 10 ms, CPU + NVMe tiers: queued turns miss in both"""
        off, sb = self.both(OVERLOAD_CPU)
        self.agree(OVERLOAD_CPU, off, sb, False)

    def test_overloaded_nvme_only(self):
        """8 users, think 10 ms, 64-token contexts, the NVMe tier alone"""
        off, sb = self.both(OVERLOAD_NVME)
        self.agree(OVERLOAD_NVME, off, sb, False)

    def counts_agree(self, s, off, sb, overloaded):
        """request counts within 10%: the bound widened by the share
        of the official run that load took (the official code is a Python
        program whose speed follows the CPU it gets); overloaded, each tool's
        count is its workers' time over (storage + generation) per request, and
        a request's generation tokens are a random draw (randint(g//4, g),
        benchmark.py:461; 2 ms each, models.py:140): over the ~120 requests of
        one user the two tools' draws differed by up to 8% of the mean, so
        there each count is scaled by the expected mean over its own draw's"""
        n = {}
        for name, f in (("official", off), ("storbench", sb)):
            want = 2 * (max(1, s["gen"] // 4) + s["gen"]) / 2
            n[name] = f["requests"] * f["gen"] / want if overloaded else f["requests"]
        say = "counts %s; official %s, storbench %s" % (n, off, sb)
        self.assertLess(abs(n["official"] - n["storbench"]) / n["official"], 0.10 + off["lost"], say)

    def test_one_user_queued(self):
        """one user, think 50 ms, 15 s: the user's requests queue behind its
        generation time, and its queued turns miss, in both (one request in
        flight at a time would find every earlier turn: hit rate 1.0)"""
        off, sb = self.both(ONE_USER)
        self.agree(ONE_USER, off, sb, False)
        self.counts_agree(ONE_USER, off, sb, True)
        self.assertEqual(off["verdict"], sb["verdict"], (off, sb))

    def test_four_users_nvme_only(self):
        """four users, think 0.1 s, 20 s, the NVMe tier alone: the same
        request count and verdict"""
        off, sb = self.both(FOUR_USERS)
        self.agree(FOUR_USERS, off, sb, False)
        self.counts_agree(FOUR_USERS, off, sb, True)
        self.assertEqual(off["verdict"], sb["verdict"], (off, sb))

    def test_low_load(self):
        """two users, think 0.5 s, requests served in tens of ms: the arrivals
        decide the count (users x seconds / think), no turn waits, every
        earlier turn is found in both"""
        off, sb = self.both(LOW_LOAD)
        say = "official %s, storbench %s" % (off, sb)
        self.counts_agree(LOW_LOAD, off, sb, False)
        self.assertLess(abs(off["hit"] - sb["hit"]), 0.05, say)
        self.assertGreater(min(off["mt"], sb["mt"]), 0.95, say)
        self.assertEqual(off["verdict"], sb["verdict"], say)

    def test_fail_verdict(self):
        """prefill only, an NVMe tier of 0.1 MiB: the hit rate under 0.3 in both, FAIL in both"""
        off, sb = self.both(FAIL_TINY)
        self.agree(FAIL_TINY, off, sb, True)
        self.assertEqual(sb["verdict"], "FAIL", sb)


def paths(d, p=""):
    """every key path of a JSON object"""
    out = set()
    for k, v in d.items() if isinstance(d, dict) else ():
        out.add(p + "." + k)
        out |= paths(v, p + "." + k)
    return out


class KvOfficialKeys(SbCase):
    """the official summary's keys (benchmark.py _calculate_stats:1419-1466):
    cache_stats.system_prompt_hits and common_phrase_hits (cache.py:806-807:
    decode reads of a request with a system prompt are cache_type 'system';
    nothing makes a common phrase, prefix_cache.py:59-81), prefix_cache_stats
    (prefix_cache.py:95-101, 115-126: a hit per request with a system prompt,
    a miss per request without, bytes_saved its tokens x the model's bytes per
    token), qos_metrics.<class>.sla (monitoring.py:319-324: met when
    compliance >= 0.95); system prompts at 0.2 by default (config.yaml
    prefix_cache.system_prompt_hit_probability, prefix_cache.py:63)"""

    ARGS = ["--output-format=json", "--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2",
            "--kv_heads=2", "--head_dim=16", "--prompt_tokens=64", "--output_tokens=64", "--output_tokens_min=64",
            "--kv_users=1", "--kv_memory_capacity=0", "--kv_think_time=0", "--kv_requests=300"]

    def mlperf(self, *args):
        p = self.run_sb(*self.ARGS, "--directory=" + self.dir, *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)["jobs"][0]["kvcache"]["mlperf"]

    def test_keys_and_their_rules(self):
        m = self.mlperf()
        c, pc = m["cache_stats"], m["prefix_cache_stats"]
        n = m["total_requests"]
        self.assertEqual(pc["prefix_hits"] + pc["prefix_misses"], n)
        self.assertEqual(pc["system_prompt_reuse"], pc["prefix_hits"])
        self.assertEqual(pc["common_phrase_reuse"], 0)
        self.assertEqual(c["common_phrase_hits"], 0)
        # the default 0.2: 300 requests, 60 expected; 5 sigma is 35
        self.assertTrue(25 <= pc["prefix_hits"] <= 95, pc)
        per_token = 2 * 2 * 2 * 16 * 2
        self.assertTrue(5 * per_token * pc["prefix_hits"] <= pc["bytes_saved"] <= 9 * per_token * pc["prefix_hits"])
        # every decode read of a request with a prompt (one user: none misses)
        self.assertEqual(c["system_prompt_hits"], 3 * pc["prefix_hits"])  # 1 + 64 / 32 each
        self.assertEqual(c["cache_hits"], c["system_prompt_hits"] + c["user_cache_hits"] + c["multi_turn_hits"])
        for q, target in (("interactive", 50), ("responsive", 100), ("batch", 1000)):
            x = m["qos_metrics"][q]
            self.assertEqual(x["sla"]["target_p95_ms"], target)
            self.assertEqual(x["sla"]["actual_p95_ms"], x["latency_ms"]["p95"])
            self.assertEqual(x["sla"]["compliance"], x["sla_compliance"])
            self.assertEqual(x["sla"]["met"], x["sla_compliance"] >= 0.95)

    def test_met_both_ways(self):
        """a generation time (64 x 20 ms) over every class's target: met false;
        without it (test_keys_and_their_rules) met follows the compliance"""
        slow = self.mlperf("--kv_requests=6", "--decode_time_per_token=20ms")
        for q, x in slow["qos_metrics"].items():
            if x["total_requests"]:
                self.assertEqual(x["sla"]["compliance"], 0.0, q)
                self.assertFalse(x["sla"]["met"], q)

    def test_prompts_off(self):
        m = self.mlperf("--kv_system_prompt_probability=0")
        self.assertEqual(m["prefix_cache_stats"], {})
        self.assertEqual(m["cache_stats"]["system_prompt_hits"], 0)

    def test_official_keys_all_there(self):
        why = why_no_official()
        if why:
            self.skipTest(why)
        tmp = tempfile.mkdtemp(prefix="sbkvkeys")
        try:
            s = dict(OVERLOAD_NVME, secs=1)
            off = run_official(s, tmp)
            d = os.path.join(tmp, "sb")
            os.makedirs(d)
            p = self.run_sb(*sb_args(s, d))
            self.assertEqual(p.returncode, 0, p.stderr)
            sb = json.loads(p.stdout)["jobs"][0]["kvcache"]["mlperf"]
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        # no autoscaling here; a class without requests is {'no_data': True} there
        want = {x for x in paths(off) if not x.startswith(".autoscaling") and "no_data" not in x}
        self.assertEqual(want - paths(sb), set())


if __name__ == "__main__":
    unittest.main()
