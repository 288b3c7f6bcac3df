"""results_dir= writes mlpstorage v2.0's results tree as mlpstorage + DLIO
leave it, and `storbench validate` reads a tree mlpstorage + DLIO wrote.
The formats, with their sources (mlcommons/storage
caa90c9 = v2.0; argonne-lcf/dlio_benchmark mlperf_storage_v2.0 392621b):

- folders: rules.py:781-805 generate_output_location: training/<model>/run/
  <datetime>, checkpointing/<model>/<datetime>; config.py:38-39 datetime
  "%Y%m%d_%H%M%S"; base.py:51 "<benchmark>_<datetime>_metadata.json";
  config.py:45 HYDRA_OUTPUT_SUBDIR "dlio_config"
- dlio_config: dlio.py:94-110 the DLIO command line: workload=<model>_<accel>
  (checkpointing: <model with _>), ++workload.<param>=<value> for every
  --param, dataset.data_folder added after them (dlio.py:141,150,154), for
  checkpointing checkpoint.num_checkpoints_read/_write and checkpoint_folder
  always, checkpoint.mode=subset and model.parallelism.data below the CLOSED
  ranks (dlio.py:259-270); rules.py:398-412 reads config.yaml's "workload"
  and overrides.yaml's "++workload." lines (one '=' each)
- metadata: base.py:100-109 the benchmark's __dict__ (args, params_dict,
  yaml_params, combined_params, verification as PARAM_VALIDATION's value,
  utils.py:35-36), dlio.py:62-65 (--param values stay strings in
  params_dict and combined_params)
- summary.json: statscounter.py:60-70,106,114,127,140,159-186,441; times are
  utility.py:79 LOG_TS_FORMAT "%Y-%m-%dT%H:%M:%S.%f"
- <rank>_per_epoch_stats.json: statscounter.py:229-376,445: epoch keys "1".."N",
  start/end, train durations '{:.2f}' strings, save_ckpt<N>/load_ckpt<N> with
  float duration and throughput (GB = GiB per second)
- dlio.log: DLIO's OUTPUT-level lines "[OUTPUT] <time> ..." (config.py:204,
  utility.py:81-85): main.py:114, statscounter.py:236,266,324,338-341,347,
  359,364,376, base_checkpointing.py:180-186, and the [METRIC] block
  statscounter.py:205-225
"""
import glob
import json
import os
import re
import shutil
import subprocess
import unittest

from sbtest import SbCase, validate_rc

try:
    import yaml
except ImportError:  # python3-yaml
    yaml = None

TS = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}"  # utility.py:79


def only(pattern):
    runs = glob.glob(pattern)
    assert len(runs) == 1, runs
    return runs[0]


class Jobs:
    def run_jobs(self):
        self.res = os.path.join(self.dir, "res")
        job = self.write_job(
            "[t]\nworkload=train\nioengine=null\ntrain_model=unet3d\nepochs=2\ndataset_files=16\n"
            "record_length=64k\nrecord_length_stdev=0\nbatch_size=2\ncomputation_time=2ms\n"
            "rules=mlperf\nresults_dir=%s\n"
            "[ck]\nworkload=checkpoint\nioengine=null\nmodel=llama3-8b\ncheckpoint_scale=0.0001\n"
            "num_checkpoints_write=2\nnum_checkpoints_read=2\nrules=mlperf\nresults_dir=%s\n" % (self.res, self.res))
        self.run_json(job)
        self.train = only(os.path.join(self.res, "training", "unet3d", "run", "*"))
        self.ckpt = only(os.path.join(self.res, "checkpointing", "llama3-8b", "*"))


