"""test_fio_jobtests.py: the forms of fio 3.33's own job-file regression tests
(fio's t/jobs, run by t/run-fio-tests.py) beyond the basic ones:
rw=trimwrite and randtrimwrite, a bare write_bw_log/write_iops_log/
write_lat_log (logs named after the job), the bssplit-like bsrange value
of fio's t0023/t0024, and the posixaio engine (t0017).  Each case runs the same job file through storbench
and, where fio is installed, through fio (skipped otherwise), and compares
what a user relies on: exit status, stderr, the names of the log files, the
bytes and I/Os per direction, and the (direction, offset, length) pattern in
the logs.

fio's facts used here (fio-3.33 source):
- io_u.c:799 set_rw_ddir: with trimwrite, a trim whenever the last write
  ended where the last trim started, else a write; io_u.c:420 and :557 the
  write of randtrimwrite takes the trim's offset and length.
- backend.c:977: trimwrite moves the job's size twice (trimmed, then written).
- options.c:1680 str_write_bw_log_cb + init.c:1691 make_log_name: a bare
  write_bw_log names the log after the job: NAME_bw.log with per_job_logs=0,
  NAME_bw.1.log with per_job_logs=1.
- parse.c:870 FIO_OPT_RANGE: the range is split at the first '-', else the
  first ':', and each side read as a number with its unit (str_to_decimal
  stops there): bsrange=512/25:1k:25:2k:25:4k/25 is 512-1k.
"""
import json
import os
import shutil
import subprocess

from sbtest import SbCase

FIO = shutil.which("fio")
MB = 1 << 20

# a trimwrite job file in the layout of fio's t0023/t0024: one job per block-
# size form, logs from a bare write_bw_log in [global]
TRIMWRITE_JOB = """[global]
filesize=1M
ioengine=null
rw={rw}
log_offset=1
per_job_logs=0
randrepeat=0
write_bw_log

[basic]

[bs]
bs=8k,8k,8k

[bsrange]
bsrange=512-4k

[bssplit]
bsrange=512/25:1k:25:2k:25:4k/25
"""


def read_log(path):
    """[(ddir, bs, offset), ...] of a fio-format log with log_offset=1"""
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                w = [x.strip() for x in line.split(",")]
                out.append((int(w[2]), int(w[3]), int(w[4])))
    return out


def sizes_seen(path):
    """{ddir: block sizes issued more than once} (the last I/O of a loop may
    be cut to what is left: once)"""
    n = {}
    for d, bs, _ in read_log(path):
        n[(d, bs)] = n.get((d, bs), 0) + 1
    got = {}
    for (d, bs), k in n.items():
        if k > 1:
            got.setdefault(d, set()).add(bs)
    return got


def run_fio(d, job, *args):
    p = subprocess.run([FIO, "--output-format=json", "--output=fio.json", *args, job], cwd=d,
                       capture_output=True, text=True, timeout=300)
    with open(os.path.join(d, "fio.json")) as f:
        text = f.read()
    return p, json.loads(text[text.index("{"):]) if p.returncode == 0 else None


def counts(res):
    """{job: {dir: (io_bytes, total_ios)}} of a fio-layout JSON result"""
    return {j["jobname"]: {k: (j[k]["io_bytes"], j[k]["total_ios"]) for k in ("read", "write", "trim")}
            for j in res["jobs"]}


