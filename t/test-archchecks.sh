#!/bin/sh
# t/test-archchecks.sh: each architecture checker fails on a planted
# violation.  Copies the sources (not git: untracked files count) and the
# built objects to a temporary tree, plants one violation at a time and
# expects the checker to fail there and to pass on the clean copy.
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' t/layers.table)
# shellcheck disable=SC2086
cp -R $dirs t "$tmp"/ && cp ./*.c ./*.h "$tmp"/ 2>/dev/null
cp ./*.md Makefile "$tmp"/ 2>/dev/null; cp -R bench jobs doc "$tmp"/ 2>/dev/null
mkdir -p "$tmp/build" && (cd build && find . -path ./t -prune -o -path ./san -prune -o -path ./clang -prune -o -name '*.o' -print | tar -cf - -T -) | (cd "$tmp/build" && tar -xf -)
fail=0
expect() { # expect pass|fail WHAT COMMAND...
	want=$1; what=$2; shift 2
	if "$@" >/dev/null 2>&1; then got=pass; else got=fail; fi
	if [ "$got" != "$want" ]; then echo "archchecks: $what: expected $want, got $got"; fail=1; fi
}
A="python3 $tmp/t/check-arch.py"
expect pass "clean layers" sh "$tmp/t/check-layers.sh" "$tmp"
expect pass "clean links" $A links --root "$tmp"
expect pass "clean cycles" $A cycles --root "$tmp"
expect pass "clean size" $A size --root "$tmp"
expect pass "clean headers" sh "$tmp/t/check-headers.sh" "$tmp"
expect pass "clean reads" sh "$tmp/t/check-reads.sh" "$tmp"
expect pass "clean writes" sh "$tmp/t/check-writes.sh" "$tmp"
expect pass "clean history" sh "$tmp/t/check-history.sh" "$tmp"
# 1. a wrong include in a file git does not know
printf '#include "ml/run.h"\n' >"$tmp/stats/planted.c"
expect fail "untracked stats/ file including ml/" sh "$tmp/t/check-layers.sh" "$tmp"
rm "$tmp/stats/planted.c"
# a listed crossing that is gone
echo "lib/csum.c os/os.h" >>"$tmp/t/layers.allow"
expect fail "gone layers.allow entry" sh "$tmp/t/check-layers.sh" "$tmp"
sed -i '$d' "$tmp/t/layers.allow"
# 2. an object of parse/ that uses a symbol of ml/
cp "$tmp/build/ml/run.o" "$tmp/build/parse/planted.o"
sym=$(nm build/ml/run.o | awk '$2 == "T" { print $3; exit }')
printf 'extern void %s(void);\nvoid planted(void);\nvoid planted(void) { %s(); }\n' "$sym" "$sym" |
	${CC:-cc} -c -x c - -o "$tmp/build/parse/planted.o"
expect fail "parse/ object using ml/ $sym" $A links --root "$tmp"
rm "$tmp/build/parse/planted.o"
# run/ reaching ml/ (as run/ranks.c did through sb_ml_ranks_merge): fails;
# listed in links.allow it passes, and the listing is what makes it pass
printf 'extern void %s(void);\nvoid planted2(void);\nvoid planted2(void) { %s(); }\n' "$sym" "$sym" |
	${CC:-cc} -c -x c - -o "$tmp/build/run/planted.o"
expect fail "run/ object using ml/ $sym" $A links --root "$tmp"
echo "run/planted.o ml/run.o" >>"$tmp/t/links.allow"
expect pass "run/ object using ml/, listed" $A links --root "$tmp"
sed -i '$d' "$tmp/t/links.allow"
expect fail "links.allow entry removed while the crossing stays" $A links --root "$tmp"
rm "$tmp/build/run/planted.o"
echo "lib/csum.o os/os.o" >>"$tmp/t/links.allow"
expect fail "gone links.allow entry" $A links --root "$tmp"
cp t/links.allow "$tmp/t/links.allow"
# 3. a new circle: lib/ a.o and b.o using each other
printf 'void pa(void); void pb(void);\nvoid pa(void) { pb(); }\n' | ${CC:-cc} -c -x c - -o "$tmp/build/lib/pa.o"
printf 'void pa(void); void pb(void);\nvoid pb(void) { pa(); }\n' | ${CC:-cc} -c -x c - -o "$tmp/build/lib/pb.o"
expect fail "new circle lib/pa.o lib/pb.o" $A cycles --root "$tmp"
rm "$tmp/build/lib/pa.o" "$tmp/build/lib/pb.o"
echo "lib/csum.o lib/datagen.o" >>"$tmp/t/cycles.allow"
expect fail "gone cycles.allow entry" $A cycles --root "$tmp"
cp t/cycles.allow "$tmp/t/cycles.allow"
# 4. a header that does not compile alone
printf '#ifndef P_H\n#define P_H\nsize_t planted(void);\n#endif\n' >"$tmp/lib/planted.h"
expect fail "lib/planted.h needs <stddef.h>" sh "$tmp/t/check-headers.sh" "$tmp"
rm "$tmp/lib/planted.h"
# 5. a new long file, a new long function, a listed one that grew
awk 'BEGIN { for (i = 0; i < 601; i++) print "/* x */" }' >"$tmp/lib/planted.c"
expect fail "new 601-line file" $A size --root "$tmp"
awk 'BEGIN { print "int planted(void);\nint planted(void)\n{"; for (i = 0; i < 80; i++) print "\t;"; print "\treturn 0;\n}" }' >"$tmp/lib/planted.c"
expect fail "new 83-line function" $A size --root "$tmp"
rm "$tmp/lib/planted.c"
sed -i 's/^run\/files.c:plan_file [0-9]*$/run\/files.c:plan_file 10/' "$tmp/t/size.allow"
expect fail "listed function over its recorded size" $A size --root "$tmp"
cp t/size.allow "$tmp/t/size.allow"
echo "lib/planted.c 700" >>"$tmp/t/size.allow"
expect fail "gone size.allow entry" $A size --root "$tmp"
# 6. a file opened for reading outside the one reader (os/infile.c)
for call in 'FILE *f = fopen(p, "r");' 'int fd = open(p, O_RDONLY);' 'DIR *d = opendir(p);' \
	'int fd = openat(AT_FDCWD, p, O_RDWR);' 'int fd = open (p, flags);'; do
	printf 'void pl(const char *p);\nvoid pl(const char *p)\n{\n\t%s\n}\n' "$call" >"$tmp/tools/planted.c"
	expect fail "read site '$call' outside the reader" sh "$tmp/t/check-reads.sh" "$tmp"
