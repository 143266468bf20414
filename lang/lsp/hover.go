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
// invariant it is in by its default, the name of an argument at a call by
// the parameter's default and the value passed, a declared name by its
// declaration.
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
	if md := s.argDoc(doc, decls, off, word); md != "" {
		return md
	}
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
		if p := paramOf(d, word); p != nil {
			return describeParam(t, d, p)
		}
	}
	return ""
}

// argDoc describes word as the name of an argument at a call whose name
// holds off (replicas in scale(replicas = 2)): the parameter of the
// workload or invariant called, with its default, and the value passed;
// "" when it is none.
func (s *server) argDoc(doc *document, decls []declared, off int, word string) string {
	call, arg := argAt(doc, off)
	if call == nil || call.Name == nil || arg.Name.Name != word {
		return ""
	}
	t, ok := s.lookup(doc, decls, call.Name.String())
	if !ok {
		return ""
	}
	p := paramOf(t.decl, word)
	if p == nil {
		return ""
	}
	return describeParam(t.text, t.decl, p) + "\n\npassed: `" + source(doc.text, arg.Value) + "`"
}

// argAt returns the named argument whose name holds off, and its call.
func argAt(doc *document, off int) (*syntax.Call, *syntax.Arg) {
	f, _ := syntax.Parse(doc.path, doc.text.src)
	var call *syntax.Call
	var arg *syntax.Arg
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.Call)
		if !ok {
			return call == nil
		}
		for _, a := range c.Args {
			if a != nil && a.Name != nil && a.Value != nil && a.Name.Pos.Offset <= off && off < a.Name.EndPos.Offset {
				call, arg = c, a
			}
		}
		return call == nil
	})
	return call, arg
}

// paramOf is the parameter called name of a workload or invariant, or nil.
func paramOf(d declared, name string) *syntax.Param {
	var params []*syntax.Param
	switch n := d.node.(type) {
	case *syntax.Workload:
		params = n.Params
	case *syntax.Invariant:
		params = n.Params
	}
	for _, p := range params {
		if p.Name != nil && p.Name.Name == name {
			return p
		}
	}
	return nil
}

// describeParam is the hover of parameter p of declaration d, whose file's
// text is t: its default as written.
func describeParam(t *text, d declared, p *syntax.Param) string {
	md := "`" + p.Name.Name + "` (parameter of " + d.keyword + " " + d.name + ")\n\n"
	if p.Default == nil {
		return md + "no default: every caller gives it"
	}
	if def := source(t, p.Default); def != "" {
		return md + "default: `" + def + "`"
	}
	return md
}

// source is n as written in t, "" when its range is not in t.
func source(t *text, n syntax.Node) string {
	r := n.Range()
	if r.Start.Offset > r.End.Offset || r.End.Offset > len(t.src) {
		return ""
	}
	return string(t.src[r.Start.Offset:r.End.Offset])
}
