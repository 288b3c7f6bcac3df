"""Helpers shared by the integration tests: run the storbench binary (path in
$SB_BIN) in a fresh temporary directory and look at what it did."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

BIN = os.environ.get("SB_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "storbench"))
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# what ASan, LSan and UBSan print: a run that says any of it failed, whatever
# its exit code (ASan exits 1 by default, which is also "bad job file")
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def sanitizer_report(stderr):
    """the sanitizer marker found in stderr, or None"""
    return next((m for m in SANITIZER_MARKS if m in (stderr or "")), None)


def asan_runtime():
    """The ASan runtime BIN links against ([] when it is not an ASan build):
    preloaded first (before a fault shim), because ASan refuses to start
    when another library comes before it."""
    try:
        out = subprocess.run(["ldd", BIN], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("libasan") and len(parts) >= 3 and parts[2].startswith("/"):
            return [parts[2]]
    return []


def _cpu_some_us():
    """PSI's cumulative 'some' CPU stall (microseconds), or None without PSI"""
    try:
        with open("/proc/pressure/cpu") as f:
            for line in f:
                if line.startswith("some "):
                    return int(line.rsplit("total=", 1)[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


class CpuLoss:
    """Measures, around a block, how long a thread of ours can have waited
    for a CPU because of other load: the machine's 'some' CPU stall time
    (/proc/pressure/cpu, the same machine at the same moment) times the
    number of CPUs (the system figure averages the CPUs), at most the
    block's wall time; the whole wall time where PSI is missing.  Tests use
    it to widen a bound that load moves (a lower bound on a rate, AU, an
    end time): on an idle machine the bound is tight, on a saturated one it
    checks nothing, and never fails because of load.

        with CpuLoss() as lost:
            run ...
        assertGreaterEqual(ios, 2000 - 40 - 1000 * lost.s)"""

    def __enter__(self):
        self.s = None
        self._t0, self._u0 = time.monotonic(), _cpu_some_us()
        return self

    def __exit__(self, *exc):
        wall = time.monotonic() - self._t0
        u1 = _cpu_some_us()
        if self._u0 is None or u1 is None:
            self.s = wall
        else:
            self.s = min(wall, (u1 - self._u0) / 1e6 * (os.cpu_count() or 1))
        return False


class SbCase(unittest.TestCase):
    """A test case with its own scratch directory (self.dir)."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="sbint.")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def run_sb(self, *args, timeout=120, env=None, cwd=None):
        e = dict(os.environ)
        if env:
            e.update(env)
        p = subprocess.run([BIN, *args], cwd=cwd or self.dir, env=e, capture_output=True,
                           text=True, timeout=timeout)
        self.assertIsNone(sanitizer_report(p.stderr), "sanitizer report:\n" + p.stderr)
        return p

    def write_job(self, text, name="job.ini"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_json(self, *args, **kw):
        p = self.run_sb("--output-format=json", *args, **kw)
        self.assertEqual(p.returncode, 0, f"exit {p.returncode}\nstderr:\n{p.stderr}")
        return json.loads(p.stdout)

    def listing(self):
        return sorted(os.listdir(self.dir))


# storbench validate's exit status by the overall verdict it prints last
# (HOWTO.md, validate): CLOSED 0, OPEN 4, INVALID 5
VALIDATE_RC = {"CLOSED": 0, "OPEN": 4, "INVALID": 5}


def validate_rc(stdout):
    """the exit status validate must give for the output it printed; 1
    (unreadable) when there is no "overall:" line"""
    import re
    m = re.search(r"^overall: (\w+)$", stdout, re.M)
    return VALIDATE_RC[m.group(1)] if m else 1


def why_no_loop():
    """why loop-device tests cannot run here, or None"""
    if os.geteuid() != 0:
        return "needs root (loop devices, mount)"
    if not os.path.exists("/dev/loop-control") or not shutil.which("losetup"):
        return "needs loop devices (/dev/loop-control, losetup)"
    return None


class LoopCase(SbCase):
    """SbCase with loop devices and mounts, detached and unmounted at the end
    (self.loops, self.mounts)"""

    def setUp(self):
        super().setUp()
        self.loops, self.mounts = [], []

    def tearDown(self):
        for m in reversed(self.mounts):
            subprocess.run(["umount", "-l", m], capture_output=True)
        for dev in self.loops:
            subprocess.run(["losetup", "-d", dev], capture_output=True)
        super().tearDown()

    def attach(self, img, *losetup_args):
        """a loop device over the image file img (skips when none is free)"""
        for _ in range(5):  # other tests may take the free device first
            p = subprocess.run(["losetup", "-f", "--show", *losetup_args, img],
                               capture_output=True, text=True)
            if p.returncode == 0:
                break
            time.sleep(0.2)
        if p.returncode != 0:
            self.skipTest("no free loop device: " + p.stderr.strip())
        dev = p.stdout.strip()
        self.loops.append(dev)
        return dev


def catches(pid, sig):
    """whether pid has a handler for sig (/proc/PID/status SigCgt)"""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except OSError:
        pass
    return False


def engine_built(name):
    """this storbench build has ioengine=name (storbench --enghelp lists it)"""
    p = subprocess.run([BIN, "--enghelp"], capture_output=True, text=True, timeout=60)
    return any(line.split()[:1] == [name] for line in p.stdout.splitlines()[1:])


# ---------------------------------------------------------------- S3 server
S3_SCRIPTS = os.path.join(SRC, "t", "s3")


class S3Server:
    """A real S3 server for a test file: Ceph radosgw on 127.0.0.1, started by
    t/s3/start-s3.sh in a temporary directory (about 8 s on an idle 2-core
    machine, longer under load or on a cold disk cache) and stopped by
    t/s3/stop-s3.sh.  Start it once per file:

        def setUpModule():
            global S3
            S3 = sbtest.S3Server()      # SkipTest when the packages are missing
        def tearDownModule():
            S3.stop()

    Attributes: endpoint ("http://127.0.0.1:PORT"), host ("127.0.0.1:PORT"),
    port, region, access_key, secret_key, bucket (made empty at start), dir,
    pidfile, rgw_pid, client (an s3client.S3Client with the right keys).
    env: extra environment for start-s3.sh, e.g. {"S3_RGW_MAX_CONCURRENT": "1"}
    (rgw_set() changes it while the server runs).
    Never calls apt-get (S3_NO_INSTALL=1).  The daemons never outlive this
    process: stop() runs at exit too, and start-s3.sh's watchdog stops them
    when this process dies in any other way (SIGKILL included)."""

    START_TIMEOUT = 300

    def __init__(self, env=None):
        import atexit
        import s3client
        e = dict(os.environ)
        for k in list(e):   # an outer server's variables must not leak into this one
            if k.startswith("S3_"):
                del e[k]
        e["S3_WATCH_PID"] = str(os.getpid())
        e.update(env or {})
        e["S3_NO_INSTALL"] = "1"
        # the daemons' admin sockets live in it: a Unix socket path has at most
        # 107 bytes, so a long $TMPDIR gives way to /tmp
        tmp = tempfile.gettempdir()
        self.parent = tempfile.mkdtemp(prefix="sbs3.", dir=tmp if len(tmp) <= 48 else "/tmp")
        self.dir = None
        atexit.register(self.stop)
        for attempt in (1, 2):
            p = subprocess.run([os.path.join(S3_SCRIPTS, "start-s3.sh"), self.parent],
                               env=e, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                               timeout=self.START_TIMEOUT)
            if p.returncode == 77:
                self.stop()
                why = [ln for ln in p.stderr.splitlines() if "missing" in ln]
                raise unittest.SkipTest("no local S3 server (Ceph radosgw): " +
                                        (why[-1].split(": ", 1)[-1] if why else p.stderr.strip()))
            if p.returncode == 0:
                break
            # a random port another process took between choosing and binding
            # is the one failure a second try can cure
            self.start_log = p.stderr
        else:
            self.stop()
            raise RuntimeError(f"t/s3/start-s3.sh failed twice (exit {p.returncode}):\n{p.stderr}")
        self.start_log = p.stderr
        v = dict(line.split("=", 1) for line in p.stdout.splitlines() if "=" in line)
        self.vars = v
        self.endpoint, self.region = v["S3_ENDPOINT"], v["S3_REGION"]
        self.access_key, self.secret_key = v["S3_ACCESS_KEY"], v["S3_SECRET_KEY"]
        self.bucket, self.dir, self.pidfile = v["S3_BUCKET"], v["S3_DIR"], v["S3_PIDFILE"]
        self.rgw_pid = int(v["S3_RGW_PID"])
        self.host = self.endpoint.split("://", 1)[1]
        self.port = int(self.host.rsplit(":", 1)[1])
        self.client = s3client.S3Client(self.endpoint, self.access_key, self.secret_key,
                                        self.region, cafile=v.get("S3_CA_FILE"))

    def aws_env(self):
        """the AWS environment variables a client reads (for storbench runs)"""
        return {"AWS_ACCESS_KEY_ID": self.access_key, "AWS_SECRET_ACCESS_KEY": self.secret_key,
                "AWS_DEFAULT_REGION": self.region, "AWS_REGION": self.region}

    def stop_rgw(self, sig="KILL"):
        """signal radosgw alone (t/s3/stop-s3.sh --rgw): KILL (default), as a
        crash: requests in flight are reset and from now on the endpoint
        refuses connections; TERM: radosgw's own shutdown; STOP: a hung server
        (connections open, nothing answers) until stop_rgw("CONT").  mon and
        osd run on until stop()"""
        p = subprocess.run([os.path.join(S3_SCRIPTS, "stop-s3.sh"), "--rgw", self.dir, sig],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise RuntimeError("stop-s3.sh --rgw: " + p.stderr)

    def rgw_set(self, name, value):
        """change a radosgw option while it runs (its admin socket, as `ceph
        daemon client.rgw.a config set`): e.g. rgw_set("rgw_max_concurrent_requests", 1)
        makes radosgw answer 503 SlowDown beyond 1 request in flight, at once,
        and 1024 ends it"""
        import socket
        import struct
        cmd = {"prefix": "config set", "var": name, "val": [str(value)]}
        with socket.socket(socket.AF_UNIX) as so:
            so.settimeout(30)
            so.connect(os.path.join(self.dir, "run", "client.rgw.a.asok"))
            so.sendall(json.dumps(cmd).encode() + b"\0")
            head = b""
            while len(head) < 4:
                chunk = so.recv(4 - len(head))
                if not chunk:
                    raise RuntimeError("radosgw admin socket closed")
                head += chunk
            n, out = struct.unpack(">I", head)[0], b""
            while len(out) < n:
                chunk = so.recv(n - len(out))
                if not chunk:
                    break
                out += chunk
        if b'"success"' not in out:
            raise RuntimeError(f"radosgw config set {name}={value}: {out.decode(errors='replace')}")

    def stop(self):
        """stop the cluster and remove its directory; safe to call twice"""
        if self.dir:
            p = subprocess.run([os.path.join(S3_SCRIPTS, "stop-s3.sh"), self.dir],
                               capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                raise RuntimeError("stop-s3.sh: " + p.stderr)
            self.dir = None
        if self.parent:
            shutil.rmtree(self.parent, ignore_errors=True)
            self.parent = None
