package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/check"
	"github.com/sievetool/sieve/lang/syntax"
)

// hover describes the word under the cursor: in a .cue spec, a field of
// the schema (cuehover.go); in a .sieve one, a field of a path or CEL
// selection by its kind's schema (schema.go), a declaration keyword or an
// attribute by grammar.md's words, a parameter of the workload or
// invariant it is in by its default, a declared name by its declaration.
func (s *server) hover(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.HoverParams](s, raw)
	if err != nil {
		return nil, err
	}
	off := doc.text.offset(p.Position)
	if filepath.Ext(doc.path) == ".cue" {
		return cueHover(doc, off), nil
	}
	md, start, end := fieldHover(doc, off)
	if md == "" {
		var word string
		if word, start, end = doc.text.wordAt(off); word == "" {
			return nil, nil
		}
		md = s.hoverText(doc, off, doc.text.whereAt(off), word)
	}
	if md == "" {
		return nil, nil
	}
	r := protocol.Range{Start: doc.text.position(start), End: doc.text.position(end)}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
}

func (s *server) hoverText(doc *document, off int, w where, word string) string {
	switch {
	case w.lineStart && w.depth == 0 && isKeyword(word):
		return docs()[word]
	case w.lineStart && w.depth == 1 && w.block == "workload" && slices.Contains(stepKeywords, word):
		return docs()["workload."+word]
	case w.lineStart && w.depth == 1 && slices.Contains(check.Attributes(w.block), word):
		return "`" + word + "` (" + w.block + " attribute)\n\n" + attrDoc(w.block, word)
	}
	decls := declarations(doc.path, doc.text.src)
	if md := paramDoc(doc.text, decls, off, word); md != "" {
		return md
	}
	t, ok := s.lookup(doc, decls, word)
	if !ok {
		return ""
	}
	md := "```sieve\n" + declLine(t.text, t.decl) + "\n```"
	if c := leadingComment(t.text, t.decl); c != "" {
		md += "\n\n" + c
	}
	return md
}

func isKeyword(w string) bool {
	return w == "import" || slices.Contains(check.DeclKeywords(), w)
}

// declLine is the first line of a declaration, without its opening brace.
func declLine(t *text, d declared) string {
	l := string(t.line(d.node.Range().Start.Line - 1))
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "{"))
}

// leadingComment is the text of the // comment lines right above a
// declaration, its documentation.
func leadingComment(t *text, d declared) string {
	var lines []string
	for n := d.node.Range().Start.Line - 2; n >= 0; n-- {
		l, ok := strings.CutPrefix(strings.TrimSpace(string(t.line(n))), "//")
		if !ok {
			break
		}
		lines = append([]string{strings.TrimPrefix(l, " ")}, lines...)
	}
	return strings.Join(lines, "\n")
}

// paramDoc describes word as a parameter of the workload or invariant
// whose declaration holds off, with its default as written; "" when it is
// none.
func paramDoc(t *text, decls []declared, off int, word string) string {
	for _, d := range decls {
		r := d.node.Range()
		if off < r.Start.Offset || off >= r.End.Offset {
			continue
		}
		var params []*syntax.Param
		switch n := d.node.(type) {
		case *syntax.Workload:
			params = n.Params
		case *syntax.Invariant:
			params = n.Params
		}
		for _, p := range params {
			if p.Name == nil || p.Name.Name != word {
				continue
			}
			md := "`" + word + "` (parameter of " + d.keyword + " " + d.name + ")\n\n"
			if p.Default == nil {
				return md + "no default: every caller gives it"
			}
			dr := p.Default.Range()
			if dr.Start.Offset > dr.End.Offset || dr.End.Offset > len(t.src) {
				return md
			}
			return md + "default: `" + string(t.src[dr.Start.Offset:dr.End.Offset]) + "`"
		}
	}
	return ""
}
