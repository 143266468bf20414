package ir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sievetool/sieve/lang/diag"
)

// Path is a field path: the steps from an object's root to one of its
// fields. Step.Set, WaitCond.Path, Cond.Path and MaskRule.Path hold paths
// in their text form (String), and so do the oracle's findings. The text
// form is described once, in grammar.md, section "Field paths".
type Path []PathElem

// PathKind says what a path element names.
type PathKind uint8

// Path element kinds.
const (
	PathField  PathKind = iota // a map key, Name: spec, "app.kubernetes.io/name"
	PathIndex                  // a list index, Index: [0]
	PathSelect                 // the element of a keyed list with these key values: [type=Ready]
	PathAny                    // any map key or list index (in patterns): * or [*]
)

// PathElem is one step of a Path.
type PathElem struct {
	Kind  PathKind
	Name  string   // PathField: the key
	Index int      // PathIndex: the index, from 0
	Keys  []string // PathSelect: the key fields, in order
	Vals  []string // PathSelect: their values as text (see KeyText)
}

// FieldElem returns the element for the map key name.
func FieldElem(name string) PathElem { return PathElem{Kind: PathField, Name: name} }

// IndexElem returns the element for list index i (i >= 0).
func IndexElem(i int) PathElem { return PathElem{Kind: PathIndex, Index: i} }

// AnyElem returns the wildcard element.
func AnyElem() PathElem { return PathElem{Kind: PathAny} }

// SelectElem returns the element for the keyed-list element whose fields
// keys[i] hold vals[i].
func SelectElem(keys, vals []string) PathElem {
	return PathElem{Kind: PathSelect, Keys: keys, Vals: vals}
}

// KeyText renders a string, number or boolean as the value of a key
// selector; other values have no selector text.
func KeyText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// Key returns the map key that the element looks up: the field name, or
// the index in decimal. A field named "0" of a list is its first element,
// and an index 0 of a map is its key "0", as before paths were typed.
// PathAny and PathSelect have no key; Key returns their text.
func (e PathElem) Key() string {
	switch e.Kind {
	case PathField:
		return e.Name
	case PathIndex:
		return strconv.Itoa(e.Index)
	}
	return e.String()
}

// Matches reports whether the pattern element e matches the element c of
// a concrete path: PathAny matches anything, a selector the same selector,
// a field or an index a field or an index with the same Key.
func (e PathElem) Matches(c PathElem) bool {
	switch {
	case e.Kind == PathAny:
		return true
	case e.Kind == PathSelect || c.Kind == PathSelect:
		return e.Kind == c.Kind && slices.Equal(e.Keys, c.Keys) && slices.Equal(e.Vals, c.Vals)
	case c.Kind == PathAny:
		return false
	case e.Kind == c.Kind:
		return e.Name == c.Name && e.Index == c.Index
	}
	return e.Key() == c.Key()
}

// MatchesPrefix reports whether the pattern p matches the first len(p)
// elements of the concrete path c.
func (p Path) MatchesPrefix(c Path) bool {
	if len(p) > len(c) {
		return false
	}
	for i, e := range p {
		if !e.Matches(c[i]) {
			return false
		}
	}
	return true
}

// Lookup follows the path through decoded JSON (maps and lists) and
// returns the value it names. A map is indexed by the element's Key, a
// list by its index (or a field name that is a number) or by a selector.
// PathAny names no single value.
func (p Path) Lookup(v any) (any, bool) {
	for _, e := range p {
		var ok bool
		switch t := v.(type) {
		case map[string]any:
			v, ok = t[e.Key()]
			ok = ok && e.Kind != PathAny && e.Kind != PathSelect
		case []any:
			v, ok = e.inList(t)
		}
		if !ok {
			return nil, false
		}
	}
	return v, true
}

// inList returns the list element that e names.
func (e PathElem) inList(l []any) (any, bool) {
	if e.Kind == PathSelect {
		for _, x := range l {
			if e.selects(x) {
				return x, true
			}
		}
		return nil, false
	}
	i, err := strconv.Atoi(e.Key())
	if e.Kind == PathAny || err != nil || i < 0 || i >= len(l) {
		return nil, false
	}
	return l[i], true
}

// selects reports whether the list element x has the selector's values.
func (e PathElem) selects(x any) bool {
	m, ok := x.(map[string]any)
	if !ok {
		return false
	}
	for i, k := range e.Keys {
		if s, ok := KeyText(m[k]); !ok || s != e.Vals[i] {
			return false
		}
	}
	return true
}

// String returns the path's text form: fields joined by ".", quoted
// unless they are identifiers; indices and selectors in brackets; "*" for
// any. An empty path is "".
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		if i > 0 && (e.Kind == PathField || e.Kind == PathAny) {
			b.WriteByte('.')
		}
		b.WriteString(e.String())
	}
	return b.String()
}

// String returns the element's text as it stands in a path, without the
// "." before a field.
func (e PathElem) String() string {
	switch e.Kind {
	case PathIndex:
		return "[" + strconv.Itoa(e.Index) + "]"
	case PathAny:
		return "*"
	case PathSelect:
		return e.selectorText()
	}
	return name(e.Name)
}

