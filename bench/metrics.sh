#!/bin/sh
# metrics.sh: what serving live metrics costs the client. The same
# scenario (built-in target, one group, closed loop) runs ROUNDS times
# without metrics and with --metrics while a scraper polls /metrics every
# 100 ms (as Prometheus, with its scrape header), alternating which goes
# first, and prints the client's CPU µs per request (the workers' own CPU
# over the window, what the text report prints beside req/s) side by side
# with the ratio.
# The endpoint runs in the controller, never in a worker: the ratio should
# be 1 within the noise between rounds, which the min and max show.
#
#   bench/metrics.sh                        # 3 rounds of 3 s windows
#   ROUNDS=5 DURATION=10s bench/metrics.sh
set -eu
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
duration=${DURATION:-3s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/kaeload" ./cmd/kaeload
cat > "$tmp/s.yaml" <<YAML
name: metrics-bench
target: {builtin: {}}
load: {duration: $duration, warmup: 500ms, layout: {groups: 1, cpus_per_group: 1, threads: 1, connections: 8}}
YAML

# us runs the scenario with extra flags and prints its client µs per request.
us() {
	"$tmp/kaeload" run "$tmp/s.yaml" --no-save --progress off "$@" 2>"$tmp/err" |
		sed -n 's/.*client \([0-9.]*\) µs per request.*/\1/p' | head -1
}

# poll starts the scraper on $port: one process, as Prometheus keeps one
# connection, not a curl forked per scrape (whose churn raised both
# halves' CPU per request from about 340 to 460-650 µs on 2 cores, and
# their spread with it; bench/README.md). It polls in both
# halves of a round (in the half without metrics nobody listens there and
# it is refused), so that its own cost weighs on both alike.
poll() {
	python3 -c '
import http.client, sys, time
port = int(sys.argv[1])
c = None
while True:
    try:
        if c is None:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        c.request("GET", "/metrics", headers={"X-Prometheus-Scrape-Timeout-Seconds": "1"})
        c.getresponse().read()
    except Exception:
        c = None
    time.sleep(0.1)
' "$port" &
	poller=$!
}

for i in $(seq "$rounds"); do
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	poll
	# Odd rounds measure without first, even rounds with first: whatever
	# the first run of a round leaves behind (TIME_WAIT, a warm cache)
	# falls on both sides.
	if [ $((i % 2)) -eq 1 ]; then
		off=$(us)
		on=$(us --metrics "127.0.0.1:$port" --metrics-linger 1s)
	else
		on=$(us --metrics "127.0.0.1:$port" --metrics-linger 1s)
		off=$(us)
	fi
	kill "$poller"
	wait "$poller" 2>/dev/null || true
	[ -n "$off" ] && [ -n "$on" ] || { echo "metrics.sh: no client µs per request in the report"; cat "$tmp/err"; exit 1; }
	echo "round $i: without $off µs/request, with metrics polled every 100 ms $on µs/request"
	echo "$off $on" >> "$tmp/all"
done
# The median of the rounds' ratios beside the ratio of the means: one
# round disturbed by something else on the machine moves the mean, not it.
med=$(awk '{ print $2 / $1 }' "$tmp/all" | sort -g | awk '{ r[NR] = $1 } END { print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }')
awk -v med="$med" '
{ off += $1; on += $2; r = $2 / $1; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r; n++ }
END {
	printf "\n%-32s %12s %12s %8s\n", "", "no metrics", "metrics", "ratio"
	printf "%-32s %12.2f %12.2f %8.3f  (rounds %.3f to %.3f, median %.3f)\n", "client CPU µs per request", off/n, on/n, (on/n)/(off/n), lo, hi, med
}' "$tmp/all"
