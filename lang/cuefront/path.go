package cuefront

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/ir"
)

// path checks a field path written as a string, with the syntax of the
// .sieve language (elements: identifiers, quoted strings, *, [N], [*]),
// and returns it in canonical form.
func (l *lowerer) path(at cue.Value, s string) string {
	elems, err := parsePath(s)
	if err != nil {
		l.errorf(at, "path", "bad path: %q: %v", s, err)
		return s
	}
	return formatPath(elems)
}

// pathElem is one element of a path: a field name, "*" (any key), or an
// index ("[N]" or "[*]").
type pathElem struct {
	name  string
	index string // "" for a field, else the number or "*"
	star  bool   // a * field element
}

func parsePath(s string) ([]pathElem, error) {
	var out []pathElem
	for i := 0; i < len(s); {
		if len(out) > 0 || s[i] == '[' {
			e, n, err := nextSep(s[i:], len(out) == 0)
			if err != nil {
				return nil, err
			}
			i += n
			if e != nil {
				out = append(out, *e)
				continue
			}
		}
		e, n, err := fieldElem(s[i:])
		if err != nil {
			return nil, err
		}
		out, i = append(out, e), i+n
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty path")
	}
	return out, nil
}

// nextSep consumes "." before a field element (returning nil) or a whole
// index element "[N]" / "[*]".
func nextSep(s string, first bool) (*pathElem, int, error) {
	switch {
	case s[0] == '.' && !first:
		return nil, 1, nil
	case s[0] == '[':
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return nil, 0, fmt.Errorf("unterminated [")
		}
		idx := s[1:end]
		if _, err := strconv.Atoi(idx); err != nil && idx != "*" {
			return nil, 0, fmt.Errorf("index %q: want a number or *", idx)
		}
		return &pathElem{index: idx}, end + 1, nil
	}
	return nil, 0, fmt.Errorf("unexpected %q", s[:1])
}

func fieldElem(s string) (pathElem, int, error) {
	switch {
	case s == "":
		return pathElem{}, 0, fmt.Errorf("missing element after .")
	case s[0] == '*':
		return pathElem{star: true}, 1, nil
	case s[0] == '"':
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return pathElem{}, 0, fmt.Errorf("bad quoted element")
		}
		name, _ := strconv.Unquote(q)
		return pathElem{name: name}, len(q), nil
	}
	n := 0
	for n < len(s) && isIdent(s[n]) {
		n++
	}
	if n == 0 {
		return pathElem{}, 0, fmt.Errorf("unexpected %q", s[:1])
	}
	return pathElem{name: s[:n]}, n, nil
}

// isIdent reports whether c may appear in a bare path element: letters,
// digits, "_" and "-" (as ir.JoinPath writes them).
func isIdent(c byte) bool {
	return c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// formatPath writes the path in the IR's dotted form (ir.JoinPath): list
// indexes become elements, [*] becomes *.
func formatPath(elems []pathElem) string {
	out := make([]string, len(elems))
	for i, e := range elems {
		switch {
		case e.index != "":
			out[i] = e.index
		case e.star:
			out[i] = "*"
		default:
			out[i] = e.name
		}
	}
	return ir.JoinPath(out)
}
