#!/bin/sh
# make bench: storbench vs fio on the same job files, ratios printed.
# A benchmark is not a test: it never fails make check.
cd "$(dirname "$0")/.." || exit 1
command -v fio >/dev/null 2>&1 || { echo "bench: fio not installed (apt-get install fio)"; exit 1; }
exec python3 bench/compare.py "$@"