func (e PathElem) selectorText() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range e.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name(k) + "=")
		if v := e.Vals[i]; plainValue(v) {
			b.WriteString(v)
		} else {
			b.WriteString(strconv.Quote(v))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// name writes a field name bare if it is an identifier, else quoted.
func name(s string) string {
	if isIdent(s) {
		return s
	}
	return strconv.Quote(s)
}

// isIdent reports whether s is an identifier of the .sieve language.
func isIdent(s string) bool {
	for i, c := range s {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// plainValue reports whether a selector value can stand unquoted.
func plainValue(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if strings.ContainsRune(`[]=,"\`, c) || unicode.IsSpace(c) || !unicode.IsPrint(c) {
			return false
		}
	}
	return true
}

// ParsePattern is ParsePath for the paths a spec writes (mask rules,
// conditions, fields to set): selectors name list elements in findings
// only.
func ParsePattern(s string) (Path, error) {
	p, err := ParsePath(s)
	for _, e := range p {
		if err == nil && e.Kind == PathSelect {
			err = fmt.Errorf("field path %q: key selector %s is not allowed here (write [*] or an index)", diag.Quote(s), diag.Quote(e.String()))
		}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ParsePath reads a path in its text form (see String). It also reads the
// forms that older specs and IR hold: "[*]" for "*", and a bare number or
// a bare name with "-" ("spec.containers.0", "labels.app-name").
func ParsePath(s string) (Path, error) {
	if s == "" {
		return nil, fmt.Errorf("field path: empty (write a field name, e.g. spec.replicas)")
	}
	r := pathReader{s: s}
	var p Path
	for r.i < len(s) {
		e, err := r.elem(len(p) == 0)
		if err != nil {
			return nil, fmt.Errorf("field path %q: offset %d: %v", diag.Quote(s), r.i, err)
		}
		p = append(p, e)
	}
	return p, nil
}

// pathReader reads a path's text from offset i.
type pathReader struct {
	s string
	i int
}

func (r *pathReader) peek() byte {
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

// elem reads one element with its leading "." (none for the first).
func (r *pathReader) elem(first bool) (PathElem, error) {
	switch {
	case r.peek() == '[':
		r.i++
		return r.bracket()
	case first:
	case r.peek() != '.':
		return PathElem{}, fmt.Errorf("want '.' or '[', got %q", r.peek())
	default:
		r.i++
	}
	if r.peek() == '*' {
		r.i++
		return AnyElem(), nil
	}
	n, bare, err := r.name()
	if err != nil {
		return PathElem{}, err
	}
	if i, ok := number(n); ok && bare {
		return IndexElem(i), nil
	}
	return FieldElem(n), nil
}

// name reads a quoted string or a bare run of letters, digits, "_" and
// "-", and says whether it was bare.
func (r *pathReader) name() (string, bool, error) {
	if r.peek() == '"' {
		q, err := strconv.QuotedPrefix(r.s[r.i:])
		if err != nil {
			return "", false, fmt.Errorf("bad quoted name")
		}
		r.i += len(q)
		n, _ := strconv.Unquote(q)
		return n, false, nil
	}
	j := r.i
	for j < len(r.s) && isBare(r.s[j]) {
		j++
	}
	if j == r.i {
		return "", false, fmt.Errorf("want a name, got %s (quote names with other characters)", r.what())
	}
	n := r.s[r.i:j]
	r.i = j
	return n, true, nil
}

// what describes the text at the reader's offset for an error.
func (r *pathReader) what() string {
	if r.i >= len(r.s) {
		return "the end"
	}
	c, _ := utf8.DecodeRuneInString(r.s[r.i:])
	return strconv.QuoteRune(c)
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// number returns the value of a decimal index.
func number(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil
}

// bracket reads what follows "[": "*]", "N]" or a selector "k=v,...]".
func (r *pathReader) bracket() (PathElem, error) {
	j := r.i
	for j < len(r.s) && r.s[j] != ']' && r.s[j] != '=' && r.s[j] != '"' {
		j++
	}
	if j < len(r.s) && r.s[j] == ']' {
		in := r.s[r.i:j]
		r.i = j + 1
		if in == "*" {
			return AnyElem(), nil
		}
		if i, ok := number(in); ok {
			return IndexElem(i), nil
		}
		return PathElem{}, fmt.Errorf("want a list index, * or key=value inside [], got %q", in)
	}
	return r.selector()
}

// selector reads "k=v,...]" with the "[" already read.
func (r *pathReader) selector() (PathElem, error) {
	e := PathElem{Kind: PathSelect}
	for {
		k, _, err := r.name()
		if err != nil {
			return PathElem{}, err
		}
		if r.peek() != '=' {
			return PathElem{}, fmt.Errorf("want '=' after key %q in a selector", k)
		}
		r.i++
		v, err := r.value()
		if err != nil {
			return PathElem{}, err
		}
		e.Keys, e.Vals = append(e.Keys, k), append(e.Vals, v)
		switch c := r.peek(); c {
		case ',':
			r.i++
		case ']':
			r.i++
			return e, nil
		default:
			return PathElem{}, fmt.Errorf("want ',' or ']' in a selector, got %s", r.what())
		}
	}
}

// value reads a selector value: quoted, or plain up to "," or "]".
func (r *pathReader) value() (string, error) {
	if r.peek() == '"' {
		v, _, err := r.name()
		return v, err
	}
	j := r.i
	for j < len(r.s) && r.s[j] != ',' && r.s[j] != ']' {
		j++
	}
	v := r.s[r.i:j]
	if !plainValue(v) {
		return "", fmt.Errorf("selector value %q: quote it", v)
	}
	r.i = j
	return v, nil
}
