#!/bin/bash
# t/s3/stop-s3.sh [S3_DIR]       stop the S3 server t/s3/start-s3.sh started in S3_DIR
#                                (default $S3_DIR) and remove that directory.
# t/s3/stop-s3.sh --rgw S3_DIR [SIG]  signal only its radosgw, SIG (default KILL):
#                                KILL, as a crash: in-flight requests are reset and
#                                the port then refuses connections; TERM: radosgw's
#                                own shutdown; STOP: a hung server (connections are
#                                accepted by the kernel, nothing answers) until CONT.
#                                mon, osd and the directory stay until a plain stop.
# t/s3/stop-s3.sh --all PARENT   the same as a plain stop for every PARENT/s3.* left by
#                                earlier runs (e.g. a start-s3.sh killed before it printed).
# Only the pids recorded in S3_DIR/s3.pid, S3_DIR/watchdog.pid and the daemons' own
# pid files in S3_DIR/run are signalled, and only while their command line still
# names S3_DIR/ceph.conf, so a recycled pid is never hit. Safe to run twice.
# exit: 0 stopped/removed (or already gone); 1 a process would not die; 2 usage.
set -u
log() { printf 'stop-s3: %s\n' "$*" >&2; }

if [ "${1:-}" = --all ]; then
    [ -n "${2:-}" ] || { log "usage: stop-s3.sh --all PARENT"; exit 2; }
    rc=0
    for d in "$2"/s3.*; do
        [ -d "$d" ] || continue
        [ -f "$d/s3.pid" ] || [ -f "$d/ceph.conf" ] || continue
        "$0" "$d" || rc=1
    done
    exit $rc
fi

MODE=all SIG=KILL
if [ "${1:-}" = --rgw ]; then
    MODE=rgw; shift
    case ${2:-KILL} in KILL|TERM|STOP|CONT) SIG=${2:-KILL} ;;
    *) log "usage: stop-s3.sh --rgw S3_DIR [KILL|TERM|STOP|CONT]"; exit 2 ;; esac
fi
D=${1:-${S3_DIR:-}}
[ -n "$D" ] || { log "usage: stop-s3.sh [--rgw] S3_DIR | --all PARENT"; exit 2; }
[ -d "$D" ] || { log "$D: already gone"; exit 0; }
D=$(cd "$D" && pwd)
case $D in /|/tmp|/var|/var/tmp|/root|/home|/work) log "refusing $D"; exit 2 ;; esac
if [ ! -f "$D/s3.pid" ] && [ ! -f "$D/ceph.conf" ]; then
    log "$D has neither s3.pid nor ceph.conf: not a start-s3.sh directory, left alone"; exit 2
fi

ours() { # pid -> true if it is a live (non-zombie) process started with our ceph.conf
    local p=$1 st
    [ -r "/proc/$p/cmdline" ] || return 1
    st=$( { sed 's/^.*) //' "/proc/$p/stat"; } 2>/dev/null | cut -c1)
    [ "$st" = Z ] && return 1
    { tr '\0' '\n' < "/proc/$p/cmdline"; } 2>/dev/null | grep -qxF "$D/ceph.conf"
}

if [ "$MODE" = rgw ]; then
    p=$(sed -n 3p "$D/s3.pid" 2>/dev/null)
    case $p in ''|*[!0-9]*) log "$D: no radosgw pid recorded"; exit 1 ;; esac
    ours "$p" || { log "radosgw (pid $p) already gone"; exit 0; }
    kill "-$SIG" "$p" 2>/dev/null
    case $SIG in STOP|CONT) log "radosgw (pid $p) sent SIG$SIG"; exit 0 ;; esac
    [ "$SIG" = TERM ] && kill -CONT "$p" 2>/dev/null
    i=0; while ours "$p" && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    if ours "$p"; then log "radosgw pid $p still runs 30 s after SIG$SIG"; exit 1; fi
    log "radosgw (pid $p) ended by SIG$SIG; mon and osd still run in $D"
    exit 0
fi

# the watchdog first (unless it is what runs this script): its process group, bash
# and its tail
if [ -f "$D/watchdog.pid" ]; then
    w=$(cat "$D/watchdog.pid")
    case $w in ''|*[!0-9]*) ;; *)
        if [ "$w" != $$ ] && ours "$w"; then kill -TERM -- "-$w" 2>/dev/null; fi ;;
    esac
fi

# recorded order is mon, osd, rgw: stop in reverse (rgw first, mon last)
pids=""
[ -f "$D/s3.pid" ] && pids=$(tac "$D/s3.pid")
for f in "$D"/run/client.rgw.a.pid "$D"/run/osd.0.pid "$D"/run/mon.a.pid; do
    [ -f "$f" ] && pids="$pids $(cat "$f")"
done
seen=" "
for p in $pids; do
    case $p in *[!0-9]*|'') continue ;; esac
    case $seen in *" $p "*) continue ;; esac
    seen="$seen$p "
    ours "$p" || continue
    kill -TERM "$p" 2>/dev/null
    kill -CONT "$p" 2>/dev/null     # one frozen with --rgw DIR STOP
    i=0
    while ours "$p" && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done   # 10 s
    if ours "$p"; then
        log "pid $p ignored SIGTERM for 10 s: SIGKILL"
        kill -KILL "$p" 2>/dev/null
        i=0; while ours "$p" && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
    fi
done
for p in $seen; do
    if ours "$p"; then log "pid $p still running; $D kept"; exit 1; fi
done
rm -rf "$D"
log "stopped; removed $D"
