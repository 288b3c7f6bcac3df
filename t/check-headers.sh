#!/bin/sh
# t/check-headers.sh [ROOT]: every .h of the source folders compiles on its
# own (it includes what it uses): $CC -fsyntax-only -x c over a file that
# includes only that header, with the project's flags ($SB_HDR_CFLAGS, set
# by make check-headers).  Prints "headers: N passed, N failed".
cd "${1:-$(dirname "$0")/..}" || exit 2
CC=${CC:-cc}
FLAGS=${SB_HDR_CFLAGS:--std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -D_GNU_SOURCE -I. -I/usr/include/iniparser -I/usr/include/hdf5/serial}
dirs=$(awk -F: '/^[a-z_]+:/ { printf "%s ", $1 }' t/layers.table)
export CC FLAGS
# shellcheck disable=SC2086
bad=$(find $dirs -type f -name '*.h' 2>/dev/null | LC_ALL=C sort |
	xargs -P "$(nproc 2>/dev/null || echo 2)" -n 1 sh -c \
	'printf "#include \"%s\"\n" "$1" | $CC $FLAGS -fsyntax-only -x c - 2>/dev/null || echo "$1"' sh)
if [ -z "$bad" ]; then echo "headers: 1 passed, 0 failed"; exit 0; fi
for h in $bad; do echo "headers: $h does not compile on its own: include what it uses"; done
echo "headers: 0 passed, 1 failed"
exit 1
