// Package check is the second half of the .sieve front end: it resolves
// imports (relative files, the embedded std/... library, the search path),
// checks every declaration of the parsed files, and lowers the result to
// the IR (lang/ir) with parameters substituted and test inheritance
// flattened.
//
// The checker is strict where the parser is lenient: it reports every
// problem it finds, sorted and once each, with "did you mean" hints for
// misspelt names and the first definition as a related position for
// duplicates. CEL expressions are compiled with lang/celenv at check time.
//
// It does not parse (lang/syntax does) and does not run anything. It reads
// imported files through the file system it is given.
package check
