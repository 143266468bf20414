// Package golden is the golden-file helper of every test in the module:
// Update, the one reader of SIEVE_UPDATE; File, for a whole golden file
// (a document such as grammar.md included); Check, which compares the
// outputs of a txtar archive (its out/ sections and those a test names)
// with what a test produced or rewrites them; InputDir, which writes an
// archive's inputs where a test reads them; Archives, which runs a test
// per archive in a directory of its inputs; and Spec, the out/ sections
// of a checked spec (its IR dump and diagnostics). It lives at the top so
// that lang's tests and interp's can both import it (lang imports nothing
// of interp). It holds no test data.
package golden