class TreeTest(Jobs, SbCase):
    def test_files(self):
        self.run_jobs()
        for d, bench in ((self.train, "training"), (self.ckpt, "checkpointing")):
            dt = os.path.basename(d)
            self.assertRegex(dt, r"^\d{8}_\d{6}$")
            self.assertEqual(sorted(os.listdir(d)),
                             sorted(["0_per_epoch_stats.json", "dlio.log", "dlio_config", "summary.json",
                                     "%s_%s_metadata.json" % (bench, dt), "0_output.json",
                                     "%s_run.stdout.log" % bench, "%s_run.stderr.log" % bench]))
            # the files the newer submission checker requires of a run folder
            # (submission_checker/constants.py RUN_REQUIRED_FILES,
            # CHECKPOINT_REQUIRED_FILES, *_REQUIRED_FOLDERS, v2.0)
            for pat in (r"%s_run\.stdout\.log" % bench, r"%s_run\.stderr\.log" % bench, r".*output\.json",
                        r".*per_epoch_stats\.json", r".*summary\.json", r"dlio\.log", r"dlio_config"):
                self.assertTrue([f for f in os.listdir(d) if re.fullmatch(pat, f)], pat)
            self.assertEqual(open(os.path.join(d, "%s_run.stderr.log" % bench)).read(),
                             open(os.path.join(d, "dlio.log")).read())
            self.assertEqual(sorted(os.listdir(os.path.join(d, "dlio_config"))),
                             ["config.yaml", "hydra.yaml", "overrides.yaml"])

    def test_overrides_as_mlpstorage_passes_them(self):
        self.run_jobs()
        ov = open(os.path.join(self.train, "dlio_config", "overrides.yaml")).read().splitlines()
        self.assertEqual(ov[0], "- workload=unet3d_h100")
        # what the job changed from unet3d_h100.yaml, then the data folder
        self.assertIn("- ++workload.dataset.num_files_train=16", ov)
        self.assertIn("- ++workload.reader.batch_size=2", ov)
        self.assertIn("- ++workload.train.epochs=2", ov)
        self.assertIn("- ++workload.train.computation_time=0.002", ov)
        self.assertTrue(ov[-1].startswith("- ++workload.dataset.data_folder="), ov)
        # what equals the yaml is no override: read_threads 4 is unet3d's own
        self.assertFalse([l for l in ov if "read_threads" in l or "num_samples_per_file" in l], ov)
        for l in ov:  # rules.py:410: one '=' per override
            self.assertEqual(l.count("="), 1, l)
        ck = open(os.path.join(self.ckpt, "dlio_config", "overrides.yaml")).read().splitlines()
        self.assertEqual(ck[0], "- workload=llama3_8b")
        self.assertIn("- ++workload.checkpoint.num_checkpoints_read=2", ck)
        self.assertIn("- ++workload.checkpoint.num_checkpoints_write=2", ck)
        self.assertTrue(ck[-1].startswith("- ++workload.checkpoint.checkpoint_folder="), ck)
        hy = open(os.path.join(self.train, "dlio_config", "hydra.yaml")).read()
        self.assertIn("    - ++hydra.output_subdir=dlio_config\n", hy)
        self.assertIn("      workload: unet3d_h100\n", hy)

    @unittest.skipIf(yaml is None, "needs python3-yaml")
    def test_config_yaml(self):
        self.run_jobs()
        c = yaml.safe_load(open(os.path.join(self.train, "dlio_config", "config.yaml")))["workload"]
        # unet3d_h100.yaml with the job's values
        self.assertEqual(c["model"], {"name": "unet3d", "type": "cnn", "model_size": 499153191})
        self.assertEqual(c["framework"], "pytorch")
        self.assertEqual(c["workflow"], {"generate_data": False, "train": True, "checkpoint": True})
        self.assertEqual(c["dataset"]["num_files_train"], 16)
        self.assertEqual(c["dataset"]["format"], "npz")
        self.assertEqual(c["dataset"]["record_length_bytes"], 65536)
        self.assertEqual(c["dataset"]["record_length_bytes_resize"], 2097152)
        self.assertEqual(c["reader"]["file_shuffle"], "seed")
        self.assertEqual(c["reader"]["read_threads"], 4)
        self.assertEqual(c["train"], {"epochs": 2, "computation_time": 0.002})
        self.assertEqual(c["checkpoint"]["checkpoint_after_epoch"], 5)
        self.assertEqual(c["metric"]["au"], 0.9)
        k = yaml.safe_load(open(os.path.join(self.ckpt, "dlio_config", "config.yaml")))["workload"]
        self.assertEqual(k["model"]["name"], "llama_8b")
        self.assertEqual(k["model"]["parallelism"], {"pipeline": 1, "tensor": 1, "zero_stage": 3})
        self.assertEqual(k["model"]["transformer"]["hidden_size"], 4096)
        self.assertEqual(k["workflow"], {"generate_data": False, "train": False, "checkpoint": True})
        self.assertEqual(k["checkpoint"]["num_checkpoints_write"], 2)
        self.assertIs(k["checkpoint"]["fsync"], True)

    def test_summary_and_metadata(self):
        self.run_jobs()
        for d, bench in ((self.train, "training"), (self.ckpt, "checkpointing")):
            s = json.load(open(os.path.join(d, "summary.json")))
            self.assertRegex(s["start"], "^" + TS + "$")
            self.assertRegex(s["end"], "^" + TS + "$")
            self.assertLessEqual(s["start"], s["end"])
            for k in ("num_accelerators", "num_hosts", "hostname", "metric", "num_files_train",
                      "num_files_eval", "num_samples_per_file", "host_cpu_count", "host_memory_GB",
                      "epochs", "data_size_per_host_GB", "potential_caching"):
                self.assertIn(k, s)
            self.assertIsInstance(s["host_memory_GB"], list)
            self.assertIsInstance(s["host_cpu_count"][0], int)
            dt = os.path.basename(d)
            m = json.load(open(os.path.join(d, "%s_%s_metadata.json" % (bench, dt))))
            self.assertEqual(m["benchmark_type"], bench)
            self.assertEqual(m["run_datetime"], dt)
            self.assertIn(m["verification"], ("closed", "open", "invalid"))
            self.assertEqual(m["args"]["results_dir"], self.res)
        s = json.load(open(os.path.join(self.ckpt, "summary.json")))
        for k in ("save_checkpoint_io_mean_GB_per_second", "save_checkpoint_io_stdev_GB_per_second",
                  "save_checkpoint_duration_mean_seconds", "save_checkpoint_duration_stdev_seconds",
                  "load_checkpoint_io_mean_GB_per_second", "load_checkpoint_duration_mean_seconds",
                  "checkpoint_size_GB"):
            self.assertIn(k, s["metric"])
        self.assertEqual(s["epochs"], 0)
        m = json.load(open(os.path.join(self.train, "training_%s_metadata.json" % os.path.basename(self.train))))
        self.assertEqual(m["args"]["model"], "unet3d")
        self.assertEqual(m["args"]["accelerator_type"], "h100")
        self.assertEqual(m["config_name"], "unet3d_h100")
        self.assertEqual(m["yaml_params"]["dataset"]["num_files_train"], 168)   # unet3d_h100.yaml
        self.assertEqual(m["params_dict"]["dataset.num_files_train"], "16")     # a --param: a string
        self.assertEqual(m["combined_params"]["dataset"]["num_files_train"], "16")
        self.assertEqual(m["combined_params"]["reader"]["read_threads"], 4)   # the yaml's
        self.assertEqual(m["combined_params"]["dataset"]["format"], "npz")

    def test_per_epoch_stats_and_log(self):
        self.run_jobs()
        p = json.load(open(os.path.join(self.train, "0_per_epoch_stats.json")))
        self.assertEqual(sorted(p), ["1", "2"])
        for e in p.values():
            self.assertRegex(e["start"], "^" + TS + "$")
            self.assertRegex(e["duration"], r"^\d+\.\d\d$")
            self.assertRegex(e["block1"]["duration"], r"^\d+\.\d\d$")
        log = open(os.path.join(self.train, "dlio.log")).read()
        self.assertRegex(log, r"\[OUTPUT\] %s Running DLIO \[Training\] with 1 process\(es\)\n" % TS)
        self.assertRegex(log, r"\[OUTPUT\] %s Max steps per epoch: 8 = 1 \* 16 / 2 / 1 \(samples per file \* "
                              r"num files / batch size / comm size\)\n" % TS)
        self.assertRegex(log, r"\[OUTPUT\] %s Starting epoch 2: 8 steps expected\n" % TS)
        self.assertRegex(log, r"\[OUTPUT\] %s Ending epoch 2 - 8 steps completed in \d+\.\d\d s\n" % TS)
        au = json.load(open(os.path.join(self.train, "summary.json")))["metric"]["train_au_mean_percentage"]
        # the log's 4 decimals of the same mean the JSON gives to 6: a mean
        # such as 99.64835 prints 99.6484 there and, read back from the
        # JSON's 99.648350, can print 99.6483 here (seen once), so compare
        # the numbers, not the strings
        m = re.search(r"\[METRIC\] Training Accelerator Utilization \[AU\] \(%\): (\d+\.\d{4}) \(", log)
        self.assertIsNotNone(m, log)
        self.assertAlmostEqual(float(m.group(1)), au, delta=0.00006)
        p = json.load(open(os.path.join(self.ckpt, "0_per_epoch_stats.json")))
        self.assertEqual(sorted(k for k in p["1"] if "ckpt" in k),
                         ["load_ckpt1", "load_ckpt2", "save_ckpt1", "save_ckpt2"])
        self.assertIsInstance(p["1"]["save_ckpt1"]["duration"], float)
        self.assertIsInstance(p["1"]["save_ckpt1"]["throughput"], float)
        log = open(os.path.join(self.ckpt, "dlio.log")).read()
        self.assertRegex(log, r"\[OUTPUT\] %s Finished saving checkpoint 2 for epoch 1 in \d+\.\d{4} s; "
                              r"Throughput: \d+\.\d{4} GB/s\n" % TS)
        self.assertRegex(log, r"\[OUTPUT\] %s Total checkpoint size: \d+\.\d{6} GB" % TS)
        self.assertIn("[METRIC] Checkpoint save I/O Throughput (GB/second): ", log)


