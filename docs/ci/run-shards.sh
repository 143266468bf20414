#!/usr/bin/env bash
# sieve in any CI: the recipe of sieve.yml as one script (docs/ci.md).
#
#   run-shards.sh record          record the reference runs into the reference cache
#   run-shards.sh shard I/N       run part I of N of the plans into $SIEVE_OUT/shard-I
#   run-shards.sh report DIR...   merge shards' results: summary, JUnit, HTML
#   run-shards.sh all N           all of it on this machine: record, N shards, report
#
# A CI with parallel jobs runs `record` once, then `shard I/N` in each of N
# jobs (GitLab: "$CI_NODE_INDEX/$CI_NODE_TOTAL"), collects the shard-I
# directories and runs `report` on them. Jobs that share (or restore) the
# user cache directory (~/.cache/sieve: the control plane and the reference
# runs) and the Go caches (go env GOCACHE GOMODCACHE) skip rebuilding and
# rerecording.
#
# Environment: SIEVE_SPEC the spec (required); SIEVE_FLAGS flags for both
# sieve record and sieve run (--test NAME, -I DIR, --backend ...);
# SIEVE_RUN_FLAGS flags for sieve run only (--max-plans, --pattern ...);
# SIEVE_OUT where results go (default sieve-ci); SIEVE the sieve command.
#
# Exit status: that of sieve run or sieve report (1: findings, 3: plans
# that could not run); report's decides for the whole run.
set -euo pipefail

: "${SIEVE_SPEC:?set SIEVE_SPEC to the spec to run}"
SIEVE=${SIEVE:-sieve}
SIEVE_OUT=${SIEVE_OUT:-sieve-ci}
read -ra flags <<<"${SIEVE_FLAGS:-}"
read -ra run_flags <<<"${SIEVE_RUN_FLAGS:-}"

# setup builds the embedded backend's control plane ahead of time; a sieve
# whose control plane is built in has no setup command and needs none.
setup() {
	if "$SIEVE" setup --help >/dev/null 2>&1; then
		"$SIEVE" setup
	fi
}

record() {
	setup
	"$SIEVE" record "$SIEVE_SPEC" "${flags[@]}" -o "$SIEVE_OUT/record"
}

shard() {
	local part=$1
	setup
	"$SIEVE" run "$SIEVE_SPEC" "${flags[@]}" "${run_flags[@]}" --shard "$part" -o "$SIEVE_OUT/shard-${part%/*}"
}

report() {
	"$SIEVE" report "$@" --junit "$SIEVE_OUT/report/junit.xml" --html "$SIEVE_OUT/report/html"
}

# all runs every part here, one after the other: a shard's findings do not
# stop the others, and the report says what was found.
all() {
	local n=$1 i code dirs=()
	record
	for ((i = 1; i <= n; i++)); do
		code=0
		shard "$i/$n" || code=$?
		if [ "$code" -gt 1 ]; then
			exit "$code"
		fi
		dirs+=("$SIEVE_OUT/shard-$i")
	done
	report "${dirs[@]}"
}

case "${1:-}" in
record) record ;;
shard) shard "${2:?usage: run-shards.sh shard I/N}" ;;
report) shift && report "${@:?usage: run-shards.sh report DIR...}" ;;
all) all "${2:?usage: run-shards.sh all N}" ;;
*)
	echo "usage: run-shards.sh record | shard I/N | report DIR... | all N" >&2
	exit 2
	;;
esac
