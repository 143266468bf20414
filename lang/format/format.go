package format

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/syntax"
)

// Source parses src and returns it formatted. On syntax errors it returns
// nil and the diagnostics.
func Source(filename string, src []byte) ([]byte, diag.Diagnostics) {
	f, ds := syntax.Parse(filename, src)
	if ds.HasErrors() {
		return nil, ds
	}
	return File(f), ds
}

// File returns the canonical text of f, ending in a newline (empty for a
// file with neither declarations nor comments).
func File(f *syntax.File) []byte {
	p := &printer{buf: &bytes.Buffer{}, comments: f.Comments}
	items := make([]item, len(f.Decls))
	for i, d := range f.Decls {
		items[i] = p.declItem(d)
	}
	p.top = true
	p.block(items, f.EndPos)
	return bytes.TrimLeft(p.buf.Bytes(), "\n")
}

// Decl returns the canonical text of the declaration d, ending in a
// newline, after comment: each of its lines becomes a // line comment. It
// is how a program writes .sieve (learned masks, generated plans): d is
// made with lang/syntax's builders, without positions, so each of its
// steps, rules and attributes takes one line and each list and object
// stays on it.
func Decl(d syntax.Decl, comment ...string) []byte {
	var b bytes.Buffer
	for _, c := range comment {
		for _, l := range strings.Split(c, "\n") {
			b.WriteString("// " + strings.TrimRight(l, "\r") + "\n")
		}
	}
	b.Write(File(&syntax.File{Decls: []syntax.Decl{d}}))
	return b.Bytes()
}

// printer writes into buf. Comments are printed in source order: next is
// the first comment not yet printed.
type printer struct {
	buf      *bytes.Buffer
	comments []*syntax.Comment
	next     int
	indent   int
	top      bool // printing the declarations of a file
	lastLine int  // source line of the last thing printed
}

func (p *printer) write(s ...string) {
	for _, x := range s {
		p.buf.WriteString(x)
	}
}

// render returns what fn prints.
func (p *printer) render(fn func()) string {
	saved := p.buf
	p.buf = &bytes.Buffer{}
	fn()
	s := p.buf.String()
	p.buf = saved
	return s
}

// item is one line-level element of a block: a declaration, attribute,
// step, rule, field or list element. Head is aligned across a run of
// single-line items; rest prints the remainder; suffix follows it (the comma
// of a list element).
type item struct {
	node     syntax.Node
	head     string
	rest     func()
	suffix   string
	isImport bool
}

// line is an item after rendering, with its comments.
type line struct {
	leading  []string // comment lines before the item; "" is a blank line
	head     string
	rest     string
	trailing string
}

func (p *printer) pendingBefore(off int) bool {
	return p.next < len(p.comments) && p.comments[p.next].Pos.Offset < off
}

// leading collects the comments before pos, one per line, with a blank
// line ("") wherever the source had one or more, including before pos.
func (p *printer) leading(pos diag.Position) []string {
	var out []string
	for p.pendingBefore(pos.Offset) {
		c := p.comments[p.next]
		p.next++
		if c.Pos.Line > p.lastLine+1 {
			out = append(out, "")
		}
		out = append(out, commentText(c))
		p.lastLine = c.EndPos.Line
	}
	if pos.Line > p.lastLine+1 {
		out = append(out, "")
	}
	return out
}

// trailing collects the comments inside r and one that starts on its last
// line (before limit, where the next item starts), as text to append to the
// item's line.
func (p *printer) trailing(r diag.Range, limit int) string {
	var parts []string
	line := r.End.Line // a comment starting on this line trails the item
	for p.next < len(p.comments) {
		c := p.comments[p.next]
		if c.Pos.Offset >= limit || c.Pos.Offset >= r.End.Offset && c.Pos.Line != line {
			break
		}
		p.next++
		parts = append(parts, commentText(c))
		p.lastLine = c.EndPos.Line
		line = max(line, c.EndPos.Line)
		if strings.HasPrefix(c.Text, "//") {
			break
		}
	}
	return strings.Join(parts, " ")
}

