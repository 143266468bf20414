package load

import (
	"path/filepath"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/stdlib"
)

// LoadSource is Load for a .sieve or .cue file whose text the caller holds
// (an editor's unsaved buffer): src stands for the file at path, and the
// files it imports are read from disk. The diagnostics are those Load
// gives for the same text on disk. Any other path is loaded from disk, as
// by Load.
func LoadSource(path string, src []byte, opts Options) (*ir.Spec, diag.Diagnostics) {
	var spec *ir.Spec
	var ds diag.Diagnostics
	switch filepath.Ext(path) {
	case ".sieve":
		spec, ds = check.File(path, src, CheckOptions(opts))
	case ".cue":
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, diag.Diagnostics{fileError(path, "read", "cannot resolve spec path: %v", err)}
		}
		spec, ds = loadCUE(path, opts, map[string][]byte{abs: src})
	default:
		return Load(path, opts)
	}
	return withLint(path, spec, ds, opts, map[string][]byte{path: src})
}

// CheckOptions are the checker's options for a .sieve spec loaded with
// opts: its search path and the embedded standard library.
func CheckOptions(opts Options) check.Options {
	return check.Options{SearchPath: opts.SearchPath, Std: stdlib.FS()}
}
