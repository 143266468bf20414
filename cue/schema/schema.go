// Package schema holds the sieve CUE schema, the one source of both the
// CUE module sieve.dev/schema@v0 published from this directory
// (docs/libraries.md) and the schema that sieve embeds: schema.cue
// (#Spec, what specs are written against) and ir.cue (#IR, the compiled
// model). lang/cuefront reads them through Spec and IR.
//
// It owns the text of the schema only; loading and lowering CUE specs
// is lang/cuefront's.
package schema

import _ "embed"

//go:embed schema.cue
var spec string

//go:embed ir.cue
var irSchema string

// Spec returns schema.cue: the CUE schema of specs (package schema,
// #Spec).
func Spec() string { return spec }

// IR returns ir.cue: the CUE schema of the compiled IR (#IR), in the same
// package as Spec.
func IR() string { return irSchema }
