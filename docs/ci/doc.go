// Package ci holds the CI recipes of docs/ci.md — a GitHub Actions
// workflow (sieve.yml) and a script for any other CI (run-shards.sh) —
// and the tests that keep them working: actionlint on the workflow, and a
// run of the workflow's run: steps with a local shell, two shards of an
// example spec, whose results sieve report reads as one run. It has no Go
// API.
package ci
