#!/usr/bin/env bash
# wrk.sh: kaeload against wrk, side by side in one run, on the same private
# nginx (pinned to CPU 0; both clients pinned to CPU 1, one at a time).
#
#   bench/wrk.sh                 # 5 s per client, 16 connections
#   DURATION=20 CONNS=64 bench/wrk.sh
#
# It shows the two things wrk hides: with session resumption allowed by the
# server, wrk resumes most handshakes (so the RSA work an accelerator
# offloads is mostly not measured) while kaeload does a full handshake every
# time; and it puts each client's req/s next to its client CPU-seconds, so
# the cost of the full handshakes is visible. Needs nginx, wrk and openssl
# (apt-get install -y nginx wrk openssl). Ratios are what to read: absolute
# figures drift on shared machines.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5}
CONNS=${CONNS:-16}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d /tmp/kaeload-wrk.XXXXXX)
trap '"$NGINX" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/kaeload" ./cmd/kaeload
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
port=$(( 20000 + RANDOM % 20000 ))
user=""; [ "$(id -u)" -eq 0 ] && user="user root;"
url="https://127.0.0.1:$port/"

# start_nginx on|off: (re)start nginx with session resumption allowed or not.
start_nginx() {
  "$NGINX" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null && sleep 0.5 || true
  local sess="ssl_session_cache off; ssl_session_tickets off;"
  [ "$1" = on ] && sess="ssl_session_cache shared:SSL:10m; ssl_session_tickets on;"
  cat > "$work/nginx.conf" <<CONF
$user
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  log_format k '\$ssl_session_reused';
  access_log $work/access.log k;
  client_body_temp_path $work;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    $sess
    location / { return 200 "kaeload bench\n"; }
  }
}
CONF
  taskset -c 0 "$NGINX" -p "$work" -c "$work/nginx.conf"
  sleep 0.5
}

# timed CMD...: runs CMD (stdout kept by the caller) and leaves its client
# CPU-seconds, user+sys of it and its waited-for children, in $cpu.
timed() {
  local TIMEFORMAT='%3U %3S'
  { time "$@" 2>>"$work/stderr.log"; } 2>"$work/time"
  cpu=$(awk '{print $1+$2}' "$work/time")
}

cat > "$work/scenario.yaml" <<YAML
name: bench-vs-wrk
target: {url: "$url"}
load:
  connection: close
  warmup: 0s
  duration: ${DURATION}s
  groups: [{cpus: "1", threads: 1, connections: $CONNS}]
YAML

# measure on|off: one wrk run and one kaeload run against nginx with
# resumption on or off; prints a table row block.
measure() {
  start_nginx "$1"
  : > "$work/access.log"
  timed taskset -c 1 wrk -t 1 -c "$CONNS" -d "${DURATION}s" -H "Connection: Close" "$url" > "$work/wrk.out"
  local wc=$cpu wr wl wu
  wr=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")
  wl=$(wc -l < "$work/access.log"); wu=$(grep -c '^r' "$work/access.log" || true)
  : > "$work/access.log"
  timed "$work/kaeload" run "$work/scenario.yaml" --progress off > "$work/kaeload.out"
  local kc=$cpu kr kl ku
  kr=$(awk '/^requests/ {gsub(/[(,]/, "", $3); print $3; exit}' "$work/kaeload.out")
  kl=$(wc -l < "$work/access.log"); ku=$(grep -c '^r' "$work/access.log" || true)
  awk -v mode="$1" -v wr="$wr" -v wc="$wc" -v wl="$wl" -v wu="$wu" -v kr="$kr" -v kc="$kc" -v kl="$kl" -v ku="$ku" 'BEGIN {
    printf "\nserver resumption %s\n", mode
    printf "  %-34s %12s %12s %12s\n", "", "wrk", "kaeload", "kaeload/wrk"
    printf "  %-34s %12.0f %12.0f %12.2f\n", "req/s (client-reported)", wr, kr, kr/wr
    printf "  %-34s %11.1f%% %11.1f%%\n", "handshakes resumed (nginx log)", 100*wu/(wl?wl:1), 100*ku/(kl?kl:1)
    printf "  %-34s %12.2f %12.2f\n", "client CPU-seconds", wc, kc
    printf "  %-34s %12.0f %12.0f %12.2f\n", "requests per client CPU-second", wl/(wc?wc:1), kl/(kc?kc:1), (kl/(kc?kc:1))/(wl/(wc?wc:1))
  }'
}

echo "nginx on CPU 0, client on CPU 1, $CONNS connections, $DURATION s each, Connection: close"
measure on
measure off
