// Package golden is the golden-file helper of every test in the module:
// Update, the one reader of SIEVE_UPDATE; File, for a whole golden file;
// Check, which compares the out/ sections of a txtar archive with what a
// test produced or rewrites them; Archives, which runs a test per archive
// in a directory of its inputs (WriteInputs); and Spec, the out/ sections
// of a checked spec (its IR dump and diagnostics). It lives at the top so
// that lang's tests and interp's can both import it (lang imports nothing
// of interp). It holds no test data.
package golden
