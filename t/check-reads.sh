#!/bin/sh
# t/check-reads.sh [ROOT]: the one reader (os/infile.c, HOWTO "7. Safety")
# is the only code that opens a file for reading on a path a user gave.
# Every fopen/open/openat/opendir/fdopendir/scandir/nftw call in the .c
# files of the source folders (t/layers.table) and the top folder is a
# read site unless
# it only writes (fopen "w"/"a", open/openat with O_WRONLY) or creates a new
# file exclusively (O_CREAT with O_EXCL: nothing there is read), or it
# names a fixed system path ("/proc/...", "/sys/...", "/dev/null").  Those
# are the writer gate's concern; os/infile.c and os/outfile.c are exempt.
# Every other read site must be listed in t/reads.allow as
#   FILE: CODE -- REASON
# (CODE: the call's source line, white space squeezed; one line per site,
# so two identical lines need two entries; REASON says why it is not a user
# input or why it may stay).  A read site not listed fails, and so does a
# listed one that is gone (delete its line: the list only shrinks).
# Prints "reads: N passed, N failed" and exits non-zero on a failure.
cd "${1:-$(dirname "$0")/..}" || exit 2
table=t/layers.table
list=t/reads.allow
[ -r "$table" ] || { echo "reads: cannot read $table" >&2; exit 2; }
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' "$table")
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$tmp.a" "$tmp.new" "$tmp.gone"' EXIT
# shellcheck disable=SC2086
{ find $dirs -type f -name '*.c' 2>/dev/null; ls ./*.c 2>/dev/null | sed 's#^\./##'; } | LC_ALL=C sort -u |
while read -r f; do
	case $f in os/infile.c|os/outfile.c) continue ;; esac
	awk -v f="$f" '
	{
		code = $0
		# comments and string literals do not open files
		gsub(/\/\*.*\*\//, "", code)
		sub(/\/\/.*$/, "", code)
		if (code ~ /^[ \t]*(\*|\/\*)/) next
		lit = code
		gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
		if (code !~ /(^|[^>.A-Za-z0-9_])(fopen|open|openat|opendir|fdopendir|scandir|nftw)[ \t]*\(/) next
		# a fixed system path
		if (lit ~ /(fopen|open|opendir|scandir)[ \t]*\([ \t]*"\/(proc|sys)\//) next
		if (lit ~ /(fopen|open)[ \t]*\([ \t]*"\/dev\/null"/) next
		# write-only, or an exclusive create: the writer gate s check
		if (lit ~ /fopen[ \t]*\([^"]*"[wa]/) next
		if (code ~ /(^|[^>.A-Za-z0-9_])(open|openat)[ \t]*\(/ && code ~ /O_WRONLY/) next
		if (code ~ /O_CREAT/ && code ~ /O_EXCL/) next
		line = $0
		gsub(/[ \t]+/, " ", line)
		sub(/^ /, "", line)
		sub(/ $/, "", line)
		printf "%s: %s\t%d\n", f, line, NR
	}' "$f"
done >"$tmp"
grep -vE '^(#|$)' "$list" 2>/dev/null | sed 's/\(.*\) -- .*/\1/' | LC_ALL=C sort >"$tmp.a"
failed=0
# each read site against the list (as multisets: a line per site)
cut -f1 "$tmp" | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp.a" >"$tmp.new"
while IFS= read -r key; do
	n=$(awk -F'\t' -v k="$key" '$1 == k { printf "%s%s", s, $2; s = "," }' "$tmp")
	echo "reads: ${key%%: *}:$n opens a file for reading outside the one reader: ${key#*: }"
	echo "reads:   read a user's file through os/infile.h (sb_in_open, sb_in_read, sb_in_fopen, sb_in_json_load, sb_in_opendir); a fixed system path or a file storbench made may be listed in $list with the reason"
	failed=$((failed + 1))
done <"$tmp.new"
cut -f1 "$tmp" | LC_ALL=C sort | LC_ALL=C comm -13 - "$tmp.a" >"$tmp.gone"
while IFS= read -r key; do
	echo "reads: $list lists '$key', which is gone: delete that line"
	failed=$((failed + 1))
done <"$tmp.gone"
# every entry gives a reason
if grep -vE '^(#|$)' "$list" 2>/dev/null | grep -vqE ' -- [^ ]'; then
	grep -vE '^(#|$)' "$list" | grep -vE ' -- [^ ]' | sed "s/^/reads: $list: no reason given (' -- REASON'): /"
	failed=$((failed + 1))
fi
sites=$(wc -l <"$tmp")
echo "reads: $sites read sites outside the one reader (each must be listed in $list with a reason)" >&2
if [ "$failed" -eq 0 ]; then echo "reads: 1 passed, 0 failed"; exit 0; fi
echo "reads: 0 passed, $failed failed"; exit 1
