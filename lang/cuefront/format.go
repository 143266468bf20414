package cuefront

import (
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"

	"github.com/sievetool/sieve/lang/diag"
)

// Format returns src, the CUE file filename, in CUE's canonical format
// (what `cue fmt` writes; comments kept). A file that does not parse
// gives its syntax errors as diagnostics at file:line:col.
func Format(filename string, src []byte) ([]byte, diag.Diagnostics) {
	s := &source{given: filename, files: map[string][]byte{filename: src}}
	f, err := parser.ParseFile(filename, src, parser.ParseComments)
	if err != nil {
		return nil, s.errDiags(err).Sort()
	}
	out, err := format.Node(f, format.Simplify())
	if err != nil {
		return nil, s.errDiags(err).Sort()
	}
	return out, nil
}
