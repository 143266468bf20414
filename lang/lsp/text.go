package lsp

import (
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/diag"
)

// text is a document's content with the offsets of its lines, for
// converting between byte offsets, the checker's positions (1-based lines,
// rune columns) and the protocol's (0-based lines, UTF-16 columns).
type text struct {
	src   []byte
	lines []int // byte offset of each line's start
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line returns the bytes of 0-based line n, without its newline.
func (t *text) line(n int) []byte {
	if n < 0 || n >= len(t.lines) {
		return nil
	}
	end := len(t.src)
	if n+1 < len(t.lines) {
		end = t.lines[n+1] - 1
	}
	return t.src[t.lines[n]:end]
}

// offset returns the byte offset of a protocol position, clamped to the
// line it names.
func (t *text) offset(p protocol.Position) int {
	n := int(p.Line)
	if n >= len(t.lines) {
		return len(t.src)
	}
	l := t.line(n)
	units, i := 0, 0
	for i < len(l) && units < int(p.Character) {
		r, size := utf8.DecodeRune(l[i:])
		units += utf16Len(r)
		i += size
	}
	return t.lines[n] + i
}

// position returns the protocol position of a byte offset.
func (t *text) position(off int) protocol.Position {
	off = min(max(off, 0), len(t.src))
	n := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	units := 0
	for _, r := range string(t.src[t.lines[n]:off]) {
		units += utf16Len(r)
	}
	return protocol.Position{Line: uint32(n), Character: uint32(units)}
}

// fromDiag converts a checker position (1-based line, rune column) to a
// protocol position; a position without a line is the file's start.
func (t *text) fromDiag(p diag.Position) protocol.Position {
	if !p.IsValid() {
		return protocol.Position{}
	}
	l := t.line(p.Line - 1)
	units, col := 0, 1
	for _, r := range string(l) {
		if col >= p.Column {
			break
		}
		units += utf16Len(r)
		col++
	}
	return protocol.Position{Line: uint32(p.Line - 1), Character: uint32(units)}
}

// rangeOf converts a checker range to a protocol range.
func (t *text) rangeOf(r diag.Range) protocol.Range {
	start := t.fromDiag(r.Start)
	end := start
	if r.End.IsValid() {
		end = t.fromDiag(r.End)
	}
	return protocol.Range{Start: start, End: end}
}

// whole is the range of the entire text.
func (t *text) whole() protocol.Range {
	return protocol.Range{End: t.position(len(t.src))}
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// wordAt returns the identifier (letters, digits, _ and the dots of a
// qualified name) around byte offset off, and its start and end offsets.
func (t *text) wordAt(off int) (string, int, int) {
	start, end := off, off
	for start > 0 && isWordByte(t.src[start-1]) {
		start--
	}
	for end < len(t.src) && isWordByte(t.src[end]) {
		end++
	}
	return string(t.src[start:end]), start, end
}

func isWordByte(b byte) bool { return b == '.' || isIdentByte(b) }
