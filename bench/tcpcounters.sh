#!/usr/bin/env bash
# tcpcounters.sh: how long one interval's reading of a host takes (the
# kernel's TCP counters, CPU, and the lookup of the server's process)
# while the host holds many sockets in TIME_WAIT, next to the listener
# lookup kaeload used before (gopsutil net.Connections). Issue 21 asks
# for at most 5 ms per reading with 250,000 sockets in TIME_WAIT.
#
#   bench/tcpcounters.sh                      # at 2,000 and 250,000
#   AT=2000,50000,250000 bench/tcpcounters.sh
#
# It runs bench/tcpcounters in a network namespace of its own (root, and
# `ip` from iproute2, are needed), so the sockets it leaves trouble no one
# and vanish with the namespace; there it raises tcp_max_tw_buckets above
# the largest count and widens the ephemeral port range. TIME_WAIT lasts
# 60 s: the connections must be made within about 45 s, which a busy
# machine may not manage; the helper then says how many it reached.
set -euo pipefail
cd "$(dirname "$0")/.."
AT=${AT:-2000,250000}
PORTS=${PORTS:-16}
CONNS=${CONNS:-1}
READINGS=${READINGS:-200}
OLD=${OLD:-3}
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
	echo "tcpcounters.sh: needs root and ip (iproute2) to make a network namespace" >&2
	exit 2
fi
largest=${AT##*,}
work=$(mktemp -d /tmp/kaeload-tcpcounters.XXXXXX)
ns=kaeload-tw-$$
trap 'ip netns del "$ns" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/tcpcounters" ./bench/tcpcounters
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" sysctl -qw net.ipv4.tcp_max_tw_buckets=$((largest * 2)) "net.ipv4.ip_local_port_range=1024 65535"
ip netns exec "$ns" "$work/tcpcounters" -at "$AT" -ports "$PORTS" -c "$CONNS" -r "$READINGS" -old "$OLD"
