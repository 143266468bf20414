package check

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// kind is the type of a checked value.
type kind int

// Value kinds. kUnknown is a workload parameter without a default while
// the body is checked on its own: it passes every type check.
const (
	kUnknown kind = iota
	kString
	kInt
	kFloat
	kDuration
	kBool
	kNull
	kKey
	kList
	kObject
	kRef  // a declaration, possibly called with arguments
	kWord // a bare name that is neither a parameter nor a declaration
)

func (k kind) String() string {
	return [...]string{
		kUnknown: "value", kString: "string", kInt: "integer", kFloat: "number",
		kDuration: "duration", kBool: "bool", kNull: "null", kKey: "resource key",
		kList: "list", kObject: "object", kRef: "reference", kWord: "name",
	}[k]
}

// value is an evaluated expression.
type value struct {
	kind kind
	rng  diag.Range
	// file is the file the value was written in, for relative paths.
	file *file

	s   string // string, key text, word, raw CEL
	raw bool   // string came from a raw string literal
	i   int64
	f   float64
	d   time.Duration
	b   bool

	list   []*value
	fields []*field // object fields, in order

	ref   *decl             // kRef
	args  []*arg            // kRef with a call
	call  bool              // kRef written with parentheses
	lit   *syntax.StringLit // string: the literal it came from, for CEL positions
	param string            // kUnknown: the parameter it stands for
	owner *decl             // kUnknown: the workload declaring param
	// fromDefault marks a parameter's default value, which is reported
	// where the parameter is used rather than where the default is.
	fromDefault bool
}

// use records that an unknown parameter value is used as kind k, which
// gives the parameter its type; it reports whether v is unknown.
func (v *value) use(k kind) bool {
	if v.kind != kUnknown {
		return false
	}
	if v.owner != nil && v.param != "" {
		if _, ok := v.owner.paramTypes[v.param]; !ok {
			v.owner.paramTypes[v.param] = k
		}
	}
	return true
}

// field is one object field: a path and its value.
type field struct {
	path ir.Path
	rng  diag.Range
	val  *value
}

// arg is one call argument, named or positional.
type arg struct {
	name string
	rng  diag.Range
	val  *value
}

// describe names the value for messages: its kind, and its text when short.
func (v *value) describe() string {
	switch v.kind {
	case kRef:
		return v.ref.kind.String() + " " + v.s
	case kWord:
		return fmt.Sprintf("name %q", v.s)
	}
	return v.kind.String()
}

// toAny converts the value to the IR's JSON form (ir.Value).
func (v *value) toAny() any {
	switch v.kind {
	case kString, kKey, kWord:
		return v.s
	case kInt:
		return v.i
	case kFloat:
		return v.f
	case kDuration:
		return v.d.String()
	case kBool:
		return v.b
	case kList:
		out := make([]any, len(v.list))
		for i, e := range v.list {
			out[i] = e.toAny()
		}
		return out
	case kObject:
		return objectToAny(v.fields)
	}
	return nil
}

// objectToAny builds nested maps from dotted field paths.
func objectToAny(fields []*field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		m := out
		for _, e := range f.path[:len(f.path)-1] {
			next, ok := m[e.Key()].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[e.Key()] = next
			}
			m = next
		}
		m[f.path[len(f.path)-1].Key()] = f.val.toAny()
	}
	return out
}

func timeDuration(i int64) time.Duration { return time.Duration(i) }

// jsonText is the JSON text of a scalar.
func jsonText(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return ""
	}
	return string(b)
}
