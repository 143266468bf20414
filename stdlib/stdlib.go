package stdlib

import (
	"embed"
	"io/fs"
)

//go:embed std/*.sieve
var files embed.FS

// FS returns the standard library: the files std/*.sieve.
func FS() fs.FS { return files }
