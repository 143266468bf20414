package load

import (
	"path/filepath"

	"github.com/sievetool/sieve/lang/cuefront"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/format"
)

// Format formats the spec file filename, whose text is src, with the
// front end its extension calls for (.sieve: lang/format; .cue: CUE's own
// format). This is the one place that knows which front end formats which
// files; sieve fmt and sieve lsp both go through it.
func Format(filename string, src []byte) ([]byte, diag.Diagnostics) {
	switch filepath.Ext(filename) {
	case ".sieve":
		return format.Source(filename, src)
	case ".cue":
		return cuefront.Format(filename, src)
	}
	return nil, diag.Diagnostics{fileError(filename, "fmt", "cannot format %s: not a .sieve or .cue file", filepath.Base(filename))}
}