def mlpstorage_python():
    """(python, PYTHONPATH) that imports mlpstorage's report generator: an
    installed mlpstorage, or the checkout SB_MLPSTORAGE names; None if not"""
    for path in (os.environ.get("SB_MLPSTORAGE"), None):
        env = dict(os.environ)
        if path:
            env["PYTHONPATH"] = path
        elif path is None and os.environ.get("SB_MLPSTORAGE"):
            continue
        for py in ("/usr/bin/python3", "python3"):
            try:
                p = subprocess.run([py, "-c", "import mlpstorage.reporting"], env=env, capture_output=True)
            except OSError:
                continue
            if p.returncode == 0:
                return py, env
    return None


ORACLE = r"""
import json, sys
from mlpstorage.reporting import ReportGenerator
r = ReportGenerator(sys.argv[1])
print("ORACLE" + json.dumps([dict(type=x.benchmark_type.name, model=x.benchmark_model,
      command=x.benchmark_command, category=x.category.value, issues=[str(i) for i in x.issues],
      metrics=x.metrics) for x in r.results]))
"""


class OracleTest(Jobs, SbCase):
    """mlpstorage's own report generator (reporting.py ReportGenerator, the
    code behind `mlpstorage reports reportgen`) reads storbench's tree; it
    crashed at rules.py:336 on a tree without dlio_config/"""

    def test_reportgen_parses_the_tree(self):
        found = mlpstorage_python()
        if not found:
            self.skipTest("mlpstorage cannot be imported (set SB_MLPSTORAGE to a checkout of mlcommons/storage)")
        py, env = found
        self.run_jobs()
        tree = os.path.join(self.dir, "copy")   # the generator writes results.json into it
        shutil.copytree(self.res, tree)
        p = subprocess.run([py, "-c", ORACLE, tree], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        line = [l for l in p.stdout.splitlines() if l.startswith("ORACLE")][0]
        res = {r["type"]: r for r in json.loads(line[6:])}
        self.assertEqual(sorted(res), ["checkpointing", "training"])
        t = res["training"]
        self.assertEqual((t["model"], t["command"]), ("unet3d", "run_benchmark"))
        # the overrides it judged are the job's (rules.py:491-520)
        self.assertIn("[CLOSED] Closed parameter override allowed: dataset.num_files_train = 16 "
                      "(Parameter: Overrode Parameters)", t["issues"])
        self.assertTrue(any("Disallowed parameter override: reader.batch_size = 2" in i for i in t["issues"]))
        s = json.load(open(os.path.join(self.train, "summary.json")))
        self.assertEqual(t["metrics"], s["metric"])
        self.assertEqual(t["category"], "invalid")   # 16 files, batch 2: not a submission
        self.assertEqual(res["checkpointing"]["model"], "llama_8b")  # llama3_8b.yaml's model.name


# ---- trees mlpstorage + DLIO write, by hand from the formats above


def mlps_unet3d_run(root, dt, au=95.0, sps=100.0):
    """one `mlpstorage training run --model unet3d --accelerator-type h100
    --num-accelerators 1 --client-host-memory-in-gb 1 --param
    dataset.num_files_train=3500` run folder"""
    d = os.path.join(root, "training", "unet3d", "run", dt)
    os.makedirs(os.path.join(d, "dlio_config"))
    yaml_params = {"model": {"name": "unet3d", "type": "cnn", "model_size": 499153191},
                   "framework": "pytorch",
                   "workflow": {"generate_data": False, "train": True, "checkpoint": True},
                   "dataset": {"data_folder": "data/unet3d/", "format": "npz", "num_files_train": 168,
                               "num_samples_per_file": 1, "record_length_bytes": 146600628,
                               "record_length_bytes_stdev": 68341808, "record_length_bytes_resize": 2097152},
                   "reader": {"data_loader": "pytorch", "batch_size": 7, "read_threads": 4,
                              "file_shuffle": "seed", "sample_shuffle": "seed"},
                   "train": {"epochs": 5, "computation_time": 0.323},
                   "checkpoint": {"checkpoint_folder": "checkpoints/unet3d", "checkpoint_after_epoch": 5,
                                  "epochs_between_checkpoints": 2},
                   "metric": {"au": 0.90}}
    combined = json.loads(json.dumps(yaml_params))
    combined["dataset"]["num_files_train"] = "3500"          # --param values are strings
    meta = {"args": {"program": "training", "command": "run", "model": "unet3d", "accelerator_type": "h100",
                     "num_processes": 1, "client_host_memory_in_gb": 1, "num_client_hosts": None,
                     "hosts": ["127.0.0.1"], "data_dir": "/data", "results_dir": root, "params": ["dataset.num_files_train=3500"]},
            "run_datetime": dt, "run_number": 0, "runtime": 100.0, "verification": "closed",
            "config_file": "unet3d_h100.yaml", "config_name": "unet3d_h100",
            "params_dict": {"dataset.num_files_train": "3500", "dataset.data_folder": "/data/unet3d"},
            "yaml_params": yaml_params, "combined_params": combined, "benchmark_type": "training"}
    summary = {"start": "2025-01-01T12:00:00.000001", "num_accelerators": 1, "num_hosts": 1, "hostname": "h",
               "metric": {"train_au_percentage": [au] * 5, "train_au_mean_percentage": au,
                          "train_au_meet_expectation": "success", "train_au_stdev_percentage": 0.0,
                          "train_throughput_samples_per_second": [sps] * 5,
                          "train_throughput_mean_samples_per_second": sps,
                          "train_throughput_stdev_samples_per_second": 0.0,
                          "train_io_mean_MB_per_second": sps * 146600628 / 2 ** 20,
                          "train_io_stdev_MB_per_second": 0.0},
               "num_files_train": 3500, "num_files_eval": 0, "num_samples_per_file": 1,
               "host_cpu_count": [16], "host_processor_name": "x86_64", "potential_caching": [0],
               "host_memory_GB": [1.0], "data_size_per_host_GB": 477.9, "epochs": 5,
               "end": "2025-01-01T12:10:00.000001"}
    json.dump(meta, open(os.path.join(d, "training_%s_metadata.json" % dt), "w"), indent=2)
    json.dump(summary, open(os.path.join(d, "summary.json"), "w"), indent=4)
    open(os.path.join(d, "dlio_config", "overrides.yaml"), "w").write(
        "- workload=unet3d_h100\n- ++workload.dataset.num_files_train=3500\n"
        "- ++workload.dataset.data_folder=/data/unet3d\n")
    return d


def mlps_llama_run(root, dt, writes=10, reads=10):
    """one `mlpstorage checkpointing run --model llama3-8b --num-processes 8
    --num-checkpoints-write 10 --num-checkpoints-read 10` run folder"""
    d = os.path.join(root, "checkpointing", "llama3-8b", dt)
    os.makedirs(os.path.join(d, "dlio_config"))
    yaml_params = {"model": {"name": "llama_8b", "type": "transformer", "num_layers": 32,
                             "model_datatype": "fp16", "optimizer_datatype": "fp32",
                             "parallelism": {"pipeline": 1, "tensor": 1, "zero_stage": 3},
                             "transformer": {"vocab_size": 128256, "hidden_size": 4096, "ffn_hidden_size": 14336,
                                             "num_attention_heads": 32, "num_kv_heads": 8}},
                   "framework": "pytorch", "workflow": {"generate_data": False, "train": False, "checkpoint": True},
                   "checkpoint": {"checkpoint_folder": "checkpoints/llama_8b", "time_between_checkpoints": 5,
                                  "num_checkpoints_write": 10, "num_checkpoints_read": 10, "fsync": True}}
    combined = json.loads(json.dumps(yaml_params))
    combined["checkpoint"].update(num_checkpoints_write=writes, num_checkpoints_read=reads,
                                  checkpoint_folder="/ckpt/llama3-8b")
    meta = {"args": {"program": "checkpointing", "command": "run", "model": "llama3-8b", "num_processes": 8,
                     "checkpoint_folder": "/ckpt", "results_dir": root, "num_checkpoints_read": reads,
                     "num_checkpoints_write": writes, "hosts": ["127.0.0.1"], "client_host_memory_in_gb": 1},
            "run_datetime": dt, "verification": "closed", "config_name": "llama3_8b",
            "params_dict": {"checkpoint.num_checkpoints_read": reads, "checkpoint.num_checkpoints_write": writes,
                            "checkpoint.checkpoint_folder": "/ckpt/llama3-8b"},
            "yaml_params": yaml_params, "combined_params": combined, "benchmark_type": "checkpointing"}
    summary = {"start": "2025-01-01T12:00:00.000001", "num_accelerators": 8, "num_hosts": 1, "hostname": "h",
               "metric": {"save_checkpoint_io_mean_GB_per_second": 2.0, "save_checkpoint_io_stdev_GB_per_second": 0.1,
                          "save_checkpoint_duration_mean_seconds": 52.0, "save_checkpoint_duration_stdev_seconds": 1.0,
                          "load_checkpoint_io_mean_GB_per_second": 3.0, "load_checkpoint_io_stdev_GB_per_second": 0.1,
                          "load_checkpoint_duration_mean_seconds": 35.0, "load_checkpoint_duration_stdev_seconds": 1.0,
                          "checkpoint_size_GB": 104.9},
               "num_files_train": 0, "num_files_eval": 0, "num_samples_per_file": 1, "host_cpu_count": [16],
               "host_memory_GB": [1.0], "epochs": 0, "end": "2025-01-01T12:20:00.000001"}
    json.dump(meta, open(os.path.join(d, "checkpointing_%s_metadata.json" % dt), "w"), indent=2)
    json.dump(summary, open(os.path.join(d, "summary.json"), "w"), indent=4)
    ep = {"start": "2025-01-01T12:00:00.000001"}
    for i in range(1, writes + 1):
        ep["save_ckpt%d" % i] = {"start": "x", "end": "x", "duration": 52.0, "throughput": 2.0}
    for i in range(1, reads + 1):
        ep["load_ckpt%d" % i] = {"start": "x", "end": "x", "duration": 35.0, "throughput": 3.0}
    json.dump({"1": ep}, open(os.path.join(d, "0_per_epoch_stats.json"), "w"), indent=4)
    return d


class ValidateMlpstorageTreeTest(SbCase):
    def validate(self, root):
        p = self.run_sb("validate", root)
        self.assertEqual(p.returncode, validate_rc(p.stdout), p.stderr)   # was 1: metadata without "parameters"
        return p.stdout

    def test_training_runs(self):
        root = os.path.join(self.dir, "res")
        for i in range(6):
            mlps_unet3d_run(root, "20250101_1200%02d" % i, sps=100.0 + i * 0.5)
        out = self.validate(root)
        self.assertIn("training/unet3d: 6 runs", out)
        # 3500 files = 500 steps x batch 7, 1 GiB host, AU 95%, the yaml's values: CLOSED runs
        self.assertEqual(len(re.findall(r"  run 20250101_1200\d\d( \(warm-up\))?: CLOSED\n", out)), 6, out)

    def test_datagen_runs_are_not_runs(self):
        root = os.path.join(self.dir, "res")
        mlps_unet3d_run(root, "20250101_120000")
        # `mlpstorage training datagen` writes training/<model>/datagen/<datetime>/
        # (rules.py:789-793) with args.command "datagen"
        d = os.path.join(root, "training", "unet3d", "datagen", "20250101_110000")
        os.makedirs(d)
        json.dump({"benchmark_type": "training", "run_datetime": "20250101_110000",
                   "args": {"command": "datagen", "model": "unet3d"}, "combined_params": {}},
                  open(os.path.join(d, "training_20250101_110000_metadata.json"), "w"))
        json.dump({"start": "2025-01-01T11:00:00.000001", "metric": {}}, open(os.path.join(d, "summary.json"), "w"))
        out = self.validate(root)
        self.assertIn("training/unet3d: 1 run", out)
        self.assertNotIn("20250101_110000", out)

    def test_training_run_judged_from_combined_params(self):
        root = os.path.join(self.dir, "res")
        d = mlps_unet3d_run(root, "20250101_120000")
        path = glob.glob(os.path.join(d, "*_metadata.json"))[0]
        m = json.load(open(path))
        m["combined_params"]["dataset"]["num_files_train"] = "100"   # a string, as --param leaves it
        m["combined_params"]["reader"]["batch_size"] = "4"
        json.dump(m, open(path, "w"))
        out = self.validate(root)
        self.assertIn("run 20250101_120000 (warm-up): INVALID", out)
        self.assertIn("steps_per_epoch: expected >= 2000 files, actual 100 files (25 steps)", out)
        self.assertIn("batch_size: expected 7, actual 4", out)

    def test_checkpointing_runs(self):
        root = os.path.join(self.dir, "res")
        mlps_llama_run(root, "20250101_120000")
        out = self.validate(root)
        self.assertIn("checkpointing/llama3-8b: 1 run", out)
        self.assertNotIn("checkpoints_written", out)   # 10 save_ckpt in per_epoch_stats
        self.assertNotIn("checkpoints_read:", out)
        mlps_llama_run(root, "20250101_130000", writes=10, reads=0)
        d = glob.glob(os.path.join(root, "checkpointing", "llama3-8b", "20250101_130000"))[0]
        st = json.load(open(os.path.join(d, "0_per_epoch_stats.json")))
        del st["1"]["save_ckpt10"]                        # DLIO wrote 9 of the 10 asked
        json.dump(st, open(os.path.join(d, "0_per_epoch_stats.json"), "w"))
        out = self.validate(root)
        self.assertIn("checkpoints_written: expected 10, actual 9", out)

    def test_not_a_run(self):
        root = os.path.join(self.dir, "res")
        d = mlps_unet3d_run(root, "20250101_120000")
        path = glob.glob(os.path.join(d, "*_metadata.json"))[0]
        json.dump({"benchmark_type": "training"}, open(path, "w"))
        p = self.run_sb("validate", root)
        self.assertEqual(p.returncode, 1)
        self.assertIn(path, p.stderr)
        self.assertIn("combined_params", p.stderr)
