#!/usr/bin/env bash
# peers.sh: what each HTTPS load generator costs per request, side by side.
#
#   bench/peers.sh              # a few seconds per cell, one round
#   bench/peers.sh --long       # 10 s per cell, median of 3 interleaved rounds
#   DURATION=5 ROUNDS=3 CONNS=64 CERTS=ecdsa-p256 PROTOS=1.3 MODES=close bench/peers.sh
#   ONLY="kaeload wrk" bench/peers.sh   # a subset of the tools
#
# A private nginx listens on 127.0.0.1, pinned to CPU $SERVER_CPU (0); every
# client is pinned to CPU $CLIENT_CPU (1), one at a time, in a shuffled order
# per round (interleaved, so that drift of the machine hits every tool
# alike). The clients: kaeload, wrk, h2load (--h1), hey, bombardier (those
# installed; the others are named with how to install them) and tlsloop
# (bench/tlsloop), a bare Go crypto/tls loop that is the floor. Cells:
# ECDSA P-256 and RSA-2048 certificates × TLS 1.3 and TLS 1.2 (the server
# offers that version only) × close (a new connection and a full handshake
# per request, no resumption) and keep-alive.
#
# Per tool and cell it prints, medians over the rounds, each taken over
# the steady part of the run (from the first /proc sample 0.3 s after the
# first request nginx logged to the last sample before its last request,
# every 0.2 s), so that start-up and exit (kaeload writes its reports)
# count for no tool:
#   - req/s: requests nginx logged in that span / its length;
#   - client µs/req: CPU time (utime + stime from /proc/PID/stat) of the
#     tool's process, its children and grandchildren (kaeload's workers)
#     over the span, divided by the requests nginx logged in it;
#   - × kaeload: that figure over kaeload's (below 1: cheaper than kaeload);
#   - server µs/req: nginx's CPU time (master and workers) likewise;
#   - resumed: the share of those requests nginx logged on a resumed session;
#   - bottleneck: the side whose CPU was at least 90 % busy over the span,
#     or "neither" (latency bound, or the CPUs were shared with others).
# In TLS 1.2 cells, "kaeload-tls12" is kaeload with max_version: "1.2":
# the key share a TLS 1.3 ClientHello carries is then not generated; the
# difference is the saving kaeload's report hints at.
#
# Needs nginx, openssl and go. Ratios are what to read: on a shared or
# small machine absolute figures drift.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-3}
ROUNDS=${ROUNDS:-1}
if [ "${1:-}" = --long ]; then
  DURATION=10
  ROUNDS=3
elif [ -n "${1:-}" ]; then
  echo "usage: bench/peers.sh [--long]" >&2
  exit 2
fi
CONNS=${CONNS:-32}
CERTS=${CERTS:-"ecdsa-p256 rsa2048"}
PROTOS=${PROTOS:-"1.3 1.2"}
MODES=${MODES:-"close keep-alive"}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "peers.sh: needs nginx (apt-get install -y nginx)" >&2; exit 1; }
command -v openssl >/dev/null || { echo "peers.sh: needs openssl" >&2; exit 1; }

work=$(mktemp -d /tmp/kaeload-peers.XXXXXX)
cleanup() {
  [ -f "$work/nginx.pid" ] && "$NGINX" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The tools: each found or skipped with the way to install it.
gobin=$(go env GOPATH)/bin
find_tool() { command -v "$1" 2>/dev/null || { [ -x "$gobin/$1" ] && echo "$gobin/$1"; } || true; }
WRK=$(find_tool wrk); H2LOAD=$(find_tool h2load); HEY=$(find_tool hey); BOMBARDIER=$(find_tool bombardier)
tools="kaeload tlsloop"
skipped=""
[ -n "$WRK" ] && tools="$tools wrk" || skipped="$skipped\n  wrk: apt-get install wrk"
[ -n "$H2LOAD" ] && tools="$tools h2load" || skipped="$skipped\n  h2load: apt-get install nghttp2-client"
[ -n "$HEY" ] && tools="$tools hey" || skipped="$skipped\n  hey: go install github.com/rakyll/hey@latest"
[ -n "$BOMBARDIER" ] && tools="$tools bombardier" || skipped="$skipped\n  bombardier: go install github.com/codesenberg/bombardier@latest"

if [ -n "${ONLY:-}" ]; then # e.g. ONLY="kaeload wrk"
  keep=""
  for t in $tools; do case " $ONLY " in *" $t "*) keep="$keep $t" ;; esac; done
  tools=$keep
