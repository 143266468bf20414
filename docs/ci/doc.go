// Package ci holds the CI recipes of docs/ci.md and the tests that keep
// them working. The recipes are a GitHub Actions workflow (sieve.yml) and
// a script for any other CI (run-shards.sh). It has no Go API.
//
// The tests lint the workflow with actionlint and the script with
// shellcheck, when installed. They check the script's commands and exit
// status against a fake sieve. They also run the workflow's run: steps
// with a local shell on two shards of an example spec, whose results sieve
// report reads as one run.
package ci
