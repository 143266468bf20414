package lsp

import (
	"regexp"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// maxCELDepth bounds how many variables and selections celResolver
// follows back from one selection.
const maxCELDepth = 8

// kindArg is the literal kind that a call of objects() or object() starts
// with, its arguments' opening parenthesis included.
var kindArg = regexp.MustCompile(`^\(\s*"([^"]+)"`)

// celSite is fieldSiteAt inside the CEL string that starts at str: elems
// are the selection written before the element at start.
func celSite(doc *document, str, start int, elems []string) (fieldSite, bool) {
	t := doc.text
	r := celResolver{}
	if m := keyBefore.FindStringSubmatch(string(t.src[lineStartOf(t, str):str])); m != nil {
		r.object = m[1] // a where condition on a key: object is of its kind
	}
	return r.value(string(t.src[str+1:start]), elems, 0)
}

// celResolver finds the kinds of CEL values from the text before them.
type celResolver struct {
	object string // the kind of the variable object; "" when it has none
}

// value resolves the selection elems, written at the end of cel, to the
// kind and path of the value it selects: from object, from a call
// object("kind", ...), or from a variable a macro binds over a list it
// can resolve.
func (r celResolver) value(cel string, elems []string, depth int) (fieldSite, bool) {
	if len(elems) == 0 || depth > maxCELDepth {
		return fieldSite{}, false
	}
	path := fieldPath(elems[1:])
	switch {
	case elems[0] == "": // a selection from a call
		name, args := callBefore(cel)
		if name != "object" {
			return fieldSite{}, false
		}
		return literalKind(args, path)
	case elems[0] == "object" && r.object != "":
		return fieldSite{kinds: []string{r.object}, path: path}, true
	}
	bind := regexp.MustCompile(`\.\s*(?:all|exists|exists_one|filter|map)\(\s*` + regexp.QuoteMeta(elems[0]) + `\s*,`)
	locs := bind.FindAllStringIndex(cel, -1)
	if len(locs) == 0 {
		return fieldSite{}, false
	}
	site, ok := r.list(cel[:locs[len(locs)-1][0]], depth+1)
	site.path = append(site.path, path...)
	return site, ok
}

// list resolves the list expression at the end of cel to the kind and
// path of its elements: objects("kind", ...), a filter of a list it
// resolves, or a field selection (lists pass their elements' fields).
func (r celResolver) list(cel string, depth int) (fieldSite, bool) {
	cel = strings.TrimRight(cel, " \t\r\n")
	if depth > maxCELDepth {
		return fieldSite{}, false
	}
	if strings.HasSuffix(cel, ")") {
		name, args := callBefore(cel)
		head := strings.TrimRight(cel[:len(cel)-len(args)], " \t\r\n")
		head = strings.TrimSuffix(head, name)
		switch {
		case name == "objects" && !strings.HasSuffix(head, "."):
			return literalKind(args, nil)
		case name == "filter" && strings.HasSuffix(strings.TrimRight(head, " \t\r\n"), "."):
			recv := strings.TrimRight(head, " \t\r\n")
			return r.list(recv[:len(recv)-1], depth+1)
		}
		return fieldSite{}, false
	}
	start := len(cel)
	for start > 0 && isWordByte(cel[start-1]) {
		start--
	}
	return r.value(cel[:start], strings.Split(cel[start:], "."), depth+1)
}

// callBefore splits the call that ends cel (with ")") into the name of
// its function or method and its arguments from "(" on; "" when cel ends
// in none.
func callBefore(cel string) (name, args string) {
	cel = strings.TrimRight(cel, " \t\r\n")
	open := openParen(cel)
	if open < 0 {
		return "", ""
	}
	head := strings.TrimRight(cel[:open], " \t\r\n")
	i := len(head)
	for i > 0 && isIdentByte(head[i-1]) {
		i--
	}
	return head[i:], cel[open:]
}

// openParen is the offset of the "(" that the ")" ending cel closes, or
// -1; parentheses inside string literals count too (a heuristic).
func openParen(cel string) int {
	if !strings.HasSuffix(cel, ")") {
		return -1
	}
	depth := 0
	for i := len(cel) - 1; i >= 0; i-- {
		switch cel[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// literalKind is the site of path in the kind that a call's arguments
// start with, when they start with a string literal.
func literalKind(args string, path ir.Path) (fieldSite, bool) {
	m := kindArg.FindStringSubmatch(args)
	if m == nil {
		return fieldSite{}, false
	}
	return fieldSite{kinds: []string{m[1]}, path: path}, true
}
