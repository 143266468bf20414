// Package report owns the results directory of a `sieve run`, `record`,
// `plan --out` and `reproduce`: Layout is the only code that names its
// files and folders (documented in docs/results.md) — plan and result
// files, reference runs and their count, reproduce folders and reproduce
// commands — and the package writes and loads them atomically (several
// directories, the jobs of a sharded run, load as one run). It renders
// what the directory holds: a terminal summary, JSON, JUnit XML for CI and
// an HTML report with a timeline picture of each failing run; and where a
// run's time went (Timing: its phases and fault windows), summed and
// printed as the "time went to" lines.
//
// It does not run plans, compare traces or judge runs: interp/analysis/oracle
// compares, and interp/pipeline's Judge turns the oracle's findings into a
// plan's Result. A test fails if code outside this package spells out the
// layout's names.
package report
