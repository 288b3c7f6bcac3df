#!/bin/sh
# count-optnames.sh: option names (and aliases) of the option table (its row
# files parse/opt_*.c joined by parse/options.c, see parse/opt_rows.h) that
# appear as C string literals outside the option table and the tests, counted
# as distinct (file, option) pairs (the target: "at most 25").  A literal
# counts when it is exactly an option name or alias ("bs"; JSON keys that
# equal one count too); with -p also when it starts with one followed by '='
# ("bs=%s").  -v lists the pairs.  Not run by make check: a measure, not a rule.
# tools/ is not counted: its tools read result JSON keys back ("name",
# "epochs"), the output's schema, and interpret no option.
# Usage: t/count-optnames.sh [-v] [-p] [SRCDIR]
verbose=0 prefix=0
while :; do
	case $1 in
	-v) verbose=1; shift ;;
	-p) prefix=1; shift ;;
	*) break ;;
	esac
done
root=${1:-.}
cd "$root" || exit 2
names=$(awk '
	/^const struct sb_option sb_opt_rows_[a-z_]*\[\]/ { t = 1; next }
	t && /^};/ { t = 0 }
	t && /\.name = "/ { sub(/.*\.name = "/, ""); sub(/".*/, ""); print }
	t && /\.alias = \{/ { s = $0; sub(/.*\.alias = \{/, "", s); sub(/\}.*/, "", s);
		n = split(s, a, ","); for (i = 1; i <= n; i++) { gsub(/[ "]/, "", a[i]); if (a[i] != "" && a[i] != "0") print a[i] } }
	t && /^\t\{ "/ { s = $0; sub(/^\t\{ "/, "", s); sub(/".*/, "", s); print s
		s = $0; if (match(s, /\{"[^}]*\}/)) { al = substr(s, RSTART + 1, RLENGTH - 2); n = split(al, a, ",");
		for (i = 1; i <= n; i++) { gsub(/[ "]/, "", a[i]); if (a[i] != "") print a[i] } } }
' parse/opt_*.c | sort -u)
files=$(find . -path ./t -prune -o -path ./build -prune -o -path ./tools -prune -o \( -name '*.c' -o -name '*.h' \) -print |
	sed 's|^\./||' | grep -v -e '^parse/options\.c$' -e '^parse/opt_[a-z_]*\.c$' | sort)
pairs=$(for f in $files; do
	# string literals of the file, comments removed (roughly: /* */ on one line and //)
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' "$f" | grep -o '"[^"\\]*\(\\.[^"\\]*\)*"' |
	sed -e 's/^"//' -e 's/"$//' | { if [ $prefix = 1 ]; then sed 's/=.*//'; else cat; fi; } | sort -u | while read -r lit; do
		for n in $names; do [ "$lit" = "$n" ] && echo "$f $n"; done
	done
done)
[ $verbose = 1 ] && [ -n "$pairs" ] && echo "$pairs"
echo "$pairs" | grep -c . 
