package lsp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/load"
	"github.com/sievetool/sieve/lang/syntax"
)

// target is where a name is declared: the file, its text and the
// declaration there; std is set for the standard library, which has no
// file on disk.
type target struct {
	file string
	text *text
	std  bool
	decl declared
}

// definition jumps from a name to its declaration (a workload, policy,
// mask, invariant, plan, controller or test, here or in an imported file),
// from the index of a step reference W[i] to that step, and from an
// import's path to the file it names.
func (s *server) definition(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.DefinitionParams](s, raw)
	if err != nil {
		return nil, err
	}
	off := doc.text.offset(p.Position)
	decls := declarations(doc.path, doc.text.src)
	if im := importAt(decls, off); im != nil {
		files, std, ok := check.ResolveImport(doc.path, importPath(im), load.CheckOptions(s.opts.Load))
		if !ok {
			return []protocol.Location{}, nil
		}
		f, err := s.openable(files[0], std)
		if err != nil {
			return nil, err
		}
		return []protocol.Location{{URI: uri.File(f)}}, nil
	}
	word, _, _ := doc.text.wordAt(off)
	at := func(t target) diag.Range { return t.decl.nameRng }
	if ref := stepAt(doc, off); ref != nil {
		word, at = ref.Workload.Name, stepRange(ref)
	}
	t, ok := s.lookup(doc, decls, word)
	if !ok {
		return []protocol.Location{}, nil
	}
	f, err := s.openable(t.file, t.std)
	if err != nil {
		return nil, err
	}
	return []protocol.Location{{URI: uri.File(f), Range: t.text.rangeOf(at(t))}}, nil
}

// openable is the absolute path of a file an editor can open for file, a
// file of the standard library's (std/NAME.sieve) if std is set: its
// read-only copy.
func (s *server) openable(file string, std bool) (string, error) {
	if !std {
		return absPath(file), nil
	}
	f, err := s.std.path(file)
	if err != nil {
		return "", jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", err)
	}
	return f, nil
}

// stepAt returns the step reference W[i] whose brackets hold off, or nil.
func stepAt(doc *document, off int) *syntax.StepRef {
	f, _ := syntax.Parse(doc.path, doc.text.src)
	var out *syntax.StepRef
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.StepRef)
		if ok && r.Workload != nil && r.Step != nil && r.Workload.EndPos.Offset <= off && off < r.EndPos.Offset {
			out = r
		}
		return out == nil
	})
	return out
}

// stepRange finds the step that ref names in the workload it resolves
// to: the workload's name when there is no such step.
func stepRange(ref *syntax.StepRef) func(target) diag.Range {
	return func(t target) diag.Range {
		w, ok := t.decl.node.(*syntax.Workload)
		i, err := strconv.Atoi(ref.Step.Text)
		if !ok || err != nil || i < 1 || i > len(w.Steps) {
			return t.decl.nameRng
		}
		return w.Steps[i-1].Range()
	}
}

// importAt returns the import whose path string holds off, or nil.
func importAt(decls []declared, off int) *syntax.Import {
	for _, d := range decls {
		im, ok := d.node.(*syntax.Import)
		if ok && im.Path != nil && im.Path.Pos.Offset <= off && off < im.Path.EndPos.Offset {
			return im
		}
	}
	return nil
}

// lookup resolves a name as the document would: a declaration of its own
// file, or alias.name from an import.
func (s *server) lookup(doc *document, decls []declared, word string) (target, bool) {
	alias, name, qualified := strings.Cut(word, ".")
	for _, d := range decls {
		if !qualified && d.keyword != "import" && d.name == word {
			return target{file: doc.path, text: doc.text, decl: d}, true
		}
		if qualified && d.keyword == "import" && d.name == alias {
			return s.lookupIn(doc.path, d.node.(*syntax.Import), name)
		}
	}
	return target{}, false
}

// lookupIn finds name among the declarations of the files import im of
// the file importer brings in.
func (s *server) lookupIn(importer string, im *syntax.Import, name string) (target, bool) {
	for _, f := range s.importedFiles(importer, im) {
		for _, d := range declarations(f.name, f.text.src) {
			if d.keyword != "import" && d.name == name {
				return target{file: f.name, text: f.text, std: f.std, decl: d}, true
			}
		}
	}
	return target{}, false
}

// importedFile is a file an import brings in, and its text; std is set
// for a file of the standard library, which has no file on disk.
type importedFile struct {
	name string
	text *text
	std  bool
}

// importedFiles are the files an import brings in: none for an import
// that does not resolve.
func (s *server) importedFiles(importer string, im *syntax.Import) []importedFile {
	files, std, ok := check.ResolveImport(importer, importPath(im), load.CheckOptions(s.opts.Load))
	if !ok {
		return nil
	}
	var out []importedFile
	for _, f := range files {
		var t *text
		if std {
			if src, ok := load.Source(f); ok {
				t = newText(src)
			}
		} else {
			f = absPath(f)
			t = s.textOf(f)
		}
		if t != nil {
			out = append(out, importedFile{f, t, std})
		}
	}
	return out
}
