package trace

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Head keeps the first Max bytes written to it and counts all of them:
// the excerpt of a body or an output that an entry records.
type Head struct {
	Max int
	N   int64 // bytes written
	b   bytes.Buffer
}

// Write keeps what fits under Max; it never fails.
func (h *Head) Write(p []byte) (int, error) {
	if room := h.Max - h.b.Len(); room > 0 {
		h.b.Write(p[:min(room, len(p))])
	}
	h.N += int64(len(p))
	return len(p), nil
}

// Text is the excerpt: the bytes kept, without a last rune the bound cut,
// invalid UTF-8 as U+FFFD.
func (h *Head) Text() string {
	b := h.b.Bytes()
	if h.N > int64(len(b)) {
		b = uncut(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// Whole reports whether excerpt is all of the n bytes it was taken from,
// byte for byte: nothing cut and nothing replaced.
func Whole(excerpt string, n int64) bool {
	return int64(len(excerpt)) == n && !strings.ContainsRune(excerpt, utf8.RuneError)
}

// uncut drops a last rune that the excerpt's bound cut.
func uncut(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}
