// Package cuefront is the CUE front end. It loads a spec written in CUE (a
// .cue file or a CUE package directory), unifies it with the embedded
// schema #Spec and validates it. It then lowers it to the same IR that the
// .sieve checker (lang/check) produces for an equivalent spec. It is the
// only package that imports cuelang.org/go.
//
// It owns loading the schema, not its text. #Spec and #IR come from
// cue/schema, the one copy, which is also published as the CUE module
// sieve.dev/schema@v0; specs import it as "sieve.dev/schema". The package
// also makes the JSON Schema of the IR (JSONSchema) and formats CUE for
// `sieve fmt` (Format).
//
// It owns the CUE form of the standard library, imported as
// "sieve.dev/std". Its masks and policies (std/std_gen.cue) are generated
// from stdlib/std/*.sieve, since a CUE load compiles no .sieve;
// TestStdGenerated fails when they drift. Its workloads and invariants are
// written in CUE (std/workloads.cue, std/invariants.cue). TestStdWorkloads,
// TestStdInvariants and the parity tests hold them equal to the .sieve ones.
//
// A spec is loaded in its CUE module: the nearest cue.mod above it, else a
// made-up one. Dependencies come vendored under cue.mod/pkg or from a CUE
// registry ($CUE_REGISTRY, as for the cue command). The module file is
// checked first, so a bad one is reported at the field at fault, with a
// hint; cue/load gives no position.
//
// Lowering mirrors lang/check. Both take their defaults from lang/ir
// (NewTest, NewController, the Default constants). Both rebase a path
// relative to the file that writes it, then to the root spec's directory.
// Both compile CEL through lang/celenv and give the same messages where
// the checks are the same. Both lower an explore step to a placeholder
// and expand it per test with lang/explore's Expand. TestParity holds every X.sieve/X.cue pair in
// testdata/parity and specs/ to the same IR, byte for byte once source
// ranges are zeroed.
//
// For editors, it finds the schema field under a cursor in a CUE spec and
// the schema's doc comment of it (FieldAt), and loads a spec whose files
// the caller holds unsaved (Options.Sources).
//
// It does not parse .sieve files, run anything or render diagnostics. Only
// its tests import lang/check, to generate std_gen.cue. lang/load
// dispatches to it by file extension.
package cuefront