done
# listed with a reason it passes; without a reason, or listed twice, it fails
echo 'tools/planted.c: int fd = open (p, flags); -- planted' >>"$tmp/t/reads.allow"
expect pass "read site listed in reads.allow" sh "$tmp/t/check-reads.sh" "$tmp"
echo 'tools/planted.c: int fd = open (p, flags); -- planted' >>"$tmp/t/reads.allow"
expect fail "reads.allow entry listed twice for one site" sh "$tmp/t/check-reads.sh" "$tmp"
cp t/reads.allow "$tmp/t/reads.allow"
echo 'tools/planted.c: int fd = open (p, flags);' >>"$tmp/t/reads.allow"
expect fail "reads.allow entry without a reason" sh "$tmp/t/check-reads.sh" "$tmp"
cp t/reads.allow "$tmp/t/reads.allow"
# writes, exclusive creates, fixed system paths, comments and strings are not read sites
for call in 'FILE *f = fopen(p, "w");' 'int fd = open(p, O_WRONLY | O_CREAT, 0644);' \
	'int fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0644);' 'FILE *f = fopen("/proc/self/stat", "r");' \
	'/* fopen(p, "r") */' 'const char *s = "cannot open(p)";'; do
	printf 'void pl(const char *p);\nvoid pl(const char *p)\n{\n\t%s\n}\n' "$call" >"$tmp/tools/planted.c"
	expect pass "not a read site: '$call'" sh "$tmp/t/check-reads.sh" "$tmp"
done
rm "$tmp/tools/planted.c"
# a listed site that is gone
echo 'lib/csum.c: FILE *f = fopen(p, "r"); -- gone' >>"$tmp/t/reads.allow"
expect fail "gone reads.allow entry" sh "$tmp/t/check-reads.sh" "$tmp"
cp t/reads.allow "$tmp/t/reads.allow"
# 7. writes outside the gate (os/outfile.c), each kind in a file git does not know
for call in 'open(p, O_WRONLY | O_CREAT, 0644)' 'open(p,\n\t O_RDONLY | O_TRUNC)' 'openat(d, p, fl)' \
	'fopen(p, "w")' 'fopen(p, "r+")' 'fopen(p, mode)' 'fdopen(fd, "a")' 'creat(p, 0644)' \
	'rename(p, q)' 'unlink(p)' 'unlinkat(d, p, 0)' 'mkstemp(t)' 'mkdir(p, 0755)'; do
	printf 'void planted(const char *p);\nvoid planted(const char *p)\n{\n\t(void)%b;\n}\n' "$call" >"$tmp/stats/planted.c"
	expect fail "stats/planted.c calling $call" sh "$tmp/t/check-writes.sh" "$tmp"
