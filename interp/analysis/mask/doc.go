// Package mask compiles the oracle masks of a test into a Set. The masks
// (ir.Mask) are the spec's, the standard library's and the learned ones.
// A Set answers whether a field of an object is masked for an oracle, fast
// and without allocation in the common case. It also strips or redacts
// the masked fields of an object.
//
// A rule applies to the objects that its target glob kind/namespace/name
// matches. It masks a field name at any depth (Key), or a field path in
// which "*" matches any map key or list index (Path). It can also mask
// string values that look like RFC3339 timestamps or IP addresses (Value),
// or the whole object (Whole). A masked field masks everything below it.
// Paths are ir.Path patterns, in the text form that grammar.md describes
// once (section "Field paths").
//
// It does not decide which masks apply to a test (the caller passes
// them), learn masks (interp/analysis/oracle) or compare objects.
package mask
