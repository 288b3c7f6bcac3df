#!/usr/bin/env python3
"""fio_examples.py [--src FIO_SRC] [--bin storbench] [--fio fio] [--run SECONDS]:
fio's own examples (FIO_SRC/examples/*.fio; default: the examples of the
fetched axboe/fio mirror's HEAD, extracted to a temporary folder) through
`fio --parse-only` and `storbench --allow-exec --parse-only=job` (the job,
not this machine, as fio's --parse-only looks at no file; --allow-exec: the
user's consent to exec.fio's program, which storbench asks for and fio does
not): how many each accepts,
counted over the examples whose engines (none: psync) this storbench has,
and every file where they disagree, with storbench's first line (it names
the job file's line).

With --run, the hardware-free examples are also run by both, each in a
folder of its own, for at most SECONDS each (a job cut by the limit counts
as not completed): examples whose engines need no device, GPU, server or
other host (storbench's engines less libcufile, s3 and http) and that name
no /dev/ path, no file or folder outside their own folder and no more than
1 GiB of data (an example that would fill this machine's disk is not run).  Printed: how many each runs to completion (exit 0), and
the ones where they differ.  A measurement, not a test: the examples are
fio's files, not part of this tree."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import tempfile

MIRROR = "/work/.mirror/axboe+fio/repo"
NEEDS_MORE = {"libcufile", "s3", "http"}


def first_line(p):
    text = (p.stderr or p.stdout or "").strip().splitlines()
    return text[0] if text else ""


def rc(cmd, cwd, timeout=30):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "timed out"
    return p.returncode, first_line(p)


def size_bytes(v):
    m = re.match(r"(\d+)([kmgtp]?)", v.lower())
    return int(m.group(1)) * 1024 ** " kmgtp".index(m.group(2) or " ") if m else 0


def engines_of(path):
    """(engines, touches the machine): a /dev/ path, an absolute file or
    folder (outside the run's own folder), or more than 1 GiB of data"""
    with open(path, errors="replace") as f:
        text = f.read()
    engines = set(re.findall(r"^\s*ioengine\s*=\s*(\S+)", text, re.M)) or {"psync"}
    absolute = re.search(r"^\s*(filename|directory|filename_format)\s*=\s*/", text, re.M)
    big = any(size_bytes(v) > 1 << 30 for v in
              re.findall(r"^\s*(?:size|filesize|io_size)\s*=\s*(\S+)", text, re.M))
    return engines, "/dev/" in text or bool(absolute) or big


def storbench_engines(binary):
    out = subprocess.run([binary, "--enghelp"], capture_output=True, text=True).stdout
    return set(out.splitlines()[0].split(":", 1)[1].replace(" ", "").split(","))


def run_both(name, exdir, a, work):
    """exit statuses of fio and storbench running example name, each in a
    fresh folder, cut at a.run seconds"""
    out = []
    for tag, cmd in (("fio", [a.fio]), ("sb", [a.bin, "--allow-exec"])):
        d = os.path.join(work, "%s-%s" % (tag, name))
        os.mkdir(d)
        shutil.copy(os.path.join(exdir, name), d)
        out.append(rc(cmd + ["--output=/dev/null", name], d, timeout=a.run)[0])
        shutil.rmtree(d, ignore_errors=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", help="fio's source tree (default: the mirror's HEAD)")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "build", "storbench"))
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--run", type=int, help="also run the hardware-free ones, SECONDS each")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    tmp = tempfile.mkdtemp(prefix="fio-examples-")
    try:
        src = a.src
        if not src:
            arch = subprocess.run(["git", "-C", MIRROR, "archive", "HEAD", "examples"],
                                  stdout=subprocess.PIPE, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
            src = tmp
        exdir = os.path.join(src, "examples")
        have = storbench_engines(a.bin)
        total = fio_ok = ours = fio_ours = sb_ours = 0
        differ, runs = [], []
        for path in sorted(glob.glob(os.path.join(exdir, "*.fio"))):
            name = os.path.basename(path)
            engines, dev = engines_of(path)
            total += 1
            frc, _ = rc([a.fio, "--parse-only", name], exdir)
            fio_ok += frc == 0
            if not engines <= have:
                continue
            ours += 1
            src_rc, first = rc([a.bin, "--allow-exec", "--parse-only=job", name], exdir)
            fio_ours += frc == 0
            sb_ours += src_rc == 0
            if (frc == 0) != (src_rc == 0):
                differ.append("%s: fio %d, storbench %d %s" % (name, frc, src_rc, first))
            if a.run and not dev and not engines & NEEDS_MORE:
                runs.append(name)
        print("%d examples: fio 3.33 accepts %d; %d use engines this storbench has: fio "
              "accepts %d of them, storbench %d" % (total, fio_ok, ours, fio_ours, sb_ours))
        for d in differ:
            print("  parse differs:", d)
        if a.run:
            work = os.path.join(tmp, "run")
            os.mkdir(work)
            done = [0, 0]
            for name in runs:
                f, s = run_both(name, exdir, a, work)
                done[0] += f == 0
                done[1] += s == 0
                if (f == 0) != (s == 0):
                    print("  run differs: %s: fio %d, storbench %d" % (name, f, s))
            print("%d hardware-free examples run for at most %d s each: fio completes %d, "
                  "storbench %d" % (len(runs), a.run, done[0], done[1]))
        return 1 if differ else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
