package lsp

import (
	"bytes"
	"strings"
)

// where says what surrounds an offset in possibly broken text: the keyword
// of the top-level block it is in ("" at the top level), its brace depth,
// whether the word there starts its line (an attribute or step name, or
// a declaration keyword) rather than being a value, and where the string
// that holds it starts (-1 when it is in none).
type where struct {
	block     string
	depth     int
	lineStart bool
	str       int
}

// whereAt scans t up to off, skipping strings and comments, so that it
// works while the text does not parse.
func (t *text) whereAt(off int) where {
	w := where{str: -1}
	src := t.src[:min(off, len(t.src))]
	blockStart := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			if j := skipString(src, i); j < len(src) {
				i = j
			} else {
				w.str, i = i, j
			}
		case c == '`':
			if j := bytes.IndexByte(src[i+1:], '`'); j >= 0 {
				i += j + 1
			} else {
				w.str, i = i, len(src)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = skipLine(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = skipBlock(src, i)
		case c == '{':
			if w.depth == 0 {
				w.block = firstWord(src[blockStart:i])
			}
			w.depth++
		case c == '}':
			w.depth = max(w.depth-1, 0)
			if w.depth == 0 {
				w.block, blockStart = "", i+1
			}
		case c == '\n' && w.depth == 0:
			blockStart = i + 1
		}
	}
	if w.depth == 0 {
		w.block = ""
	}
	_, start, _ := t.wordAt(off)
	lineStart := bytes.LastIndexByte(t.src[:start], '\n') + 1
	w.lineStart = strings.TrimSpace(string(t.src[lineStart:start])) == ""
	return w
}

func firstWord(b []byte) string {
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func skipString(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"', '\n':
			return i
		}
	}
	return i
}

func skipLine(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j - 1 // the newline itself is seen by the caller
	}
	return len(src)
}

func skipBlock(src []byte, i int) int {
	if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
		return i + 2 + j + 1
	}
	return len(src)
}
