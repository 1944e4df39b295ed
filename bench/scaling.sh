#!/usr/bin/env bash
# scaling.sh: does kaeload's rate per client core hold as groups are added?
#
#   bench/scaling.sh                  # 3 s window per step
#   DURATION=10 CONNS=64 CERT=rsa2048 bench/scaling.sh
#
# The machine's CPUs are split in two halves: the built-in target
# (`kaeload serve`, ECDSA P-256 by default) is pinned to the first, and
# kaeload runs 1, 2, 4, … worker groups, one CPU each, on the second (up
# to all of it). For each step it prints the total req/s, req/s per client
# core and its ratio to one group, the client's CPU µs per request
# (kaeload's own worker time), the busiest group's CPUs and the server's
# CPUs busy. The goal: the per-core rate at 8 groups within 10 % of one
# group's. A busy server (≥ 90 %) caps the total, so read the per-core
# figure only while the server still has room; a larger server half
# (SERVER_CPUS=0-11 CLIENT_CPUS=12-15) gives it more.
#
# With 2 CPUs only one step (1 group) is possible: the figures then say
# what one client core does, not how kaeload scales; run it on a machine
# with 16 or more CPUs for that.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-3}
CONNS=${CONNS:-32}
CERT=${CERT:-ecdsa-p256}
n=$(nproc)
if [ "$n" -lt 2 ]; then
  echo "scaling.sh: needs at least 2 CPUs" >&2
  exit 1
fi
half=$(( n / 2 ))
SERVER_CPUS=${SERVER_CPUS:-0-$(( half - 1 ))}
CLIENT_CPUS=${CLIENT_CPUS:-$half-$(( n - 1 ))}
first=${CLIENT_CPUS%-*}
last=${CLIENT_CPUS#*-}
cores=$(( last - first + 1 ))
server_cores=$(( ${SERVER_CPUS#*-} - ${SERVER_CPUS%-*} + 1 ))

work=$(mktemp -d /tmp/kaeload-scaling.XXXXXX)
srv=""
cleanup() {
  [ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/kaeload" ./cmd/kaeload
port=$(( 20000 + RANDOM % 20000 ))
taskset -c "$SERVER_CPUS" "$work/kaeload" serve --addr "127.0.0.1:$port" --cert "$CERT" > "$work/serve.log" 2>&1 &
srv=$!
for _ in $(seq 100); do
  grep -q listening "$work/serve.log" 2>/dev/null && break
  sleep 0.1
done

echo "built-in target ($CERT) on CPUs $SERVER_CPUS, groups on CPUs $CLIENT_CPUS (one CPU each), $CONNS connections per group, ${DURATION} s window, connection: close"
[ "$cores" -lt 2 ] && echo "note: 1 client CPU: only the 1-group step is possible here; scaling needs a machine with more CPUs"
printf "\n%-7s %-12s %12s %18s %10s %14s %12s %12s\n" groups "client CPUs" "req/s" "req/s per core" "×1 group" "client µs/req" "busiest grp" "server busy"
g=1
base=""
while [ "$g" -le "$cores" ]; do
  {
    echo "name: scaling-$g"
    echo "target: {url: \"https://127.0.0.1:$port/\"}"
    echo "load:"
    echo "  connection: close"
    echo "  warmup: 1s"
    echo "  duration: ${DURATION}s"
    echo "  groups:"
    for i in $(seq 0 $(( g - 1 ))); do
      echo "    - {cpus: \"$(( first + i ))\", threads: 1, connections: $CONNS}"
    done
  } > "$work/s$g.yaml"
  "$work/kaeload" run "$work/s$g.yaml" --progress off --out "$work/run$g" > "$work/run$g.log" 2>&1 || {
    echo "scaling.sh: $g groups failed:" >&2; tail -5 "$work/run$g.log" >&2; exit 1; }
  row=$(awk -F, -v sc="$server_cores" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["rep"] == "1" {
      w = $col["window_s"]; sb = (w > 0 && $col["server_cpu_s"] != "") ? $col["server_cpu_s"] / w / sc : -1
      print $col["req_per_s"], $col["client_us_per_request"], $col["client_busy_max"], sb }' "$work/run$g/summary.csv")
  read -r rps us busy sbusy <<< "$row"
  [ -z "$base" ] && base=$(awk -v r="$rps" 'BEGIN { print r }')
  awk -v g="$g" -v cpus="$first-$(( first + g - 1 ))" -v rps="$rps" -v us="$us" -v busy="$busy" -v sb="$sbusy" -v base="$base" 'BEGIN {
    if (g == 1) cpus = substr(cpus, 1, index(cpus, "-") - 1)
    printf "%-7d %-12s %12.0f %18.0f %10.2f %14.0f %11.0f%% %11s\n", g, cpus, rps, rps / g, (rps / g) / base, us, 100 * busy, (sb < 0 ? "-" : sprintf("%.0f%%", 100 * sb)) }'
  if [ "$g" -lt "$cores" ] && [ $(( g * 2 )) -gt "$cores" ]; then
    g=$cores
  else
    g=$(( g * 2 ))
  fi
done
