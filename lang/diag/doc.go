// Package diag holds the project's diagnostics: source positions and ranges,
// the Diagnostic type both front ends produce, sorting, the text and JSON
// renderers used at the edge (the CLI), and the helpers that fit outside
// text into a message: Quote (a value cut to size), Printable (no
// terminal escapes) and Tail (the last lines of a log or a command's
// output). It imports nothing of ours.
//
// It does not decide what is an error; the parser, checker and CUE front end
// do.
package diag
