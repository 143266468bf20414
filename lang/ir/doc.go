// Package ir is the contract between the two front ends (.sieve and CUE) and
// the interpreter: a plain, JSON-serialisable model of a spec in which
// imports are resolved, workload parameters are substituted and test
// inheritance is flattened. Every node carries the source range it came
// from, so a failure at run time can name the spec line.
//
// It owns one text form, the field path (Path: parse, format, match), which
// both front ends, the masks, the oracle and the run-time engines share;
// it parses nothing else, and checks and runs nothing. Dump gives the
// deterministic JSON form that `sieve compile` prints and that the
// front-end parity tests compare.
package ir
