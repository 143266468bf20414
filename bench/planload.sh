#!/usr/bin/env bash
# Records a test's reference runs on an idle machine and with every
# processor kept busy, interleaved, generates the plans from each recording
# (sieve plan --trace), and prints how the plan sets compare: the plan set
# must not depend on the machine's load (docs/plan.md, causality).
#
# Usage: bench/planload.sh [ROUNDS] [SPEC] [TEST]
#        (defaults: 2, specs/datastore/datastore.sieve, buggy)
#
# Load is LOAD busy processes (default: one per processor), named
# sieve-bench-load, running only while a loaded recording is made. It
# prints each recording's plan count, the plans every recording made, and
# the plans some recordings made and others did not, with which. It exits
# 1 when a plan that every idle recording made is missing from a loaded
# one: a plan lost to load.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-2}
spec=${2:-specs/datastore/datastore.sieve}
test=${3:-buggy}
load=${LOAD:-$(getconf _NPROCESSORS_ONLN)}

tmp=$(mktemp -d)
# shellcheck source=bench/load.sh
. bench/load.sh
trap 'stop_load; rm -rf "$tmp"' EXIT

go build -o "$tmp/sieve" ./cmd/sieve

# plans NAME records the references into $tmp/NAME and writes the sorted
# plan names to $tmp/NAME.plans.
plans() {
	"$tmp/sieve" record "$spec" --test "$test" --no-cache -q -o "$tmp/$1" >/dev/null
	"$tmp/sieve" plan "$spec" --test "$test" -q \
		--trace "$tmp/$1/reference/run-1/trace.jsonl" --trace "$tmp/$1/reference/run-2/trace.jsonl" |
		grep -E '^[^ ]+-[0-9a-f]{8}$' | sort >"$tmp/$1.plans"
	echo "$1: $(wc -l <"$tmp/$1.plans") plans"
}

echo "$rounds rounds of $spec test $test; load: $load busy processes on $(getconf _NPROCESSORS_ONLN) processors"
for ((r = 1; r <= rounds; r++)); do
	plans "idle-$r"
	start_load "$load"
	plans "loaded-$r"
	stop_load
done

cd "$tmp"
cat ./*.plans | sort | uniq -c | awk -v n="$((2 * rounds))" '$1 == n {print $2}' >common
echo "made by every recording: $(wc -l <common)"
for f in ./*.plans; do
	comm -23 "$f" common | sed "s|^|  only some: ${f#./} |; s|\.plans | |"
done
sort -m idle-*.plans | uniq -c | awk -v n="$rounds" '$1 == n {print $2}' >idle
lost=0
for f in loaded-*.plans; do
	if missing=$(comm -23 idle "$f") && [ -n "$missing" ]; then
		echo "${f%.plans} lost to load: $missing"
		lost=1
	fi
done
exit "$lost"
