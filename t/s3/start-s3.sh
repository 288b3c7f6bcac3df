#!/bin/bash
# t/s3/start-s3.sh [PARENT_DIR] -- start a real S3 server for storbench's tests:
# Ceph radosgw 16.2 (Debian 12 packages) as a one-node cluster on 127.0.0.1, in a
# throwaway directory under PARENT_DIR (default: mktemp -d).  The integration
# tests start it through t/integration/sbtest.py (S3Server); by hand:
#
#   eval "$(S3_WATCH_PID=$$ t/s3/start-s3.sh "$dir")" || exit $?   # sets S3_* variables
#   ... requests to $S3_ENDPOINT ...
#   t/s3/stop-s3.sh "$S3_DIR"            # the whole cluster, and its directory
#   t/s3/stop-s3.sh --rgw "$S3_DIR"      # only radosgw ("server stopped mid-run")
#
# Cluster: one ceph-mon, one ceph-osd, one radosgw (beast frontend), cephx off (S3
# auth is still SigV4 with the keys printed below), no ceph-mgr; every socket on
# 127.0.0.1, ports picked at random (two clusters at once do not collide).
#
# stdout: only KEY=value lines: S3_ENDPOINT S3_REGION S3_ACCESS_KEY S3_SECRET_KEY
#         S3_BUCKET S3_DIR S3_PIDFILE S3_RGW_PID (and S3_CA_FILE with S3_TLS=1);
#         also written to $S3_DIR/s3.env.  S3_PIDFILE holds the pids of ceph-mon,
#         ceph-osd and radosgw, one a line, in that order (radosgw's is S3_RGW_PID).
# stderr: progress and, on failure, the tail of the daemons' logs.
# exit:   0 up; 1 failed to start (everything it started is stopped again, its
#         directory removed); 77 server packages missing (the line on stderr names
#         them and the apt-get command) and not installed (S3_NO_INSTALL=1, not root,
#         or apt-get failed).
#
# The daemons never outlive whoever started them: a watchdog (tail --pid, which
# polls once a second and forks nothing) runs stop-s3.sh on this directory as soon
# as the process S3_WATCH_PID ends, even when it was killed with SIGKILL.
#
# Environment (all optional):
#   S3_NO_INSTALL=1      never call apt-get (the test suite always sets it: .ci/run and
#                        the README's install line install the packages); without it,
#                        as root, the missing packages are installed (about 160 s)
#   S3_PACKAGES="..."    the packages checked (default: radosgw ceph-mon ceph-osd
#                        python3-rados curl uuid-runtime; the tests add a missing one
#                        to check the exit 77 path)
#   S3_WATCH_PID=PID     stop the cluster when PID ends (default: the parent of this
#                        script; by hand with eval "$(...)" give the shell's $$);
#                        0: no watchdog
#   S3_START_ACCESS_KEY, S3_START_SECRET_KEY, S3_START_BUCKET: fixed values instead
#                        of random ones (S3_ACCESS_KEY etc. from an earlier run are ignored)
#   S3_OSD_STORE=bluestore|memstore           default bluestore (see "Object store")
#   S3_DISK_GB=16        BlueStore sparse file size (capacity seen by Ceph)
#   S3_MEM_GB=2          MemStore capacity (held in RAM)
#   S3_START_TIMEOUT=180 seconds allowed for the whole start
#   S3_WARMUP=0          skip the warm-up requests that create the data pools
#   S3_TLS=1             HTTPS only (self-signed cert for 127.0.0.1; S3_CA_FILE printed)
#   S3_RGW_MAX_CONCURRENT=N  radosgw answers 503 SlowDown beyond N requests in flight
#                        (default 1024): a way to test a client's 503 retry path
#
# Object store: BlueStore by default.  Measured on the 2-core test machine (idle):
# both start in about 7.5 s (about 2 CPU-seconds: mostly waiting) and stop in under
# 1 s; idle RSS mon 36 MB, osd 52-57 MB, rgw 55 MB with either, idle CPU about 0.03.  After 200 MB of PUTs the BlueStore OSD held 153 MB RSS
# (its cache is bounded by osd_memory_target) and 245 MB of sparse file in S3_DIR,
# while the MemStore OSD held 464 MB RSS: MemStore keeps every byte written in RAM
# (about twice over), so a test that writes a checkpoint or a dataset costs its size
# in memory, twice when build/ and build/san/ test files overlap.  BlueStore's cost
# is disk in the temporary directory, removed at stop.
#
# Adapted from a recipe proven on Debian 12 (radosgw 16.2.15); the comments below
# keep what it learned.
set -u
umask 022
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

log() { printf 'start-s3: %s\n' "$*" >&2; }
T0=$(date +%s.%N)
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }

