#!/bin/sh
# make check: the suite on the normal build, again under ASan+UBSan, then a
# warning-free clang build and a short libFuzzer run of each harness (clang
# with libFuzzer only; SKIPPED otherwise).  The last line sums every pass.
# Builds run -j$SB_CHECK_JOBS (default: the number of CPUs) whatever make
# was given; the integration files run $SB_CHECK_TESTS at a time (default:
# twice SB_CHECK_JOBS; t/integration/run.py).
MAKE=${MAKE:-make}
SB_CHECK_JOBS=${SB_CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
export SB_CHECK_JOBS
MAKE="$MAKE -j$SB_CHECK_JOBS"
status=0; passed=0; failed=0; skipped=0
sum() { set -- $(cat "$1"); passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3)); }

$MAKE -s all || exit 1
# the sanitizer, clang and libFuzzer builds in the background while build/'s
# tests run (those leave the CPUs idle part of the time: sleeps, runtime=
# jobs, fsync).  Not niced: beside a CPU hog at the default priority a
# niced build got a tenth of a CPU and the san step waited for it.  Only a
# head start: each step below runs its own make, which finishes whatever
# this did not, and reports its errors.
(
	$MAKE -s check-build B=build/san SANITIZE=1
	if command -v clang >/dev/null 2>&1; then
		$MAKE -s B=build/clang CC=clang build/clang/storbench build/clang/t/unit/unit-tests build/clang/t/faults/libsbfault.so
		$MAKE -s B=build/fuzz CC=clang FUZZ=1 fuzz-bins
	fi
) >build/prebuild.log 2>&1 </dev/null &
prebuild=$!
echo "== layering: includes against HOWTO.md's Architecture (t/check-layers.sh)"
if sh t/check-layers.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
echo "== reads: every user file read through the one reader, os/infile.c (t/check-reads.sh)"
if sh t/check-reads.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
echo "== writes: every file written goes through the gate os/outfile.c (t/check-writes.sh)"
if sh t/check-writes.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
echo "== history: comments say what the code does, the history lives in git (t/check-history.sh)"
if sh t/check-history.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
echo "== architecture: links, circles, sizes, headers, and the checkers' own test (t/check-arch.py, t/check-headers.sh)"
for c in "python3 t/check-arch.py links" "python3 t/check-arch.py cycles" "python3 t/check-arch.py size" \
	"sh t/check-headers.sh" "sh t/test-archchecks.sh"; do
	if $c; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
done

echo "== tests: gcc build (build/)"
$MAKE -s check-one B=build || status=1
[ -f build/check-counts ] && sum build/check-counts

echo "== a new workload is its folder and its registry lines (t/test-toyworkload.sh)"
if sh t/test-toyworkload.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi

wait $prebuild
echo "== tests: AddressSanitizer + UndefinedBehaviorSanitizer (build/san/)"
if ASAN_OPTIONS=detect_leaks=1 $MAKE -s check-one B=build/san SANITIZE=1; then :; else status=1; fi
[ -f build/san/check-counts ] && sum build/san/check-counts

if command -v clang >/dev/null 2>&1; then
	echo "== build: clang -Wall -Wextra -Werror (build/clang/)"
	if $MAKE -s B=build/clang CC=clang build/clang/storbench build/clang/t/unit/unit-tests build/clang/t/faults/libsbfault.so >build/clang.log 2>&1; then
		echo "clang build: ok"; passed=$((passed + 1))
	else
		cat build/clang.log; echo "clang build: FAILED"; failed=$((failed + 1)); status=1
	fi
else
	echo "clang build: SKIPPED (clang not installed: apt-get install clang)"; skipped=$((skipped + 1))
fi
# a short libFuzzer run of each harness (t/fuzz; make fuzz runs them longer)
echo "== fuzz: each libFuzzer harness for a fixed number of inputs (build/fuzz/)"
fuzz_probe='int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }'
if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: SKIPPED (clang not installed: apt-get install clang)"; skipped=$((skipped + 1))
elif ! echo "$fuzz_probe" | clang -x c -fsanitize=fuzzer -o build/fuzz-probe - >/dev/null 2>&1; then
	echo "fuzz: SKIPPED (this clang cannot link -fsanitize=fuzzer: install the compiler-rt of this clang, e.g. apt-get install libclang-rt-14-dev)"
	skipped=$((skipped + 1))
else
	rm -f build/fuzz/fuzz-counts
	$MAKE -s fuzz-check || status=1
	if [ -f build/fuzz/fuzz-counts ]; then sum build/fuzz/fuzz-counts; else failed=$((failed + 1)); status=1; fi
fi
rm -f build/fuzz-probe
echo "check: $passed passed, $failed failed, $skipped skipped"
exit $status
