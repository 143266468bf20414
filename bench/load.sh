# shellcheck shell=bash
# Sourced by the bench scripts: start_load N starts N busy processes, named
# sieve-bench-load, and stop_load stops them (the scripts' EXIT trap calls
# it, so none outlives them).
burners=()
start_load() {
	local i
	for ((i = 0; i < $1; i++)); do
		(exec -a sieve-bench-load bash -c 'while :; do :; done') &
		burners+=($!)
	done
}
stop_load() {
	if ((${#burners[@]} > 0)); then
		kill "${burners[@]}" 2>/dev/null || true
		wait "${burners[@]}" 2>/dev/null || true
	fi
	burners=()
}