done
# reads, comments and strings are no writes
printf 'void planted(const char *p);\nvoid planted(const char *p)\n{\n\t/* unlink(p) */ (void)open(p, O_RDONLY | O_CLOEXEC);\n\t(void)fopen(p, "r");\n\tputs("rename(p, q)");\n}\n' >"$tmp/stats/planted.c"
expect pass "stats/planted.c reading only" sh "$tmp/t/check-writes.sh" "$tmp"
# os/scratch.c may remove by identity; the gate may do anything
printf 'void planted(const char *p);\nvoid planted(const char *p) { (void)unlink(p); (void)rename(p, p); }\n' >"$tmp/os/outfile_planted.c"
expect fail "os/outfile_planted.c (not the gate) calling unlink" sh "$tmp/t/check-writes.sh" "$tmp"
rm "$tmp/stats/planted.c" "$tmp/os/outfile_planted.c"
printf 'int planted_w(const char *p) { return unlink(p) + rename(p, p); }\n' >>"$tmp/os/outfile.c"
expect pass "the gate itself writing" sh "$tmp/t/check-writes.sh" "$tmp"
printf 'int planted_s(const char *p) { return rename(p, p); }\n' >>"$tmp/os/scratch.c"
expect fail "os/scratch.c renaming" sh "$tmp/t/check-writes.sh" "$tmp"
cp os/outfile.c "$tmp/os/outfile.c"; cp os/scratch.c "$tmp/os/scratch.c"
# a listed call that is gone, and a listed call removed while it stays
echo "lib/csum.c unlink" >>"$tmp/t/writes.allow"
expect fail "gone writes.allow entry" sh "$tmp/t/check-writes.sh" "$tmp"
cp t/writes.allow "$tmp/t/writes.allow"
# a call listed passes; its line removed while the call stays fails
printf 'void planted(const char *p);\nvoid planted(const char *p) { (void)unlink(p); }\n' >"$tmp/stats/planted.c"
echo "stats/planted.c unlink" >>"$tmp/t/writes.allow"
expect pass "a listed call" sh "$tmp/t/check-writes.sh" "$tmp"
cp t/writes.allow "$tmp/t/writes.allow"
expect fail "writes.allow entry removed while the call stays" sh "$tmp/t/check-writes.sh" "$tmp"
rm "$tmp/stats/planted.c"
cp t/writes.allow "$tmp/t/writes.allow"
# 8. history tags (the words split here so that this file holds none)
i=issue; I=Issue; d=defect; a=appended; o='(opts'
H="sh $tmp/t/check-history.sh $tmp"
for text in "/* $a: the wakeup period */" "/* $a ($i 27): GPU copies */" "/* $i 16: sizes */" \
	"/* ${o}3) */" "/* $I 9 #12: job files */" "/* $d 5: SIGBUS */" "/* $i #28 */" \
	"/* may $i 4 I/Os; $i 27: GPU copies */"; do
	printf 'int planted;\n%s\n' "$text" >"$tmp/stats/planted.c"
	expect fail "stats/planted.c holding '$text'" $H
done
printf 'int planted; /* may %s 4 I/Os at once, %s to the file, %ss */\n' "$i" "$a" "$i" >"$tmp/stats/planted.c"
expect pass "stats/planted.c with the verb, the file mode, the plural" $H
for f in t/integration/planted.py jobs/planted.ini bench/planted.py planted.md t/jobs/bad/planted.ini; do
	printf '; %s 28 item 7: past 2^63\n' "$i" >"$tmp/$f"
	expect fail "$f holding a history tag" $H
	rm "$tmp/$f"
done
printf '/* %s 27 */\n' "$i" >"$tmp/stats/planted.c"
echo "stats/planted.c" >>"$tmp/t/history.allow"
expect pass "a listed file with a tag" $H
rm "$tmp/stats/planted.c"
expect fail "a listed file gone" $H
cp t/history.allow "$tmp/t/history.allow"
echo "lib/csum.c" >>"$tmp/t/history.allow"
expect fail "a listed file with no tag left" $H
cp t/history.allow "$tmp/t/history.allow"
if [ $fail -eq 0 ]; then echo "archchecks: 1 passed, 0 failed"; exit 0; fi
echo "archchecks: 0 passed, 1 failed"; exit 1
