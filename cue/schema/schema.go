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
