// Package check is the second half of the .sieve front end: it resolves
// imports, checks every declaration of the parsed files, and lowers the
// result to the IR (lang/ir) with parameters substituted and test
// inheritance flattened. File is the entry point; lang/load calls it.
//
// The checker is strict where the parser is lenient: it reports every
// problem it finds, sorted and once each, with "did you mean" hints for
// misspelt names and the first definition as a related position for
// duplicates. CEL expressions are compiled with lang/celenv at check time
// and their errors placed inside the expression when the literal allows.
// A file with syntax errors is not checked further.
//
// Imports: "std/NAME" comes from Options.Std; a path starting with ./ or
// ../ or ending in .sieve is relative to the importing file; any other path
// is looked up on Options.SearchPath (as NAME.sieve, or a directory of
// .sieve files). Imported names are qualified by the import name; import
// cycles are errors.
//
// Lowering: file paths in the IR are relative to the root spec's
// directory, slash-separated and cleaned (a build package keeps a leading
// "./"); a path passed as a workload argument is relative to the file that
// passes it. The defaults are lang/ir's (NewTest, NewController,
// NewPolicy, the Default constants), shared with the CUE front end. Only
// the root file's tests must be complete (a controller and a workload);
// imported tests serve as bases.
// Lowered policies, masks, invariants and plans are shallow copies that
// share slices: treat the IR as read-only. An invariant with parameters is
// checked once on its own (parameters without a default of any type) and
// lowered once per use, with the use's arguments in the IR and its
// expression compiled again with them as constants.
//
// It does not parse (lang/syntax does), does not lint the compiled spec
// against the kinds' schemas and the workloads (lang/lint does, for
// either front end) and does not run anything.
package check
