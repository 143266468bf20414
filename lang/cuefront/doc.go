// Package cuefront is the CUE front end: it loads a spec written in CUE (a
// .cue file or a CUE package directory), unifies it with the embedded
// schema #Spec, validates it, and lowers it to the same IR the .sieve
// checker (lang/check) produces for an equivalent spec. It is the only
// package that imports cuelang.org/go.
//
// It owns the embedded schema (schema/schema.cue, #Spec, importable by
// specs as "sieve.dev/schema"; cue/schema at the repository root publishes
// it as the CUE module sieve.dev/schema@v0 for libraries to depend on, and
// TestPublishedSchema holds the two equal), the CUE schema of the IR (schema/ir.cue,
// #IR) and the JSON Schema made from it, the CUE form of the standard
// library (importable as "sieve.dev/std": the masks and policies are
// std/std_gen.cue, generated from stdlib/std/*.sieve through lang/check by
// TestStdGenerated, which fails when the two drift, so the .sieve files are
// the one source of truth and a CUE load compiles no .sieve; the
// workloads, which CUE expresses with its own parameters, are
// std/workloads.cue, held equal to the .sieve ones by TestStdWorkloads and
// the parity tests, and so are the invariants, std/invariants.cue, by
// TestStdInvariants), and CUE formatting for `sieve fmt`.
//
// A spec is loaded in its CUE module (the nearest cue.mod above it, else a
// made-up one), whose dependencies come vendored under cue.mod/pkg or from
// a CUE registry ($CUE_REGISTRY, as the cue command). Its module file is
// checked first, so that a bad one is reported at the field at fault, with
// a hint (cue/load gives no position).
//
// Lowering mirrors lang/check: the same defaults (test runs 2, every
// pruning pass on, KUBECONFIG unless a flag or in-cluster emulation is
// asked for, namespace "default", wait timeouts 60s, settle 5s, readiness
// 30s), the same path rebasing (relative to the file that writes a path,
// then to the root spec's directory), the same CEL compilation
// (lang/celenv) and the same messages where the checks are the same.
// TestParity holds every X.sieve/X.cue pair in testdata/parity and specs/
// to byte-identical IR, source ranges aside.
//
// It does not parse .sieve files (only its tests import lang/check, to
// generate std_gen.cue), run anything, or render diagnostics; lang/load
// dispatches to it by file extension.
package cuefront
