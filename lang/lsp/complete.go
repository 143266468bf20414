package lsp

import (
	"context"
	"encoding/json"
	"io/fs"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/lint"
	"github.com/sievetool/sieve/lang/syntax"
	"github.com/sievetool/sieve/stdlib"
)

// stepKeywords start the steps of a workload (grammar.md, workload).
var stepKeywords = []string{"apply", "patch", "delete", "scale", "wait", "settle", "sleep", "explore"}

// completion offers what may be written at the cursor: the fields of a
// field path or CEL selection whose kind is known (schema.go), declaration
// keywords at the top level, attribute names (or workload steps) at the
// start of a line inside a block, and elsewhere the declared names, the
// qualified names of imported files and the kinds (built in and CRDs).
func (s *server) completion(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.CompletionParams](s, raw)
	if err != nil {
		return nil, err
	}
	off := doc.text.offset(p.Position)
	w := doc.text.whereAt(off)
	var items []protocol.CompletionItem
	site, inPath := fieldSiteAt(doc, off)
	switch {
	case inPath:
		items = append([]protocol.CompletionItem{}, fieldItems(schemas(doc), site)...)
	case w.depth == 0 && inImportPath(doc.text, doc.text.offset(p.Position)):
		items = stdItems()
	case w.lineStart && w.depth == 0:
		items = keywordItems(append([]string{"import"}, check.DeclKeywords()...), docs())
	case w.lineStart && w.depth == 1 && w.block == "workload":
		items = keywordItems(stepKeywords, stepDocs())
	case w.lineStart && w.depth == 1 && check.Attributes(w.block) != nil:
		items = attrItems(w.block)
	default:
		items = append(s.nameItems(doc), kindItems(schemas(doc))...)
	}
	return &protocol.CompletionList{Items: items}, nil
}

func keywordItems(words []string, doc map[string]string) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	for _, k := range words {
		out = append(out, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindKeyword, Documentation: markdown(doc[k])})
	}
	return out
}

func attrItems(block string) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	for _, a := range check.Attributes(block) {
		out = append(out, protocol.CompletionItem{
			Label: a, Kind: protocol.CompletionItemKindProperty, Detail: block + " attribute",
			Documentation: markdown(attrDoc(block, a)),
		})
	}
	return out
}

// nameItems are the document's declarations and, for each import of a
// file on disk, the names it brings in, qualified by its alias.
func (s *server) nameItems(doc *document) []protocol.CompletionItem {
	var out []protocol.CompletionItem
	for _, d := range declarations(doc.path, doc.text.src) {
		if d.keyword != "import" {
			out = append(out, nameItem(d.name, d.keyword))
			continue
		}
		for _, f := range s.importedFiles(doc.path, d.node.(*syntax.Import)) {
			for _, x := range declarations(f.name, f.text.src) {
				if x.keyword != "import" && x.keyword != "test" {
					out = append(out, nameItem(d.name+"."+x.name, x.keyword))
				}
			}
		}
	}
	return out
}

func nameItem(name, keyword string) protocol.CompletionItem {
	return protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindReference, Detail: keyword}
}

// kindItems are the built-in kinds and those of the CRDs of sc, as
// resource keys spell them.
func kindItems(sc *lint.Schemas) []protocol.CompletionItem {
	var names []string
	for k := range kinds.Builtin().Kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]protocol.CompletionItem, 0, len(names))
	for _, k := range sc.CRDKinds() {
		out = append(out, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindClass, Detail: "kind (CRD)"})
	}
	for _, k := range names {
		out = append(out, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindClass, Detail: "kind"})
	}
	return out
}

func markdown(s string) any {
	if s == "" {
		return nil
	}
	return protocol.MarkupContent{Kind: protocol.Markdown, Value: s}
}

// inImportPath reports whether off is inside the quotes of an import on
// its line.
func inImportPath(t *text, off int) bool {
	l := t.line(int(t.position(off).Line))
	before := string(l[:min(len(l), int(t.position(off).Character))])
	rest, ok := strings.CutPrefix(strings.TrimSpace(before), "import")
	return ok && strings.Count(rest, `"`) == 1
}

// stdItems are the import paths of the standard library.
func stdItems() []protocol.CompletionItem {
	names, _ := fs.Glob(stdlib.FS(), "std/*.sieve")
	var out []protocol.CompletionItem
	for _, n := range names {
		out = append(out, protocol.CompletionItem{Label: strings.TrimSuffix(n, ".sieve"), Kind: protocol.CompletionItemKindModule, Detail: "standard library"})
	}
	return out
}

// stepDocs are the hover texts of the workload steps, by keyword.
func stepDocs() map[string]string {
	out := map[string]string{}
	for _, k := range stepKeywords {
		out[k] = docs()["workload."+k]
	}
	return out
}
