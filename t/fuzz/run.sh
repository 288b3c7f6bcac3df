#!/bin/sh
# t/fuzz/run.sh B LIBFUZZER-ARGS...: runs each libFuzzer harness built in B
# (B/t/fuzz/fuzz-NAME), side by side, each on one core, with the seed corpus
# (t/fuzz/gen-corpus.sh), the regression inputs (t/fuzz/regress/NAME) and the dictionary (gendict),
# plus LIBFUZZER-ARGS (make fuzz: -max_total_time=N; make check: -runs=N).
# New inputs collect in B/corpus/NAME (with FUZZ_FRESH=1, as in make check:
# in an empty B/corpus-check/NAME, so the run's length does not grow with
# earlier runs' corpus); crashes, leaks, timeouts (60 s: a hang, not a slow input on a loaded machine) and
# UBSan reports are written to B/crash-NAME-* (minimize one with
# "B/t/fuzz/fuzz-NAME -minimize_crash=1 -runs=10000 FILE", then add it to
# t/fuzz/regress/NAME/).  Prints "fuzz-NAME: N runs in S s: ok|FAILED" per
# harness and writes "passed failed skipped" to B/fuzz-counts.
B=${1:?usage: t/fuzz/run.sh BUILDDIR [libFuzzer args]}
shift
passed=0; failed=0
sh t/fuzz/gen-corpus.sh "$B/seeds" || exit 1
"$B/t/fuzz/gendict" >"$B/fuzz.dict" || exit 1
# LeakSanitizer on; UBSan reports are fatal (-fno-sanitize-recover) and say where
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
corpus=$B/corpus
if [ "$FUZZ_FRESH" = 1 ]; then corpus=$B/corpus-check; rm -rf "$corpus"; fi
# the harnesses run side by side (one core each), then report in order
for n in jobfile cmdline; do
	mkdir -p "$corpus/$n"
	log="$B/fuzz-$n.log"
	rm -f "$B/fuzz-$n.rc"
	(
		start=$(date +%s)
		"$B/t/fuzz/fuzz-$n" -dict="$B/fuzz.dict" -timeout=60 -rss_limit_mb=2048 -max_len=4096 \
			-print_final_stats=1 -artifact_prefix="$B/crash-$n-" "$@" \
			"$corpus/$n" "$B/seeds/$n" "t/fuzz/regress/$n" </dev/null >"$log" 2>&1
		echo "$? $(($(date +%s) - start))" >"$B/fuzz-$n.rc"
	) &
done
wait
for n in jobfile cmdline; do
	log="$B/fuzz-$n.log"
	set -- $(cat "$B/fuzz-$n.rc" 2>/dev/null || echo "1 0")
	if [ "$1" = 0 ]; then
		res=ok; passed=$((passed + 1))
	else
		res=FAILED; failed=$((failed + 1))
		grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -20
		echo "(full log: $log)"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	echo "fuzz-$n: ${runs:-?} runs in $2 s: $res"
done
echo "$passed $failed 0" >"$B/fuzz-counts"
[ $failed -eq 0 ]
