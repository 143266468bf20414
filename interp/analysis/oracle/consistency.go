package oracle

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// consistency reports each operation that changed the resource and left
// no trace: no object the controller owns changed in a field that
// carries the new value (any change, for an operation that removes a
// value), and the resource's status reports no problem. An operation the
// API server refused, or that left the resource as it was, is not judged.
func (x *explored) consistency() []*Finding {
	var fs []*Finding
	for i := range x.stretches {
		s := &x.stretches[i]
		op := x.ex.Operations[s.op]
		if s.refused || !x.resourceChanged(s) || x.traced(s, op) || x.statusProblem(s) {
			continue
		}
		f := &Finding{Check: CheckConsistency, Key: x.ex.Resource.String(), Path: op.Path.String(),
			Property: op.Path.String(), Seq: s.step.Seq, Src: s.step.Src,
			Message: fmt.Sprintf("%s left no trace: %s, and %s's status reports no problem",
				x.describe(s), noTrace(op), x.ex.Resource)}
		if op.Value != nil {
			f.Value = rawJSON(op.Value)
		}
		fs = append(fs, f)
	}
	return fs
}

// noTrace says what the controller's objects did not show.
func noTrace(op explore.Operation) string {
	if op.Value == nil {
		return "no object the controller owns changed"
	}
	return "no object the controller owns changed in a field that carries " + show(op.Value)
}

// resourceChanged reports whether the resource's spec (all but metadata
// and status) differs across s.
func (x *explored) resourceChanged(s *stretch) bool {
	return !reflect.DeepEqual(desired(s.before[x.ex.Resource]), desired(s.after[x.ex.Resource]))
}

// desired is obj without metadata and status: what its author declared.
func desired(obj map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range obj {
		if k != "metadata" && k != "status" {
			out[k] = v
		}
	}
	return out
}

// traced reports whether an owned object changed across s in a field
// that carries op's value (any field, when op removes one). Metadata
// counts only in labels and annotations.
func (x *explored) traced(s *stretch, op explore.Operation) bool {
	for k := range x.owned {
		before, after := s.before[k], s.after[k]
		if (before == nil) != (after == nil) && op.Value == nil {
			return true
		}
		m := x.end.Object(k)
		for _, d := range diff(x.keys, x.keys.root(k, after), m.Strip(before), m.Strip(after)) {
			if !bookkeeping(d.path) && (op.Value == nil || carries(d.val, op.Value)) {
				return true
			}
		}
	}
	return false
}

// bookkeeping reports whether path is in metadata, outside labels and
// annotations.
func bookkeeping(p ir.Path) bool {
	if len(p) == 0 || p[0].Key() != "metadata" {
		return false
	}
	return len(p) < 2 || (p[1].Key() != "labels" && p[1].Key() != "annotations")
}

// statusProblem reports whether the resource's status changed across s
// in a condition or in a field whose name says message, reason or error
// (masks apply, as to every object).
func (x *explored) statusProblem(s *stretch) bool {
	k := x.ex.Resource
	before, after := s.before[k], s.after[k]
	m := x.end.Object(k)
	for _, d := range diff(x.keys, x.keys.root(k, after), m.Strip(before), m.Strip(after)) {
		if len(d.path) > 0 && d.path[0].Key() == "status" && (problemField(d.path[1:]) || problemInside(d.val)) {
			return true
		}
	}
	return false
}

// problemField reports whether a status path is a condition or names a
// message, a reason or an error.
func problemField(p ir.Path) bool {
	for _, e := range p {
		n := strings.ToLower(e.Key())
		if n == "conditions" || strings.Contains(n, "message") || strings.Contains(n, "reason") || strings.Contains(n, "error") {
			return true
		}
	}
	return false
}

// problemInside reports whether a value new to the status (a subtree
// that was absent) holds a condition or a message, reason or error field.
func problemInside(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if problemField(ir.Path{ir.FieldElem(k)}) || problemInside(c) {
				return true
			}
		}
	case []any:
		for _, c := range t {
			if problemInside(c) {
				return true
			}
		}
	}
	return false
}

// carries reports whether a field's new value v (or a value inside it)
// carries want: equal, or an obvious rendering of it (a number as a
// string, an equal quantity, a string holding it as a word). A list or
// an object carries want when one of its scalars does; a composite want
// is carried when one of its strings or numbers is.
func carries(v, want any) bool {
	switch w := want.(type) {
	case map[string]any, []any:
		return anyLeaf(w, func(l any) bool { _, isBool := l.(bool); return !isBool && carries(v, l) })
	}
	return anyLeaf(v, func(l any) bool { return renders(l, want) })
}

// anyLeaf reports whether f accepts a scalar inside v.
func anyLeaf(v any, f func(any) bool) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, c := range t {
			if anyLeaf(c, f) {
				return true
			}
		}
		return false
	case []any:
		for _, c := range t {
			if anyLeaf(c, f) {
				return true
			}
		}
		return false
	case absent, nil:
		return false
	}
	return f(v)
}

// renders reports whether the scalar got renders the scalar want.
func renders(got, want any) bool {
	if reflect.DeepEqual(normal(got), normal(want)) {
		return true
	}
	ws := scalarText(want)
	gs, isString := got.(string)
	if ws == "" || !isString {
		return ws != "" && scalarText(got) == ws
	}
	return gs == ws || sameQuantity(gs, ws) || hasWord(gs, ws)
}

// normal turns JSON numbers of any Go type into float64.
func normal(v any) any {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return v
}

// scalarText renders a scalar as text, "" for what is not one.
func scalarText(v any) string {
	switch t := normal(v).(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

// sameQuantity reports whether a and b are equal Kubernetes quantities
// ("1Gi" and "1073741824").
func sameQuantity(a, b string) bool {
	qa, errA := resource.ParseQuantity(a)
	qb, errB := resource.ParseQuantity(b)
	return errA == nil && errB == nil && qa.Cmp(qb) == 0
}

// hasWord reports whether s holds w bounded by neither letters nor
// digits on either side ("--log-level=debug" holds "debug").
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if !wordRune(s[:j], true) && !wordRune(s[end:], false) {
			return true
		}
		i = j + 1
	}
}

// wordRune reports whether the rune at the end (last) or the start of s
// is a letter or a digit.
func wordRune(s string, last bool) bool {
	if s == "" {
		return false
	}
	r := []rune(s)
	c := r[0]
	if last {
		c = r[len(r)-1]
	}
	return unicode.IsLetter(c) || unicode.IsDigit(c)
}
