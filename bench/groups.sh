#!/bin/sh
# groups.sh: one worker group (CPU 0) against two (CPUs 0 and 1), both
# against the built-in target, measured back to back in one run. Prints total
# req/s and requests per client CPU-second side by side with the ratio.
#
#   bench/groups.sh                       # 3 s window per case
#   KAELOAD_BENCH_DURATION=10s COUNT=3 bench/groups.sh
#
# The built-in target runs in the benchmark process, unpinned, so on a small
# machine it competes with the workers for CPU: the req/s ratio then says
# more about the machine than about kaeload, while req per client CPU-second
# (worker user+system time, warm-up included) shows whether a second
# process costs efficiency.
set -eu
cd "$(dirname "$0")/.."
out=$(go test -run '^$' -bench '^BenchmarkGroups$' -benchtime 1x -count "${COUNT:-1}" ./runner/)
echo "$out" | grep '^Benchmark' || { echo "$out"; exit 1; }
echo "$out" | awk '
/^BenchmarkGroups\/groups=/ {
	split($1, a, "[=-]"); g = a[2]
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "req/s") rps[g] += $i
		if ($(i+1) == "req/client-cpu-s") eff[g] += $i
	}
	n[g]++
}
END {
	if (!n[1] || !n[2]) { print "groups.sh: benchmark output incomplete" > "/dev/stderr"; exit 1 }
	r1 = rps[1]/n[1]; r2 = rps[2]/n[2]; e1 = eff[1]/n[1]; e2 = eff[2]/n[2]
	printf "\n%-26s %12s %12s %8s\n", "", "1 group", "2 groups", "2/1"
	printf "%-26s %12.0f %12.0f %8.2f\n", "total req/s", r1, r2, r2/r1
	printf "%-26s %12.0f %12.0f %8.2f\n", "req per client CPU-second", e1, e2, e2/e1
}'
