package explore

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/sievetool/sieve/lang/ir"
)

// Change is the kind of change an operation makes to its property.
type Change string

// The kinds of change.
const (
	Enum        Change = "enum"         // another member of the property's enum
	Bound       Change = "bound"        // a number at its minimum or maximum (exclusive bounds: the nearest allowed value)
	Beside      Change = "beside"       // a number next to a bound or to the seed's value
	Flip        Change = "flip"         // a boolean flipped
	String      Change = "string"       // a string changed (to its format's or pattern's shape where the schema gives one)
	Quantity    Change = "quantity"     // a quantity (1Gi, 500m, 3) grown or shrunk
	AddItem     Change = "add-item"     // a list item appended (Path names its index)
	RemoveItem  Change = "remove-item"  // a list's last item removed (Path names its index)
	AddEntry    Change = "add-entry"    // a map entry added (Path names its key)
	RemoveEntry Change = "remove-entry" // a map entry removed (Path names its key)
	Set         Change = "set"          // an absent property set (an object with its required fields)
	Unset       Change = "unset"        // an optional property removed
)

// Operation is one change to one property of the resource.
type Operation struct {
	Path   ir.Path
	Change Change
	// Value is the property's new value (the new item or entry for
	// add-item and add-entry); nil when the change removes it.
	Value any
}

// String returns the operation as `sieve explore` lists it: the path,
// the change and the new value as JSON.
func (o Operation) String() string {
	s := o.Path.String() + " " + string(o.Change)
	if o.removes() {
		return s
	}
	b, _ := json.Marshal(o.Value)
	return s + " " + string(b)
}

// MarshalJSON writes the operation as {"path": PATH, "change": CHANGE,
// "value": VALUE}, the path in its text form and no value when the
// change removes the property.
func (o Operation) MarshalJSON() ([]byte, error) {
	out := struct {
		Path   string `json:"path"`
		Change Change `json:"change"`
		Value  *any   `json:"value,omitempty"`
	}{Path: o.Path.String(), Change: o.Change}
	if !o.removes() {
		out.Value = &o.Value
	}
	return json.Marshal(out)
}

// removes reports whether the operation takes its property away.
func (o Operation) removes() bool {
	return o.Change == Unset || o.Change == RemoveItem || o.Change == RemoveEntry
}

// DefaultMax is the number of operations Generate returns at most when
// Options.Max is 0.
const DefaultMax = 50

// Options bound the operations Generate returns. The zero value is the
// default: seed number 0, at most DefaultMax operations, every property.
type Options struct {
	// Seed picks the operations kept when there are more than Max and
	// the strings made up for changed values; the same seed gives the
	// same operations.
	Seed uint64
	// Max is the largest number of operations; 0 (or less) means
	// DefaultMax.
	Max int
	// Only, if not empty, keeps the operations on properties that one of
	// these patterns names (or lies inside); Skip drops those that one of
	// its patterns names. Patterns are field paths with * (ir.ParsePattern).
	Only, Skip []ir.Path
}

// skipped are the top-level fields not explored: the object's identity,
// and the status, which the controller writes.
var skipped = []string{"apiVersion", "kind", "metadata", "status"}

// Explores reports whether the operations may change the top-level field
// name of a resource: all but its identity and its status.
func Explores(name string) bool { return !slices.Contains(skipped, name) }

// Generate returns the operations that explore r, in the order they are
// meant to run: each applies to the state the ones before it left (see
// Apply), and no operation touches a property that one before it
// removed. Properties that keep unknown fields, or combine schemas
// (anyOf, oneOf, allOf), are left alone.
func Generate(r *Resource, o Options) []Operation {
	g := &gen{rng: newRand(o.Seed)}
	props, _ := r.Schema["properties"].(map[string]any)
	for _, name := range sortedKeys(props) {
		if !Explores(name) {
			continue
		}
		s, _ := props[name].(map[string]any)
		v, present := r.Object[name]
		// A top-level field is not unset: it holds the seed.
		g.property(ir.Path{ir.FieldElem(name)}, s, v, present, true)
	}
	max := o.Max
	if max <= 0 {
		max = DefaultMax
	}
	return g.pick(filter(g.ops, o), max)
}

// newRand returns the generator's random numbers for a seed number.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

// gen collects operations in the order of a walk of the schema.
type gen struct {
	rng *rand.Rand
	ops []Operation
}

func (g *gen) add(p ir.Path, c Change, v any) {
	g.ops = append(g.ops, Operation{Path: slices.Clone(p), Change: c, Value: v})
}

// property adds the operations on the property at p with schema s and
// seed value v: those inside it first, then its removal if it is
// optional, so nothing after the removal needs it.
func (g *gen) property(p ir.Path, s map[string]any, v any, present, required bool) {
	if opaque(s) {
		return
	}
	if !present {
		g.add(p, Set, g.minimal(s, 0))
		return
	}
	switch {
	case len(enum(s)) > 0:
		g.enum(p, s, v)
	case s["x-kubernetes-int-or-string"] == true:
		g.intOrString(p, s, v)
	default:
		g.byType(p, s, v)
	}
	if !required {
		g.add(p, Unset, nil)
	}
}

