#!/bin/sh
# make check: the suite on the normal build, again under ASan+UBSan, then a
# warning-free clang build.  The last line sums every pass.
MAKE=${MAKE:-make}
status=0; passed=0; failed=0; skipped=0
sum() { set -- $(cat "$1"); passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + $3)); }

echo "== tests: gcc build (build/)"
$MAKE -s check-one B=build || status=1
[ -f build/check-counts ] && sum build/check-counts

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
echo "check: $passed passed, $failed failed, $skipped skipped"
exit $status
