// Package planfile owns the test plan file format (Version 1, documented
// in docs/plan.md). It holds the types a plan file holds (Plan, Action,
// Trigger, Why, Diff) and a plan's stable name (SetName). It gives a
// plan's one-line descriptions in the .sieve plan syntax (String), and the
// plan as a .sieve plan declaration that compiles back to the same actions
// (Sieve). It reads, decodes and encodes one plan (Read, Decode, Marshal).
//
// Producers of plans (the generator, interp/analysis/plan) and consumers
// (the injector, the trigger engine, reports, reproduce) share it. It does
// not generate or prune plans (interp/analysis/plan). It does not know the
// layout of a plans or results directory (interp/formats/results). It
// defines the slim Diff a plan carries but does not compute it
// (observe.SlimDiff).
package planfile
