// Package cli is the sieve command line: a cobra root command and one file
// per verb, each with a small flags struct and a runX function. Results go
// to stdout; diagnostics and progress go to stderr.
//
// Exit codes: 0 success (no findings), 1 findings, 2 spec or usage errors,
// 3 infrastructure errors. A command that a stop signal ended exits with
// 128 + the signal's number (130 for SIGINT; see signals.go).
//
// It leaves loading specs to lang/load, running them to interp/pipeline
// and rendering results to interp/report.
package cli
