// Package ir is the contract between the two front ends (.sieve and CUE)
// and the interpreter. It is a plain, JSON-serialisable model of a spec:
// imports resolved, workload parameters substituted, test inheritance
// flattened. Every node carries the source range it came from, so a
// failure at run time can name the spec line.
//
// It owns what both front ends must agree on: the defaults (NewTest,
// NewController, NewPolicy, the Default constants), the field path (Path:
// parse, format, match), resource-key kinds (CanonicalKind), and the few
// checks both make the same way (CheckCount, CheckSettle, CheckExec*,
// CheckControllerName). Dump gives the JSON form
// that `sieve compile` prints and the parity tests compare.
//
// It does not parse specs (lang/syntax, lang/cuefront), check them as a
// whole (lang/check) or run anything (interp).
package ir
