#!/usr/bin/env python3
"""fio-tests.py: run fio's own test programs (t/run-fio-tests.py's job files
and the python programs it runs that need no special hardware) with a given
binary as fio, and print per-program pass/fail counts and the failing test
ids.  Not part of make check: it takes minutes to an hour.

The programs come from fio's source at the mirror's commit (git archive into
a temporary directory); nothing of fio's is copied into this tree.  Each
program runs in its own artifact directory, with the binary given by --fio
passed as the programs take it (-f BIN, or the first argument).  A test that
prints no result for --test-timeout seconds is killed with its program (the
program's remaining tests count as not run); --prog-timeout bounds a program.

  bench/fio-tests.py --fio fio --quick
  bench/fio-tests.py --fio build/storbench --only jobs random_seed
  bench/fio-tests.py --fio build/storbench --skip verify steadystate

Test ids are PROGRAM:ID (ID as the program prints it; steadystate_tests and
t64-switch print none: their ordinal).  --json FILE writes the results;
bench/fio-tests.py --compare FIO.json SB.json lists, per program, the tests
one passes and the other does not.
"""
import argparse
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MIRROR = "/work/.mirror/axboe+fio/repo"

# run-fio-tests.py's job-file tests (t/jobs), by id
JOB_IDS = list(range(1, 32)) + list(range(33, 39))

# (name, file in t/, argv after the program, slow?)  "{fio}" is the binary,
# "{art}" the program's artifact dir (must not exist: the programs make it)
PROGRAMS = [
    ("jobs", None, None, False),
    ("readonly", "readonly.py", ["-f", "{fio}", "-a", "{art}"], False),
    ("strided", "strided.py", ["--fio", "{fio}", "-a", "{art}"], False),
    ("random_seed", "random_seed.py", ["-f", "{fio}", "-a", "{art}"], False),
    ("log_compression", "log_compression.py", ["-f", "{fio}"], False),
    ("jsonplus2csv", "jsonplus2csv_test.py",
     ["-f", "{fio}", "-s", "{root}/tools"], False),
    ("sequence", "sequence.py", ["-f", "{fio}", "-a", "{art}"], False),
    ("numberio_overlap", "numberio_overlap.py",
     ["-f", "{fio}", "-a", "{art}"], False),
    ("verify_state_save", "verify_state_save.py",
     ["-f", "{fio}", "-a", "{art}"], False),
    ("verify-trim", "verify-trim.py", ["-f", "{fio}", "-a", "{art}"], False),
    ("sprandom", "sprandom.py", ["-f", "{fio}", "-a", "{art}"], True),
    ("t64-switch", "t64-switch.sh", ["{fio}"], True),
    ("latency_percentiles", "latency_percentiles.py",
     ["-f", "{fio}", "-a", "{art}"], True),
    ("steadystate", "steadystate_tests.py", ["{fio}"], True),
    ("verify", "verify.py", ["-f", "{fio}", "-a", "{art}", "-r", "{root}"],
     True),
]

RESULT = re.compile(r"Test (.+?) (PASSED|FAILED|SKIPPED)")
SS_RESULT = re.compile(r"^(PASSED|FAILED) ")


def extract(commit, dest):
    """fio's tree at COMMIT into DEST, with a config-host.h saying what the
    run-fio-tests requirements need (libaio; no zoned block devices)"""
    arch = subprocess.run(["git", "-C", MIRROR, "archive", commit],
                          stdout=subprocess.PIPE, check=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=arch, check=True)
    with open(os.path.join(dest, "config-host.h"), "w") as f:
        f.write("#define CONFIG_LIBAIO\n")
    stub = os.path.join(dest, "pystub")
    try:
        import statsmodels  # noqa: F401  (run-fio-tests.py imports it)
    except ImportError:
        d = os.path.join(stub, "statsmodels", "sandbox", "stats")
        os.makedirs(d)
        for sub in ("statsmodels", "statsmodels/sandbox",
                    "statsmodels/sandbox/stats"):
            open(os.path.join(stub, sub, "__init__.py"), "w").close()
        with open(os.path.join(d, "runs.py"), "w") as f:
            f.write(RUNSTEST)
    try:
        import scipy  # noqa: F401  (steadystate_tests.py: stats.linregress)
    except ImportError:
        os.makedirs(os.path.join(stub, "scipy"), exist_ok=True)
        with open(os.path.join(stub, "scipy", "__init__.py"), "w") as f:
            f.write(LINREGRESS)
    if os.path.isdir(stub):
        os.environ["PYTHONPATH"] = stub


