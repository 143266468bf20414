#!/usr/bin/env bash
# Runs every check the project holds itself to: formatting, vet, the tests
# (the end-to-end ones start the embedded control plane), and a short fuzz
# run of the .sieve parser.
set -euo pipefail
cd "$(dirname "$0")"

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go test -timeout 25m ./...
go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 15s ./lang/syntax
