#!/usr/bin/env bash
# hosts.sh: how long kaeload takes to get N ssh hosts ready (issue 39).
#
#   bench/hosts.sh               # 32 hosts, 5 runs
#   N=16 RUNS=3 bench/hosts.sh
#   KAELOAD=/tmp/kaeload-main bench/hosts.sh   # that binary, not this tree's
#   KEX=curve25519-sha256 bench/hosts.sh         # ssh_options KexAlgorithms
#
# N sshds listen in one network namespace, joined to this one by a veth
# pair, each with its own home where kaeload's binary is already cached
# (nothing is uploaded); `kaeload serve` there is the target. Each run is a
# `kaeload run` with one group of one connection per host and a 200 ms
# window, and prints, in seconds from the command's start:
#   - connected: every host dialled, its facts read and the binary found
#     (kaeload's "N hosts ready over ssh in …" line, or an older build's last
#     "kaeload sha256 … found at" line);
#   - workers: the workers of the first window started over ssh, ready and
#     their clocks measured (the last "worker N round trip" line): the
#     window can begin;
# with the CPU seconds the whole run took here and on the hosts, and the
# load average before it: times say something on a quiet machine only,
# CPU seconds are steadier. Then the best and the median of the times. Needs root, ip, sshd, ssh, go and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-32}
RUNS=${RUNS:-5}
[ "$(id -u)" = 0 ] || { echo "hosts.sh: needs root (network namespaces)" >&2; exit 2; }
for c in ip /usr/sbin/sshd ssh ssh-keygen go /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "hosts.sh: $c is missing" >&2; exit 2; }
done

tmp=$(mktemp -d /tmp/kaeload-hosts.XXXXXX)
ns=kaeload-bench-$$
hostif=klb$$ nsif=klbn$$
hostip=10.254.$(($$ % 250)).1 nsip=10.254.$(($$ % 250)).2
cleanup() {
	cat "$tmp"/*pids 2>/dev/null | xargs -r kill 2>/dev/null || true
	ip link del "$hostif" 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
ip netns add "$ns"
ip link add "$hostif" type veth peer name "$nsif"
ip link set "$nsif" netns "$ns"
ip addr add "$hostip/30" dev "$hostif"
ip link set "$hostif" up
ip netns exec "$ns" ip addr add "$nsip/30" dev "$nsif"
ip netns exec "$ns" ip link set "$nsif" up
ip netns exec "$ns" ip link set lo up

if [ -n "${KAELOAD:-}" ]; then cp "$KAELOAD" "$tmp/kaeload"; else go build -o "$tmp/kaeload" ./cmd/kaeload; fi
hash=$(sha256sum "$tmp/kaeload" | cut -d' ' -f1)
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/id"
mkdir -p /run/sshd
hosts=""
for i in $(seq 1 "$N"); do
	port=$((22000 + i)) home=$tmp/home$i
	mkdir -p "$home/.cache/kaeload/$hash"
	ln -s "$tmp/kaeload" "$home/.cache/kaeload/$hash/kaeload"
	cat >"$tmp/sshd$i.conf" <<EOF
Port $port
ListenAddress $nsip
HostKey $tmp/host_key
PidFile $tmp/sshd$i.pid
AuthorizedKeysFile $tmp/id.pub
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
MaxSessions 100
MaxStartups 100
SetEnv HOME=$home
EOF
	ip netns exec "$ns" /usr/sbin/sshd -D -e -f "$tmp/sshd$i.conf" 2>>"$tmp/sshd.log" &
	echo $! >>"$tmp/sshd.pids"
	echo "[$nsip]:$port $(cat "$tmp/host_key.pub")" >>"$tmp/known_hosts"
	hosts="$hosts    - {connections: 1, host: \"ssh://root@$nsip:$port\"}"$'\n'
done
ip netns exec "$ns" "$tmp/kaeload" serve --addr "$nsip:8443" --cert ecdsa-p256 >"$tmp/serve.log" 2>&1 &
echo $! >>"$tmp/pids"
cat >"$tmp/hosts.yaml" <<EOF
name: hosts-bench
target:
  url: https://$nsip:8443/
ssh_options: {IdentityFile: "$tmp/id", IdentitiesOnly: "yes", UserKnownHostsFile: "$tmp/known_hosts", StrictHostKeyChecking: "yes"${KEX:+, KexAlgorithms: "$KEX"}}
load:
  connection: close
  warmup: 0s
  duration: 200ms
  groups:
$hosts
EOF
sleep 1 # sshd and the target listening

# CPU seconds of the sshds and all they forked (sessions, workers) so far.
hostcpu() {
	xargs -I{} cat /proc/{}/stat <"$tmp/sshd.pids" | awk -v hz="$(getconf CLK_TCK)" '{s += $14 + $15 + $16 + $17} END {printf "%.2f", s / hz}'
}

echo "$N hosts, $(nproc) CPUs; cpu: CPU seconds of the whole run here (kaeload, ssh) and on the hosts (sshd, workers)"
printf '%-4s %10s %10s %10s %10s  %s\n' run connected workers "cpu here" "cpu hosts" "load average"
for r in $(seq 1 "$RUNS"); do
	load=$(cut -d' ' -f1 /proc/loadavg) h0=$(hostcpu)
	start=$EPOCHREALTIME
	/usr/bin/time -f '%U %S' -o "$tmp/cpu$r" "$tmp/kaeload" run --no-save --progress plain "$tmp/hosts.yaml" 2>&1 |
		while IFS= read -r line; do echo "$EPOCHREALTIME $line"; done >"$tmp/run$r.log" || true
	c=$(awk -v s="$start" '/ready over ssh in|kaeload sha256 .* at ~/ {t = $1} END {if (t) printf "%.2f", t - s}' "$tmp/run$r.log")
	w=$(awk -v s="$start" '/: worker [0-9]+ round trip/ {t = $1} END {if (t) printf "%.2f", t - s}' "$tmp/run$r.log")
	if [ -z "$c" ] || [ -z "$w" ]; then
		echo "hosts.sh: run $r did not get ready:" >&2
		cat "$tmp/run$r.log" >&2
		exit 1
	fi
	here=$(awk '{printf "%.2f", $1 + $2}' "$tmp/cpu$r")
	sleep 0.5 # the sshd sessions reaped
	hosts=$(awk -v a="$h0" -v b="$(hostcpu)" 'BEGIN {printf "%.2f", b - a}')
	printf '%-4s %10s %10s %10s %10s  %s\n' "$r" "$c" "$w" "$here" "$hosts" "$load"
	echo "$c $w" >>"$tmp/times"
done
for col in 1 2; do
	sort -n -k$col "$tmp/times" | awk -v col=$col '{v[NR] = $col} END {
		printf "%-10s best %.2f s, median %.2f s\n", (col == 1 ? "connected" : "workers"), v[1], v[int((NR + 1) / 2)]}'
done
