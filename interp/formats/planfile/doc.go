// Package planfile owns the test plan file format (version 1, documented
// in docs/plan.md): the types a plan file holds (Plan, Action, Trigger,
// Why), a plan's stable name, its one-line descriptions in the .sieve plan
// syntax, the plan written as a .sieve plan declaration that compiles back
// to the same actions (Sieve), and reading, decoding and encoding one plan.
//
// It is what producers (the generator, interp/analysis/plan) and consumers (the
// injector, the trigger engine, reports, reproduce) of plans share. It does
// not generate or prune plans (interp/analysis/plan), does not know the layout of a
// plans or results directory (interp/analysis/plan, interp/formats/results), and does not
// compute diffs (interp/analysis/observe owns the slim Diff a plan carries).
package planfile