# ---------------------------------------------------------------- install
PKGS=${S3_PACKAGES:-radosgw ceph-mon ceph-osd python3-rados curl uuid-runtime}
missing() { # the packages of PKGS not installed
    local p
    for p in $PKGS; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || printf '%s ' "$p"
    done
}
MISSING=$(missing)
if [ -n "$MISSING" ]; then
    if [ "${S3_NO_INSTALL:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
        log "missing packages: ${MISSING% }; install them with: apt-get install -y ${MISSING% }"
        exit 77
    fi
    log "installing ${MISSING% } (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    APT="apt-get -o DPkg::Lock::Timeout=600 -y -q --no-install-recommends"
    if ! $APT install $MISSING >&2; then
        apt-get -o DPkg::Lock::Timeout=600 -q update >&2
        $APT install $MISSING >&2 || { log "apt-get install ${MISSING% } failed"; exit 77; }
    fi
    MISSING=$(missing)
    [ -n "$MISSING" ] && { log "still missing after apt-get: ${MISSING% }"; exit 77; }
    log "install done after $(elapsed)s"
fi

# ---------------------------------------------------------------- directory
PARENT=${1:-}
if [ -n "$PARENT" ]; then
    mkdir -p "$PARENT" || exit 1
    D=$(mktemp -d "$(cd "$PARENT" && pwd)/s3.XXXXXX") || exit 1
else
    D=$(mktemp -d "${TMPDIR:-/tmp}/s3.XXXXXX") || exit 1
fi
chmod 755 "$D"
mkdir -p "$D/mon.a" "$D/osd.0" "$D/rgw" "$D/run" "$D/log" "$D/crash"
PIDFILE=$D/s3.pid
: > "$PIDFILE"
CONF=$D/ceph.conf
STOP=$(cd "$(dirname "$0")" && pwd)/stop-s3.sh

fail() {
    log "FAILED after $(elapsed)s: $*"
    for f in "$D"/log/*.log "$D"/log/*.out; do
        [ -s "$f" ] || continue
        printf -- '--- %s (last 15 lines)\n' "$f" >&2
        tail -n 15 "$f" >&2
    done
    if [ -x "$STOP" ]; then "$STOP" "$D" >&2; else rm -rf "$D"; fi
    exit 1
}
trap 'fail "interrupted"' INT TERM HUP

# The watchdog: its own session (a Ctrl-C to the tests' process group does not
# reach it), stdio away from our stdout (a caller's $(...) must not wait for it);
# its command line names $CONF so that stop-s3.sh recognises it as ours.  It starts
# before any daemon, so that even a start-s3.sh killed mid-way leaves nothing
# running once its caller is gone.
WATCH=${S3_WATCH_PID:-$PPID}
case $WATCH in ''|*[!0-9]*) fail "S3_WATCH_PID must be a pid or 0" ;; esac
if [ "$WATCH" != 0 ]; then
    kill -0 "$WATCH" 2>/dev/null || fail "S3_WATCH_PID $WATCH is not running"
    setsid /bin/bash -c 'tail --pid="$1" -f /dev/null; exec "$2" "$3"' s3-watchdog \
        "$WATCH" "$STOP" "$D" "$CONF" </dev/null >/dev/null 2>&1 &
    echo $! > "$D/watchdog.pid"
fi

# two distinct free loopback ports (kept bound until both are known)
set -- $(/usr/bin/python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])') || fail "no free port"
MON_PORT=${1:-} RGW_PORT=${2:-}
[ -n "$RGW_PORT" ] || fail "no free port"

FSID=$(uuidgen)
STORE=${S3_OSD_STORE:-bluestore}
DISK_BYTES=$(( ${S3_DISK_GB:-16} * 1073741824 ))
MEM_BYTES=$(( ${S3_MEM_GB:-2} * 1073741824 ))
case $STORE in
bluestore) STORE_CONF="osd_objectstore = bluestore
bluestore_block_create = true
bluestore_block_size = $DISK_BYTES
bluestore_fsck_on_mkfs = false
osd_memory_target = 1073741824
bluestore_cache_autotune = true" ;;
memstore) STORE_CONF="osd_objectstore = memstore
memstore_device_bytes = $MEM_BYTES" ;;
*) fail "S3_OSD_STORE must be bluestore or memstore" ;;
esac

CURL_TLS=""
if [ "${S3_TLS:-0}" = 1 ]; then
    # self-signed certificate for 127.0.0.1; clients verify it with S3_CA_FILE
    openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
        -keyout "$D/tls.key" -out "$D/tls.crt" >"$D/log/openssl.out" 2>&1 || fail "openssl req"
    cat "$D/tls.crt" "$D/tls.key" > "$D/tls.pem"
    FRONTEND="beast ssl_endpoint=127.0.0.1:$RGW_PORT ssl_certificate=$D/tls.pem tcp_nodelay=1"
    SCHEME=https CURL_TLS="--cacert $D/tls.crt"
else
    # tcp_nodelay=1: without it beast's small writes wait for the client's
    # delayed ACK, and every request on a reused connection takes about 45 ms
    # (curl's own, measured here: 45-48 ms per 4 KiB GET; 1.6-2 ms with it)
    FRONTEND="beast endpoint=127.0.0.1:$RGW_PORT tcp_nodelay=1"
    SCHEME=http
fi

cat > "$CONF" <<EOF
[global]
fsid = $FSID
mon_host = v2:127.0.0.1:$MON_PORT
public_addr = 127.0.0.1
cluster_addr = 127.0.0.1
ms_bind_msgr1 = false
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
ms_mon_client_mode = crc secure
run_dir = $D/run
admin_socket = $D/run/\$name.asok
pid_file = $D/run/\$name.pid
log_file = $D/log/\$name.log
mon_cluster_log_file = $D/log/cluster.log
crash_dir = $D/crash
keyring = $D/keyring
client_mount_timeout = 30
rados_mon_op_timeout = 60
osd_pool_default_size = 1
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
mon_max_pg_per_osd = 1000
osd_crush_chooseleaf_type = 0
mon_data_avail_warn = 2
mon_data_avail_crit = 1
mon_warn_on_insecure_global_id_reclaim_allowed = false
paxos_propose_interval = 0.1
[mon.a]
mon_data = $D/mon.a
[osd.0]
osd_data = $D/osd.0
$STORE_CONF
[client.rgw.a]
rgw_frontends = $FRONTEND
rgw_max_concurrent_requests = ${S3_RGW_MAX_CONCURRENT:-1024}
rgw_data = $D/rgw
# virtual-hosted requests (BUCKET.localhost:PORT/KEY; libcurl resolves
# *.localhost to the loopback itself); any other Host, 127.0.0.1 too, is
# path-style
rgw_dns_name = localhost
rgw_gc_obj_min_wait = 60
rgw_gc_processor_period = 60
EOF

# Launch a daemon in the foreground (-f) in the background; record its pid at once.
launch() { # name cmd...
    local name=$1; shift
    "$@" -f </dev/null >"$D/log/$name.out" 2>&1 &
    echo $! >> "$PIDFILE"
}
DEADLINE=$(( $(date +%s) + ${S3_START_TIMEOUT:-180} ))
expired() { [ "$(date +%s)" -ge "$DEADLINE" ]; }
alive() { kill -0 "$(sed -n "$1p" "$PIDFILE")" 2>/dev/null; }

# ---------------------------------------------------------------- mon + osd
monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$D/monmap" >/dev/null 2>&1 \
    || fail "monmaptool"
ceph-mon -c "$CONF" -i a --mkfs --monmap "$D/monmap" >"$D/log/mon-mkfs.out" 2>&1 || fail "ceph-mon --mkfs"
launch mon.a ceph-mon -c "$CONF" -i a
OSD_UUID=$(uuidgen)
# the object store mkfs needs no monitor: run it while the monitor comes up
ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$OSD_UUID" --no-mon-config >"$D/log/osd-mkfs.out" 2>&1 &
MKFS_PID=$!
until (exec 3<>"/dev/tcp/127.0.0.1/$MON_PORT") 2>/dev/null; do
    alive 1 || fail "ceph-mon exited"; expired && fail "timeout waiting for ceph-mon"; sleep 0.1
done
# One librados client does what would otherwise be several 1.3 s `ceph` CLI calls:
# wait for the monitor, register osd.0, and create radosgw's pools up front (all in
# one go, before the OSD is up) so radosgw does not create them one by one.
timeout $(( DEADLINE - $(date +%s) )) /usr/bin/python3 - "$CONF" "$OSD_UUID" >"$D/log/bootstrap.out" 2>&1 <<'PYEOF' || fail "cluster bootstrap (monitor not reachable?)"
import json, sys, time, rados
conf, osd_uuid = sys.argv[1], sys.argv[2]
for i in range(30):
    r = rados.Rados(conffile=conf, name="client.admin")
    try:
        r.connect(timeout=10); break
    except rados.Error as e:
        print("connect:", e, flush=True); r.shutdown(); time.sleep(0.5)
else:
    sys.exit("monitor never answered")
def cmd(**kw):
    ret, out, err = r.mon_command(json.dumps(kw), b"")
    print("%.2f" % time.time(), kw["prefix"], kw.get("pool", ""), ret, out.decode().strip(), err, flush=True)
    if ret != 0:
        sys.exit(err)
    return out.decode().strip()
osd_id = cmd(prefix="osd new", uuid=osd_uuid)
if osd_id != "0":
    sys.exit("unexpected osd id " + osd_id)
pools = {".rgw.root": 4, "default.rgw.control": 4, "default.rgw.meta": 4,
         "default.rgw.log": 4, "default.rgw.buckets.index": 8,
         "default.rgw.buckets.non-ec": 4, "default.rgw.buckets.data": 16}
for p, n in pools.items():
    cmd(prefix="osd pool create", pool=p, pg_num=n, pgp_num=n)
for p in pools:
    cmd(prefix="osd pool application enable", pool=p, app="rgw")
r.shutdown()
PYEOF
log "mon up on 127.0.0.1:$MON_PORT, osd.0 registered, pools created after $(elapsed)s"
wait $MKFS_PID || fail "ceph-osd --mkfs"
launch osd.0 ceph-osd -c "$CONF" -i 0
log "osd.0 ($STORE) started after $(elapsed)s"

# ---------------------------------------------------------------- rgw
# radosgw creates its pools and waits for the OSD itself; it answers HTTP once done.
launch rgw.a radosgw -c "$CONF" -n client.rgw.a
EP=$SCHEME://127.0.0.1:$RGW_PORT
until [ "$(curl $CURL_TLS -s -o /dev/null -m 5 -w '%{http_code}' "$EP/")" = 200 ]; do
    alive 1 || fail "ceph-mon exited"; alive 2 || fail "ceph-osd exited"
    alive 3 || fail "radosgw exited"; expired && fail "timeout waiting for radosgw"; sleep 0.2
done
log "radosgw answering on $EP after $(elapsed)s"

rnd() { tr -dc "$1" </dev/urandom | head -c "$2"; }
AK=${S3_START_ACCESS_KEY:-$(rnd A-Z0-9 20)}
SK=${S3_START_SECRET_KEY:-$(rnd A-Za-z0-9 40)}
BUCKET=${S3_START_BUCKET:-test-$(rnd a-z0-9 8)}
timeout 60 radosgw-admin -c "$CONF" user create --uid=s3test --display-name=s3test \
    --access-key="$AK" --secret-key="$SK" >"$D/log/user-create.out" 2>&1 || fail "radosgw-admin user create"

# libcurl 7.88's --aws-sigv4 signs sha256(body) but sends no x-amz-content-sha256
# header; radosgw then verifies against UNSIGNED-PAYLOAD and answers 403, so every
# client must send the header itself (UNSIGNED-PAYLOAD or the real hex SHA-256).
# libcurl 7.88 also signs the query string verbatim: it must already be canonical
# (keys sorted, every key with "=", values %-encoded, "/" as %2F).
s3curl() {
    curl $CURL_TLS -s -m 30 --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AK:$SK" \
        -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"
}
until code=$(s3curl -o "$D/log/mkbucket.out" -w '%{http_code}' -X PUT "$EP/$BUCKET") && \
      { [ "$code" = 200 ] || grep -q BucketAlreadyOwnedByYou "$D/log/mkbucket.out"; }; do
    expired && fail "timeout creating bucket (last HTTP $code)"; sleep 0.5
done
if [ "${S3_WARMUP:-1}" = 1 ]; then
    # first object write and first multipart upload each create a pool (~2 s each):
    # pay that here, not in the first timed test.
    s3curl -o /dev/null -X PUT --data-binary warmup "$EP/$BUCKET/.s3-warmup" || fail "warm-up PUT"
    # (query strings must already be in SigV4 canonical form: "?uploads=", not "?uploads")
    up=$(s3curl -X POST "$EP/$BUCKET/.s3-warmup-mp?uploads=" | sed -n 's:.*<UploadId>\(.*\)</UploadId>.*:\1:p')
    [ -n "$up" ] || fail "warm-up multipart initiate"
    s3curl -o /dev/null -X DELETE "$EP/$BUCKET/.s3-warmup-mp?uploadId=$up"
    s3curl -o /dev/null -X DELETE "$EP/$BUCKET/.s3-warmup"
fi
log "bucket $BUCKET ready; total start $(elapsed)s; dir $D"

trap - INT TERM HUP
cat > "$D/s3.env" <<EOF
S3_ENDPOINT=$EP
S3_REGION=us-east-1
S3_ACCESS_KEY=$AK
S3_SECRET_KEY=$SK
S3_BUCKET=$BUCKET
S3_DIR=$D
S3_PIDFILE=$PIDFILE
S3_RGW_PID=$(sed -n 3p "$PIDFILE")
EOF
[ "$SCHEME" = https ] && echo "S3_CA_FILE=$D/tls.crt" >> "$D/s3.env"
cat "$D/s3.env"
