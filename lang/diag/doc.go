// Package diag holds the project's diagnostics. It owns source positions
// and ranges, the Diagnostic type that both front ends produce, and their
// sorting. It also owns the text and JSON renderers that the CLI uses at
// the edge. Its helpers fit outside text into a message: Quote cuts a
// value to size, Printable removes terminal escapes, and Tail keeps the
// last lines of a log or a command's output. It imports nothing of ours.
//
// It does not decide what is an error: the parser, the checker and the CUE
// front end do.
package diag