class TrimWrite(SbCase):
    def check_pairs(self, ios, label):
        """every trim is followed by a write of its offset and length"""
        self.assertTrue(ios, label)
        self.assertEqual(len(ios) % 2, 0, label)
        for k in range(0, len(ios), 2):
            self.assertEqual(ios[k][0], 2, f"{label}: I/O {k} is not a trim: {ios[k]}")
            self.assertEqual(ios[k + 1], (1, ios[k][1], ios[k][2]),
                             f"{label}: I/O {k + 1} is not the write of trim {ios[k]}")

    def check_all_sectors(self, ios, label, sector):
        """every sector of the 1 MiB file was trimmed (and written)"""
        touched = set()
        for d, bs, off in ios:
            self.assertEqual(off % sector, 0, label)
            self.assertEqual(bs % sector, 0, label)
            touched.update(range(off // sector, (off + bs) // sector))
        self.assertEqual(len(touched), MB // sector, label)

    def run_both(self, rw):
        os.mkdir(os.path.join(self.dir, "sb"))
        sbd = os.path.join(self.dir, "sb")
        job = self.write_job(TRIMWRITE_JOB.format(rw=rw))
        p = self.run_sb("--output-format=json", "--output=sb.json", job, cwd=sbd)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")  # fio's tests require an empty stderr
        with open(os.path.join(sbd, "sb.json")) as f:
            res = json.load(f)
        names = sorted(os.listdir(sbd))
        self.assertEqual(names, ["basic_bw.log", "bs_bw.log", "bsrange_bw.log", "bssplit_bw.log",
                                 "sb.json"])
        sizes = {"basic": 4096, "bs": 8192, "bsrange": 512, "bssplit": 512}
        for name, sector in sizes.items():
            ios = read_log(os.path.join(sbd, name + "_bw.log"))
            self.check_pairs(ios, name)
            self.check_all_sectors([x for x in ios if x[0] == 2], name, sector)
            self.check_all_sectors([x for x in ios if x[0] == 1], name, sector)
        bss = {bs for _, bs, _ in read_log(os.path.join(sbd, "bssplit_bw.log"))}
        self.assertEqual(bss, {512, 1024})  # fio reads the value as bsrange=512-1k
        c = counts(res)
        for name in sizes:
            self.assertEqual(c[name]["trim"][0], MB, name)
            self.assertEqual(c[name]["write"][0], MB, name)
            self.assertEqual(c[name]["write"][1], c[name]["trim"][1], name)
            self.assertEqual(c[name]["read"], (0, 0), name)
        self.assertEqual(c["basic"]["trim"][1], 256)
        self.assertEqual(c["bs"]["trim"][1], 128)
        if not FIO:
            return
        fd = os.path.join(self.dir, "fio")
        os.mkdir(fd)
        fp, fres = run_fio(fd, job)
        self.assertEqual(fp.returncode, 0, fp.stderr)
        self.assertEqual(sorted(os.listdir(fd)), [n.replace("sb.json", "fio.json") for n in names])
        fc = counts(fres)
        for name in ("basic", "bs"):  # fixed sizes: the same I/O counts
            self.assertEqual(fc[name], c[name], name)
        for name in ("bsrange", "bssplit"):
            for d in ("read", "write", "trim"):
                self.assertEqual(fc[name][d][0], c[name][d][0], (name, d))
        fbss = {bs for _, bs, _ in read_log(os.path.join(fd, "bssplit_bw.log"))}
        self.assertEqual(fbss, bss)
        for name in ("basic", "bs"):
            fios = read_log(os.path.join(fd, name + "_bw.log"))
            sios = read_log(os.path.join(sbd, name + "_bw.log"))
            if rw == "trimwrite":  # sequential: the very same I/Os
                self.assertEqual(fios, sios, name)

    def test_trimwrite(self):
        self.run_both("trimwrite")

    def test_randtrimwrite(self):
        self.run_both("randtrimwrite")

    def test_randtrimwrite_norandommap_pairs(self):
        """without the random map offsets repeat, but each write still follows its trim"""
        p = self.run_sb("--name=j", "--ioengine=null", "--filesize=1M", "--rw=randtrimwrite",
                        "--norandommap=1", "--bs=4k,4k,8k", "--log_offset=1", "--per_job_logs=0",
                        "--write_bw_log", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        ios = read_log(os.path.join(self.dir, "j_bw.log"))
        self.check_pairs(ios, "j")
        self.assertEqual({bs for _, bs, _ in ios}, {8192})  # the write takes the trim's length
        self.assertEqual(len(ios), 2 * (MB // 8192))

    def test_trimwrite_on_a_file_leaves_it_written(self):
        """on a file storbench trims by punching holes (HOWTO), and every hole
        is written again: the file ends with all its blocks holding data.
        (fio 3.33 trims only block devices: on a file it fails with ENOTTY.)"""
        path = os.path.join(self.dir, "f")
        p = self.run_sb("--name=j", "--filename=" + path, "--size=1m", "--rw=randtrimwrite",
                        "--ioengine=psync", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        res = json.loads(p.stdout)
        self.assertEqual(res["jobs"][0]["trim"]["io_bytes"], MB)
        self.assertEqual(res["jobs"][0]["write"]["io_bytes"], MB)
        self.assertEqual(os.path.getsize(path), MB)
        with open(path, "rb") as f:
            self.assertEqual(os.lseek(f.fileno(), 0, os.SEEK_HOLE), MB)  # no hole left
            self.assertNotEqual(f.read(), bytes(MB))  # holds the written data

    def test_rw_names_in_normal_output(self):
        p = self.run_sb("--name=j", "--ioengine=null", "--size=64k", "--rw=randtrimwrite")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("rw=randtrimwrite", p.stdout)


class BareLogNames(SbCase):
    """a bare write_*_log names the logs after the job, as fio does"""

    def names(self, run, per_job_logs):
        d = os.path.join(self.dir, run.__name__)
        os.mkdir(d)
        job = self.write_job("[global]\nioengine=null\nsize=64k\nnumjobs=2\n"
                             f"per_job_logs={per_job_logs}\n"
                             "write_bw_log\nwrite_iops_log\nwrite_lat_log\n\n[one]\n\n"
                             "[two]\nwrite_bw_log=mine\n")
        p = run(d, job)
        self.assertEqual(p.returncode, 0, p.stderr)
        return sorted(n for n in os.listdir(d) if n.endswith(".log"))

    def sb(self, d, job):
        return self.run_sb("--output=" + os.path.join(d, "out"), job, cwd=d)

    def fio(self, d, job):
        return subprocess.run([FIO, "--output=" + os.path.join(d, "out"), job], cwd=d,
                              capture_output=True, text=True, timeout=120)

    def test_per_job_logs_0(self):
        want = ["mine_bw.log", "one_bw.log", "one_clat.log", "one_iops.log", "one_lat.log",
                "one_slat.log", "two_clat.log", "two_iops.log", "two_lat.log", "two_slat.log"]
        self.assertEqual(self.names(self.sb, 0), want)
        if FIO:
            self.assertEqual(self.names(self.fio, 0), want)

    def test_per_job_logs_1(self):
        got = self.names(self.sb, 1)
        self.assertIn("one_bw.1.log", got)
        self.assertIn("one_bw.2.log", got)
        self.assertIn("mine_bw.3.log", got)  # N counts threads over all jobs, as fio
        self.assertIn("two_clat.4.log", got)
        self.assertFalse([n for n in got if n.startswith("two_bw")])
        if FIO:
            self.assertEqual(self.names(self.fio, 1), got)

    def test_bare_on_command_line(self):
        p = self.run_sb("--name=cl", "--ioengine=null", "--size=64k", "--write_bw_log",
                        "--per_job_logs=0")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("cl_bw.log", self.listing())

    def test_other_text_options_still_need_a_value(self):
        job = self.write_job("[j]\nioengine=null\nsize=64k\nwrite_iolog\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:4: write_iolog: needs a value", p.stderr)


class BsrangeFioForms(SbCase):
    """bsrange values as fio 3.33 reads them (parse.c FIO_OPT_RANGE)"""

    def sizes(self, value):
        # norandommap: the random map cuts a block short where it meets a
        # touched one (as fio's does), which would hide the sizes picked
        p = self.run_sb("--name=j", "--ioengine=null", "--size=1m", "--rw=randrw", "--bsrange=" + value,
                        "--norandommap=1", "--write_bw_log=l", "--log_offset=1", "--per_job_logs=0", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        got = sizes_seen(os.path.join(self.dir, "l_bw.log"))
        os.unlink(os.path.join(self.dir, "l_bw.log"))
        return got

    def fio_sizes(self, value):
        p = subprocess.run([FIO, "--name=j", "--ioengine=null", "--size=1m", "--rw=randrw",
                            "--bsrange=" + value, "--norandommap=1", "--write_bw_log=f", "--log_offset=1",
                            "--per_job_logs=0", "--output=/dev/null"], cwd=self.dir,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return sizes_seen(os.path.join(self.dir, "f_bw.log"))

    def test_bssplit_like_value_is_the_first_two_sizes(self):
        got = self.sizes("512/25:1k:25:2k:25:4k/25")
        self.assertEqual(got, {0: {512, 1024}, 1: {512, 1024}})
        if FIO:
            self.assertEqual(self.fio_sizes("512/25:1k:25:2k:25:4k/25"), got)

    def test_slash_is_not_a_direction_separator(self):
        got = self.sizes("1k-2k/8k-16k")
        self.assertEqual(got, {0: {1024, 2048}, 1: {1024, 2048}})
        if FIO:
            self.assertEqual(self.fio_sizes("1k-2k/8k-16k"), got)

    def test_comma_still_separates_directions(self):
        got = self.sizes("1k-2k,8k-16k")
        self.assertEqual(got, {0: {1024, 2048}, 1: {8192, 16384}})
        if FIO:
            self.assertEqual(self.fio_sizes("1k-2k,8k-16k"), got)

    def test_garbage_is_still_refused(self):
        job = self.write_job("[j]\nioengine=null\nsize=64k\nbsrange=4k-8kfoo\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:4: bsrange=4k-8kfoo: invalid range", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


class PosixAio(SbCase):
    """ioengine=posixaio (fio's t0017: size=1M, iodepth=16, read)"""

    def test_t0017_form(self):
        job = self.write_job("[test]\nioengine=posixaio\nsize=1M\niodepth=16\n")
        p = self.run_sb("--output-format=json", "--output=sb.json", job)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        with open(os.path.join(self.dir, "sb.json")) as f:
            j = json.load(f)["jobs"][0]
        r = j["read"]
        self.assertEqual(r["io_bytes"], MB)
        self.assertEqual(r["total_ios"], 256)
        # fio's t0015-t0017 check: mean(slat) + mean(clat) = mean(lat), within 0.5%
        lat = r["lat_ns"]["mean"]
        self.assertAlmostEqual(r["slat_ns"]["mean"] + r["clat_ns"]["mean"], lat, delta=lat * 0.005)
        # really asynchronous: most I/Os were issued at depth 16
        self.assertGreater(j["iodepth_level"]["16"], 50.0)
        if FIO:
            fd = os.path.join(self.dir, "fio")
            os.mkdir(fd)
            fp, fres = run_fio(fd, job)
            self.assertEqual(fp.returncode, 0, fp.stderr)
            self.assertEqual(fres["jobs"][0]["read"]["io_bytes"], r["io_bytes"])
            self.assertEqual(fres["jobs"][0]["read"]["total_ios"], r["total_ios"])

    def test_write_then_verify_buffered_and_direct(self):
        for direct in (0, 1):
            path = os.path.join(self.dir, f"v{direct}")
            p = self.run_sb("--name=w", "--ioengine=posixaio", "--filename=" + path, "--size=2m",
                            "--rw=randwrite", "--bs=4k", "--iodepth=8", "--verify=crc32c",
                            f"--direct={direct}", "--fsync=16", "--output-format=json")
            if direct and p.returncode == 1 and "direct" in p.stderr:
                continue  # a file system without O_DIRECT (tmpfs)
            self.assertEqual(p.returncode, 0, p.stderr)
            j = json.loads(p.stdout)["jobs"][0]
            self.assertEqual(j["write"]["io_bytes"], 2 * MB)
            self.assertEqual(j["read"]["io_bytes"], 2 * MB)  # the verify pass
            self.assertEqual(j["error"], 0)

    def test_unknown_engine_lists_posixaio(self):
        job = self.write_job("[j]\nioengine=posixaoi\nsize=64k\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:2: ioengine=posixaoi", p.stderr)
        self.assertIn("posixaio", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])


STRACE = shutil.which("strace")


def iocb_prios(d, argv):
    """{(class, level) or None: count} over the read/write iocbs io_submit got"""
    out = os.path.join(d, "strace.txt")
    env = dict(os.environ)  # LeakSanitizer cannot run under ptrace (sanitizer builds)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    p = subprocess.run([STRACE, "-f", "-qq", "-s", "0", "-e", "trace=io_submit", "-v", "-o", out,
                        *argv], cwd=d, env=env, capture_output=True, text=True, timeout=300)
    got = {}
    with open(out) as f:
        text = f.read()
    os.unlink(out)
    for iocb in text.split("{aio_data=")[1:]:
        iocb = iocb.split("}")[0]
        if "IOCB_CMD_P" not in iocb:
            continue
        key = None
        if "aio_reqprio=IOPRIO_PRIO_VALUE(" in iocb:
            v = iocb.split("aio_reqprio=IOPRIO_PRIO_VALUE(")[1].split(")")[0]
            cls, lvl = [x.strip() for x in v.split(",")]
            key = (cls.replace("IOPRIO_CLASS_", ""), int(lvl))
        nb = int(iocb.split("aio_nbytes=")[1].split(",")[0])
        got[(key, nb)] = got.get((key, nb), 0) + 1
    return p, got


class CmdPrio(SbCase):
    """cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit (fio's
    engines/cmdprio.c): the priority of each libaio request, as io_submit
    receives it (strace decodes aio_reqprio), beside fio's"""

    def base(self, *extra, size="4m"):
        path = os.path.join(self.dir, "f")
        return ["--name=x", "--ioengine=libaio", "--size=" + size, "--iodepth=4", "--direct=1",
                "--filename=" + path, *extra, "--output=/dev/null"]

    def need_rt(self):
        """the kernel refuses realtime-class I/O priorities without
        CAP_SYS_ADMIN/CAP_SYS_NICE (EPERM)"""
        if os.geteuid() != 0:
            self.skipTest("realtime I/O priorities need root")

    def need_strace(self):
        self.need_rt()
        if not STRACE:
            self.skipTest("strace is not installed")
        with open(os.path.join(self.dir, "f"), "wb") as f:
            f.write(os.urandom(4 * MB))

    def test_percentage_class_level(self):
        self.need_strace()
        args = self.base("--cmdprio_percentage=50", "--cmdprio_class=3", "--cmdprio=5")
        p, got = iocb_prios(self.dir, [BIN_ABS(), *args])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sum(got.values()), 1024)
        self.assertEqual(set(k for k, _ in got), {None, ("IDLE", 5)})
        share = got.get((("IDLE", 5), 4096), 0)
        self.assertTrue(400 < share < 624, got)  # 50% of 1024, binomial sd 16
        if FIO:
            p, fgot = iocb_prios(self.dir, [FIO, *args])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(set(k for k, _ in fgot), set(k for k, _ in got))
            self.assertTrue(400 < fgot.get((("IDLE", 5), 4096), 0) < 624, fgot)

    def test_class_defaults_to_realtime_and_writes_apart(self):
        self.need_strace()
        args = self.base("--rw=randrw", "--cmdprio_percentage=0,100", "--cmdprio=0,2")
        p, got = iocb_prios(self.dir, [BIN_ABS(), *args])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(set(k for k, _ in got), {None, ("RT", 2)})  # writes only, class 1
        if FIO:
            p, fgot = iocb_prios(self.dir, [FIO, *args])
            self.assertEqual(set(k for k, _ in fgot), set(k for k, _ in got))

    def test_none_without_cmdprio(self):
        self.need_strace()
        p, got = iocb_prios(self.dir, [BIN_ABS(), *self.base()])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(set(k for k, _ in got), {None})

    def test_bssplit(self):
        self.need_strace()
        args = self.base("--rw=randread", "--bssplit=4k/40:8k/60",
                         "--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:8k/0", size="8m")
        with open(os.path.join(self.dir, "f"), "ab") as f:
            f.write(os.urandom(4 * MB))
        p, got = iocb_prios(self.dir, [BIN_ABS(), *args])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(got.get((None, 4096), 0), 0)  # 25% + 75%: every 4k read has one
        self.assertEqual(set(k for k, bs in got if bs == 8192), {None})
        rt, idle = got[(("RT", 1), 4096)], got[(("IDLE", 2), 4096)]
        self.assertTrue(0.15 < rt / (rt + idle) < 0.35, got)
        if FIO:
            p, fgot = iocb_prios(self.dir, [FIO, *args])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(set(fgot), set(got))

    def prio_column(self, prog, *extra):
        """{last column of the clat log: count} (fio 3.33 iolog.c flush_samples)"""
        for n in os.listdir(self.dir):
            if n.startswith("pr_"):
                os.unlink(os.path.join(self.dir, n))
        p = subprocess.run([prog, "--name=x", "--ioengine=libaio", "--filename=f", "--size=256k",
                            "--write_lat_log=pr", "--per_job_logs=0", *extra, "--output=/dev/null"],
                           cwd=self.dir, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = {}
        with open(os.path.join(self.dir, "pr_clat.log")) as f:
            for line in f:
                v = line.split(",")[-1].strip()
                got[v] = got.get(v, 0) + 1
        return got

    def test_log_priority_column(self):
        """log_prio=1: each I/O's priority, its cmdprio else the job's; without
        it, 1 for a realtime-class I/O, else 0 (as fio 3.33)"""
        self.need_rt()
        with open(os.path.join(self.dir, "f"), "wb") as f:
            f.write(os.urandom(256 * 1024))
        cases = [(("--cmdprio_percentage=50", "--cmdprio_class=1", "--log_prio=1", "--prioclass=2",
                   "--prio=4"), {"0x2000", "0x4004"}),
                 (("--cmdprio_percentage=50", "--cmdprio_class=1"), {"0", "1"}),
                 (("--cmdprio_percentage=50", "--cmdprio_class=3", "--cmdprio=1"), {"0"}),
                 (("--cmdprio_percentage=50", "--cmdprio_class=3", "--cmdprio=1", "--log_prio=1"),
                  {"0x0000", "0x6001"}),
                 (("--prioclass=1",), {"1"})]
        for extra, want in cases:
            got = self.prio_column(BIN_ABS(), *extra)
            self.assertEqual(set(got), want, extra)
            self.assertEqual(sum(got.values()), 64)
            if len(want) == 2:
                self.assertTrue(all(12 < k < 52 for k in got.values()), (extra, got))
            if FIO:
                self.assertEqual(set(self.prio_column(FIO, *extra)), want, extra)

    def test_io_uring_runs(self):
        p = self.run_sb("--name=x", "--ioengine=io_uring", "--size=1m", "--iodepth=8",
                        "--filename=" + os.path.join(self.dir, "f"), "--cmdprio_percentage=30",
                        "--output-format=json")
        if p.returncode == 1 and "io_uring" in p.stderr and "kernel" in p.stderr:
            self.skipTest("no io_uring here")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["write"]["io_bytes"], 0)

    def test_fio_examples_parse(self):
        """fio's examples/cmdprio-percentage.fio and cmdprio-bssplit.fio, with
        a file for /dev/sda"""
        jobs = {
            "pct.fio": "[global]\nfilename=f\nsize=1m\ndirect=1\nwrite_lat_log=prio-run.log\nlog_prio=1\n\n"
                       "[randread]\nrw=randread\nbs=128k\nioengine=libaio\niodepth=8\nprioclass=3\n"
                       "cmdprio_percentage=20\ncmdprio_class=1\n",
            "bss.fio": "[global]\nfilename=f\nsize=1m\ndirect=1\nrw=randrw\nioengine=libaio\niodepth=16\n\n"
                       "[cmdprio]\nbssplit=64k/40:1024k/60,1024k/100\ncmdprio_bssplit=64k/100:1024k/0,1024k/0\n"
                       "cmdprio_class=1\ncmdprio=0\n\n[cmdprio-adv]\nstonewall\nbssplit=64k/40:1024k/60,1024k/100\n"
                       "cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0\n",
        }
        for name, text in jobs.items():
            job = self.write_job(text, name)
            p = self.run_sb("--parse-only", job)
            self.assertEqual(p.returncode, 0, p.stderr)
            if FIO:
                fp = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                                    text=True, timeout=60)
                self.assertEqual(fp.returncode, 0, fp.stderr)

    def bad(self, line, want):
        job = self.write_job("[j]\nioengine=libaio\nfilename=f\nsize=64k\n" + line + "\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(want, p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])

    def test_refusals(self):
        self.bad("cmdprio_percentage=10\ncmdprio_bssplit=4k/10",
                 "job.ini:6: cmdprio_bssplit=4k/10 with cmdprio_percentage: the two are exclusive")
        self.bad("cmdprio_class=0", "job.ini:5: cmdprio_class: class 0 is no class")
        self.bad("cmdprio_class=4", "job.ini:5: cmdprio_class=4")
        self.bad("cmdprio=8", "job.ini:5: cmdprio=8")
        self.bad("cmdprio_percentage=101", "job.ini:5: cmdprio_percentage=101")
        self.bad("cmdprio_bssplit=4k/60/1/0:4k/50", "job.ini:5: cmdprio_bssplit=4k/60/1/0:4k/50: "
                 "the entries of block size 4096 add up to 110%")
        self.bad("cmdprio_bssplit=4k/10/1", "job.ini:5: cmdprio_bssplit=4k/10/1: '4k/10/1' is not")
        self.bad("cmdprio_bssplit=4k/10/5/0", "priority '5/0': expected CLASS 1-3")

    def test_other_engines_refused(self):
        job = self.write_job("[j]\nioengine=psync\nfilename=f\nsize=64k\ncmdprio_percentage=10\n")
        p = self.run_sb(job)
        self.assertEqual(p.returncode, 1)
        self.assertIn("job.ini:5: cmdprio_percentage: a per-I/O priority of ioengine=libaio and "
                      "io_uring, and this job uses ioengine=psync", p.stderr)
        self.assertEqual(self.listing(), ["job.ini"])
        if FIO:  # fio 3.33 knows the option only for those engines
            fp = subprocess.run([FIO, "--parse-only", job], cwd=self.dir, capture_output=True,
                                text=True, timeout=60)
            self.assertEqual(fp.returncode, 1)


def BIN_ABS():
    from sbtest import BIN
    return os.path.abspath(BIN)
