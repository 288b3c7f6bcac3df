#!/bin/sh
# t/check-layers.sh [ROOT]: the layering of HOWTO.md's "Architecture" section
# (the table in t/layers.table), checked over every #include "dir/file.h" of
# the .c and .h files found under the source folders themselves (tracked,
# untracked or outside git alike).  t/layers.allow lists the crossings that
# still exist (file, then the included header), each to be removed; a
# crossing that is neither allowed nor listed fails the check, and so does a
# listed one that is gone (delete its line: the list only shrinks).
# ROOT (default: this tree) is the tree to check; its t/layers.table and
# t/layers.allow are used.
# Prints "layers: N passed, N failed" and exits non-zero on a failure.
cd "${1:-$(dirname "$0")/..}" || exit 2
table=t/layers.table
[ -r "$table" ] || { echo "layers: cannot read $table" >&2; exit 2; }
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' "$table")
allowed() {
	awk -F: -v d="$1" '$1 == d { sub(/^[ \t]+/, "", $2); print $2; f = 1 } END { if (!f) print "*" }' "$table"
}
list=t/layers.allow
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$tmp.gone"' EXIT
# shellcheck disable=SC2086
find $dirs -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort |
while read -r f; do
	from=${f%%/*}
	ok=$(allowed "$from")
	[ "$ok" = "*" ] && continue
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
		echo "layers: $f:$line includes $hdr: ${f%%/*}/ may include only $(allowed "${f%%/*}" | sed 's/ /, /g') (t/layers.table)"
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
failed=$((failed + gone))
# MPI stays behind dist/dist.h: dist/mpi.c is the one file that includes mpi.h
for f in $(find . -path ./build -prune -o -path ./.git -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | sed 's#^\./##' |
	xargs grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<mpi\.h>' 2>/dev/null); do
	[ "$f" = dist/mpi.c ] && continue
	echo "layers: $f includes <mpi.h>: only dist/mpi.c may (use dist/dist.h)"
	failed=$((failed + 1))
done
echo "layers: $crossings crossings still listed in $list (each to be removed)" >&2
if [ $failed -eq 0 ]; then echo "layers: 1 passed, 0 failed"; exit 0; fi
echo "layers: 0 passed, 1 failed"
exit 1
