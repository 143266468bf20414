// Package report owns the results directory of a `sieve run` (its layout,
// documented in docs/results.md, and the atomic writing and loading of the
// files in it; several directories, the jobs of a sharded run, load as one
// run) and renders what it holds: a terminal summary, JSON, JUnit
// XML for CI and an HTML report with a timeline picture of each failing run.
//
// It does not run plans or compare traces (interp/oracle does); it turns the
// oracle's findings into per-plan results and presents them.
package report
