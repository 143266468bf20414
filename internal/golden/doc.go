// Package golden is the golden-file helper of every test in the module.
// Update is the one reader of SIEVE_UPDATE. File checks or rewrites a
// whole golden file. Check compares the out/ sections of a txtar archive
// with what a test produced, or rewrites them.
//
// It lives at the top of the module so that the tests of lang and of
// interp can both import it, since lang imports nothing of interp. It
// holds no test data.
package golden
