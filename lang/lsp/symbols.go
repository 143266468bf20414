package lsp

import (
	"context"
	"encoding/json"
	"strconv"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/syntax"
)

// declared is one top-level declaration as the parser saw it.
type declared struct {
	keyword string // import, controller, workload, ...
	name    string // the declared name; an import's alias or path
	nameRng diag.Range
	node    syntax.Decl
}

// declarations parses src (best effort) and lists its declarations.
func declarations(filename string, src []byte) []declared {
	f, _ := syntax.Parse(filename, src)
	var out []declared
	for _, d := range f.Decls {
		if x, ok := declOf(d); ok {
			out = append(out, x)
		}
	}
	return out
}

func declOf(d syntax.Decl) (declared, bool) {
	var kw string
	var name *syntax.Ident
	switch n := d.(type) {
	case *syntax.Import:
		return importDecl(n)
	case *syntax.Controller:
		kw, name = "controller", n.Name
	case *syntax.Workload:
		kw, name = "workload", n.Name
	case *syntax.Policy:
		kw, name = "policy", n.Name
	case *syntax.Mask:
		kw, name = "mask", n.Name
	case *syntax.Invariant:
		kw, name = "invariant", n.Name
	case *syntax.Plan:
		kw, name = "plan", n.Name
	case *syntax.Test:
		kw, name = "test", n.Name
	}
	if name == nil {
		return declared{}, false
	}
	return declared{keyword: kw, name: name.Name, nameRng: name.Range(), node: d}, true
}

// importDecl names an import by the alias its names are qualified with.
func importDecl(n *syntax.Import) (declared, bool) {
	if n.Path == nil {
		return declared{}, false
	}
	p := importPath(n)
	alias, rng := lastElem(p), n.Path.Range()
	if n.Alias != nil {
		alias, rng = n.Alias.Name, n.Alias.Range()
	}
	return declared{keyword: "import", name: alias, nameRng: rng, node: n}, true
}

// importPath is the import's path as written, unquoted.
func importPath(n *syntax.Import) string {
	p, err := strconv.Unquote(n.Path.Text)
	if err != nil {
		return n.Path.Text
	}
	return p
}

func lastElem(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			p = p[i+1:]
			break
		}
	}
	if n := len(p) - len(".sieve"); n > 0 && p[n:] == ".sieve" {
		p = p[:n]
	}
	return p
}

var symbolKinds = map[string]protocol.SymbolKind{
	"import":     protocol.SymbolKindModule,
	"controller": protocol.SymbolKindClass,
	"workload":   protocol.SymbolKindFunction,
	"policy":     protocol.SymbolKindObject,
	"mask":       protocol.SymbolKindObject,
	"invariant":  protocol.SymbolKindBoolean,
	"plan":       protocol.SymbolKindEvent,
	"test":       protocol.SymbolKindMethod,
}

// documentSymbol lists the document's declarations.
func (s *server) documentSymbol(_ context.Context, raw json.RawMessage) (any, error) {
	_, doc, err := request[protocol.DocumentSymbolParams](s, raw)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentSymbol{}
	for _, d := range declarations(doc.path, doc.text.src) {
		out = append(out, protocol.DocumentSymbol{
			Name:           d.name,
			Detail:         d.keyword,
			Kind:           symbolKinds[d.keyword],
			Range:          doc.text.rangeOf(d.node.Range()),
			SelectionRange: doc.text.rangeOf(d.nameRng),
		})
	}
	return out, nil
}
