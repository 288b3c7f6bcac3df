"""workload=kvcache trace replay (kv_trace=, HOWTO "KV-cache trace replay"):
a 50-request trace gives exactly those requests, checked through the
per-request log (kv_request_log=) and the JSON counts; a bad trace stops
storbench before anything is written, naming the job file:line, the trace
file, its line and the fix.

What the readers take, from the official benchmark (mlcommons/storage,
kv_cache_benchmark/kv_cache/):
- benchmark.py IntegratedBenchmark._burst_trace_iterator: csv.DictReader
  rows, int(row['Request tokens']), int(row['Response tokens']),
  float(row.get('Timestamp', 0));
- benchmark.py _generate_requests_from_trace: delta = timestamp -
  prev_timestamp; sleeps delta / speedup only "if delta > 0" and only "if
  speedup > 0";
- workload.py ShareGPTDatasetLoader._load_dataset: pairs (turns[i],
  turns[i + 1]) for i in range(0, len(turns) - 1, 2) kept when 'from' is
  'human' then 'gpt'; without tiktoken max(1, len(text) // 4) tokens;
  min(context_tokens, 16384), min(generation_tokens, 2048); turn_number =
  i // 2 + 1;
- benchmark.py _generate_requests_from_dataset: time.sleep(1.0 /
  request_rate) between requests when request_rate > 0."""
import json
import os
import random
import unittest

from sbtest import SRC, SbCase

BASE = ["--name=kv", "--workload=kvcache", "--model=llama3-8b", "--kv_block_tokens=16",
        "--ioengine=null", "--concurrency=2", "--kv_memory_capacity=64g", "--kv_disk_capacity=0"]


def burst_rows(n, seed):
    rnd = random.Random(seed)
    t, rows = 1000.0, []
    for i in range(n):
        t += rnd.choice((0.0, 0.004, 0.011, 0.02, -0.005))  # steps back too
        rows.append((round(t, 3), rnd.randint(1, 3000), rnd.randint(0, 500)))
    return rows


def burst_arrivals(rows, speedup):
    """the official replay's clock: positive steps / speedup"""
    out, clock, prev = [], 0.0, None
    for ts, _, _ in rows:
        if prev is not None and ts - prev > 0:
            clock += (ts - prev) / speedup
        prev = ts
        out.append(clock)
    return out


class TraceCase(SbCase):
    def log(self, path):
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].startswith("# index arrival_s prompt_tokens"))
        return [l.split() for l in lines[1:]]


class BurstGPT(TraceCase):
    def test_fifty_requests(self):
        rows = burst_rows(50, 7)
        csv = os.path.join(self.dir, "t.csv")
        with open(csv, "w") as f:
            f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
            for ts, req, resp in rows:
                f.write(f'{ts},"ChatGPT, 4",{req},{resp},{req + resp},Conversation log\n')
        log = os.path.join(self.dir, "req.log")
        d = self.run_json(*BASE, f"--kv_trace={csv}", "--kv_trace_speedup=2",
                          f"--kv_request_log={log}")
        k = d["jobs"][0]["kvcache"]
        got = self.log(log)
        self.assertEqual(len(got), 50)
        want_at = burst_arrivals(rows, 2.0)
        for i, (g, (ts, req, resp)) in enumerate(zip(got, rows)):
            self.assertEqual(int(g[0]), i)
            self.assertEqual((int(g[2]), int(g[3])), (req, resp), f"request {i}")
            self.assertAlmostEqual(float(g[1]), want_at[i], places=6, msg=f"request {i}")
            self.assertEqual(int(g[5]), 1)  # every row its own conversation, turn 1
        self.assertEqual(len({g[4] for g in got}), 50)
        self.assertEqual(k["requests"], 50)  # the trace's end ends the run (kv_requests=1000)
        self.assertEqual(k["tokens_prompt"], sum(r[1] for r in rows))
        self.assertEqual(k["tokens_output"], sum(r[2] for r in rows))
        self.assertEqual(k["reuse_requests"], 0)
        self.assertGreaterEqual(k["duration_s"], want_at[-1])  # the arrivals were waited for
        # kv_requests smaller than the trace: its first requests
        d = self.run_json(*BASE, f"--kv_trace={csv}", "--kv_trace_speedup=0", "--kv_requests=20",
                          f"--kv_request_log={log}")
        self.assertEqual(d["jobs"][0]["kvcache"]["requests"], 20)
        got = self.log(log)
        self.assertEqual([(int(g[2]), int(g[3])) for g in got], [(r[1], r[2]) for r in rows[:20]])
        self.assertEqual({float(g[1]) for g in got}, {0.0})  # speedup 0: a closed loop


