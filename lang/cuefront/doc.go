// Package cuefront is the CUE front end: it loads a spec written in CUE (a
// .cue file or a CUE package directory), unifies it with the embedded
// schema #Spec, validates it, and lowers it to the same IR the .sieve
// checker (lang/check) produces for an equivalent spec. It is the only
// package that imports cuelang.org/go.
//
// It owns loading the schema, not its text: #Spec and #IR come from
// cue/schema, the one copy, which is also published as the CUE module
// sieve.dev/schema@v0. Specs import it as "sieve.dev/schema". The package
// also makes the JSON Schema of the IR and formats CUE for `sieve fmt`.
//
// It owns the CUE form of the standard library, imported as
// "sieve.dev/std". The masks and policies, std/std_gen.cue, are generated
// from stdlib/std/*.sieve, and TestStdGenerated fails when they drift: a
// CUE load compiles no .sieve. The workloads and invariants are written in
// CUE (std/workloads.cue, std/invariants.cue) and held equal to the .sieve
// ones by TestStdWorkloads, TestStdInvariants and the parity tests.
//
// A spec is loaded in its CUE module (the nearest cue.mod above it, else a
// made-up one), whose dependencies come vendored under cue.mod/pkg or from
// a CUE registry ($CUE_REGISTRY, as the cue command). Its module file is
// checked first, so that a bad one is reported at the field at fault, with
// a hint (cue/load gives no position).
//
// Lowering mirrors lang/check. Both take their defaults from lang/ir
// (NewTest, NewController, the Default constants). Both rebase paths the
// same way: relative to the file that writes a path, then to the root
// spec's directory. Both compile CEL through lang/celenv and say the same
// messages where the checks are the same. TestParity holds every
// X.sieve/X.cue pair in testdata/parity and specs/ to byte-identical IR,
// source ranges aside.
//
// It does not parse .sieve files (only its tests import lang/check, to
// generate std_gen.cue), run anything, or render diagnostics; lang/load
// dispatches to it by file extension.
package cuefront
