// Package stdlib is sieve's standard library of .sieve files — masks, fault
// policies, workloads and invariants — embedded in the binary. A spec imports them as
// "std/NAME" (the file std/NAME.sieve of FS).
//
// It holds data only; the checker reads it through the fs.FS it is given.
package stdlib

import (
	"embed"
	"io/fs"
)

//go:embed std/*.sieve
var files embed.FS

// FS returns the standard library: the files std/*.sieve.
func FS() fs.FS { return files }
