#!/bin/sh
# t/check-history.sh [ROOT]: comments, docstrings and documents say what the
# code does or why; the project's history lives in git.  Fails on a history
# tag in a text file of the source folders (t/layers.table), t/, bench/,
# jobs/, doc/ or the top folder (*.c, *.h, *.md, Makefile): an issue or defect number
# ("issue" or "defect" followed by a number), a field labelled "appended"
# (the word, then a colon or a space and a parenthesis) or a work-package
# label ("(opts" and a digit).  "issue 4 I/Os" and the like (the verb) are no tag.  t/history.allow
# lists the files that still hold tags (one path a line), each to be
# rewritten; a file with a tag that is not listed fails the check, and so
# does a listed file that holds none or is gone (delete its line: the list
# only shrinks).  ROOT (default: this tree) is the tree to check.
# Prints "history: N passed, N failed" and exits non-zero on a failure.
cd "${1:-$(dirname "$0")/..}" || exit 2
table=t/layers.table
[ -r "$table" ] || { echo "history: cannot read $table" >&2; exit 2; }
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' "$table")
list=t/history.allow
tag='(^|[^A-Za-z])(issues?|defects?) #?[0-9]|appended( \(|:)|\(opts[0-9]'
# the verb ("issue" and a count of I/Os, reads, ...) is taken out first
verb='issues? [0-9]+ (i/os?|reads?|writes?|requests?|commands?|blocks?|bytes)([^a-z]|$)'
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$tmp.files" "$tmp.gone"' EXIT
# shellcheck disable=SC2086
for d in $dirs t bench jobs doc; do
	[ -d "$d" ] && find "$d" -name __pycache__ -prune -o -type f -print
done 2>/dev/null >"$tmp.files"
ls ./*.c ./*.h ./*.md Makefile 2>/dev/null | sed 's|^\./||' >>"$tmp.files"
LC_ALL=C sort -u "$tmp.files" | grep -vxF "$list" | tr '\n' '\0' |
	LC_ALL=C xargs -0 grep -HInE -i "$tag" 2>/dev/null |
	LC_ALL=C awk -v tag="$tag" -v verb="$verb" '{ t = tolower($0); gsub(verb, "", t); if (t ~ tolower(tag)) print }' >"$tmp"
failed=0
tagged=$(cut -d: -f1 "$tmp" | LC_ALL=C sort -u)
for f in $tagged; do
	if ! grep -qxF "$f" "$list" 2>/dev/null; then
		awk -F: -v f="$f" '$1 == f' "$tmp" | while IFS=: read -r ff line text; do
			echo "history: $ff:$line: '$(echo "$text" | sed 's/^[[:space:]]*//' | cut -c1-72)' holds a history tag: say what the code does or why (the history lives in git)"
		done
		failed=$((failed + 1))
	fi
done
grep -vE '^(#|$)' "$list" 2>/dev/null | while read -r f; do
	if ! cut -d: -f1 "$tmp" | grep -qxF "$f"; then
		echo "history: $list lists '$f', which holds no history tag (or is gone): delete that line"
	fi
done >"$tmp.gone"
gone=$(wc -l <"$tmp.gone")
cat "$tmp.gone"
failed=$((failed + gone))
listed=$(grep -cvE '^(#|$)' "$list" 2>/dev/null)
echo "history: ${listed:-0} files still listed in $list (each to be rewritten)" >&2
if [ $failed -eq 0 ]; then echo "history: 1 passed, 0 failed"; exit 0; fi
echo "history: 0 passed, 1 failed"; exit 1
