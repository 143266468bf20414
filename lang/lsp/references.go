package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/syntax"
)

// references lists where the workspace names the declaration under the
// cursor: each name that refers to it (a test's base, a value, a
// workload's step W[i]) in its own file and, as alias.name, in the files
// that import that file (workspaceFiles), and, when asked, the
// declaration itself. The declaration is resolved as go to definition
// resolves it.
func (s *server) references(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.ReferenceParams](s, raw)
	if err != nil {
		return nil, err
	}
	word, _, _ := doc.text.wordAt(doc.text.offset(p.Position))
	out := []protocol.Location{}
	t, ok := s.lookup(doc, declarations(doc.path, doc.text.src), word)
	if !ok {
		return out, nil
	}
	declFile, dir := t.file, filepath.Dir(doc.path)
	if !t.std {
		declFile = absPath(t.file)
		dir = filepath.Dir(declFile)
		if p.Context.IncludeDeclaration {
			out = append(out, location(declFile, t.text, t.decl.nameRng))
		}
		out = append(out, locations(declFile, t.text, t.decl.name)...)
	}
	for _, f := range s.workspaceFiles(dir) {
		out = append(out, s.importerUses(f, t, declFile)...)
	}
	slices.SortStableFunc(out, func(a, b protocol.Location) int {
		return cmp.Or(cmp.Compare(a.URI, b.URI), cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Character, b.Range.Start.Character))
	})
	return slices.CompactFunc(out, func(a, b protocol.Location) bool { return a == b }), nil
}

// importerUses are the places file names t's declaration through an
// import of declFile, the file that declares it: alias.name.
func (s *server) importerUses(file string, t target, declFile string) []protocol.Location {
	if file == declFile {
		return nil
	}
	tx := s.textOf(file)
	if tx == nil {
		return nil
	}
	var out []protocol.Location
	for _, d := range declarations(file, tx.src) {
		im, ok := d.node.(*syntax.Import)
		if ok && s.imports(file, im, declFile, t.std) {
			out = append(out, locations(file, tx, d.name+"."+t.decl.name)...)
		}
	}
	return out
}

// imports tells whether import im of file brings in declFile (a file of
// the standard library's when std is set).
func (s *server) imports(file string, im *syntax.Import, declFile string, std bool) bool {
	return slices.ContainsFunc(s.importedFiles(file, im), func(f importedFile) bool {
		return f.std == std && f.name == declFile
	})
}

// locations are the places file, whose text is tx, names name.
func locations(file string, tx *text, name string) []protocol.Location {
	f, _ := syntax.Parse(file, tx.src)
	var out []protocol.Location
	for _, r := range uses(f, name) {
		out = append(out, location(file, tx, r))
	}
	return out
}

func location(file string, tx *text, r diag.Range) protocol.Location {
	return protocol.Location{URI: uri.File(file), Range: tx.rangeOf(r)}
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
