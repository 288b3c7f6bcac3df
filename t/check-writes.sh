#!/bin/sh
# t/check-writes.sh [ROOT]: every file storbench writes is opened by the one
# writer gate, os/outfile.c (HOWTO.md "7. Safety").  Outside it,
# a .c file of the source folders (tracked, untracked or outside git alike)
# and storbench.c may not call, in code (comments and strings do not count):
#   open/openat/open64 with O_WRONLY, O_RDWR, O_CREAT, O_TRUNC or O_APPEND
#   (or with flags it does not spell out: a variable may hold any of them),
#   fopen/fdopen/freopen with a mode holding w, a or + (or not a literal),
#   creat, rename/renameat, unlink/unlinkat, remove, rmdir, mkdir/mkdirat,
#   truncate, mkstemp/mkostemp/mkdtemp.
# os/scratch.c may unlink and rmdir: removal by identity (what this run
# made, and only while the path still names it); os/scratchside.c, the
# mark's fallback record where xattrs are missing, may open and unlink its
# own .storbench-owner file.  t/writes.allow lists the
# calls that still bypass the gate ("FILE CALL", one a line), each to be
# moved behind it; a call that is neither allowed nor listed fails the
# check, and so does a listed one that is gone (delete its line: the list
# only shrinks).  ROOT (default: this tree) is the tree to check.
# Prints "writes: N passed, N failed" and exits non-zero on a failure.
cd "${1:-$(dirname "$0")/..}" || exit 2
table=t/layers.table
[ -r "$table" ] || { echo "writes: cannot read $table" >&2; exit 2; }
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' "$table")
list=t/writes.allow
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$tmp.gone"' EXIT
# shellcheck disable=SC2086
{ find $dirs -type f -name '*.c' 2>/dev/null; ls storbench.c 2>/dev/null; } | LC_ALL=C sort |
while read -r f; do
	awk -v F="$f" '
	{ text = text $0 "\n" }
	END {
		# comments out, strings emptied (a short mode-like literal kept)
		n = length(text); s = ""; i = 1
		while (i <= n) {
			c = substr(text, i, 1); c2 = substr(text, i, 2)
			if (c2 == "/*") {
				j = index(substr(text, i + 2), "*/"); j = j ? i + 2 + j + 1 : n + 1
				seg = substr(text, i, j - i); gsub(/[^\n]/, " ", seg); s = s seg; i = j
			} else if (c2 == "//") {
				j = index(substr(text, i), "\n"); j = j ? i + j - 1 : n + 1
				i = j
			} else if (c == "\"" || c == "\047") {
				j = i + 1
				while (j <= n && substr(text, j, 1) != c) { if (substr(text, j, 1) == "\\") j++; j++ }
				lit = substr(text, i + 1, j - i - 1)
				nl = lit; gsub(/[^\n]/, "", nl)
				if (c == "\"" && lit ~ /^[rwabxe+]+$/) s = s "\"" lit "\""
				else s = s c c nl
				i = j + 1
			} else { s = s c; i++ }
		}
		names = "open|openat|open64|openat64|creat|creat64|fopen|fopen64|fdopen|freopen|rename|renameat|renameat2|unlink|unlinkat|remove|rmdir|mkdir|mkdirat|truncate|truncate64|mkstemp|mkostemp|mkstemps|mkostemps|mkdtemp"
		re = "(^|[^A-Za-z0-9_.>])(" names ")[ \t\n]*\\("
		off = 0; rest = s
		while (match(rest, re)) {
			pre = substr(rest, 1, RSTART - 1); call = substr(rest, RSTART, RLENGTH)
			sub(/^[^A-Za-z_]/, "", call); sub(/[ \t\n]*\($/, "", call)
			if (substr(rest, RSTART, 1) ~ /[^A-Za-z_]/) pre = pre substr(rest, RSTART, 1)
			# the arguments: to the matching parenthesis
			a = substr(rest, RSTART + RLENGTH); depth = 1; k = 1; m = length(a)
			while (k <= m && depth > 0) { ch = substr(a, k, 1); if (ch == "(") depth++; else if (ch == ")") depth--; k++ }
			args = substr(a, 1, k - 2)
			line = off + split(pre, _t, "\n")
			if (pre == "" || substr(pre, length(pre)) == "\n") line = off + split(pre, _t, "\n") + 1
			write = 1
			if (call ~ /^open/) write = args ~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE/ || args !~ /O_RDONLY|O_PATH/
			else if (call ~ /^(fopen|fdopen|freopen)/) {
				mode = args; sub(/^.*,[ \t\n]*/, "", mode)
				if (call == "freopen") { mode = args; sub(/^[^,]*,[ \t\n]*/, "", mode); sub(/,.*$/, "", mode) }
				write = mode !~ /^"[rbe]*"$/
			}
			if (write) print F, line, call
			consumed = RSTART + RLENGTH - 1
			nls = substr(rest, 1, consumed); off += gsub(/\n/, "", nls)
			rest = substr(rest, consumed + 1)
		}
	}' "$f"
done >"$tmp"
failed=0
while read -r f line call; do
	[ "$f" = os/outfile.c ] && continue
	case "$f $call" in "os/scratch.c unlink" | "os/scratch.c rmdir" | "os/scratch.c unlinkat" | \
		"os/scratchside.c open" | "os/scratchside.c unlink") continue ;; esac
	if ! grep -qxF "$f $call" "$list" 2>/dev/null; then
		echo "writes: $f:$line calls $call to write outside the gate: open the file through os/outfile.h (sb_outfile_open, sb_outfile_create, sb_outfile_mkdir, ...)"
		failed=$((failed + 1))
	fi
done <"$tmp"
grep -vE '^(#|$)' "$list" 2>/dev/null | while read -r f call; do
	if ! grep -q "^$f [0-9]* $call\$" "$tmp"; then
		echo "writes: t/writes.allow lists '$f $call', which is gone: delete that line"
	fi
done >"$tmp.gone"
gone=$(wc -l <"$tmp.gone")
cat "$tmp.gone"
failed=$((failed + gone))
listed=$(grep -cvE '^(#|$)' "$list" 2>/dev/null)
echo "writes: ${listed:-0} calls still listed in $list (each to move behind the gate)" >&2
if [ $failed -eq 0 ]; then echo "writes: 1 passed, 0 failed"; exit 0; fi
echo "writes: 0 passed, 1 failed"
exit 1
