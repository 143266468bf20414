// Package load turns a spec file into IR, whichever front end it needs: it
// dispatches by file extension (.sieve to the syntax and check packages,
// .cue and CUE package directories to the CUE front end) and is the one entry point every CLI verb
// and the language server use (LoadSource: from an editor's text). It also
// picks the formatter by extension (Format), builds the import search path from -I flags and
// SIEVE_PATH (for .sieve imports; -I given for a CUE spec is a warning),
// and serves source text for diagnostic excerpts, including
// the embedded standard library.
//
// It does not parse, check or format anything itself.
package load
