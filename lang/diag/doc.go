// Package diag holds the project's diagnostics: source positions and ranges,
// the Diagnostic type both front ends produce, sorting, and the text and JSON
// renderers used at the edge (the CLI). It imports nothing of ours.
//
// It does not decide what is an error; the parser, checker and CUE front end
// do.
package diag