fi

go build -o "$work/kaeload" ./cmd/kaeload
go build -o "$work/tlsloop" ./bench/tlsloop
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -keyout "$work/ecdsa-p256.key" -out "$work/ecdsa-p256.pem" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -keyout "$work/rsa2048.key" -out "$work/rsa2048.pem" 2>/dev/null
port=$(( 20000 + RANDOM % 20000 ))
url="https://127.0.0.1:$port/"
user=""; [ "$(id -u)" -eq 0 ] && user="user root;"

# start_nginx CERT PROTO: (re)starts nginx with one certificate and one TLS
# version, no session cache or tickets, and a log line per request.
start_nginx() {
  [ -f "$work/nginx.pid" ] && { "$NGINX" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true; }
  for _ in $(seq 50); do [ -f "$work/nginx.pid" ] || break; sleep 0.1; done
  cat > "$work/nginx.conf" <<CONF
$user
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 8192; }
http {
  log_format k '\$msec \$ssl_session_reused \$ssl_protocol';
  access_log $work/access.log k;
  client_body_temp_path $work;
  keepalive_requests 10000000;
  server {
    listen 127.0.0.1:$port ssl backlog=4096;
    ssl_certificate $work/$1.pem;
    ssl_certificate_key $work/$1.key;
    ssl_protocols TLSv$2;
    ssl_session_cache off;
    ssl_session_tickets off;
    location / { return 200 "kaeload bench\n"; }
  }
}
CONF
  taskset -c "$SERVER_CPU" "$NGINX" -p "$work" -c "$work/nginx.conf"
  for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
  sleep 0.3
}

# nginx_pids: nginx's master and workers, after start_nginx.
nginx_pids() {
  local master
  master=$(cat "$work/nginx.pid")
  echo "$master $(pgrep -P "$master" | tr '\n' ' ')"
}

# sample ROOT: until ROOT exits, every 0.2 s, prints the time, the CPU
# ticks of ROOT and its children and grandchildren (kaeload's workers,
# the tool under timeout), and those of nginx.
sample() {
  local kids grand
  while kill -0 "$1" 2>/dev/null; do
    kids=$(pgrep -d, -P "$1" || true)
    grand=""; [ -n "$kids" ] && grand=$(pgrep -d, -P "$kids" || true)
    # shellcheck disable=SC2086 # pid lists are split on purpose
    echo "$EPOCHREALTIME $(awk -v n="$SERVER_PIDS" '
      BEGIN { split(n, a, " "); for (i in a) srv["/proc/" a[i] "/stat"] = 1 }
      { line = $0; sub(/.*\) /, "", line); split(line, f, " "); t = f[12] + f[13]
        if (FILENAME in srv) s += t; else c += t }
      END { print c + 0, s + 0 }' /proc/"$1"/stat $(echo "$kids,$grand" | tr ',' '\n' | sed '/^$/d; s|.*|/proc/&/stat|') \
        $(for p in $SERVER_PIDS; do echo "/proc/$p/stat"; done) 2>/dev/null)"
    sleep 0.2
  done
}

# scenario NAME MODE MAXVERSION: a kaeload scenario for this cell.
scenario() {
  cat > "$work/$1.yaml" <<YAML
name: peers
target:
  url: "$url"
  tls: {max_version: "$3"}
load:
  connection: $2
  warmup: 0s
  duration: ${DURATION}s
  groups: [{cpus: "$CLIENT_CPU", threads: 1, connections: $CONNS}]
YAML
}

