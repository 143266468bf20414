#!/usr/bin/env bash
# Runs the control plane's and the proxy's benchmarks on an idle machine and
# under load, interleaved, and prints each figure with its ratio loaded/idle:
#
#   cold start   BenchmarkColdStart: median seconds from Start to ready, and
#                CPU-seconds the components used to get there
#   reset        BenchmarkReset: milliseconds per Reset after a plan's work
#   proxy        BenchmarkOverhead/http1: proxy/direct, the time of the same
#                requests through the proxy over straight to the API server
#
# Usage: bench/run.sh [ROUNDS]   (default 3; about a minute and a half each)
#
# Load is LOAD busy processes (default: half the processors, at least one),
# named sieve-bench-load, started for the loaded half of each round and
# stopped after it. Run it with
# nothing else running: the idle figures are only idle if the machine is.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-3}
load=${LOAD:-$(($(getconf _NPROCESSORS_ONLN) / 2))}
((load >= 1)) || load=1

tmp=$(mktemp -d)
# shellcheck source=bench/load.sh
. bench/load.sh
trap 'stop_load; rm -rf "$tmp"' EXIT

go test -c -o "$tmp/embedded.test" ./interp/cluster/embedded/
go test -c -o "$tmp/proxy.test" ./interp/run/proxy/

# metric NAME UNIT prints the value before UNIT on the line of benchmark
# NAME in the output on stdin.
metric() { awk -v b="$1" -v u="$2" 'index($1, b "-") == 1 {for (i = 2; i < NF; i++) if ($(i+1) == u) print $i}'; }

# measure appends "start-s cpu-s reset-ms proxy-ratio" to the file $1.
measure() {
	local emb proxy
	emb=$(cd interp/cluster/embedded && "$tmp/embedded.test" -test.run '^$' \
		-test.bench 'ColdStart$|Reset$' -test.benchtime 5x)
	proxy=$(cd interp/run/proxy && "$tmp/proxy.test" -test.run '^$' \
		-test.bench 'Overhead/http1$' -test.benchtime 300x)
	echo "$(metric BenchmarkColdStart median-s <<<"$emb") $(metric BenchmarkColdStart cpu-s/op <<<"$emb")" \
		"$(metric BenchmarkReset ns/op <<<"$emb" | awk '{printf "%.0f", $1 / 1e6}')" \
		"$(metric BenchmarkOverhead/http1 proxy/direct <<<"$proxy")" >>"$1"
}

echo "$rounds rounds; load: $load busy processes on $(getconf _NPROCESSORS_ONLN) processors"
for ((r = 1; r <= rounds; r++)); do
	measure "$tmp/idle"
	start_load "$load"
	measure "$tmp/loaded"
	stop_load
	echo "round $r: idle $(tail -1 "$tmp/idle"), loaded $(tail -1 "$tmp/loaded")"
done

# Medians over the rounds, and loaded/idle.
paste "$tmp/idle" "$tmp/loaded" | awk -v n="$rounds" '
function median(col,   i, j, t, v) {
	for (i = 1; i <= n; i++) v[i] = vals[i, col]
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ for (c = 1; c <= NF; c++) vals[NR, c] = $c }
END {
	split("cold start, median s|cold start, CPU-s|reset, ms|proxy/direct", name, "|")
	printf "\n%-22s %8s %8s %12s\n", "median of the rounds", "idle", "loaded", "loaded/idle"
	for (c = 1; c <= 4; c++) {
		i = median(c); l = median(c + 4)
		f = c == 3 ? "%-22s %8.0f %8.0f %12.2f\n" : "%-22s %8.3f %8.3f %12.2f\n"
		printf f, name[c], i, l, i ? l / i : 0
	}
}'
