// Package mask compiles the oracle masks of a test (ir.Mask: the spec's, the
// standard library's and the learned ones) into a Set that answers, fast and
// without allocation in the common case, whether a field of an object is
// masked for an oracle, and that strips masked fields from objects.
//
// A rule masks, on the objects its target glob kind/namespace/name matches:
// a field name at any depth (Key), a field path in which "*" matches any map
// key or list index (Path), string values that look like RFC3339 timestamps
// or IP addresses (Value), or the whole object (Whole). A masked field masks
// everything below it. Paths are ir.Path patterns, in the text form that
// grammar.md describes once (section "Field paths").
//
// It does not decide which masks apply to a test (the caller passes them),
// does not learn masks (see interp/analysis/oracle) and does not compare objects.
package mask
