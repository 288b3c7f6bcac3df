#!/bin/sh
# t/check-layers.sh: the layering of HOWTO.md's "Architecture" section,
# checked over every #include "dir/file.h" of the sources.  Each folder may
# include only the folders listed for it below.  t/layers.allow lists the
# crossings that still exist (file, then the included header), each to be
# removed; a crossing that is neither allowed nor listed fails the check, and
# so does a listed one that is gone (delete its line: the list only shrinks).
# Prints "layers: N passed, N failed" and exits non-zero on a failure.
cd "$(dirname "$0")/.." || exit 2
allowed() {
	case $1 in
	lib) echo "lib" ;;
	os) echo "os lib" ;;
	parse) echo "parse lib" ;;
	engines) echo "engines lib" ;;
	dist) echo "dist lib" ;;
	stats) echo "stats os lib parse" ;;
	output) echo "output stats lib parse" ;;
	run|ml|sweep) echo "run ml sweep engines stats os lib parse dist" ;;
	tools) echo "tools output run ml sweep stats os lib parse" ;;
	*) echo "*" ;;
	esac
}
list=t/layers.allow
bad=0; listed_seen=""
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
git ls-files '*.c' '*.h' | grep -E '^(lib|os|parse|engines|dist|stats|output|run|ml|sweep|tools)/' |
while read -r f; do
	from=${f%%/*}
	ok=$(allowed "$from")
	grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$f" |
	sed -E 's/^([0-9]+):.*"([a-z_]+)\/([^"]+)".*/\1 \2 \2\/\3/' |
	while read -r line to hdr; do
		case " $ok " in *" $to "*) continue ;; esac
		echo "$f $hdr $line"
	done
done >"$tmp"
crossings=$(wc -l <"$tmp")
failed=0
while read -r f hdr line; do
	if ! grep -qxF "$f $hdr" "$list" 2>/dev/null; then
		echo "layers: $f:$line includes $hdr: ${f%%/*}/ may include only $(allowed "${f%%/*}" | sed 's/ /, /g')"
		failed=$((failed + 1))
	fi
done <"$tmp"
# listed crossings that no longer exist: the list must shrink with the code
grep -vE '^(#|$)' "$list" 2>/dev/null | while read -r f hdr; do
	if ! grep -q "^$f $hdr " "$tmp"; then
		echo "layers: t/layers.allow lists '$f $hdr', which is gone: delete that line"
		echo x
	fi
done >"$tmp.gone"
gone=$(grep -c '^x$' "$tmp.gone")
grep -v '^x$' "$tmp.gone"
rm -f "$tmp.gone"
failed=$((failed + gone))
# MPI stays behind dist/dist.h: dist/mpi.c is the one file that includes mpi.h
for f in $(git ls-files '*.c' '*.h' | xargs grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<mpi\.h>' 2>/dev/null); do
	[ "$f" = dist/mpi.c ] && continue
	echo "layers: $f includes <mpi.h>: only dist/mpi.c may (use dist/dist.h)"
	failed=$((failed + 1))
done
echo "layers: $crossings crossings still listed in $list (issue 10 removes them)" >&2
if [ $failed -eq 0 ]; then echo "layers: 1 passed, 0 failed"; exit 0; fi
echo "layers: 0 passed, 1 failed"
exit 1
