// Package lsp is sieve's language server: it speaks the Language Server
// Protocol over a stream (sieve lsp serves it on stdin and stdout) and
// answers an editor's questions about .sieve specs from the lang packages.
//
// It owns the protocol side only: open documents and their text, the
// mapping between the checker's positions (lines and rune columns) and the
// protocol's (lines and UTF-16 columns), and the translation of diagnostics,
// declarations and formatting into protocol messages. Diagnostics come from
// lang/load, exactly as sieve check reports them; formatting from
// lang/format; attribute names from lang/check; kinds' fields for
// completion and hover from lang/lint's Schemas; hover text for attributes
// and keywords from grammar.md, through docs.txt (generated from it and
// held equal to it by a test). JSON-RPC framing and the protocol's types
// come from go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol.
//
// It keeps the editor's copy of the standard library (stdfiles.go): the
// embedded files written read-only to a cache directory, so that go to
// definition into std/... has a file to give.
//
// It does not check, parse or format anything itself. It serves .cue specs
// with diagnostics (of the editor's text), formatting and hover, whose
// schema fields and their docs come from lang/cuefront (FieldAt).
package lsp