// byType adds the changes of a property by its schema's type; a seed
// value not of that type is left alone (the API server would refuse it).
func (g *gen) byType(p ir.Path, s map[string]any, v any) {
	switch s["type"] {
	case "object":
		if m, ok := v.(map[string]any); ok {
			g.object(p, s, m)
		}
	case "array":
		if l, ok := v.([]any); ok {
			g.array(p, s, l)
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			g.add(p, Flip, !b)
		}
	case "integer", "number":
		if f, ok := v.(float64); ok {
			g.numbers(p, s, f)
		}
	case "string":
		if str, ok := v.(string); ok {
			g.strings(p, s, str)
		}
	}
}

func (g *gen) enum(p ir.Path, s map[string]any, v any) {
	for _, e := range enum(s) {
		if !equal(e, v) {
			g.add(p, Enum, e)
		}
	}
}

// object explores the declared properties of an object, or the entries
// of a map (additionalProperties).
func (g *gen) object(p ir.Path, s map[string]any, m map[string]any) {
	if props, ok := s["properties"].(map[string]any); ok {
		required := requiredSet(s)
		for _, name := range sortedKeys(props) {
			ps, _ := props[name].(map[string]any)
			cv, present := m[name]
			g.property(append(p, ir.FieldElem(name)), ps, cv, present, required[name])
		}
		return
	}
	if vs, ok := s["additionalProperties"].(map[string]any); ok {
		g.entries(p, s, vs, m)
	}
}

// entries adds an entry to a map and removes its last one, within
// minProperties and maxProperties.
func (g *gen) entries(p ir.Path, s, vs map[string]any, m map[string]any) {
	n := len(m)
	if max, ok := number(s, "maxProperties"); !ok || float64(n+1) <= max {
		key := "sieve-explore"
		for _, taken := m[key]; taken; _, taken = m[key] {
			key += "-x"
		}
		g.add(append(p, ir.FieldElem(key)), AddEntry, g.minimal(vs, 0))
	}
	if min, _ := number(s, "minProperties"); n > 0 && float64(n-1) >= min {
		keys := sortedKeys(m)
		g.add(append(p, ir.FieldElem(keys[n-1])), RemoveEntry, nil)
	}
}

// array explores each item, then appends one and removes the last,
// within minItems and maxItems.
func (g *gen) array(p ir.Path, s map[string]any, l []any) {
	items, _ := s["items"].(map[string]any)
	for i, item := range l {
		g.property(append(p, ir.IndexElem(i)), items, item, true, true)
	}
	n := len(l)
	if max, ok := number(s, "maxItems"); (!ok || float64(n+1) <= max) && !opaque(items) {
		g.add(append(p, ir.IndexElem(n)), AddItem, g.newItem(s, items, l, 1))
	}
	if min, _ := number(s, "minItems"); n > 0 && float64(n-1) >= min {
		g.add(append(p, ir.IndexElem(n-1)), RemoveItem, nil)
	}
}

// filter keeps the operations that o's patterns let through.
func filter(ops []Operation, o Options) []Operation {
	var out []Operation
	for _, op := range ops {
		if (len(o.Only) == 0 || matchesAny(o.Only, op.Path)) && !matchesAny(o.Skip, op.Path) {
			out = append(out, op)
		}
	}
	return out
}

func matchesAny(patterns []ir.Path, p ir.Path) bool {
	for _, q := range patterns {
		if q.MatchesPrefix(p) {
			return true
		}
	}
	return false
}

// pick keeps max of ops, chosen by the seed, in their order.
func (g *gen) pick(ops []Operation, max int) []Operation {
	if len(ops) <= max {
		return ops
	}
	keep := g.rng.Perm(len(ops))[:max]
	sort.Ints(keep)
	out := make([]Operation, max)
	for i, k := range keep {
		out[i] = ops[k]
	}
	return out
}

// opaque reports whether the schema leaves its value alone: unknown
// fields kept, schemas combined, or no schema.
func opaque(s map[string]any) bool {
	if s == nil || s["x-kubernetes-preserve-unknown-fields"] == true {
		return true
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not"} {
		if _, ok := s[k]; ok && s["x-kubernetes-int-or-string"] != true {
			return true
		}
	}
	return false
}

func enum(s map[string]any) []any {
	e, _ := s["enum"].([]any)
	return e
}

func requiredSet(s map[string]any) map[string]bool {
	out := map[string]bool{}
	r, _ := s["required"].([]any)
	for _, x := range r {
		if name, ok := x.(string); ok {
			out[name] = true
		}
	}
	return out
}

func number(s map[string]any, key string) (float64, bool) {
	f, ok := s[key].(float64)
	return f, ok
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func equal(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
