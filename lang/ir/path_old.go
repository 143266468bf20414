package ir

import (
	"strconv"
	"strings"
)

// Field paths (Step.Set, WaitCond.Path, Cond.Path, MaskRule.Path) are
// dotted: elements joined by ".", "*" for any map key or list index, a list
// index as its number, and an element that is not a plain name (letters,
// digits, "_", "-") as a Go-quoted string, e.g.
// metadata.annotations."kubectl.kubernetes.io/last-applied-configuration".

// JoinPath builds a dotted path from its elements, quoting those that need
// it.
func JoinPath(elems []string) string {
	out := make([]string, len(elems))
	for i, e := range elems {
		if e == "*" || isPlainElem(e) {
			out[i] = e
		} else {
			out[i] = strconv.Quote(e)
		}
	}
	return strings.Join(out, ".")
}

// SplitPath returns the elements of a dotted path, unquoting quoted ones.
// It returns nil for an empty or malformed path.
func SplitPath(p string) []string {
	var out []string
	for p != "" {
		var elem string
		if p[0] == '"' {
			q, err := strconv.QuotedPrefix(p)
			if err != nil {
				return nil
			}
			elem, _ = strconv.Unquote(q)
			p = p[len(q):]
		} else {
			i := strings.IndexByte(p, '.')
			if i < 0 {
				i = len(p)
			}
			elem, p = p[:i], p[i:]
			if elem == "" {
				return nil
			}
		}
		out = append(out, elem)
		if p == "" {
			break
		}
		if p[0] != '.' || len(p) == 1 {
			return nil
		}
		p = p[1:]
	}
	return out
}

func isPlainElem(e string) bool {
	if e == "" {
		return false
	}
	for _, c := range e {
		ok := c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}
