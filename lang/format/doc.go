// Package format prints .sieve syntax trees in the canonical layout that
// `sieve fmt` writes: two-space indentation, one declaration per paragraph,
// attribute and step values aligned in runs, lists and objects on one line
// unless they spanned several lines in the source, and every comment kept.
//
// Formatting is idempotent and does not change the syntax tree (apart from
// positions): a comment written inside an expression that stays on one
// line moves to the end of that line. It owns no parsing and no checking;
// see lang/syntax.
//
// It is the only printer of .sieve text: a program that writes .sieve
// (learned masks, generated plans) builds the declaration with lang/syntax's
// builders and prints it with Decl; a tree without positions has each
// step, rule and attribute on a line of its own and every list and object
// on one line.
package format
