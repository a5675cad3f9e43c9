#!/usr/bin/env bash
# The "Several nodes" benchmark of docs/benchmarks.md: table games over
# three Ply Yard nodes behind HAProxy, the same load on one node, three
# nodes with one killed (SIGKILL) in the window, and the ceiling (shorter
# think times until p99 passes 50 ms) for one node and for three.
#
# Everything runs on loopback and is started here: one PostgreSQL 15
# cluster (its defaults: fsync and synchronous_commit on) shared by every
# run, one database per run; one Redis; the nodes; two HAProxy processes
# (round-robin, no stickiness, `timeout tunnel`): one process may hold at
# most ~9,900 relayed websockets under this container's 20,000 open files
# per process, so loadgen spreads its sockets over both. Every process is
# stopped on exit.
#
# Usage: tools/cluster_bench.sh [OUT_DIR]
#   BIN=DIR        where plyyard and loadgen are (default target/release)
#   GAMES=5000     games per run;  SECS=60  window of runs a–c
#   CEIL_SECS=30   window of a ceiling step; CEIL_THINK="1200 600 300 150"
#   RUNS="three one kill ceil1 ceil3"  which runs to make
# Each run's loadgen output is kept in OUT_DIR/<run>.log, its last line
# (JSON) in OUT_DIR/results.jsonl, the nodes' logs in OUT_DIR/<run>-nodeN.log.
set -euo pipefail

OUT=${1:-/tmp/cluster-bench}
BIN=${BIN:-target/release}
GAMES=${GAMES:-5000}
SECS=${SECS:-60}
CEIL_SECS=${CEIL_SECS:-30}
CEIL_THINK=${CEIL_THINK:-"1200 600 300 150"}
RUNS=${RUNS:-"three one kill ceil1 ceil3"}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/cluster-bench.XXXXXX)
chmod 755 "$WORK"
PIDS=()

cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    if [ -n "${REDIS_PID:-}" ]; then kill "$REDIS_PID" 2>/dev/null || true; fi
    if [ -d "$WORK/pg/data" ]; then
        runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

ulimit -n "$(ulimit -Hn)"

# PostgreSQL: one cluster for every run.
PGPORT=$(free_port)
mkdir -p "$WORK/pg"
chown postgres "$WORK/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$WORK/pg/data" -A trust >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $WORK/pg -c max_connections=200" start >/dev/null
PG_PID=$(head -1 "$WORK/pg/data/postmaster.pid")
PGURL="postgres://postgres@127.0.0.1:$PGPORT"

# Redis: one for every run.
RPORT=$(free_port)
mkdir -p "$WORK/redis"
redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$WORK/redis" --daemonize yes --pidfile "$WORK/redis/pid" >/dev/null
sleep 0.5
REDIS_PID=$(cat "$WORK/redis/pid")

echo "postgres :$PGPORT (pid $PG_PID), redis :$RPORT (pid $REDIS_PID)"
echo "load average before: $(cat /proc/loadavg)"

# start_node NAME PORT DB [redis]: a node; its pid in NODE_PID.
start_node() {
    local name=$1 port=$2 db=$3 redis=${4:-} log="$OUT/$RUN-$1.log"
    local extra=()
    if [ -n "$redis" ]; then
        extra=(--redis "redis://127.0.0.1:$RPORT/0" --node-id "$name" --trust-proxy)
    fi
    "$BIN/plyyard" serve --addr "127.0.0.1:$port" --db "$PGURL/$db" --rate-limits off \
        "${extra[@]}" >"$log" 2>&1 &
    NODE_PID=$!
    PIDS+=("$NODE_PID")
    for _ in $(seq 1 300); do
        grep -q 'listening on' "$log" && return 0
        sleep 0.2
    done
    echo "node $name did not start:" >&2
    tail -20 "$log" >&2
    exit 1
}

