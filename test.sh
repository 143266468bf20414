#!/usr/bin/env bash
# Runs every check the project holds itself to: formatting, vet, the tests
# (the end-to-end ones start the embedded control plane), and short fuzz
# runs of the .sieve parser, the CUE front end, the field-path text form
# and the plan and trace readers.
set -euo pipefail
cd "$(dirname "$0")"

mapfile -t gofiles < <(git ls-files '*.go' 2>/dev/null || find . -name '*.go')
unformatted=$(gofmt -l "${gofiles[@]}")
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
# The root module is built with -trimpath: without it a package's
# directory is part of its build's key, and a clone at a new path (CI's)
# compiles all of sieve again, about 90 CPU-seconds. Such a binary records
# no source path, so the checkout is named at link time, where the tests
# find the control plane's sources (docs/controlplane.md). The nested
# control-plane module is vetted and tested as sieve builds it, without
# -trimpath, so that its Kubernetes packages come from the Go build cache.
# The go test commands pass -vet=off: go vet has run every analyzer on the
# same packages and their tests.
trim=(-trimpath -ldflags "-X 'github.com/sievetool/sieve/interp/cluster/embedded/controlplane.checkoutDir=$PWD'")
go vet "${trim[@]}" ./...
go vet ./controlplane/...
# realnode/ is a module outside the workspace: the kubelet of the opt-in
# real-node test (docs/scale-out.md), built with GOWORK=off.
(cd realnode && GOWORK=off go vet ./...)
# Two packages at once, two parallel tests in each (-p 2 -parallel 2, the
# defaults on two cores, written out so that a bigger machine keeps the
# same mix). More at once, each control plane lives longer and burns
# processor time while it waits: on a slow machine three and three cost
# more CPU and wall time than they saved, and made verdicts flaky (the
# figures are in the commit that chose two). go test starts packages in
# the order given (each once): the longest first, so that the short ones
# fill in beside them instead of the long ones starting last (go run
# ./bench/testtimes on `go test -json` output lists the longest).
longest=(./specs ./cmd/sieve/cli ./interp/run/session ./interp/pipeline
	./interp/cluster/embedded ./sievetest ./interp/run/controller
	./interp/cluster ./docs/ci ./interp/run/inject ./interp/run/proxy)
go test -vet=off -p 2 -parallel 2 -timeout 40m "${trim[@]}" "${longest[@]}" ./...
go test -vet=off -timeout 10m ./controlplane/...
# Each benchmark once, so that one that no longer runs (its fixtures out of
# step with the checker, as BenchmarkCheck5000's were) fails here; plan's
# (about 30 s at 1x) and the control plane's are left to their own runs.
# Only the packages of lang/ that have a benchmark: go test links a test
# binary for every package it is given.
mapfile -t benched < <(grep -rl --include='*_test.go' '^func Benchmark' lang | xargs -n1 dirname | sort -u | sed 's|^|./|')
go test -vet=off "${trim[@]}" -run '^$' -bench . -benchtime 1x "${benched[@]}" ./interp/analysis/mask \
	./interp/analysis/oracle ./interp/run/proxy
# Fuzz budgets are counts of executions, not durations: with a duration,
# Go 1.26's fuzz coordinator can fail a target with a bare "context
# deadline exceeded" when the time runs out (golang/go#75804, fixed in
# Go 1.27), as it did for interp/formats/trace in CI.
# Their seed corpora run as unit tests in the go test step above; these
# runs explore a little further each time, from the corpus the Go cache
# keeps. The parser's was 200000 executions (about 12 s of its 16
# CPU-seconds); at 50000, like the others, it costs about 6.
go test -vet=off "${trim[@]}" -run '^$' -fuzz '^FuzzParse$' -fuzztime 50000x ./lang/syntax
go test -vet=off "${trim[@]}" -run '^$' -fuzz '^FuzzCUE$' -fuzztime 60x ./lang/cuefront
go test -vet=off "${trim[@]}" -run '^$' -fuzz '^FuzzPath$' -fuzztime 50000x ./lang/ir
go test -vet=off "${trim[@]}" -run '^$' -fuzz '^FuzzDecode$' -fuzztime 50000x ./interp/formats/planfile
go test -vet=off "${trim[@]}" -run '^$' -fuzz '^FuzzDecode$' -fuzztime 10000x ./interp/formats/trace