# scipy is not installed here: the one function steadystate_tests.py uses,
# the least-squares slope and intercept (it reads only the slope)
LINREGRESS = """import math
class stats:
    @staticmethod
    def linregress(x, y):
        n = len(x)
        mx, my = sum(x) / n, sum(y) / n
        sxx = sum((a - mx) ** 2 for a in x)
        sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
        syy = sum((b - my) ** 2 for b in y)
        m = sxy / sxx if sxx else 0.0
        r = sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0
        return m, my - m * mx, r, float('nan'), float('nan')
"""


# statsmodels is not installed here: the one function run-fio-tests.py uses
# (t0021's randomness check), the Wald-Wolfowitz runs test above/below the
# mean with the normal approximation (and the 0.5 continuity correction for
# fewer than 50 values), as statsmodels documents runstest_1samp
RUNSTEST = """import math
def runstest_1samp(x, cutoff='mean', correction=True):
    c = sum(x) / len(x) if cutoff == 'mean' else cutoff
    b = [1 if v >= c else 0 for v in x]
    n1 = sum(b)
    n0 = len(b) - n1
    n = len(b)
    runs = 1 + sum(1 for i in range(1, n) if b[i] != b[i - 1])
    if n1 == 0 or n0 == 0:
        return 0.0, 1.0
    mean = 2.0 * n1 * n0 / n + 1
    var = 2.0 * n1 * n0 * (2.0 * n1 * n0 - n) / (n * n * (n - 1))
    diff = runs - mean
    if correction and n < 50:
        diff += -0.5 if diff > 0 else (0.5 if diff < 0 else 0)
    z = diff / math.sqrt(var) if var > 0 else 0.0
    return z, math.erfc(abs(z) / math.sqrt(2))
"""


def parse_line(name, line, results):
    """one output line into results {id: outcome}"""
    if name == "steadystate":
        m = SS_RESULT.match(line)
        if m:
            results[str(len(results) + 1)] = m.group(1)
        return
    if name == "t64-switch":
        if line.startswith("result:"):
            results["1"] = "PASSED" if "pass" in line else "FAILED"
        return
    m = RESULT.search(line)
    if m:
        key = m.group(1).strip("*")
        n = 2
        while key in results:  # a program that runs its list twice (per engine)
            key = "%s#%d" % (m.group(1).strip("*"), n)
            n += 1
        results[key] = m.group(2)


def run_prog(name, argv, cwd, test_timeout, prog_timeout, log):
    """run ARGV, killing it when no result line comes for TEST_TIMEOUT s;
    returns ({id: PASSED|FAILED|SKIPPED}, how it ended)"""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    results = {}
    start = last = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env,
                         start_new_session=True)
    ended = None
    buf = b""
    while True:
        now = time.monotonic()
        if now - last > test_timeout:
            ended = "test timeout (%ds without a result)" % test_timeout
        elif now - start > prog_timeout:
            ended = "program timeout (%ds)" % prog_timeout
        if ended:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            break
        r, _, _ = select.select([p.stdout], [], [], 1.0)
        if not r:
            continue
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            p.wait()
            ended = "exit %d" % p.returncode
            break
        log.write(chunk)
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            n = len(results)
            parse_line(name, line.decode(errors="replace"), results)
            if len(results) != n:
                last = time.monotonic()
    if name == "t64-switch" and not results:
        results["1"] = "PASSED" if p.returncode == 0 else "FAILED"
    return results, ended


