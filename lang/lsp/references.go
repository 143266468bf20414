package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/syntax"
)

// references lists where the document names the declaration under the
// cursor: each name that refers to it (a test's base, a value, a
// workload's step W[i]) and, when asked, the declaration itself. It looks
// in the document only.
func (s *server) references(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.ReferenceParams](s, raw)
	if err != nil {
		return nil, err
	}
	word, _, _ := doc.text.wordAt(doc.text.offset(p.Position))
	out := []protocol.Location{}
	f, _ := syntax.Parse(doc.path, doc.text.src)
	decls := declarations(doc.path, doc.text.src)
	t, ok := s.lookup(doc, decls, word)
	if !ok {
		return out, nil
	}
	if p.Context.IncludeDeclaration && t.file == doc.path {
		out = append(out, protocol.Location{URI: doc.uri, Range: doc.text.rangeOf(t.decl.nameRng)})
	}
	for _, r := range uses(f, word) {
		out = append(out, protocol.Location{URI: doc.uri, Range: doc.text.rangeOf(r)})
	}
	return out, nil
}

// uses are the ranges of the names in f spelt name: calls and references
// in values, a test's base, and the workload of a step reference.
func uses(f *syntax.File, name string) []diag.Range {
	var out []diag.Range
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Name:
			if x.String() == name {
				out = append(out, x.Range())
			}
		case *syntax.StepRef:
			if x.Workload != nil && x.Workload.Name == name {
				out = append(out, x.Workload.Range())
			}
		}
		return true
	})
	return out
}
