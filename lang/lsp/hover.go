package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/check"
)

// hover describes the word under the cursor: a declaration keyword or an
// attribute by grammar.md's words, a declared name by its declaration.
func (s *server) hover(_ context.Context, raw json.RawMessage) (any, error) {
	p, doc, err := request[protocol.HoverParams](s, raw)
	if err != nil {
		return nil, err
	}
	off := doc.text.offset(p.Position)
	word, start, end := doc.text.wordAt(off)
	if word == "" {
		return nil, nil
	}
	md := s.hoverText(doc, doc.text.whereAt(off), word)
	if md == "" {
		return nil, nil
	}
	r := protocol.Range{Start: doc.text.position(start), End: doc.text.position(end)}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
}

func (s *server) hoverText(doc *document, w where, word string) string {
	switch {
	case w.lineStart && w.depth == 0 && isKeyword(word):
		return docs()[word]
	case w.lineStart && w.depth == 1 && slices.Contains(check.Attributes(w.block), word):
		return "`" + word + "` (" + w.block + " attribute)\n\n" + attrDoc(w.block, word)
	}
	t, ok := s.lookup(doc, declarations(doc.path, doc.text.src), word)
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
