package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/check"
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
// mask, invariant, plan, controller or test, here or in an imported file)
// and from an import's path to the file it names.
func (s *server) definition(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.DefinitionParams](s, raw)
	if err != nil {
		return nil, err
	}
	off := doc.text.offset(p.Position)
	decls := declarations(doc.path, doc.text.src)
	if im := importAt(decls, off); im != nil {
		files, std, ok := check.ResolveImport(doc.path, importPath(im), load.CheckOptions(s.opts.Load))
		if !ok || std {
			return []protocol.Location{}, nil
		}
		return []protocol.Location{{URI: uri.File(absPath(files[0]))}}, nil
	}
	word, _, _ := doc.text.wordAt(off)
	t, ok := s.lookup(doc, decls, word)
	if !ok || t.std {
		return []protocol.Location{}, nil
	}
	return []protocol.Location{{URI: uri.File(absPath(t.file)), Range: t.text.rangeOf(t.decl.nameRng)}}, nil
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