# command_for TOOL MODE RUN: sets CMD to the tool's command line for
# this cell (RUN numbers kaeload's run directory).
command_for() {
  local ka=0 close=()
  OKRC=0
  [ "$2" = keep-alive ] && ka=1
  [ $ka = 0 ] && close=(-H "Connection: close")
  case $1 in
    kaeload) CMD=("$work/kaeload" run "$work/k13.yaml" --progress off --out "$work/run$3") ;;
    kaeload-tls12) CMD=("$work/kaeload" run "$work/k12.yaml" --progress off --out "$work/run$3") ;;
    tlsloop) CMD=("$work/tlsloop" -addr "127.0.0.1:$port" -c "$CONNS" -d "${DURATION}s")
      [ $ka = 1 ] && CMD+=(-keepalive) ;;
    wrk) CMD=("$WRK" -t 1 -c "$CONNS" -d "${DURATION}s" "${close[@]}" "$url") ;;
    h2load) CMD=("$H2LOAD" --h1 -t 1 -c "$CONNS" -D "$DURATION" "$url")
      # With -D, h2load does not stop once the server closes its
      # connections: run it for a huge -n and interrupt it on time.
      [ $ka = 0 ] && CMD=(timeout -s INT "$DURATION" "$H2LOAD" --h1 -t 1 -c "$CONNS" -n 1000000000 "${close[@]}" "$url") && OKRC=124 ;;
    hey) CMD=("$HEY" -z "${DURATION}s" -c "$CONNS")
      [ $ka = 0 ] && CMD+=(-disable-keepalive)
      CMD+=("$url") ;;
    bombardier) CMD=("$BOMBARDIER" -k -c "$CONNS" -d "${DURATION}s" -p r "${close[@]}" "$url") ;;
  esac
  return 0
}

# measure CELL TOOL MODE ROUND: one pinned run (cut off 20 s after its
# duration), sampled by sample; appends a line to results. The figures
# cover the steady part of the run: from the first sample 0.3 s after the
# first request nginx logged to the last sample before the last one, so
# a tool's start-up and exit (kaeload writes its reports) count for none.
runs=0
measure() {
  local pid rc=0
  runs=$((runs + 1))
  command_for "$2" "$3" "$runs"
  : > "$work/access.log"
  timeout -k 5 $((DURATION + 20)) taskset -c "$CLIENT_CPU" "${CMD[@]}" > "$work/out.log" 2>&1 &
  pid=$!
  sample "$pid" > "$work/samples"
  wait "$pid" || rc=$?
  if [ $rc != 0 ] && [ $rc != "$OKRC" ]; then
    echo "peers.sh: $2 failed (exit $rc: ${CMD[*]}):" >&2; tail -5 "$work/out.log" >&2; return 0
  fi
  awk -v cell="$1" -v tool="$2" -v round="$4" -v hz="$(getconf CLK_TCK)" '
    FILENAME == ARGV[1] { st[++ns] = $1; ct[ns] = $2; sv[ns] = $3; next }
    { at[++n] = $1; reused[n] = ($2 == "r") }
    END {
      if (n < 2) { printf "%s|%s|%s|0|0|0|0|0|none\n", cell, tool, round; exit }
      a = 0; b = 0
      for (i = 1; i <= ns; i++) {
        if (!a && st[i] >= at[1] + 0.3) a = i
        if (st[i] <= at[n]) b = i
      }
      if (!a || b <= a) { printf "%s|%s|%s|0|0|0|0|0|too short\n", cell, tool, round; exit }
      span = st[b] - st[a]
      for (i = 1; i <= n; i++) if (at[i] > st[a] && at[i] <= st[b]) { k++; r += reused[i] }
      if (k == 0) { printf "%s|%s|%s|0|0|0|0|0|none\n", cell, tool, round; exit }
      ccpu = (ct[b] - ct[a]) / hz; scpu = (sv[b] - sv[a]) / hz
      cb = ccpu / span; sb = scpu / span
      neck = "neither"
      if (cb >= 0.9 || sb >= 0.9) neck = (cb >= sb) ? "client" : "server"
      printf "%s|%s|%s|%d|%.1f|%.1f|%.1f|%.1f|%s\n", cell, tool, round, k, k / span, ccpu * 1e6 / k, scpu * 1e6 / k, 100 * r / k, neck
    }' "$work/samples" "$work/access.log" >> "$work/results"
}

# shuffled WORDS...: the words in a random order.
shuffled() { printf '%s\n' "$@" | shuf | tr '\n' ' '; }

echo "nginx on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU, $CONNS connections, ${DURATION} s per run, $ROUNDS round(s), interleaved"
echo "tools: $tools"
[ -n "$skipped" ] && printf "skipped (not installed):$skipped\n"
: > "$work/results"
cells=""
for cert in $CERTS; do
  for proto in $PROTOS; do
    start_nginx "$cert" "$proto"
    SERVER_PIDS=$(nginx_pids)
    for mode in $MODES; do
      cell="$cert TLS$proto $mode"
      cells="$cells$cell;"
      scenario k13 "$mode" 1.3
      scenario k12 "$mode" 1.2
      list=$tools
      [ "$proto" = 1.2 ] && list="$list kaeload-tls12"
      for round in $(seq "$ROUNDS"); do
        for tool in $(shuffled $list); do
          measure "$cell" "$tool" "$mode" "$round"
        done
      done
    done
  done
