package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// RenderOptions says how diagnostics are printed. The zero value prints
// plain text, file names as they are, and reads excerpts from disk.
type RenderOptions struct {
	// Color turns on ANSI colours. The CLI sets it only on a terminal.
	Color bool
	// WorkDir, when set, makes absolute file names below it relative to it.
	WorkDir string
	// Source returns the text of a file for excerpts. When nil, files are
	// read from disk; a file that cannot be read gets no excerpt.
	Source func(filename string) ([]byte, bool)
}

// maxExcerpt is the most runes of a source line printed in an excerpt.
const maxExcerpt = 160

// ANSI colour codes.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiCyan   = "\x1b[1;36m"
	ansiGreen  = "\x1b[1;32m"
)

// WriteText prints each diagnostic as "file:line:col: severity: summary",
// followed by the source line with the subject underlined, the detail as a
// hint, and each related position as a note.
func WriteText(w io.Writer, ds Diagnostics, opts RenderOptions) error {
	r := &textRenderer{opts: opts, cache: map[string][]string{}}
	var buf bytes.Buffer
	for _, d := range ds {
		r.diagnostic(&buf, d)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

type textRenderer struct {
	opts  RenderOptions
	cache map[string][]string // file name -> lines, nil when unreadable
}

func (r *textRenderer) diagnostic(buf *bytes.Buffer, d *Diagnostic) {
	sev, col := d.Severity.String(), ansiRed
	if d.Severity == Warning {
		col = ansiYellow
	}
	r.header(buf, d.Subject, r.paint(col, sev), d.Summary)
	if d.Subject != nil {
		r.excerpt(buf, *d.Subject)
	}
	if d.Detail != "" {
		fmt.Fprintf(buf, "  %s %s\n", r.paint(ansiCyan, "= hint:"), Printable(d.Detail))
	}
	for _, rel := range d.Related {
		subj := rel.Subject
		r.header(buf, &subj, r.paint(ansiCyan, "note"), rel.Message)
		r.excerpt(buf, subj)
	}
}

func (r *textRenderer) header(buf *bytes.Buffer, at *Range, sev, msg string) {
	if at != nil {
		pos := at.Start
		pos.Filename = RelPath(pos.Filename, r.opts.WorkDir)
		fmt.Fprintf(buf, "%s: ", r.paint(ansiBold, pos.String()))
	}
	fmt.Fprintf(buf, "%s: %s\n", sev, Printable(msg))
}

// excerpt prints the subject's first line with the culprit underlined.
func (r *textRenderer) excerpt(buf *bytes.Buffer, at Range) {
	lines := r.lines(at.Start.Filename)
	n := at.Start.Line
	if n < 1 || n > len(lines) {
		return
	}
	line := []rune(lines[n-1])
	start := clamp(at.Start.Column-1, 0, len(line))
	width := len(line) - start
	if at.End.Line == at.Start.Line && at.End.Column > at.Start.Column {
		width = at.End.Column - at.Start.Column
	}
	line, start = window(line, start)
	width = clamp(width, 1, max(1, len(line)-start))
	gutter := fmt.Sprintf("%5d", n)
	fmt.Fprintf(buf, "%s | %s\n", gutter, Printable(string(line)))
	fmt.Fprintf(buf, "%s | %s%s\n", strings.Repeat(" ", len(gutter)), indent(line[:start]),
		r.paint(ansiGreen, "^"+strings.Repeat("~", width-1)))
}

// window cuts a long line down to at most maxExcerpt runes around col and
// returns the new line and column.
func window(line []rune, col int) ([]rune, int) {
	if len(line) <= maxExcerpt {
		return line, col
	}
	from := max(0, col-maxExcerpt/3)
	to := min(len(line), from+maxExcerpt)
	return line[from:to], col - from
}

// indent returns blanks as wide as prefix is printed (Printable),
// keeping tabs so the caret lines up under the printed line.
func indent(prefix []rune) string {
	var b strings.Builder
	for _, c := range prefix {
		if c == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(Printable(string(c)))))
		}
	}
	return b.String()
}

func (r *textRenderer) lines(filename string) []string {
	if ls, ok := r.cache[filename]; ok {
		return ls
	}
	var ls []string
	if src, ok := r.source(filename); ok {
		ls = strings.Split(string(src), "\n")
		for i, l := range ls {
			ls[i] = strings.TrimSuffix(l, "\r")
		}
	}
	r.cache[filename] = ls
	return ls
}

func (r *textRenderer) source(filename string) ([]byte, bool) {
	if r.opts.Source != nil {
		return r.opts.Source(filename)
	}
	if filename == "" {
		return nil, false
	}
	b, err := os.ReadFile(filename)
	return b, err == nil
}

func (r *textRenderer) paint(code, s string) string {
	if !r.opts.Color {
		return s
	}
	return code + s + ansiReset
}

// RelPath returns filename relative to dir when filename is absolute and
// lies below dir; otherwise it returns filename unchanged.
func RelPath(filename, dir string) string {
	if dir == "" || !filepath.IsAbs(filename) {
		return filename
	}
	rel, err := filepath.Rel(dir, filename)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filename
	}
	return rel
}

// WriteJSON prints the diagnostics as one indented JSON array (an empty
// array when there are none), with file names made relative as in
// WriteText. The field names are stable.
func WriteJSON(w io.Writer, ds Diagnostics, opts RenderOptions) error {
	out := make([]*Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, relDiagnostic(d, opts.WorkDir))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func relDiagnostic(d *Diagnostic, dir string) *Diagnostic {
	c := *d
	c.Subject = relRange(d.Subject, dir)
	c.Context = relRange(d.Context, dir)
	c.Related = make([]Related, len(d.Related))
	for i, rel := range d.Related {
		c.Related[i] = Related{Message: rel.Message, Subject: *relRange(&rel.Subject, dir)}
	}
	if len(c.Related) == 0 {
		c.Related = nil
	}
	return &c
}

func relRange(r *Range, dir string) *Range {
	if r == nil {
		return nil
	}
	c := *r
	c.Start.Filename = RelPath(c.Start.Filename, dir)
	c.End.Filename = RelPath(c.End.Filename, dir)
	return &c
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
