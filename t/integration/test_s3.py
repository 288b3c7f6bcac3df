"""ioengine=s3 and fio's ioengine=http against a real S3 server (Ceph radosgw
on 127.0.0.1, started for this file by sbtest.S3Server from t/s3/), checked
through an independent client (s3client.py, the standard library's SigV4):
object names, sizes and bytes against a file run of the same job, data read
back with verify=, a user's objects never written over or deleted, the
server's own error codes for wrong credentials and a missing bucket (exit
1, nothing written), a server that dies mid-run (exit 3, partial results),
503 SlowDown retried and counted, secrets never printed, credentials from
the AWS environment and from ~/.aws/credentials, fio's http job files.

Skipped, saying why, where the server's packages are missing (the README's
install line has them)."""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sbtest  # noqa: E402

S3 = None


def setUpModule():
    global S3
    if not sbtest.engine_built("s3"):
        raise unittest.SkipTest("storbench built without ioengine=s3 (apt-get install libcurl4-openssl-dev, ./configure)")
    S3 = sbtest.S3Server()


def tearDownModule():
    if S3:
        S3.stop()


class S3Case(sbtest.SbCase):
    def setUp(self):
        super().setUp()
        self.pre = self.id().rsplit(".", 1)[-1]   # each test its own key prefix
        self.env = S3.aws_env()

    def s3job(self, body, name="job.ini", extra=""):
        """a job file on the test server (host, bucket) with body's options"""
        return self.write_job(f"[global]\nioengine=s3\nhttp_host={S3.host}\ns3_bucket={S3.bucket}\n"
                              f"{extra}\n[j]\n{body}\n", name)

    def keys(self, prefix=None):
        return sorted(S3.client.list(S3.bucket, prefix if prefix is not None else self.pre))

    def run_s3(self, *args, env=None, timeout=180):
        e = dict(self.env)
        e.update(env or {})
        return self.run_sb(*args, env=e, timeout=timeout)

    def json_of(self, p):
        self.assertEqual(p.returncode, 0, f"exit {p.returncode}\nstderr:\n{p.stderr}")
        return json.loads(p.stdout)["jobs"][0]

    def under_a_run(self, job, nobjs, change):
        """job (JSON output) started; once it has laid out its nobjs objects
        (marked, before its first read), change() is done to them while it
        runs; (exit status, stdout, stderr) of the job"""
        e = dict(os.environ)
        e.update(self.env)
        proc = subprocess.Popen([sbtest.BIN, "--output-format=json", job], cwd=self.dir, env=e,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 90
            while time.time() < deadline and len(self.keys()) < nobjs:
                time.sleep(0.1)
            self.assertEqual(len(self.keys()), nobjs)
            change()
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        return proc.returncode, out, err


class Objects(S3Case):
    def test_names_sizes_and_bytes_match_a_file_run(self):
        """6 MiB in objects of 2 MiB: FILE/0, FILE/1, FILE/2, the bytes a psync
        run of the same job writes to its file"""
        opts = "rw=write\nbs=2m\nsize=6m\nbuffer_pattern=0x5aa5c33c\n"
        job = self.s3job(f"filename={self.pre}/data\ns3_object_size=2m\n{opts}iodepth=2\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertEqual(j["write"]["io_bytes"], 6 << 20)
        self.assertEqual(self.keys(), [(f"{self.pre}/data/{i}", 2 << 20) for i in range(3)])
        f = os.path.join(self.dir, "file")
        p = self.run_sb("--name=f", "--ioengine=psync", f"--filename={f}", "--rw=write", "--bs=2m",
                        "--size=6m", "--buffer_pattern=0x5aa5c33c")
        self.assertEqual(p.returncode, 0, p.stderr)
        want = open(f, "rb").read()
        got = b"".join(S3.client.get(S3.bucket, f"{self.pre}/data/{i}").body for i in range(3))
        self.assertEqual(got, want)
        # each object carries the run's mark, naming the job
        meta = S3.client.head(S3.bucket, f"{self.pre}/data/1").meta
        self.assertRegex(meta.get("storbench-owner", ""), r"^storbench 2 pid=\d+ .* job=j$")
        # the engine's counters: one PUT per object, all 2xx (and the
        # preflight listing and the ownership listing, which are not I/Os)
        self.assertEqual(j["engine"]["http_2xx"], 3)
        self.assertEqual(j["engine"]["http_4xx"] + j["engine"]["http_5xx"], 0)

    def test_write_then_verify_at_depth(self):
        """write and read back with verify=crc32c, objects of bs, 8 in flight"""
        job = self.s3job(f"filename={self.pre}/v\nrw=randwrite\nbs=64k\ns3_object_size=64k\nsize=2m\n"
                         "iodepth=8\nverify=crc32c\ndo_verify=1\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertEqual(j["error"], 0)
        self.assertEqual(j["write"]["io_bytes"], 2 << 20)
        self.assertEqual(j["read"]["io_bytes"], 2 << 20)   # every block read back and checked
        self.assertEqual(len(self.keys()), 32)

    def test_ranged_reads_of_one_object(self):
        """s3_object_size=0: the file is one object; 4 KiB reads are ranged
        GETs of it; a read job lays the object out first (marked)"""
        job = self.s3job(f"filename={self.pre}/one\nrw=randread\nbs=4k\nsize=1m\nnumber_ios=64\niodepth=4\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertEqual(j["read"]["total_ios"], 64)
        self.assertEqual(self.keys(), [(f"{self.pre}/one", 1 << 20)])
        self.assertTrue(S3.client.head(S3.bucket, f"{self.pre}/one").meta.get("storbench-owner"))

    def test_iodepth_is_held(self):
        """iodepth=8: 8 requests in flight (libcurl's multi interface), as
        an asynchronous engine holds its depth"""
        job = self.s3job(f"filename={self.pre}/d\nrw=randread\nbs=4k\nsize=1m\nnumber_ios=200\niodepth=8\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertEqual(j["read"]["total_ios"], 200)
        self.assertGreaterEqual(j["iodepth_level"]["8"], 90.0, j["iodepth_level"])

    def test_a_users_longer_object_is_read_as_it_is(self):
        """a read job meets a user's object longer than its file: it is read
        (whole-object GETs keep what the I/O asked for), never rewritten"""
        data = bytes(range(256)) * 400   # 100 KiB
        S3.client.put(S3.bucket, f"{self.pre}/u", data)
        for bs in ("64k", "4k"):
            job = self.s3job(f"filename={self.pre}/u\nrw=read\nbs={bs}\nsize=64k\n", f"{bs}.ini")
            j = self.json_of(self.run_s3("--output-format=json", job))
            self.assertEqual(j["read"]["io_bytes"], 64 << 10)
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/u").body, data)

    def test_time_to_first_byte_per_direction(self):
        """each answered GET and PUT of an I/O adds its time to first byte
        (libcurl's CURLINFO_STARTTRANSFER_TIME) to "ttfb_ns" of its
        direction, beside clat_ns: one per I/O here (whole-object PUTs,
        ranged GETs), each no later than its I/O's completion"""
        w = self.s3job(f"filename={self.pre}/t\nrw=write\nbs=64k\ns3_object_size=64k\nsize=512k\n", "w.ini")
        r = self.s3job(f"filename={self.pre}/t\nrw=randread\nbs=4k\ns3_object_size=64k\nsize=512k\n"
                       "number_ios=40\n", "r.ini")
        for job, d, other in ((w, "write", "read"), (r, "read", "write")):
            j = self.json_of(self.run_s3("--output-format=json", job))
            t, c = j[d]["ttfb_ns"], j[d]["clat_ns"]
            self.assertEqual(t["N"], j[d]["total_ios"], d)
            self.assertGreater(t["min"], 0)
            self.assertLessEqual(t["max"], c["max"])
            self.assertLessEqual(t["mean"], c["mean"])
            self.assertIn("99.000000", t["percentile"])
            self.assertEqual(j[other]["ttfb_ns"]["N"], 0)
        p = self.run_s3(r)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("ttfb (reads)", p.stdout)

    def test_object_cut_short_under_a_read_is_end_of_file(self):
        """an object that shrinks while a job reads it (416 past its new end)
        ends the job as a file cut short does: exit 3, "unexpected end of
        file" (the same job on psync, its file truncated, says the same)"""
        job = self.s3job(f"filename={self.pre}/e\nrw=read\nbs=4k\nsize=64k\ntime_based\nruntime=60\n"
                         "rate_iops=20\n")
        rc, out, err = self.under_a_run(job, 1, lambda: S3.client.put(S3.bucket, f"{self.pre}/e", b"x" * 4096))
        self.assertEqual(rc, 3, err)
        self.assertIn("unexpected end of file", err)
        self.assertEqual(json.loads(out)["jobs"][0]["error"], 5)   # EIO, as the file job's

    def test_trim_deletes_what_storbench_wrote(self):
        w = self.s3job(f"filename={self.pre}/t\nrw=write\nbs=1m\ns3_object_size=1m\nsize=3m\n", "w.ini")
        self.assertEqual(self.run_s3(w).returncode, 0)
        self.assertEqual(len(self.keys()), 3)
        t = self.s3job(f"filename={self.pre}/t\nrw=trim\nbs=1m\ns3_object_size=1m\nsize=3m\n", "t.ini")
        p = self.run_s3(t)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.keys(), [])

    def test_partial_object_write_refused_at_the_io(self):
        """S3 writes whole objects: bs smaller than s3_object_size fails the
        write naming both options (exit 3), and nothing is PUT"""
        job = self.s3job(f"filename={self.pre}/p\nrw=write\nbs=4k\ns3_object_size=1m\nsize=1m\n")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("set bs= to s3_object_size=", p.stderr)
        self.assertEqual(self.keys(), [])


class Streams(S3Case):
    def file_run(self, name, *opts):
        f = os.path.join(self.dir, name)
        p = self.run_sb("--name=f", "--ioengine=psync", f"--filename={f}", *opts)
        self.assertEqual(p.returncode, 0, p.stderr)
        return open(f, "rb").read()

    def test_a_file_written_in_pieces_is_one_object(self):
        """rw=write, bs < size, one object per file: the pieces are gathered
        into 5 MiB parts of one multipart upload (20 MiB: 4 parts), or one
        PUT when the file fits in a part; the object is the file run's"""
        for size, parts in (("20m", 4), ("3m", 0)):
            key = f"{self.pre}/{size}"
            job = self.s3job(f"filename={key}\nrw=write\nbs=1m\nsize={size}\ns3_multipart_size=5m\n"
                             "buffer_pattern=0x77665544\n", f"{size}.ini")
            j = self.json_of(self.run_s3("--output-format=json", job))
            self.assertEqual(j["write"]["total_ios"], int(size[:-1]))
            self.assertEqual(j["engine"]["requests"], parts + 2 if parts else 1)
            got = S3.client.get(S3.bucket, key)
            self.assertEqual(got.body, self.file_run(size, "--rw=write", "--bs=1m", f"--size={size}",
                                                     "--buffer_pattern=0x77665544"))
            etag = got.headers.get("etag", got.headers.get("ETag", "")).strip('"')
            self.assertEqual(etag.endswith(f"-{parts}"), parts > 0, etag)
        r = S3.client.request("GET", S3.bucket, query={"uploads": ""})
        self.assertNotIn(b"<Upload>", r.body)

    def test_pieces_out_of_order_refused(self):
        job = self.s3job(f"filename={self.pre}/r\nrw=randwrite\nbs=4k\nsize=1m\n")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("an object is written in order", p.stderr)
        self.assertEqual(self.keys(), [])

    def test_checkpoint_on_s3_matches_a_file_run(self):
        """workload=checkpoint with ioengine=s3: one object per file of the
        DLIO layout, in 5 MiB parts, each the bytes of the same checkpoint
        written to files (keep_checkpoints=1); a user's object at one of the
        checkpoint's keys refuses the run and stays"""
        ck = ("workload=checkpoint\nmodel=llama3-8b\nranks=8\ncheckpoint_scale=0.002\n"
              "num_checkpoints_write=1\nnum_checkpoints_read=1\ntime_between_checkpoints=0\nbs=1m\n")
        # keep_checkpoints=0 (the default): the run's objects are removed at its end
        gone = self.s3job(f"{ck}checkpoint_folder={self.pre}-gone\ns3_multipart_size=5m\n", "g.ini")
        p = self.run_s3(gone)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.keys(f"{self.pre}-gone/"), [])
        self.assertEqual(os.listdir(self.dir), ["g.ini"])   # and no local folder was made
        job = self.s3job(f"{ck}checkpoint_folder={self.pre}\ns3_multipart_size=5m\nkeep_checkpoints=1\n", "s.ini")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        folder = os.path.join(self.dir, "ck")
        os.mkdir(folder)
        f = self.write_job(f"[j]\nioengine=psync\n{ck}checkpoint_folder={folder}\nkeep_checkpoints=1\n", "f.ini")
        p = self.run_sb(f)
        self.assertEqual(p.returncode, 0, p.stderr)
        files = {}
        for root, _, names in os.walk(folder):
            for n in names:
                rel = os.path.relpath(os.path.join(root, n), folder)
                files[rel] = open(os.path.join(root, n), "rb").read()
        objs = {k[len(self.pre) + 1:]: size for k, size in self.keys(self.pre + "/")}
        self.assertEqual(sorted(objs), sorted(files))
        self.assertEqual(len(objs), 16)
        multipart = 0
        for rel, data in files.items():
            got = S3.client.get(S3.bucket, f"{self.pre}/{rel}")
            self.assertEqual(got.body, data, rel)
            multipart += "-" in got.headers.get("etag", got.headers.get("ETag", ""))
        self.assertGreater(multipart, 0)   # the optimizer states span parts
        victim = sorted(objs)[0]
        S3.client.delete(S3.bucket, f"{self.pre}/{victim}")
        S3.client.put(S3.bucket, f"{self.pre}/{victim}", b"the user's")
        p = self.run_s3(job)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn("storbench did not make it", p.stderr)
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/{victim}").body, b"the user's")


class Training(S3Case):
    def test_training_dataset_on_s3_matches_a_file_run(self):
        """workload=train with ioengine=s3: the missing dataset objects are made
        (named as DLIO names them, marked), each the bytes of the same
        dataset made on files, and the epoch reads them from S3; a second
        run finds them and makes none"""
        tr = ("workload=train\ntrain_model=unet3d\ntrain_scale=0.001\ndataset_files=16\naccelerators=1\n"
              "epochs=1\nbs=1m\n")
        job = self.s3job(f"{tr}data_dir={self.pre}\n", "s.ini")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertTrue(j["train"]["dataset_created"])
        self.assertGreater(j["read"]["io_bytes"], 0)
        folder = os.path.join(self.dir, "data")
        f = self.write_job(f"[j]\nioengine=psync\n{tr}data_dir={folder}\n", "f.ini")
        p = self.run_sb(f)
        self.assertEqual(p.returncode, 0, p.stderr)
        files = {}
        for root, _, names in os.walk(folder):
            for n in names:
                files[os.path.relpath(os.path.join(root, n), folder)] = os.path.join(root, n)
        objs = dict((k[len(self.pre) + 1:], size) for k, size in self.keys())
        self.assertEqual(sorted(objs), sorted(files))
        for rel, path in files.items():
            got = S3.client.get(S3.bucket, f"{self.pre}/{rel}")
            self.assertEqual(got.body, open(path, "rb").read(), rel)
            self.assertTrue(got.meta.get("storbench-owner", "").startswith("storbench 2 "))
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertFalse(j["train"]["dataset_created"])
        # bs at least the file: one GET of each whole object per file read,
        # as DLIO's S3 npz reader (reader/npz_reader_s3.py open: get_data)
        whole = self.s3job(f"{tr.replace('bs=1m', 'bs=1g')}data_dir={self.pre}\n", "w.ini")
        j = self.json_of(self.run_s3("--output-format=json", whole))
        self.assertEqual(j["engine"]["requests"], j["read"]["total_ios"])
        self.assertEqual(j["engine"]["http_2xx"], j["read"]["total_ios"])

    def test_s3_urls_for_data_dir_and_checkpoint_folder(self):
        """data_dir=s3://BUCKET/PREFIX and checkpoint_folder=s3://BUCKET/PREFIX
        name their bucket (no s3_bucket=); with a file engine they are refused"""
        tr = ("workload=train\ntrain_model=unet3d\ntrain_scale=0.001\ndataset_files=16\naccelerators=1\n"
              "epochs=1\nbs=1m\n")
        url = f"s3://{S3.bucket}/{self.pre}"
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\n{tr}data_dir={url}/data\n", "t.ini")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertTrue(j["train"]["dataset_created"])
        self.assertEqual(len(self.keys(f"{self.pre}/data/train/")), 16)
        ck = ("workload=checkpoint\nmodel=llama3-8b\nranks=8\ncheckpoint_scale=0.0005\n"
              "num_checkpoints_write=1\nnum_checkpoints_read=1\ntime_between_checkpoints=0\nbs=1m\n")
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\n{ck}checkpoint_folder={url}/ck\n"
                             "keep_checkpoints=1\n", "c.ini")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.keys(f"{self.pre}/ck/")), 16)
        self.assertEqual(sorted(os.listdir(self.dir)), ["c.ini", "t.ini"])   # nothing local
        for body, opt in ((f"{tr}data_dir={url}/x\n", "data_dir="), (f"{ck}checkpoint_folder={url}/y\n",
                                                                    "checkpoint_folder=")):
            job = self.write_job(f"[j]\nioengine=psync\n{body}", "f.ini")
            p = self.run_s3(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(f"{opt}{url}", p.stderr)
            self.assertIn("set ioengine=s3", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["c.ini", "f.ini", "t.ini"])

    def test_fio_http_engine_cannot_hold_a_dataset(self):
        job = self.write_job(f"[j]\nioengine=http\nhttp_mode=s3\nhttp_host={S3.host}\nworkload=train\n"
                             "train_model=unet3d\ntrain_scale=0.001\ndataset_files=16\naccelerators=1\n"
                             f"epochs=1\ndata_dir=/{S3.bucket}/{self.pre}\n")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("use ioengine=s3", p.stderr)
        self.assertEqual(self.keys(), [])

    def test_dataset_object_of_wrong_size_stops_the_job(self):
        tr = ("workload=train\ntrain_model=unet3d\ntrain_scale=0.001\ndataset_files=16\naccelerators=1\n"
              "epochs=1\nbs=1m\n")
        S3.client.put(S3.bucket, f"{self.pre}/train/img_03_of_16.npz", b"not a dataset file")
        p = self.run_s3(self.s3job(f"{tr}data_dir={self.pre}\n"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("img_03_of_16.npz has 18 bytes", p.stderr)
        self.assertEqual(self.keys(), [(f"{self.pre}/train/img_03_of_16.npz", 18)])


class KvCache(S3Case):
    KV = ["--name=kv", "--workload=kvcache", "--kv_profile=mlperf", "--layers=2", "--kv_heads=2",
          "--head_dim=16", "--prompt_tokens=64", "--prompt_tokens_min=64", "--output_tokens=64",
          "--output_tokens_min=64", "--kv_users=1", "--kv_memory_capacity=0", "--kv_think_time=0",
          "--kv_system_prompt_probability=0", "--kv_requests=10", "--kv_disk_capacity=1g"]

    def kv(self, *extra):
        return self.run_s3("--output-format=json", "--ioengine=s3", f"--http_host={S3.host}",
                           f"--s3_bucket={S3.bucket}", *self.KV, *extra)

    def test_kv_disk_tier_on_s3(self):
        """kv_profile=mlperf with ioengine=s3: each entry one object
        DIR/kvcache/kv_N.npy (np.save's bytes: numpy loads it), PUT and GET
        whole; kept with keep_kvcache=1 (and --cleanup leaves them), deleted
        otherwise; no local folder"""
        p = self.kv(f"--directory={self.pre}", "--keep_kvcache=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        j = json.loads(p.stdout)["jobs"][0]
        objs = self.keys(f"{self.pre}/kvcache/")
        self.assertEqual(len(objs), 10)                     # one entry per request
        self.assertEqual(j["write"]["total_ios"], 10)
        self.assertEqual(j["read"]["total_ios"], j["kvcache"]["mlperf"]["cache_stats"]["decode_reads"])
        # the entries' requests are the job's: per entry a HEAD (404: no
        # object there yet) and its PUT, per read a GET; each PUT and GET
        # adds its time to first byte
        reads = j["read"]["total_ios"]
        self.assertEqual(j["engine"]["requests"], 20 + reads)
        self.assertEqual(j["engine"]["http_4xx"], 10)
        self.assertEqual(j["engine"]["http_2xx"], 10 + reads)
        self.assertEqual(j["write"]["ttfb_ns"]["N"], 10)
        self.assertEqual(j["read"]["ttfb_ns"]["N"], reads)
        self.assertTrue(all(k.endswith(".npy") and size == 128 + 64 * 2 * 2 * 2 * 16 * 2 for k, size in objs))
        self.assertEqual(os.listdir(self.dir), [])
        body = S3.client.get(S3.bucket, objs[0][0]).body
        self.assertEqual(body[:6], b"\x93NUMPY")
        code = "import numpy, io, sys\na = numpy.load(io.BytesIO(sys.stdin.buffer.read()))\nprint(a.dtype, a.shape)"
        r = subprocess.run(["/usr/bin/python3", "-c", code], input=body, capture_output=True)
        if r.returncode == 0 or b"No module named" not in r.stderr:
            self.assertEqual(r.stdout.decode().strip(), "float16 (2, 2, 64, 2, 16)", r.stderr)
        c = self.run_s3("--cleanup", f"s3://{S3.bucket}/{self.pre}/", env={"AWS_ENDPOINT_URL": S3.endpoint})
        self.assertIn("removed 0 objects", c.stdout)
        self.assertEqual(len(self.keys(f"{self.pre}/kvcache/")), 10)
        p = self.kv(f"--directory={self.pre}-gone")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.keys(f"{self.pre}-gone/"), [])

    def test_plain_kv_tier_refused_and_users_entry_kept(self):
        p = self.run_s3("--ioengine=s3", f"--http_host={S3.host}", f"--s3_bucket={S3.bucket}", "--name=kv",
                        "--workload=kvcache", "--model=llama3-8b", "--kv_requests=4",
                        f"--directory={self.pre}")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("kv_profile=mlperf", p.stderr)
        S3.client.put(S3.bucket, f"{self.pre}/kvcache/kv_00000000.npy", b"user's")
        p = self.kv(f"--directory={self.pre}")
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn("storbench did not make it", p.stderr)
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/kvcache/kv_00000000.npy").body, b"user's")


class Multipart(S3Case):
    def test_multipart_objects_match_a_file_run(self):
        """16 MiB objects in 5 MiB parts (4 parts: 5+5+5+1): the bytes are the
        file run's, the ETag is a multipart one ("-4"), the mark is on the
        object, no upload is left open, and each I/O counted its 6 requests"""
        opts = "rw=write\nbs=16m\nsize=32m\nbuffer_pattern=0x1234abcd\n"
        job = self.s3job(f"filename={self.pre}/m\ns3_object_size=16m\ns3_multipart_size=5m\n{opts}iodepth=2\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        self.assertEqual(j["write"]["io_bytes"], 32 << 20)
        self.assertEqual(j["engine"]["requests"], 2 * (1 + 4 + 1))
        self.assertEqual(self.keys(), [(f"{self.pre}/m/0", 16 << 20), (f"{self.pre}/m/1", 16 << 20)])
        h = S3.client.head(S3.bucket, f"{self.pre}/m/1")
        self.assertTrue(h.headers.get("etag", h.headers.get("ETag", "")).strip('"').endswith("-4"))
        self.assertTrue(h.meta.get("storbench-owner", "").startswith("storbench 2 "))
        f = os.path.join(self.dir, "file")
        p = self.run_sb("--name=f", "--ioengine=psync", f"--filename={f}", "--rw=write", "--bs=16m",
                        "--size=32m", "--buffer_pattern=0x1234abcd")
        self.assertEqual(p.returncode, 0, p.stderr)
        got = b"".join(S3.client.get(S3.bucket, f"{self.pre}/m/{i}").body for i in range(2))
        self.assertEqual(got, open(f, "rb").read())
        r = S3.client.request("GET", S3.bucket, query={"uploads": ""})
        self.assertEqual(r.status, 200)
        self.assertNotIn(b"<Upload>", r.body)

    def test_parts_under_5_mib_refused(self):
        job = self.s3job(f"filename={self.pre}/s\ns3_object_size=8m\ns3_multipart_size=1m\nrw=write\n"
                         "bs=8m\nsize=8m\n")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("s3_multipart_size=5m", p.stderr)
        self.assertIn("job.ini:9", p.stderr)   # the line of s3_multipart_size=
        self.assertEqual(self.keys(), [])


class UsersObjects(S3Case):
    def test_a_users_object_is_never_written_over(self):
        """an object at a key the job would write, without storbench's mark:
        the job is refused before any PUT (exit 1), naming the object"""
        S3.client.put(S3.bucket, f"{self.pre}/d/1", b"user data")
        S3.client.put(S3.bucket, f"{self.pre}/solo", b"user's own")
        for body in (f"filename={self.pre}/d\nrw=write\nbs=1m\ns3_object_size=1m\nsize=4m\n",
                     f"filename={self.pre}/d\nrw=trim\nbs=1m\ns3_object_size=1m\nsize=4m\n",
                     f"filename={self.pre}/solo\nrw=write\nbs=1m\nsize=1m\n"):
            p = self.run_s3(self.s3job(body))
            self.assertEqual(p.returncode, 1, body + p.stderr)
            self.assertIn("storbench did not make it", p.stderr)
            self.assertIn(f"/{S3.bucket}/{self.pre}/", p.stderr)
        self.assertEqual(self.keys(), [(f"{self.pre}/d/1", 9), (f"{self.pre}/solo", 10)])
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/d/1").body, b"user data")

    def test_neighbours_survive_runs_and_kill(self):
        """a user's objects beside the job's keys (same bucket, same prefix
        text) survive a write, a trim and a SIGKILLed run"""
        mine = {f"{self.pre}/x": b"1", f"{self.pre}/x0": b"22", f"{self.pre}/x/0/y": b"333",
                f"{self.pre}/x/abc": b"4444"}
        for k, v in mine.items():
            S3.client.put(S3.bucket, k, v)
        w = self.s3job(f"filename={self.pre}/x\nrw=write\nbs=256k\ns3_object_size=256k\nsize=1m\n", "w.ini")
        # the key x itself is the user's object, but a job with
        # s3_object_size writes x/N only: x/0/y and x/abc are not its keys
        p = self.run_s3(w)
        self.assertEqual(p.returncode, 0, p.stderr)
        t = self.s3job(f"filename={self.pre}/x\nrw=trim\nbs=256k\ns3_object_size=256k\nsize=1m\n", "t.ini")
        self.assertEqual(self.run_s3(t).returncode, 0)
        k = self.s3job(f"filename={self.pre}/x\nrw=randwrite\nbs=256k\ns3_object_size=256k\nsize=1m\n"
                       "time_based\nruntime=60\n", "k.ini")
        e = dict(os.environ)
        e.update(self.env)
        proc = subprocess.Popen([sbtest.BIN, k], cwd=self.dir, env=e, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline and len(self.keys(f"{self.pre}/x/")) < 5:
            time.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for key, v in mine.items():
            self.assertEqual(S3.client.get(S3.bucket, key).body, v, key)


class Conformance(S3Case):
    """the engine conformance suite's properties that apply to an object
    store (t/unit/test_engines.c for the file engines, test_engines.py's
    ML phases): each checkpoint and each epoch on new threads with a new
    engine instance, an error on one I/O of a full queue reported on it
    alone without a hang, a read that runs past the object's end short as
    a file's; data read back byte-identical (Objects) and iodepth held
    (Objects.test_iodepth_is_held) are tested above"""

    def test_checkpoint_write2_read2(self):
        """as test_engines.py's checkpoint on every engine: two checkpoints
        written and read, each phase on new threads, every byte counted,
        the objects removed at the end"""
        job = self.s3job("workload=checkpoint\nmodel=llama3-8b\ncheckpoint_scale=0.00002\n"
                         "num_checkpoints_write=2\nnum_checkpoints_read=2\ndrop_caches=0\niodepth=4\n"
                         f"checkpoint_folder={self.pre}\n")
        j = self.json_of(self.run_s3("--output-format=json", job))
        ck = j["checkpoint"]
        one = ck["bytes_model"] + ck["bytes_optimizer"]
        self.assertGreater(one, 0)
        self.assertEqual(j["error"], 0)
        self.assertEqual((len(ck["write"]), len(ck["read"])), (2, 2))
        self.assertEqual(j["write"]["io_bytes"], 2 * one)
        self.assertEqual(j["read"]["io_bytes"], 2 * one)
        self.assertEqual(self.keys(), [])

    def test_train_two_epochs(self):
        """as test_engines.py's training on every engine: two epochs, with
        reader threads and without, the dataset's objects of DLIO's sizes"""
        for readers in (2, 0):
            with self.subTest(read_threads=readers):
                data = f"{self.pre}-{readers}"
                job = self.s3job("workload=train\ndataset_files=8\nsamples_per_file=2\nrecord_length=64k\n"
                                 f"batch_size=2\nread_threads={readers}\naccelerators=2\nepochs=2\niodepth=4\n"
                                 f"data_dir={data}\n", f"t{readers}.ini")
                j = self.json_of(self.run_s3("--output-format=json", job))
                t = j["train"]
                self.assertEqual(j["error"], 0)
                self.assertEqual(t["dataset_bytes"], 8 * 2 * 65536)
                self.assertEqual(len(t["epochs"]), 2)
                self.assertEqual(j["read"]["io_bytes"], 2 * t["dataset_bytes"])
                objs = self.keys(f"{data}/train/")
                self.assertEqual(len(objs), 8)
                self.assertTrue(all(size == 2 * 65536 for _, size in objs))

    def test_error_on_one_io_alone_without_a_hang(self):
        """one object of 16 deleted under a read job at iodepth 8: the I/Os
        of that object fail (404, ENOENT) and the job ends with that error,
        naming the object and the server's code; the others completed"""
        job = self.s3job(f"filename={self.pre}/q\nrw=read\nbs=64k\ns3_object_size=64k\nsize=1m\n"
                         "iodepth=8\ntime_based\nruntime=60\n")
        rc, out, err = self.under_a_run(job, 16, lambda: S3.client.delete(S3.bucket, f"{self.pre}/q/5"))
        self.assertEqual(rc, 3, err)
        j = json.loads(out)["jobs"][0]
        self.assertEqual(j["error"], 2)   # ENOENT
        self.assertIn(f"{self.pre}/q/5", err)
        self.assertIn("NoSuchKey", err)
        self.assertGreater(j["read"]["io_bytes"], 0)

    def test_read_without_size_reads_the_object_whole(self):
        """a read job with no size= reads its object whole (its size from a
        HEAD), as a read job reads a file whole (fio: the file's size): the
        same I/Os as psync on a file of the same bytes; a missing object or
        a write job without size= is refused at the job, naming size="""
        data = bytes(range(256)) * 24   # 6 KiB: three 2k reads
        S3.client.put(S3.bucket, f"{self.pre}/s", data)
        f = os.path.join(self.dir, "s.dat")
        with open(f, "wb") as o:
            o.write(data)
        outs = []
        for body in (f"filename={self.pre}/s\n", "ioengine=psync\nfilename=" + f + "\n"):
            job = self.s3job(body + "rw=read\nbs=2k\n", "r.ini")
            outs.append(self.json_of(self.run_s3("--output-format=json", job))["read"])
        self.assertEqual(outs[0]["io_bytes"], len(data))
        self.assertEqual((outs[0]["io_bytes"], outs[0]["total_ios"], outs[0]["short_ios"]),
                         (outs[1]["io_bytes"], outs[1]["total_ios"], outs[1]["short_ios"]))
        for body, want in ((f"filename={self.pre}/none\nrw=read\n", f"{self.pre}/none is not there"),
                           (f"filename={self.pre}/w\nrw=write\n", "size= (or filesize=) is needed")):
            p = self.run_s3(self.s3job(body + "bs=4k\n", "n.ini"))
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(want, p.stderr)
            self.assertIn("n.ini:6", p.stderr)   # the job's section
        self.assertEqual(self.keys(), [(f"{self.pre}/s", len(data))])


class VirtualHosted(S3Case):
    def test_virtual_hosted_requests(self):
        """s3_path_style=0: each request goes to BUCKET.HOST/KEY (the server
        answers virtual-hosted requests for localhost, t/s3/start-s3.sh):
        objects written, listed, read back and trimmed there are the same
        objects path-style clients see"""
        port = S3.host.rsplit(":", 1)[1]
        opts = (f"[global]\nioengine=s3\nhttp_host=localhost:{port}\ns3_bucket={S3.bucket}\ns3_path_style=0\n"
                f"[j]\nfilename={self.pre}/v\ns3_object_size=64k\nbs=64k\nsize=256k\nbuffer_pattern=0x5a5a1234\n")
        j = self.json_of(self.run_s3("--output-format=json", self.write_job(opts + "rw=write\n", "w.ini")))
        self.assertEqual(j["write"]["io_bytes"], 256 << 10)
        self.assertEqual(self.keys(), [(f"{self.pre}/v/{i}", 64 << 10) for i in range(4)])
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/v/2").body, bytes.fromhex("5a5a1234") * (16 << 10))
        j = self.json_of(self.run_s3("--output-format=json", self.write_job(opts + "rw=read\n", "r.ini")))
        self.assertEqual(j["read"]["io_bytes"], 256 << 10)
        self.json_of(self.run_s3("--output-format=json", self.write_job(opts + "rw=trim\n", "t.ini")))
        self.assertEqual(self.keys(), [])


class FioHttpRange(S3Case):
    def test_http_object_mode_range(self):
        """fio's http_object_mode=range: the file is one object, each write
        PUTs it whole (bs = size), reads are ranges of it"""
        job = self.write_job(f"[global]\nioengine=http\nhttp_host={S3.host}\nhttp_mode=s3\n"
                             f"http_s3_keyid={S3.access_key}\nhttp_s3_key={S3.secret_key}\n"
                             f"http_object_mode=range\nfilename=/{S3.bucket}/{self.pre}/one\nsize=256k\n"
                             "verify=crc32c\n[w]\nrw=write\nbs=256k\n[r]\nstonewall\nrw=randread\nbs=4k\n"
                             "verify=0\nnumber_ios=32\n")
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        jobs = json.loads(p.stdout)["jobs"]
        self.assertEqual(jobs[1]["read"]["total_ios"], 32)
        self.assertEqual(self.keys(), [(f"{self.pre}/one", 256 << 10)])


class ParseOnly(S3Case):
    def test_parse_only_writes_nothing_and_refuses_what_the_run_refuses(self):
        """--parse-only checks credentials and whose objects are there, as the
        run does, and never lays out or writes an object"""
        read = self.s3job(f"filename={self.pre}/r\nrw=randread\nbs=4k\nsize=1m\n", "r.ini")
        p = self.run_s3("--parse-only", read)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.keys(), [])
        S3.client.put(S3.bucket, f"{self.pre}/w", b"user")
        write = self.s3job(f"filename={self.pre}/w\nrw=write\nbs=64k\nsize=64k\n", "w.ini")
        p = self.run_s3("--parse-only", write)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("storbench did not make it", p.stderr)
        p = self.run_s3("--parse-only", read, env={"AWS_SECRET_ACCESS_KEY": "wrong"})
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("SignatureDoesNotMatch", p.stderr)
        self.assertEqual(self.keys(), [(f"{self.pre}/w", 4)])


class Cleanup(S3Case):
    def test_cleanup_removes_only_a_killed_runs_objects(self):
        """--cleanup s3://BUCKET/PREFIX: a SIGKILLed run's objects go; a
        finished run's (it recorded its end) and a user's stay; --dry-run
        removes nothing"""
        S3.client.put(S3.bucket, f"{self.pre}/user", b"mine")
        fin = self.s3job(f"filename={self.pre}/fin\nrw=write\nbs=64k\ns3_object_size=64k\nsize=256k\n", "f.ini")
        self.assertEqual(self.run_s3(fin).returncode, 0)
        k = self.s3job(f"filename={self.pre}/dead\nrw=randwrite\nbs=64k\ns3_object_size=64k\nsize=4m\n"
                       "time_based\nruntime=60\n", "k.ini")
        e = dict(os.environ)
        e.update(self.env)
        proc = subprocess.Popen([sbtest.BIN, k], cwd=self.dir, env=e, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline and len(self.keys(f"{self.pre}/dead/")) < 3:
            time.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        dead = self.keys(f"{self.pre}/dead/")
        self.assertGreaterEqual(len(dead), 3)
        env = dict(self.env, AWS_ENDPOINT_URL=S3.endpoint)
        url = f"s3://{S3.bucket}/{self.pre}/"
        p = self.run_s3("--cleanup", url, "--dry-run", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"would remove {len(dead)} objects", p.stdout)
        self.assertIn("left 1 objects storbench did not make and 4 it kept on purpose", p.stdout)
        self.assertEqual(self.keys(f"{self.pre}/dead/"), dead)
        p = self.run_s3("--cleanup", url, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"removed {len(dead)} objects", p.stdout)
        self.assertEqual(self.keys(f"{self.pre}/dead/"), [])
        self.assertEqual(len(self.keys(f"{self.pre}/fin/")), 4)
        self.assertEqual(S3.client.get(S3.bucket, f"{self.pre}/user").body, b"mine")

    def test_cleanup_bad_urls_and_no_keys(self):
        env = dict(self.env, AWS_ENDPOINT_URL=S3.endpoint)
        p = self.run_s3("--cleanup", "s3://", env=env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("name a bucket", p.stderr)
        p = self.run_s3("--cleanup", f"s3://no-such-bucket-{os.getpid()}/x", env=env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("NoSuchBucket", p.stderr)
        p = self.run_s3("--cleanup", f"s3://{S3.bucket}/x", env=dict(env, AWS_ACCESS_KEY_ID="",
                        AWS_SECRET_ACCESS_KEY="", HOME=self.dir))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("no S3 credentials", p.stderr)


class Errors(S3Case):
    def test_wrong_credentials_exit_1_with_the_servers_code(self):
        job = self.s3job(f"filename={self.pre}/c\nrw=write\nbs=1m\nsize=1m\n")
        for env, code in (({"AWS_SECRET_ACCESS_KEY": "wrong"}, "SignatureDoesNotMatch"),
                          ({"AWS_ACCESS_KEY_ID": "NOSUCHKEY"}, "InvalidAccessKeyId")):
            p = self.run_s3(job, env=env)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(code, p.stderr)
            self.assertIn("http_s3_key", p.stderr)   # the fix: which options to check
            self.assertNotIn("wrong", p.stderr + p.stdout)
        self.assertEqual(self.keys(), [])

    def test_missing_bucket_and_no_server(self):
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\ns3_bucket=no-such-bucket-{os.getpid()}\n"
                             "filename=a\nrw=write\nbs=1m\nsize=1m\n")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("NoSuchBucket", p.stderr)
        self.assertIn("s3_bucket=", p.stderr)
        job = self.write_job("[j]\nioengine=s3\nhttp_host=127.0.0.1:1\ns3_bucket=b\nfilename=a\nrw=write\n"
                             "bs=1m\nsize=1m\ns3_retries=0\n", "n.ini")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("no answer from http://127.0.0.1:1", p.stderr)
        self.assertIn("http_host=", p.stderr)

    def test_no_credentials_and_no_bucket_name_the_fix(self):
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\ns3_bucket={S3.bucket}\nfilename=a\n"
                             "rw=read\nbs=1m\nsize=1m\n")
        env = {"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "HOME": self.dir,
               "AWS_SHARED_CREDENTIALS_FILE": ""}
        p = self.run_s3(job, env=env)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("no S3 credentials", p.stderr)
        self.assertIn("~/.aws/credentials", p.stderr)
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\nfilename=a\nrw=read\nbs=1m\nsize=1m\n",
                             "b.ini")
        p = self.run_s3(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("set s3_bucket=", p.stderr)

    def test_parse_refusals_name_file_line_and_fix(self):
        """what the job file alone decides (engines/s3.c s3_check) is refused
        when it is parsed, run or --parse-only, at the line of the option to
        change, before any request: no bucket (at filename=, else at
        ioengine=), parts outside S3's 5 MiB to 5 GiB"""
        cases = (("filename=a\n", "x.ini:4", "s3_bucket=NAME"),
                 ("", "x.ini:2", "s3_bucket=NAME"),
                 (f"s3_bucket={S3.bucket}\ns3_multipart_size=1m\nfilename={self.pre}/m\n", "x.ini:5",
                  "s3_multipart_size=5m"),
                 (f"s3_bucket={S3.bucket}\ns3_multipart_size=6g\nfilename={self.pre}/m\n", "x.ini:5",
                  "5 GiB"))
        for body, where, fix in cases:
            job = self.write_job(f"[j]\nioengine=s3\nhttp_host=127.0.0.1:1\n{body}rw=write\nbs=1m\nsize=1m\n",
                                 "x.ini")
            for args in ((job,), ("--parse-only", job)):
                p = self.run_s3(*args)
                self.assertEqual(p.returncode, 1, body + p.stderr)
                self.assertIn(where, p.stderr, body)
                self.assertIn(fix, p.stderr, body)
                self.assertNotIn("no answer", p.stderr)   # refused before any request
        self.assertEqual(self.keys(), [])

    def test_bad_option_values_name_file_line_and_fix(self):
        for line, want in (("s3_object_size=lots", "s3_object_size"), ("http_mode=ftp", "webdav, s3"),
                           ("https=maybe", "insecure"), ("s3_retries=99", "s3_retries")):
            job = self.write_job(f"[j]\nioengine=s3\ns3_bucket={S3.bucket}\n{line}\nfilename=a\nrw=write\n"
                                 "bs=1m\nsize=1m\n", "bad.ini")
            p = self.run_s3(job)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("bad.ini:4", p.stderr)
            self.assertIn(want, p.stderr)
        self.assertEqual(self.keys(""), [k for k in self.keys("") if not k[0].startswith("a")])

    def test_secrets_never_printed(self):
        job = self.write_job(f"[j]\nioengine=s3\nhttp_host={S3.host}\ns3_bucket={S3.bucket}\n"
                             f"http_s3_keyid={S3.access_key}\nhttp_s3_key={S3.secret_key}\n"
                             f"filename={self.pre}/s\nrw=write\nbs=64k\nsize=64k\n")
        for fmt in ("normal", "json", "terse"):
            p = self.run_sb(f"--output-format={fmt}", job, env={"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn(S3.secret_key, p.stdout + p.stderr)
        self.assertEqual(json.loads(self.run_sb("--output-format=json", job).stdout)["jobs"][0]
                         ["job options"]["http_s3_key"], "<hidden>")

    def test_server_dies_mid_run_exit_3_with_partial_results(self):
        """radosgw killed while a time-based write runs: the job ends with an
        I/O error (exit 3) after its retries, results still printed"""
        srv = sbtest.S3Server()
        try:
            job = self.write_job(f"[j]\nioengine=s3\nhttp_host={srv.host}\ns3_bucket={srv.bucket}\n"
                                 "filename=m\nrw=write\nbs=64k\ns3_object_size=64k\nsize=64m\ntime_based\n"
                                 "runtime=120\niodepth=4\n")
            e = dict(os.environ)
            e.update(srv.aws_env())
            proc = subprocess.Popen([sbtest.BIN, "--output-format=json", job], cwd=self.dir, env=e,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.time() + 90
            while time.time() < deadline and len(srv.client.list(srv.bucket, "m/")) < 8:
                time.sleep(0.2)
            srv.stop_rgw()
            out, err = proc.communicate(timeout=120)
        finally:
            srv.stop()
        self.assertEqual(proc.returncode, 3, err)
        j = json.loads(out)["jobs"][0]
        self.assertGreater(j["write"]["io_bytes"], 0)
        self.assertGreater(j["engine"]["connection_errors"], 0)
        self.assertGreater(j["engine"]["retries"], 0)
        self.assertIn("Connection refused", j["error_message"] + err)


class Retries(S3Case):
    def test_slowdown_503_retried_and_counted(self):
        """radosgw answers 503 SlowDown beyond 1 request in flight: a job at
        iodepth 8 finishes (each request retried with a backoff) and counts
        the 503s and retries"""
        S3.rgw_set("rgw_max_concurrent_requests", 1)
        try:
            job = self.s3job(f"filename={self.pre}/r\nrw=write\nbs=64k\ns3_object_size=64k\nsize=2m\n"
                             "iodepth=8\ns3_retries=20\n")
            j = self.json_of(self.run_s3("--output-format=json", job))
        finally:
            S3.rgw_set("rgw_max_concurrent_requests", 1024)
        self.assertEqual(j["write"]["io_bytes"], 2 << 20)
        self.assertGreater(j["engine"]["slowdown_503"], 0)
        self.assertEqual(j["engine"]["retries"], j["engine"]["http_5xx"])
        self.assertEqual(len(self.keys()), 32)


class Credentials(S3Case):
    def test_shared_credentials_file_and_profile(self):
        aws = os.path.join(self.dir, ".aws")
        os.mkdir(aws)
        with open(os.path.join(aws, "credentials"), "w") as f:
            f.write(f"[default]\naws_access_key_id = NOPE\naws_secret_access_key = nope\n\n"
                    f"[bench]\naws_access_key_id = {S3.access_key}\n  aws_secret_access_key={S3.secret_key}\n")
        job = self.s3job(f"filename={self.pre}/c\nrw=write\nbs=64k\nsize=64k\n")
        env = {"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "HOME": self.dir}
        p = self.run_s3(job, env=dict(env, AWS_PROFILE="bench"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.keys()), 1)
        p = self.run_s3(job, env=env)   # the default profile's key is wrong
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("InvalidAccessKeyId", p.stderr)


class FioHttp(S3Case):
    def test_fio_http_s3_job_file_runs(self):
        """fio's http engine job file for S3 (fio's examples/http-s3.fio form):
        one object per block, named FILENAME_OFFSET_LENGTH, read back"""
        job = self.write_job(f"[global]\nioengine=http\nhttp_host={S3.host}\nhttp_mode=s3\n"
                             f"http_s3_keyid={S3.access_key}\nhttp_s3_key={S3.secret_key}\n"
                             f"http_s3_region={S3.region}\nhttps=off\nfilename=/{S3.bucket}/{self.pre}/obj\n"
                             "size=256k\nbs=64k\n[w]\nrw=write\n[r]\nstonewall\nrw=read\n")
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        jobs = json.loads(p.stdout)["jobs"]
        self.assertEqual(jobs[0]["write"]["io_bytes"], 256 << 10)
        self.assertEqual(jobs[1]["read"]["io_bytes"], 256 << 10)
        self.assertEqual(self.keys(), sorted((f"{self.pre}/obj_{o}_65536", 65536)
                                             for o in (0, 65536, 131072, 196608)))


if __name__ == "__main__":
    unittest.main()