// block prints items, each on its own line at the current indentation,
// then the comments before end.
func (p *printer) block(items []item, end diag.Position) {
	lines := make([]line, 0, len(items))
	for i, it := range items {
		r := it.node.Range()
		var l line
		l.leading = p.leading(r.Start)
		switch {
		case i == 0:
			l.leading = trimBlank(l.leading)
		case p.top && !(it.isImport && items[i-1].isImport):
			if len(l.leading) == 0 || l.leading[0] != "" {
				l.leading = append([]string{""}, l.leading...)
			}
		}
		l.head = it.head
		l.rest = p.render(it.rest) + it.suffix
		p.lastLine = r.End.Line
		limit := end.Offset
		if i+1 < len(items) {
			limit = items[i+1].node.Range().Start.Offset
		}
		l.trailing = p.trailing(r, limit)
		lines = append(lines, l)
	}
	closing := p.leading(end)
	if len(closing) > 0 && closing[len(closing)-1] == "" {
		closing = closing[:len(closing)-1]
	}
	if len(lines) == 0 {
		closing = trimBlank(closing)
	}
	p.writeLines(lines)
	for _, c := range closing {
		p.writeIndented(c)
	}
}

// trimBlank drops a leading blank line.
func trimBlank(ls []string) []string {
	if len(ls) > 0 && ls[0] == "" {
		return ls[1:]
	}
	return ls
}

func (p *printer) writeIndented(s string) {
	if s != "" {
		p.write(strings.Repeat("  ", p.indent), s)
	}
	p.write("\n")
}

// writeLines prints rendered items, aligning heads within runs of
// single-line items not separated by comments or blank lines, and trailing
// comments within runs of lines that have one.
func (p *printer) writeLines(lines []line) {
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && inRun(lines[j-1], lines[j]) {
			j++
		}
		width := 0
		for _, l := range lines[i:j] {
			width = max(width, len(l.head))
		}
		codes := make([]string, j-i)
		for k, l := range lines[i:j] {
			codes[k] = code(l, width)
		}
		for k := 0; k < len(codes); {
			m := k + 1
			for m < len(codes) && lines[i+m].trailing != "" && lines[i+m-1].trailing != "" {
				m++
			}
			cw := 0
			for _, c := range codes[k:m] {
				cw = max(cw, utf8.RuneCountInString(c))
			}
			for n := k; n < m; n++ {
				p.writeLine(lines[i+n], codes[n], cw)
			}
			k = m
		}
		i = j
	}
}

func inRun(prev, l line) bool {
	return len(l.leading) == 0 && !strings.Contains(prev.rest, "\n") &&
		!strings.Contains(l.rest, "\n") && prev.head != "" && l.head != ""
}

// code is the item's text without comments, its head padded to width.
func code(l line, width int) string {
	s := l.head
	if l.head != "" && l.rest != "" {
		s += strings.Repeat(" ", width-len(l.head)+1)
	}
	return s + l.rest
}

// writeLine prints the item's comments and text, padding the text to
// width runes before a trailing comment.
func (p *printer) writeLine(l line, code string, width int) {
	for _, c := range l.leading {
		p.writeIndented(c)
	}
	if l.trailing != "" && !strings.Contains(code, "\n") {
		code += strings.Repeat(" ", width-utf8.RuneCountInString(code)) + " " + l.trailing
	} else if l.trailing != "" {
		code += " " + l.trailing
	}
	p.writeIndented(code)
}

// braces prints "{", the items one level deeper, and "}"; or "{}" when
// there is nothing inside.
func (p *printer) braces(items []item, r diag.Range) {
	if len(items) == 0 && !p.pendingBefore(r.End.Offset) {
		p.write("{}")
		return
	}
	p.write("{\n")
	p.nested(items, r.End)
	p.write(strings.Repeat("  ", p.indent), "}")
}

// nested prints items one level deeper, as the inside of brackets.
func (p *printer) nested(items []item, end diag.Position) {
	p.indent++
	top := p.top
	p.top = false
	p.block(items, end)
	p.top = top
	p.indent--
}

// commentText is a comment as printed: a line comment loses the carriage
// return of a CRLF line ending.
func commentText(c *syntax.Comment) string {
	if strings.HasPrefix(c.Text, "//") {
		return strings.TrimRight(c.Text, "\r")
	}
	return c.Text
}
