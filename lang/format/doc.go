// Package format prints .sieve syntax trees in the canonical layout that
// `sieve fmt` writes. That is two-space indentation, one declaration per
// paragraph, and attribute and step values aligned in runs. Lists and
// objects stay on one line unless they spanned several lines in the
// source. Every comment is kept.
//
// Formatting is idempotent and changes nothing in the syntax tree but
// positions. A comment inside an expression that stays on one line moves
// to the end of that line.
//
// It owns no parsing and no checking: Source parses with lang/syntax, and
// the checker is lang/check. CUE specs are formatted by lang/cuefront.
//
// It is the only printer of .sieve text. A program that writes .sieve
// (learned masks, generated plans) builds the declaration with
// lang/syntax's builders and prints it with Decl. A tree without
// positions has each step, rule and attribute on a line of its own, and
// every list and object on one line.
package format
