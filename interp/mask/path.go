package mask

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePath splits a field path into its segments. It reads the path syntax
// of the .sieve language: segments separated by dots; a segment is a bare
// word, "*", or a Go-quoted string (for keys with dots, slashes or dashes);
// "[N]" and "[*]" index lists ("a.b[0]" is the same as "a.b.0").
func ParsePath(p string) ([]string, error) {
	if p == "" {
		return nil, fmt.Errorf("mask: empty field path")
	}
	var segs []string
	for i := 0; i < len(p); {
		seg, next, err := pathSegment(p, i, len(segs) == 0)
		if err != nil {
			return nil, err
		}
		segs = append(segs, seg)
		i = next
	}
	return segs, nil
}

// pathSegment reads the segment at i (with its leading '.' unless first)
// and returns it with the offset just past it.
func pathSegment(p string, i int, first bool) (string, int, error) {
	if p[i] == '[' {
		return bracketSegment(p, i)
	}
	if !first {
		if p[i] != '.' {
			return "", 0, fmt.Errorf("mask: field path %q: want '.' or '[' at offset %d", p, i)
		}
		i++
	}
	if i < len(p) && p[i] == '"' {
		return quotedSegment(p, i)
	}
	j := i
	for j < len(p) && p[j] != '.' && p[j] != '[' {
		j++
	}
	if j == i {
		return "", 0, fmt.Errorf("mask: field path %q: empty segment at offset %d", p, i)
	}
	if k := strings.IndexAny(p[i:j], `]"`); k >= 0 {
		return "", 0, fmt.Errorf("mask: field path %q: unexpected %q at offset %d", p, p[i+k], i+k)
	}
	return p[i:j], j, nil
}

// bracketSegment reads "[N]" or "[*]" at p[i] == '['.
func bracketSegment(p string, i int) (string, int, error) {
	j := strings.IndexByte(p[i:], ']')
	if j < 0 {
		return "", 0, fmt.Errorf("mask: field path %q: unterminated '[' at offset %d", p, i)
	}
	seg := p[i+1 : i+j]
	if _, err := strconv.Atoi(seg); err != nil && seg != "*" {
		return "", 0, fmt.Errorf("mask: field path %q: want a list index or * inside [] at offset %d", p, i)
	}
	return seg, i + j + 1, nil
}

// quotedSegment reads a Go-quoted segment starting at p[i] == '"'.
func quotedSegment(p string, i int) (string, int, error) {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case '"':
			s, err := strconv.Unquote(p[i : j+1])
			if err != nil {
				return "", 0, fmt.Errorf("mask: field path %q: bad quoted segment at offset %d", p, i)
			}
			return s, j + 1, nil
		}
	}
	return "", 0, fmt.Errorf("mask: field path %q: unterminated quote at offset %d", p, i)
}

// FormatPath joins segments into a path in the .sieve syntax that
// ParsePath reads back: list indices as "[N]", words that are not
// identifiers quoted ("metadata.labels.\"app.kubernetes.io/name\"").
// A key selector (see Selector) is written as it is; only the oracle's
// findings carry those, and ParsePath does not read them.
func FormatPath(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		switch {
		case isIndex(s) && i > 0:
			b.WriteString("[" + s + "]")
			continue
		case IsSelector(s) && i > 0:
			b.WriteString(s)
			continue
		case i > 0:
			b.WriteByte('.')
		}
		if s == "*" || isIdent(s) {
			b.WriteString(s)
		} else {
			b.WriteString(strconv.Quote(s))
		}
	}
	return b.String()
}

// isIndex reports whether s is a decimal list index.
func isIndex(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isIdent reports whether s is an identifier of the .sieve language.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Selector is the path segment that names an element of a keyed list by
// the values of its keys, as the oracle compares such lists:
// "[type=Ready]", "[port=80,protocol=TCP]". A value that holds a character
// of the selector syntax or a space is Go-quoted.
func Selector(keys, values []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		v := values[i]
		if v == "" || strings.ContainsAny(v, "[]=,\" \t\n") {
			v = strconv.Quote(v)
		}
		b.WriteString(k + "=" + v)
	}
	b.WriteByte(']')
	return b.String()
}

// IsSelector reports whether a path segment is a key selector.
func IsSelector(s string) bool {
	return len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' && strings.Contains(s, "=")
}