# start_haproxy PORT NODE_PORT...: a balancer; its pid in HAP_PID.
start_haproxy() {
    local port=$1
    shift
    local cfg="$WORK/haproxy-$port.cfg"
    {
        printf 'global\n    maxconn 9500\n'
        printf 'defaults\n    mode http\n    option forwardfor\n    option redispatch\n    retries 2\n'
        printf '    timeout connect 5s\n    timeout client 60s\n    timeout server 60s\n'
        printf '    timeout tunnel 1h\n    timeout http-request 10s\n    timeout http-keep-alive 10s\n'
        printf 'frontend www\n    bind 127.0.0.1:%s\n    default_backend nodes\n' "$port"
        printf 'backend nodes\n    balance roundrobin\n    option httpchk GET /healthz\n'
        printf '    default-server check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions\n'
        local i=1
        for p in "$@"; do
            printf '    server node%s 127.0.0.1:%s\n' "$i" "$p"
            i=$((i + 1))
        done
    } >"$cfg"
    haproxy -db -f "$cfg" >"$OUT/$RUN-haproxy-$port.log" 2>&1 &
    HAP_PID=$!
    PIDS+=("$HAP_PID")
    sleep 1
}

stop_all() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do
        for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$p" 2>/dev/null || true
    done
    PIDS=()
}

# run NAME NODES THINK WINDOW [loadgen args…]: one run on a fresh database.
run() {
    RUN=$1
    local nodes=$2 think=$3 window=$4
    shift 4
    local db="bench_${RUN//-/_}"
    runuser -u postgres -- psql -q -h 127.0.0.1 -p "$PGPORT" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    local ports=() pids=() args=()
    if [ "$nodes" = 1 ]; then
        ports=("$(free_port)")
        start_node node1 "${ports[0]}" "$db"
        pids=("$NODE_PID")
        args=(--targets "127.0.0.1:${ports[0]}")
    else
        for i in $(seq 1 "$nodes"); do
            ports+=("$(free_port)")
            start_node "node$i" "${ports[-1]}" "$db" redis
            pids+=("$NODE_PID")
        done
        local b1 b2
        b1=$(free_port)
        start_haproxy "$b1" "${ports[@]}"
        local h1=$HAP_PID
        b2=$(free_port)
        start_haproxy "$b2" "${ports[@]}"
        local h2=$HAP_PID
        args=(--targets "127.0.0.1:$b1,127.0.0.1:$b2" --redis "127.0.0.1:$RPORT"
            --other "haproxy1=$h1,haproxy2=$h2")
    fi
    local nodelist
    nodelist=$(printf '127.0.0.1:%s,' "${ports[@]}")
    local pidlist
    pidlist=$(printf '%s,' "${pids[@]}")
    echo "== $RUN: $nodes node(s), $GAMES games, think $think ms, window $window s; load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$BIN/loadgen" --timeout 900 spread --label "$RUN" --games "$GAMES" --seconds "$window" \
        --think-ms "$think" "${args[@]}" --nodes "${nodelist%,}" --node-pids "${pidlist%,}" \
        --pg "$PGURL/$db" --pg-pid "$PG_PID" "$@" 2>&1 | tee "$OUT/$RUN.log"
    tail -1 "$OUT/$RUN.log" >>"$OUT/results.jsonl"
    stop_all
}

p99_over_50() {
    python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1]); sys.exit(0 if max(r["opp_p99_ms"], r["ack_p99_ms"]) > 50 else 1)' "$1"
}

for r in $RUNS; do
    case $r in
    three) run three 3 2400 "$SECS" ;;
    one) run one 1 2400 "$SECS" ;;
    kill) run kill 3 2400 "$SECS" --kill-node 1 --kill-after $((SECS / 2)) ;;
    ceil1 | ceil3)
        n=${r#ceil}
        for t in $CEIL_THINK; do
            run "$r-$t" "$n" "$t" "$CEIL_SECS"
            if p99_over_50 "$OUT/$r-$t.log"; then break; fi
        done
        ;;
    *) echo "unknown run $r" >&2; exit 2 ;;
    esac
done
echo "load average after: $(cat /proc/loadavg)"
echo "results: $OUT/results.jsonl"
