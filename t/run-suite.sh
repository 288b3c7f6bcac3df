#!/bin/sh
# Run the unit and integration tests against one build directory ($1).
# Writes "passed failed skipped" to $1/check-counts and exits non-zero on failure.
B=${1:-build}
passed=0; failed=0; skipped=0
add() { passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3)); }
# Under ASan/UBSan (B=build/san) a sanitizer report must fail the test that
# caused it: leak detection on, and an exit code of its own (ASan's default,
# 1, is also storbench's "bad job file").  Options given by the caller win.
export ASAN_OPTIONS="detect_leaks=1:exitcode=23${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

if [ -x "$B/t/unit/unit-tests" ]; then
	"$B/t/unit/unit-tests" --counts "$B/unit-counts"
	rc=$?
	if [ -f "$B/unit-counts" ]; then add $(cat "$B/unit-counts"); else add 0 1 0; fi
	if [ $rc -ne 0 ]; then
		echo "unit tests: exit $rc"
		# a failure no test counted (a leak found at exit): count it
		[ -f "$B/unit-counts" ] && [ "$(cut -d' ' -f2 "$B/unit-counts")" = 0 ] && add 0 1 0
	fi
else
	echo "unit tests: SKIPPED (CUnit not found by configure: apt-get install libcunit1-dev)"
	add 0 0 1
fi

if command -v python3 >/dev/null 2>&1; then
	python3 t/integration/run.py --bin "$B/storbench" --counts "$B/integration-counts" --times "$B/integration-times"
	if [ -f "$B/integration-counts" ]; then add $(cat "$B/integration-counts"); else add 0 1 0; fi
else
	echo "integration tests: FAILED to start (python3 missing: apt-get install python3)"
	add 0 1 0
fi
# the fuzz regression inputs through the harness code of this build
# (t/fuzz/replay.c): each file passes if the harness neither crashes, hangs,
# nor reports a sanitizer error or a leak
for n in jobfile cmdline; do
	r="$B/t/fuzz/replay-$n"
	for f in t/fuzz/regress/$n/*; do
		[ -f "$f" ] || continue
		if [ ! -x "$r" ]; then
			echo "fuzz replay: SKIPPED ($r not built)"; add 0 0 1; break
		fi
		if timeout 60 "$r" "$f" >"$B/replay.log" 2>&1 && ! grep -q "Sanitizer\|runtime error" "$B/replay.log"; then
			add 1 0 0
		else
			echo "fuzz replay: $f FAILED:"; cat "$B/replay.log"; add 0 1 0
		fi
	done
done

echo "$passed $failed $skipped" >"$B/check-counts"
echo "[$B] $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