done
"$NGINX" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true

# The medians per cell and tool, and the tables.
awk -F'|' -v cells="$cells" '
function median(key,   m, i, j, v, a) {
  m = cnt[key]
  for (i = 1; i <= m; i++) a[i] = val[key, i]
  for (i = 2; i <= m; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j+1] = a[j]; a[j+1] = v }
  return (m % 2) ? a[(m + 1) / 2] : (a[m/2] + a[m/2 + 1]) / 2
}
function add(key, v) { val[key, ++cnt[key]] = v }
{
  k = $1 SUBSEP $2
  if (!(k in seen)) { seen[k] = 1; order[$1] = order[$1] " " $2 }
  add(k SUBSEP "rps", $5); add(k SUBSEP "cus", $6); add(k SUBSEP "sus", $7); add(k SUBSEP "res", $8)
  necks[k] = necks[k] (necks[k] == "" ? "" : ",") $9
}
function neck(k,   parts, n, i, c, s, o) {
  n = split(necks[k], parts, ",")
  for (i = 1; i <= n; i++) { if (parts[i] == "client") c++; else if (parts[i] == "server") s++; else o++ }
  return (c >= s && c >= o) ? "client" : (s >= o ? "server" : "neither")
}
END {
  nc = split(cells, cl, ";")
  for (ci = 1; ci < nc; ci++) {
    cell = cl[ci]
    kus = median(cell SUBSEP "kaeload" SUBSEP "cus")
    printf "\n== %s\n", cell
    printf "  %-14s %10s %14s %10s %14s %8s  %s\n", "tool", "req/s", "client µs/req", "×kaeload", "server µs/req", "resumed", "bottleneck"
    nt = split(order[cell], tl, " ")
    for (ti = 1; ti <= nt; ti++) {
      t = tl[ti]; k = cell SUBSEP t
      cus = median(k SUBSEP "cus")
      printf "  %-14s %10.0f %14.0f %10.2f %14.0f %7.1f%%  %s\n", t, median(k SUBSEP "rps"), cus, (kus > 0 ? cus / kus : 0), median(k SUBSEP "sus"), median(k SUBSEP "res"), neck(k)
      us[cell, t] = cus; rps[cell, t] = median(k SUBSEP "rps"); tools[t] = 1
    }
  }
  printf "\n== client µs per request (median), each cell\n  %-14s", "tool"
  for (ci = 1; ci < nc; ci++) { c = cl[ci]; gsub(/ecdsa-p256/, "ECDSA", c); gsub(/rsa2048/, "RSA", c); gsub(/keep-alive/, "ka", c); printf " %16s", c }
  printf "\n"
  for (t in tools) names = names " " t
  nn = split("kaeload kaeload-tls12 tlsloop wrk h2load hey bombardier", want, " ")
  for (wi = 1; wi <= nn; wi++) {
    t = want[wi]; if (!(t in tools)) continue
    printf "  %-14s", t
    for (ci = 1; ci < nc; ci++) printf " %16s", ((cl[ci], t) in us) ? sprintf("%.0f", us[cl[ci], t]) : "-"
    printf "\n"
  }
  for (ci = 1; ci < nc; ci++) {
    cell = cl[ci]
    if (cell ~ /keep-alive/ && (cell, "wrk") in us && us[cell, "kaeload"] > 0)
      printf "keep-alive %s: kaeload %.0f req per client CPU-s, wrk %.0f: kaeload/wrk %.2f\n", cell, 1e6 / us[cell, "kaeload"], 1e6 / us[cell, "wrk"], us[cell, "wrk"] / us[cell, "kaeload"]
    if ((cell, "kaeload-tls12") in us)
      printf "%s: max_version \"1.2\" saves kaeload %.0f µs of client CPU per request (%.0f → %.0f)\n", cell, us[cell, "kaeload"] - us[cell, "kaeload-tls12"], us[cell, "kaeload"], us[cell, "kaeload-tls12"]
  }
}' "$work/results"
