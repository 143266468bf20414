// Package results owns the results directory of a `sieve run`, `record`,
// `plan --out` and `reproduce` (documented in docs/results.md): Layout is
// the only code that names its files and folders — plan, result and
// explored files, reference runs and their count, reproduce folders,
// reproduce commands and the explore results' rerun command. It takes a
// directory only when it is absent, empty or marked as sieve's, locks it
// for one run, and clears only what the layout names. It holds the types
// the files carry (Result, TestRun, Summary, a run's Timing, Explored),
// writes them atomically and loads them back, several directories (the
// jobs of a sharded run) as one run.
//
// It does not render what it loads (interp/report does), compare traces
// (interp/analysis/oracle) or judge runs (interp/pipeline's Judge turns
// the oracle's findings into a Result). A test fails if code outside this
// package spells out the layout's names. Its errors still start with
// "report:", as sieve has always printed them.
package results
