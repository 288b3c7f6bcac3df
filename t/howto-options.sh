#!/bin/sh
# Replace the block between <!-- options:begin --> and <!-- options:end --> in
# HOWTO.md ($2) with the option tables the binary ($1) derives from parse/options.c.
bin=$1; doc=$2
tmp=$(mktemp) || exit 1
"$bin" --cmdhelp-markdown >"$tmp.tab" || exit 1
awk -v tab="$tmp.tab" '
	/^<!-- options:begin -->$/ { print; while ((getline l < tab) > 0) print l; skip = 1; next }
	/^<!-- options:end -->$/ { skip = 0 }
	!skip { print }' "$doc" >"$tmp" && mv "$tmp" "$doc"
rm -f "$tmp.tab"
