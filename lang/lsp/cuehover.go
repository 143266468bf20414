package lsp

import (
	"strings"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/cuefront"
)

// cueHover describes the field of a .cue spec whose label holds off, by
// the schema's doc comment of it, else by grammar.md's words for the
// .sieve declaration, attribute or step of the same name; nil for a label
// the schema does not know.
func cueHover(doc *document, off int) *protocol.Hover {
	f, ok := cuefront.FieldAt(doc.path, doc.text.src, off)
	if !ok {
		return nil
	}
	title, grammar := cueFieldDocs(f.Path)
	md := f.Doc
	if md == "" {
		md = grammar
	}
	if md == "" {
		return nil
	}
	r := protocol.Range{Start: doc.text.position(f.Start), End: doc.text.position(f.End)}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: title + "\n\n" + md}, Range: &r}
}

// cueFieldDocs titles the schema field at path and finds the .sieve
// words for it: a collection (workload) is its declaration keyword, a
// field of a declaration (workload.NAME.FIELD) its attribute, a field of
// a workload's step (workload.NAME.steps.[].FIELD) that step.
func cueFieldDocs(path []string) (title, grammar string) {
	name := path[len(path)-1]
	keyword := path[0]
	if keyword == "controllers" { // the one collection not named as its keyword
		keyword = "controller"
	}
	switch {
	case len(path) == 1:
		return "`" + name + "` (" + keyword + " declarations)", docs()[keyword]
	case len(path) == 2:
		return "`" + name + "` (" + keyword + ")", docs()[keyword]
	case len(path) == 3:
		return "`" + name + "` (" + keyword + " attribute)", attrDoc(keyword, name)
	case len(path) == 5 && keyword == "workload" && path[2] == "steps":
		return "`" + name + "` (workload step)", docs()["workload."+name]
	}
	return "`" + name + "` (" + strings.Join(path, ".") + ")", ""
}
