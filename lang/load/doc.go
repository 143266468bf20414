// Package load turns a spec file into IR, whichever front end it needs. It
// dispatches by file extension: .sieve goes to lang/syntax and lang/check,
// .cue and CUE package directories go to lang/cuefront. Every CLI verb that
// compiles a spec, sievetest and the language server load it here
// (LoadSource: from an editor's text). Format picks the formatter by
// extension (lang/format, lang/cuefront), for sieve fmt and the editor.
//
// It also builds the import search path from -I flags and SIEVE_PATH
// (SearchPath). The path serves .sieve imports only: -I given for a CUE
// spec is a warning. Source serves the text of a file for diagnostic
// excerpts, the embedded standard library's included.
//
// It does not parse, check or format anything itself.
package load
