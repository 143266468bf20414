// Package syntax owns the concrete syntax of the .sieve language: the
// lexer table, the grammar (whose Go structs are the AST), and Parse,
// which turns a source file into a best-effort AST plus diagnostics.
//
// grammar.md at the root of the repository documents the grammar. Its
// production names are the type names here, and participle prints its
// EBNF from the AST's struct tags (EBNF). Parse runs a hand-written
// recursive-descent parser over the tokens of a hand-written scanner. Both
// implement the participle definitions exactly: tests hold them to
// participle's on trees, ranges and error positions. They exist because
// participle's reflective parser is too slow for large specs
// (BenchmarkParse10MB measures Parse).
//
// The parser is lenient: it accepts any attribute name and value shape
// that the grammar allows. Names, types and meaning are left to the
// checker (lang/check). It does not resolve imports, evaluate expressions
// or compile CEL; CEL text is kept as a string literal with its position.
// Every node embeds Span (Pos, EndPos as diag.Position) and so has a Range.
//
// Comments are not part of the grammar. Parse collects them, with their
// positions, in File.Comments, so that the formatter (lang/format) can
// keep them. Walk visits a tree; Dump prints it without positions. The
// New* builders make the nodes of a tree that a program writes rather
// than parses, checking each token's text, for lang/format to print.
package syntax
