// Package syntax owns the concrete syntax of the .sieve language: the lexer
// table, the grammar (whose Go structs are the AST), and Parse, which turns a
// source file into a best-effort AST plus diagnostics.
//
// The grammar is documented in grammar.md at the root of the repository;
// its production names are the type names here, and its EBNF is printed by
// participle from the AST's struct tags (EBNF). Parse runs a hand-written
// recursive-descent parser over the tokens of a hand-written scanner: both
// implement the participle definitions exactly (tests hold the scanner to
// the rules table and the parser to participle's, on trees, ranges and error
// positions) and are fast enough for a 10 MB file, which participle's
// reflective parser is not.
//
// The parser is lenient: it accepts any attribute name and value shape the
// grammar allows and leaves names, types and meaning to the checker
// (lang/check). It does not resolve imports, evaluate expressions or compile
// CEL; CEL text is kept as a string literal with its position. Every node
// embeds Span (Pos, EndPos as diag.Position) and so has a Range.
//
// Comments are not part of the grammar; Parse collects them, with their
// positions, in File.Comments so that the formatter (lang/format) can keep
// them. Walk visits a tree; Dump prints it without positions. The New*
// builders make the nodes of a tree that a program writes rather than
// parses, checking each token's text, for lang/format to print.
package syntax
