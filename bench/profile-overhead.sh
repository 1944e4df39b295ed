#!/bin/sh
# profile-overhead.sh: what profiling costs the server (server.profile:
# true, perf record -e cpu-clock -F 499 -g on its processes). The
# local-nginx example's RSA-2048 variant (nginx pinned to CPU 0, one
# worker group on CPU 1) is measured in runs without and with profiling,
# alternating (off/on, then on/off, …), and the rates are printed side by
# side with their ratio, with nginx's CPU µs per request.
#
#   bench/profile-overhead.sh                    # 3 rounds of 5 s windows
#   ROUNDS=5 DURATION=10s bench/profile-overhead.sh
#
# Needs nginx and perf (Debian: apt-get install nginx linux-perf). The
# ratio is what matters; on a shared machine the absolute rates drift.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
PORT=${PORT:-18543}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/kaeload" ./cmd/kaeload

# col FILE NAME: the "all" row's value of column NAME in a summary.csv.
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == name) c = i; if ($i == "rep") r = i }; next }
		$r == "all" { print $c }' "$1"
}

# measure MODE ROUND: one run, profiled when MODE is on; prints req/s and
# nginx's CPU µs per request.
measure() {
	set -- "$1" "$2" --set "vars.port=$PORT" --set "vars.run=$tmp/nginx" --set repeat=1 \
		--set "load.duration=$DURATION" --set load.warmup=1s \
		--set 'variants=[{name: rsa2048, vars: {cert: rsa2048, label: rsa2048}}]'
	mode=$1 round=$2
	shift 2
	if [ "$mode" = on ]; then
		set -- "$@" --set server.profile=true
	fi
	"$tmp/kaeload" run examples/local-nginx.yaml "$@" --progress off -o "$tmp/$mode-$round" >/dev/null 2>"$tmp/$mode-$round.err" || {
		cat "$tmp/$mode-$round.err" >&2
		exit 1
	}
	rps=$(col "$tmp/$mode-$round/summary.csv" mean_req_per_s)
	per=$(col "$tmp/$mode-$round/summary.csv" req_per_server_cpu_s)
	echo "$rps $per"
}

printf '%-6s %12s %12s %8s %16s %16s\n' round "off req/s" "on req/s" "on/off" "off srv µs/req" "on srv µs/req"
r=1
sum=0
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		off=$(measure off "$r"); on=$(measure on "$r")
	else
		on=$(measure on "$r"); off=$(measure off "$r")
	fi
	echo "$r $off $on" | awk '{
		printf "%-6s %12.1f %12.1f %8.3f %16.0f %16.0f\n", $1, $2, $4, $4 / $2, 1e6 / $3, 1e6 / $5
	}'
	echo "$off $on" >>"$tmp/all"
	r=$((r + 1))
done
awk -v dur="$DURATION" '{ off += $1; on += $3; so += 1e6 / $2; sn += 1e6 / $4; n++ }
END { printf "%-6s %12.1f %12.1f %8.3f %16.0f %16.0f\n", "mean", off / n, on / n, on / off, so / n, sn / n
      printf "\nwith profiling the server did %+.1f %% req/s (%d rounds of %s windows, alternating)\n", (on / off - 1) * 100, n, dur }' "$tmp/all"
