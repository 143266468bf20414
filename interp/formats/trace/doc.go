// Package trace defines the trace that the record and inject stages write
// and the generate, compare and report stages read. A trace is a totally
// ordered list of entries, stored as JSON Lines with a header line that
// carries the format version.
//
// It owns the format and its reader and writer, nothing else. The format
// is documented in docs/trace.md.
package trace