def compare(ref_path, other_path):
    """per program: passed by each; the tests REF passes that OTHER does not
    (and the other way round), from two --json files"""
    ref, other = (json.load(open(p)) for p in (ref_path, other_path))
    print("passed by %s / %s" % (ref["binary"], other["binary"]))
    tot = [0, 0]
    only = {}
    for name in ref["programs"]:
        r = ref["programs"][name]["results"]
        o = other["programs"].get(name, {}).get("results", {})
        n = [sum(v == "PASSED" for v in x.values()) for x in (r, o)]
        tot = [tot[0] + n[0], tot[1] + n[1]]
        lost = sorted(k for k, v in r.items() if v == "PASSED" and o.get(k) != "PASSED")
        won = sorted(k for k, v in o.items() if v == "PASSED" and r.get(k) != "PASSED")
        only[name] = lost
        print("%-20s %4d %4d%s%s" % (name, n[0], n[1],
                                     "  only first: " + " ".join(lost) if lost else "",
                                     "  only second: " + " ".join(won) if won else ""))
    print("%-20s %4d %4d" % ("TOTAL", tot[0], tot[1]))
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fio", default="fio", help="the binary run as fio")
    ap.add_argument("--commit", default="HEAD", help="fio mirror commit")
    ap.add_argument("--only", nargs="+", help="programs to run")
    ap.add_argument("--skip", nargs="+", default=[], help="programs to skip")
    ap.add_argument("--quick", action="store_true",
                    help="skip the slow programs (%s)" % ", ".join(
                        p[0] for p in PROGRAMS if p[3]))
    ap.add_argument("--job-ids", nargs="+", type=int,
                    help="run-fio-tests.py job ids (default: all)")
    ap.add_argument("--test-timeout", type=int, default=300)
    ap.add_argument("--prog-timeout", type=int, default=3600)
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    ap.add_argument("--json", help="write the results to this file")
    a = ap.parse_args()

    fio = shutil.which(a.fio) or a.fio
    fio = os.path.abspath(fio)
    names = [p[0] for p in PROGRAMS]
    for n in (a.only or []) + a.skip:
        if n not in names:
            sys.exit("fio-tests.py: unknown program %s (one of %s)" %
                     (n, ", ".join(names)))
    tmp = tempfile.mkdtemp(prefix="fio-tests-")
    root = os.path.join(tmp, "fio")
    os.mkdir(root)
    extract(a.commit, root)
    rev = subprocess.run(["git", "-C", MIRROR, "rev-parse", "--short",
                          a.commit], stdout=subprocess.PIPE, text=True).stdout
    print("fio tests at %s, binary %s, work dir %s" % (rev.strip(), fio, tmp))
    total = {}
    for name, prog, args, slow in PROGRAMS:
        if a.only and name not in a.only:
            continue
        if name in a.skip or (a.quick and slow and not a.only):
            continue
        art = os.path.join(tmp, "art-" + name)
        cwd = os.path.join(tmp, "cwd-" + name)
        os.mkdir(cwd)
        log = open(os.path.join(tmp, name + ".log"), "wb")
        if name == "jobs":
            results, ended = {}, []
            for i in a.job_ids or JOB_IDS:
                argv = [sys.executable, "-u",
                        os.path.join(root, "t", "run-fio-tests.py"),
                        "-r", root, "-f", fio, "-a", "%s-%d" % (art, i),
                        "-o", str(i)]
                r, e = run_prog(name, argv, cwd, a.test_timeout,
                                a.test_timeout, log)
                r = {k: v for k, v in r.items() if k == str(i)}
                if not r:
                    r = {str(i): "FAILED"}
                    ended.append("%d: %s" % (i, e))
                results.update(r)
            ended = "; ".join(ended) or "ok"
        else:
            fill = {"fio": fio, "art": art, "root": root}
            exe = os.path.join(root, "t", prog)
            argv = ([sys.executable, "-u", exe] if prog.endswith(".py")
                    else ["bash", exe])
            argv += [x.format(**fill) for x in args]
            results, ended = run_prog(name, argv, cwd, a.test_timeout,
                                      a.prog_timeout, log)
            # a program that died (or was killed) after its last result line:
            # one failure for what it did not report
            if ended != "exit 0" and "FAILED" not in results.values():
                results["(%s)" % ended] = "FAILED"
        log.close()
        total[name] = {"results": results, "ended": ended}
        c = {k: sum(1 for v in results.values() if v == k)
             for k in ("PASSED", "FAILED", "SKIPPED")}
        fails = [k for k, v in results.items() if v == "FAILED"]
        print("%-20s passed %3d failed %3d skipped %3d  (%s)%s" % (
            name, c["PASSED"], c["FAILED"], c["SKIPPED"], ended,
            ("\n    failing: " + " ".join(fails)) if fails else ""))
        sys.stdout.flush()
    p = sum(1 for t in total.values() for v in t["results"].values()
            if v == "PASSED")
    f = sum(1 for t in total.values() for v in t["results"].values()
            if v == "FAILED")
    print("TOTAL passed %d failed %d" % (p, f))
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"binary": fio, "commit": rev.strip(),
                       "programs": total}, out, indent=1)
    if a.keep:
        print("kept", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
