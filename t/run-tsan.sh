#!/bin/sh
# make check-tsan: build with clang -fsanitize=thread in build/tsan/ and run,
# under ThreadSanitizer, the unit suites of the engines, the core's I/O loop
# and the ML workloads, and the integration tests of the engines (every
# engine, checkpoint and train included) and the ML workloads.  Any race
# report fails the run (halt_on_error, exit code 66).  Suppressions, each
# with its reason, are in t/tsan.supp.
MAKE=${MAKE:-make}
B=build/tsan
CC_TSAN=${CC_TSAN:-clang}
if ! command -v "$CC_TSAN" >/dev/null 2>&1; then
	echo "check-tsan: SKIPPED ($CC_TSAN not installed: apt-get install clang)"
	exit 0
fi
start=$(date +%s)
echo "== build: $CC_TSAN -fsanitize=thread ($B/)"
$MAKE -s B=$B CC="$CC_TSAN" TSAN=1 $B/storbench $B/t/unit/unit-tests >$B.log 2>&1 || {
	cat $B.log; echo "check-tsan: build FAILED"; exit 1; }
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$(pwd)/t/tsan.supp${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
export TSAN_OPTIONS
SB_TSAN=1 # timing assertions that TSan's slowdown breaks relax under it
export SB_TSAN
status=0; passed=0; failed=0; skipped=0
for s in engines engine_options core core_async ml_model ml_spec ml_train ml_rules; do
	if "$B/t/unit/unit-tests" --counts "$B/unit-counts" "$s" >"$B/unit-$s.log" 2>&1; then :; else
		cat "$B/unit-$s.log"; echo "unit suite $s: FAILED under TSan"; status=1; fi
	if [ -f "$B/unit-counts" ]; then
		set -- $(cat "$B/unit-counts"); passed=$((passed + $1)); failed=$((failed + $2))
		rm -f "$B/unit-counts"
	else
		failed=$((failed + 1))
	fi
done
for t in test_engines.py test_ml.py; do
	python3 t/integration/run.py --bin "$B/storbench" --counts "$B/integration-counts" "$t" \
		>"$B/integration-$t.log" 2>&1 || { cat "$B/integration-$t.log"; status=1; }
	if [ -f "$B/integration-counts" ]; then
		set -- $(cat "$B/integration-counts")
		passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3))
		rm -f "$B/integration-counts"
	else
		failed=$((failed + 1))
	fi
done
echo "check-tsan: $passed passed, $failed failed, $skipped skipped ($(($(date +%s) - start)) s)"
exit $status
