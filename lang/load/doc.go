// Package load turns a spec file into IR, whichever front end it needs. It
// dispatches by file extension: .sieve goes to lang/syntax and lang/check,
// .cue and CUE package directories go to lang/cuefront. Every CLI verb that
// compiles a spec, and sievetest, loads it here. `sieve fmt` formats
// without compiling (lang/format, lang/cuefront).
//
// It also builds the import search path from -I flags and SIEVE_PATH
// (SearchPath). The path serves .sieve imports only: -I given for a CUE
// spec is a warning. Source serves the text of a file for diagnostic
// excerpts, the embedded standard library's included.
//
// It does not parse or check anything itself.
package load
