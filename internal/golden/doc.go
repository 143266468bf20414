// Package golden is the golden-file helper of every test in the module.
// Update is the one reader of SIEVE_UPDATE. File checks or rewrites a
// whole golden file, a document such as grammar.md included. Check
// compares the outputs of a txtar archive (its out/ sections and those a
// test names) with what a test produced, or rewrites them. InputDir
// writes an archive's inputs where a test reads them, and Files indexes
// an archive's files by name. Archives runs a test per archive in a
// directory of its inputs; Spec is the out/ sections of a checked spec.
//
// It lives at the top of the module so that the tests of lang and of
// interp can both import it, since lang imports nothing of interp. It
// holds no test data.
package golden
