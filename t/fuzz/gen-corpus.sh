#!/bin/sh
# t/fuzz/gen-corpus.sh OUTDIR: the seed corpus of the fuzz harnesses, made
# from the job files in the tree (jobs/, t/jobs/ with its includes and bad
# files, bench/jobs/): OUTDIR/jobfile/ gets them as they are, OUTDIR/cmdline/
# the same jobs as command-line words (one per line: [global] options first,
# then --name=SECTION and its options), plus storbench's own flags.
set -e
out=$1
[ -n "$out" ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
rm -rf "$out/jobfile" "$out/cmdline"
mkdir -p "$out/jobfile" "$out/cmdline"
for f in jobs/*.ini t/jobs/*.ini t/jobs/inc/* t/jobs/bad/*.ini bench/jobs/*.fio; do
	[ -f "$f" ] || continue
	n=$(echo "$f" | tr '/' '_')
	cp "$f" "$out/jobfile/$n"
	# sections -> --name=, key=value -> --key=value, bare key -> --key;
	# comments, includes and blank lines dropped
	awk '{ sub(/\r$/, ""); sub(/[;#].*/, ""); gsub(/^[ \t]+|[ \t]+$/, "") }
	     /^$/ || /^include[ \t]/ { next }
	     /^\[.*\]$/ { s = substr($0, 2, length($0) - 2); if (s != "global") print "--name=" s; next }
	     { k = $0; v = ""; i = index($0, "=")
	       if (i) { k = substr($0, 1, i - 1); v = substr($0, i + 1)
	                gsub(/[ \t]+$/, "", k); gsub(/^[ \t]+/, "", v); print "--" k "=" v }
	       else print "--" k }' "$f" >"$out/cmdline/$n"
done
i=0
for words in "--help" "--version" "--enghelp" "--cmdhelp" "--cmdhelp=bs" "--cmdhelp=iodpeth" \
	"--parse-only" "--parse-only
--name=a
--ioengine=null
--size=1m" "--output-format=json,terse
--status-interval=500ms
--parse-only
--name=a
--size=1m
--bs=4k,8k
--name=b
--stonewall" "--minimal
--datagen
--parse-only
--workload=train
--name=t" "-x" "--name=x
--sizee=1m" "--name="; do
	i=$((i + 1))
	printf '%s' "$words" >"$out/cmdline/flags-$i"
done
