// Package results owns the results directory of a `sieve run`, `record`,
// `plan --out` and `reproduce` (documented in docs/results.md): Layout is
// the only code that names its files and folders — plan and result files,
// reference runs and their count, reproduce folders and reproduce
// commands — and takes, locks and clears a directory only when sieve's
// marker says it is sieve's. It holds the types the files carry (Result,
// TestRun, Summary, a run's Timing), writes them atomically and loads
// them back, several directories (the jobs of a sharded run) as one run.
//
// It does not render what it loads (interp/report does), compare traces
// (interp/analysis/oracle) or judge runs (interp/pipeline's Judge turns
// the oracle's findings into a Result). A test fails if code outside this
// package spells out the layout's names.
package results
