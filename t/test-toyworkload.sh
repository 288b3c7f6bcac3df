#!/bin/sh
# t/test-toyworkload.sh: a new workload needs its folder and its registry
# lines, nothing else.  Copies the tree (sources and the objects of build/)
# to a temporary folder, adds the toy workload of t/toyworkload/ as
# ml/toy/ and its two lines (its header's include, its row) to
# ml/registry.c, builds, then runs what could break on a new workload: the
# unit tests, the architecture checks, the documentation checks (HOWTO's
# option tables in the unit tests, the manual page and completion) and the
# workload conformance suite for the toy.  Fails if any fails, or if the
# copy differs from the tree in any file but ml/toy/* and ml/registry.c.
# SB_TOY_KEEP=1 keeps the copy (its path is printed).
cd "$(dirname "$0")/.." || exit 2
base=$(mktemp -d) || exit 2
tmp=$base/tree
if [ -n "$SB_TOY_KEEP" ]; then echo "toyworkload: copy in $tmp"; else trap 'rm -rf "$base"'  EXIT; fi
# the sources (tracked or not) twice, the tree and what it was, and
# build/'s objects, times kept so that make rebuilds only what the toy changes
mkdir "$tmp" "$base/orig" || exit 2
tar -cf - --exclude=./build --exclude=./.git --exclude=./storbench . | (cd "$tmp" && tar -xpf -) || exit 2
(cd "$tmp" && tar -cf - .) | (cd "$base/orig" && tar -xpf -) || exit 2
mkdir -p "$tmp/build" && (cd build && find . \( -path ./san -o -path ./clang -o -path ./fuzz -o -path ./tsan \) \
	-prune -o -type f \( -name '*.o' -o -name '*.d' -o -name '*.a' -o -name '*.so*' -o -name storbench \
	-o -name unit-tests \) -print | tar -cf - -T -) | (cd "$tmp/build" && tar -xpf -) || exit 2

# the toy: its folder and its registry lines
mkdir "$tmp/ml/toy" && cp t/toyworkload/*.c t/toyworkload/*.h "$tmp/ml/toy/" || exit 2
reg="$tmp/ml/registry.c"
awk '/^#include "ml\// { last = NR } { l[NR] = $0 } END {
	for (i = 1; i <= NR; i++) { print l[i]; if (i == last) print "#include \"ml/toy/toy.h\"" } }' "$reg" >"$reg.new" &&
	awk '/^[ \t]*NULL,[ \t]*$/ && !done { print "\t&sb_workload_toy,"; done = 1 } { print }' "$reg.new" >"$reg" &&
	rm "$reg.new" || exit 2
grep -q sb_workload_toy "$reg" || { echo "toyworkload: cannot add the toy's row to ml/registry.c"; exit 2; }

fail=0
step() { # step WHAT COMMAND...
	what=$1; shift
	if "$@" >"$tmp/step.log" 2>&1; then echo "toyworkload: $what: ok"
	else echo "toyworkload: $what: FAILED"; tail -40 "$tmp/step.log"; fail=1; fi
}
cd "$tmp" || exit 2
unit=build/t/unit/unit-tests
grep -q '^CONFIG_CUNIT *= *yes' config.mak || unit= # no CUnit: the unit tests are skipped, as by make check
step "build" ${MAKE:-make} -s -j"${SB_CHECK_JOBS:-2}" build/storbench $unit
[ $fail = 0 ] || exit 1
if [ -n "$unit" ]; then step "unit tests" $unit; else echo "toyworkload: unit tests: SKIPPED (no CUnit)"; fi
step "layers" sh t/check-layers.sh
step "links" python3 t/check-arch.py links
step "cycles" python3 t/check-arch.py cycles
step "size" python3 t/check-arch.py size
step "headers" sh t/check-headers.sh
step "reads" sh t/check-reads.sh
step "writes" sh t/check-writes.sh
step "history" sh t/check-history.sh
step "man page and completion" python3 t/integration/run.py --bin build/storbench test_man.py
step "conformance (toy)" env SB_CONFORM_WORKLOADS=toy python3 t/integration/run.py --bin build/storbench test_workloads.py
# only the toy's files differ from the tree
rm -f "$tmp/step.log"
changed=$(diff -rq --no-dereference -x build -x storbench -x __pycache__ "$base/orig" "$tmp" | sed "s|$base/orig/*||; s|$tmp/*||")
others=$(printf '%s\n' "$changed" | grep -v -e '^Only in ml: toy$' -e '^Files ml/registry.c and ml/registry.c differ$' | grep .)
if [ -n "$others" ]; then
	echo "toyworkload: files other than ml/toy/* and ml/registry.c differ:"; echo "$others"; fail=1
fi
echo "toyworkload: files the toy touched: ml/toy/ ($(cd ml/toy && echo *)), ml/registry.c"
[ $fail = 0 ] && echo "toyworkload: ok" || echo "toyworkload: FAILED"
exit $fail