class ShareGPT(TraceCase):
    def test_fifty_turns(self):
        rnd = random.Random(11)
        convs, want = [], []
        turns_left = 50
        while turns_left:
            n = min(turns_left, rnd.randint(1, 5))
            turns_left -= n
            c = {"id": f"c{len(convs)}", "conversations": []}
            for t in range(n):
                h = "é" * rnd.randint(0, 90000) if rnd.random() < 0.1 else "w" * rnd.randint(0, 900)
                g = "x" * rnd.randint(0, 600)
                c["conversations"] += [{"from": "human", "value": h}, {"from": "gpt", "value": g}]
                want.append((min(max(1, len(h) // 4), 16384), min(max(1, len(g) // 4), 2048),
                             len(convs), t + 1))
            convs.append(c)
        convs.insert(3, {"id": "no turns"})  # skipped, as the official loader skips it
        path = os.path.join(self.dir, "sg.json")
        with open(path, "w") as f:
            json.dump(convs, f, ensure_ascii=False)
        log = os.path.join(self.dir, "req.log")
        d = self.run_json(*BASE, f"--kv_trace={path}", "--arrival_rate=500",
                          f"--kv_request_log={log}")
        k = d["jobs"][0]["kvcache"]
        got = self.log(log)
        self.assertEqual(len(got), 50)
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual((int(g[2]), int(g[3]), int(g[4]), int(g[5])), w, f"request {i}")
            self.assertAlmostEqual(float(g[1]), i / 500.0, places=6)  # 1 / request_rate apart
        later = sum(1 for w in want if w[3] > 1)
        self.assertEqual(k["requests"], 50)
        self.assertEqual(k["tokens_prompt"], sum(w[0] for w in want))
        self.assertEqual(k["tokens_output"], sum(w[1] for w in want))
        self.assertEqual(k["reuse_requests"], later)  # later turns continue their conversation
        self.assertEqual(k["prefix_hits"], later)     # and find it (64 GiB of memory)


class PrefixAndRag(TraceCase):
    """prefix_cache.py detect_system_prompt: one of three system prompts of
    5, 9 and 6 words (len(prompt.split())) with system_prompt_hit_probability;
    check_prefix_cache: remaining = max(0, context_tokens - token_count).
    rag.py ingest_document: ceil(tokens / chunk_size) chunks, each written;
    retrieve_chunks: min(top_k, chunks) of them; benchmark.py
    process_requests step 4 reads each with request_probability."""

    def test_with_a_trace(self):
        csv = os.path.join(self.dir, "t.csv")
        with open(csv, "w") as f:
            f.write("Request tokens,Response tokens\n" + "300,20\n" * 200)
        log = os.path.join(self.dir, "req.log")
        # no memory tier: every RAG chunk block is read from the disk file;
        # 1000-token chunks of 64-token blocks: 16 blocks each (documents of
        # 4000-12000 tokens for a 32-layer model, benchmark.py
        # _ingest_rag_documents)
        d = self.run_json("--name=kv", "--workload=kvcache", "--model=llama3-8b",
                          "--kv_block_tokens=64", "--ioengine=null", "--kv_memory_capacity=0",
                          "--kv_disk_capacity=8g", f"--kv_trace={csv}", "--kv_rag_docs=3",
                          "--kv_rag_chunk_tokens=1000", "--kv_rag_top_k=2",
                          "--kv_rag_probability=0.3", "--kv_system_prompt_probability=0.25",
                          f"--kv_request_log={log}")
        k = d["jobs"][0]["kvcache"]
        got = self.log(log)
        self.assertEqual(len(got), 200)
        prefix = [int(g[8]) for g in got]
        rag = [int(g[9]) for g in got]
        for g, p in zip(got, prefix):
            self.assertIn(p, (0, 5, 6, 9))
            self.assertEqual(int(g[2]) + p, 300)  # the trace's 300 tokens less the prefix
        self.assertTrue(30 <= sum(1 for p in prefix if p) <= 70, prefix)  # 0.25 of 200
        self.assertEqual(rag[0], 0)  # the documents are stored with the first request
        self.assertTrue(all(r in (0, 2) for r in rag))
        self.assertTrue(40 <= sum(1 for r in rag if r) <= 80, rag)  # 0.3 of 199
        for g, r in zip(got, rag):  # disk blocks read: the chunks' blocks (16, or a
            self.assertTrue(r <= int(g[7]) <= 16 * r, g)  # document's shorter last chunk)
        self.assertEqual(k["disk_reads"], sum(int(g[7]) for g in got))
        self.assertGreater(k["disk_reads"], 16 * sum(rag) * 3 // 4)
        self.assertEqual(k["tokens_prompt"], 200 * 300 - sum(prefix))


class ShippedJob(TraceCase):
    def test_burstgpt_job(self):
        """jobs/kvcache-trace-burstgpt.ini, run from another folder: its
        relative kv_trace= is found beside the job file; the 40 sample rows
        are the run"""
        job = os.path.join(SRC, "jobs", "kvcache-trace-burstgpt.ini")
        with open(os.path.join(SRC, "jobs", "kvcache-burstgpt-sample.csv")) as f:
            rows = [l.split(",") for l in f.read().splitlines()[1:]]
        p = self.run_sb("--output-format=json", job, timeout=90)
        self.assertEqual(p.returncode, 0, p.stderr)
        k = json.loads(p.stdout)["jobs"][0]["kvcache"]
        self.assertEqual(k["requests"], len(rows))
        self.assertEqual(k["tokens_prompt"], sum(int(r[2]) for r in rows))
        self.assertEqual(k["tokens_output"], sum(int(r[3]) for r in rows))
        self.assertGreater(k["write_bytes"], 0)
        self.assertEqual(self.listing(), [])  # the tier file and folder removed
        # every row its own conversation: nothing looked up again, and the
        # normal output says so instead of the unused prefix_reuse=
        self.assertEqual((k["reuse_requests"], k["disk_reads"]), (0, 0))
        p = self.run_sb(job, timeout=90)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("prefix hits 0.00% (none: a BurstGPT row is its own conversation)", p.stdout)

    def test_sharegpt_job(self):
        """jobs/kvcache-trace-sharegpt.ini, run from another folder: the
        sample's turns are the run, a later turn looks up its earlier ones
        and, with a 32 MiB memory tier, reads some from the disk tier"""
        job = os.path.join(SRC, "jobs", "kvcache-trace-sharegpt.ini")
        with open(os.path.join(SRC, "jobs", "kvcache-sharegpt-sample.json")) as f:
            convs = json.load(f)
        turns = sum(len(c["conversations"]) // 2 for c in convs)
        p = self.run_sb("--output-format=json,normal", job, timeout=90)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = p.stdout
        k = json.loads(out[out.find("{"):out.rfind("}") + 1])["jobs"][0]["kvcache"]
        self.assertEqual(k["requests"], turns)
        self.assertEqual(k["reuse_requests"], turns - len(convs))
        self.assertGreater(k["disk_reads"], 0)
        self.assertGreater(k["disk_hits"], 0)
        self.assertRegex(out, r"prefix hits [0-9.]+% \(the trace's later turns\)")
        self.assertEqual(self.listing(), [])

    def test_sharegpt_sample(self):
        with open(os.path.join(SRC, "jobs", "kvcache-sharegpt-sample.json")) as f:
            convs = json.load(f)
        turns = [(max(1, len(t[0]["value"]) // 4), max(1, len(t[1]["value"]) // 4))
                 for c in convs for t in zip(c["conversations"][0::2], c["conversations"][1::2])]
        d = self.run_json(*BASE, "--kv_trace=" + os.path.join(SRC, "jobs",
                                                              "kvcache-sharegpt-sample.json"))
        k = d["jobs"][0]["kvcache"]
        self.assertEqual(k["requests"], len(turns))
        self.assertEqual(k["tokens_prompt"], sum(t[0] for t in turns))
        self.assertEqual(k["tokens_output"], sum(t[1] for t in turns))
        self.assertEqual(k["reuse_requests"], len(turns) - len(convs))


class BadTrace(TraceCase):
    def bad(self, trace_text, trace_name, want, extra=""):
        if trace_text is not None:
            with open(os.path.join(self.dir, trace_name), "w") as f:
                f.write(trace_text)
        job = self.write_job(f"[kv]\nworkload=kvcache\nmodel=llama3-8b\ndirectory={self.dir}\n"
                             f"kv_request_log={self.dir}/req.log\n{extra}"
                             f"kv_trace={self.dir}/{trace_name}\n")
        before = self.listing()
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        line = 6 + extra.count("\n")
        self.assertIn(f"{job}:{line}:", p.stderr)           # the job file:line
        self.assertIn(f"kv_trace={self.dir}/{trace_name}", p.stderr)  # the trace file
        self.assertRegex(p.stderr, want)
        self.assertEqual(self.listing(), before)           # nothing written
        return p.stderr

    def test_missing_file(self):
        self.bad(None, "nope.csv", r"cannot open it: No such file")

    def test_burstgpt_bad_row(self):
        rows = "".join(f"{i},m,{i + 1},{i + 2}\n" for i in range(5))
        self.bad("Timestamp,Model,Request tokens,Response tokens\n" + rows + "9,m,12x,3\n",
                 "t.csv", r"line 7: '12x' is not a whole number of tokens \(column 'Request "
                 r"tokens'\); fix or remove the line")

    def test_burstgpt_no_column(self):
        self.bad("Timestamp,Model,Prompt,Response tokens\n1,m,2,3\n", "t.csv",
                 r"line 1: the BurstGPT header has no 'Request tokens' column; the first line "
                 r"must name the columns", extra="kv_trace_format=burstgpt\n")

    def test_sharegpt_jsonl_bad_line(self):
        ok = json.dumps({"conversations": [{"from": "human", "value": "abcd"},
                                           {"from": "gpt", "value": "abcd"}]})
        self.bad(ok + "\n" + ok + "\n" + ok[:-3] + "\n", "t.jsonl",
                 r"line 3: not a JSON conversation object \(column \d+: .*\); fix the line")

    def test_sharegpt_array_bad_json(self):
        self.bad('[{"conversations": []},\n {"conversations": [}\n]', "t.json",
                 r"line 2, column \d+: .*\(not valid JSON\); fix the file")

    def test_log_folder_missing(self):
        job = self.write_job(f"[kv]\nworkload=kvcache\nmodel=llama3-8b\ndirectory={self.dir}\n"
                             f"kv_request_log={self.dir}/no/such/req.log\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"{job}:5: job 'kv': kv_request_log={self.dir}/no/such/req.log: its folder "
                      "does not exist; give a file name in an existing folder", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_format_without_trace(self):
        job = self.write_job("[kv]\nworkload=kvcache\nmodel=llama3-8b\nkv_trace_format=sharegpt\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"{job}:4:", p.stderr)
        self.assertIn("kv_trace_format= is set but no kv_trace= names a trace: add kv_trace=FILE",
                      p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


if __name__ == "__main__":
    unittest.main()
