// Package schema holds the sieve CUE schema: schema.cue (#Spec, what specs
// are written against) and ir.cue (#IR, the compiled model). It is the one
// source of both the schema that sieve embeds and the CUE module
// sieve.dev/schema@v0 published from this directory (docs/libraries.md).
// lang/cuefront reads them through Spec and IR.
//
// It owns the text of the schema only; loading and lowering CUE specs is
// lang/cuefront's.
package schema
