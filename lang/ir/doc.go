// Package ir is the contract between the two front ends (.sieve and CUE)
// and the interpreter. It is a plain model of a spec that encodes to JSON.
// Imports are resolved, workload parameters substituted and test
// inheritance flattened. Every node carries its source range, so a failure
// at run time can name the spec line.
//
// It owns what both front ends must agree on. That is the defaults
// (NewTest, NewController, NewPolicy, the Default constants), the field
// path (Path: parse, format, match) and the canonical kind of a resource
// key (CanonicalKind). It also owns the few checks both make the same way:
// CheckCount, CheckSettle, CheckExecGlob, CheckExecCommand and
// CheckControllerName. Dump gives the JSON form that `sieve compile`
// prints and the parity tests compare.
//
// It does not parse specs (lang/syntax, lang/cuefront), check them as a
// whole (lang/check) or run anything (interp). The table of built-in kinds
// and controllers is lang/kinds'.
package ir
