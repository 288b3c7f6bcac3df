#!/usr/bin/env python3
"""fio_examples.py FIO_SRC [--bin storbench] [--fio fio]: how many of
fio's own examples storbench accepts.  For every FIO_SRC/examples/*.fio whose ioengine lines
name only sync, psync, vsync, pvsync, libaio, io_uring, mmap, null or
posixaio (none: fio's default psync), run `fio --parse-only` and
`storbench --parse-only=job` (the job, not this machine, as fio's) and
print how many each accepts, then every file where they disagree and, for the files fio rejects, storbench's first line
(it must name the job file's line).  fio's source: the `fetch` of
axboe/fio at tag fio-3.33, or Debian's `apt-get source fio`.  A measurement,
not a test: the examples are fio's files, not part of this tree."""
import argparse
import glob
import os
import re
import subprocess

ENGINES = {"sync", "psync", "vsync", "pvsync", "libaio", "io_uring", "mmap", "null", "posixaio"}


def rc(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return 124, "timed out"
    return p.returncode, (p.stderr or p.stdout).strip().splitlines()[:1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fio_src")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                  "storbench"))
    ap.add_argument("--fio", default="fio")
    a = ap.parse_args()
    exdir = os.path.join(a.fio_src, "examples")
    files, fio_ok, sb_ok, differ, rejected = 0, 0, 0, [], []
    for path in sorted(glob.glob(os.path.join(exdir, "*.fio"))):
        with open(path, errors="replace") as f:
            engines = set(re.findall(r"^\s*ioengine\s*=\s*(\S+)", f.read(), re.M))
        if not engines <= ENGINES:
            continue
        files += 1
        name = os.path.basename(path)
        frc, _ = rc([a.fio, "--parse-only", name], exdir)
        src, first = rc([os.path.abspath(a.bin), "--parse-only=job", name], exdir)
        fio_ok += frc == 0
        sb_ok += src == 0
        if (frc == 0) != (src == 0):
            differ.append("%s: fio %d, storbench %d %s" % (name, frc, src, first))
        elif frc:
            rejected.append("%s: %s" % (name, first[0] if first else ""))
    print("%d examples use these engines: fio accepts %d, storbench accepts %d" %
          (files, fio_ok, sb_ok))
    for d in differ:
        print("  differ:", d)
    for r in rejected:
        print("  both reject:", r)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
