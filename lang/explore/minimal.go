package explore

import "math"

// maxDepth bounds how deep minimal fills required fields, and maxItems
// the items of a list it makes (a schema's minItems may be larger: the
// API server then refuses the value, as it would a too short list).
const (
	maxDepth = 16
	maxItems = 16
)

// minimal returns a value that s allows, for a property that is set
// where it was absent: a member of its enum, its lowest allowed number,
// true, a string of its format or pattern, an object with its required
// fields, a list of minItems (at least one) items.
func (g *gen) minimal(s map[string]any, depth int) any {
	if e := enum(s); len(e) > 0 {
		return e[0]
	}
	if s["x-kubernetes-int-or-string"] == true {
		return 1.0
	}
	switch s["type"] {
	case "boolean":
		return true
	case "integer", "number":
		return lowest(s)
	case "string":
		return g.minimalString(s)
	case "array":
		return g.minimalList(s, depth)
	case "object":
		return g.minimalObject(s, depth)
	}
	return map[string]any{}
}

// lowest returns the smallest allowed number at or above 0, else the
// minimum.
func lowest(s map[string]any) float64 {
	lo, hasLo := bound(s, "minimum", "exclusiveMinimum", 1)
	hi, hasHi := bound(s, "maximum", "exclusiveMaximum", -1)
	for _, f := range []float64{max(lo, 0), 0, 1, lo, hi} {
		if allowed(s, f, lo, hasLo, hi, hasHi) {
			return f
		}
	}
	return math.Max(lo, 0)
}

func (g *gen) minimalString(s map[string]any) string {
	if f, ok := s["format"].(string); ok && formats[f] != "" {
		return formats[f]
	}
	if c, ok := g.changedString(s, ""); ok {
		return c
	}
	return ""
}

func (g *gen) minimalList(s map[string]any, depth int) []any {
	items, _ := s["items"].(map[string]any)
	n, _ := number(s, "minItems")
	out := []any{}
	for i := 0; i < min(max(int(n), 1), maxItems) && depth < maxDepth; i++ {
		out = append(out, g.newItem(s, items, out, depth+1))
	}
	return out
}

func (g *gen) minimalObject(s map[string]any, depth int) map[string]any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	if depth >= maxDepth {
		return out
	}
	for _, name := range sortedKeys(requiredSet(s)) {
		if ps, ok := props[name].(map[string]any); ok {
			out[name] = g.minimal(ps, depth+1)
		}
	}
	return out
}

// newItem returns an item to append to the list l of schema s: a minimal
// item, whose string map keys (x-kubernetes-list-map-keys) or, in a set,
// whose string value is made distinct from the items of l (but a string
// of a format, or one the schema's pattern or length would refuse).
func (g *gen) newItem(s, items map[string]any, l []any, depth int) any {
	item := g.minimal(items, depth)
	keys, _ := s["x-kubernetes-list-map-keys"].([]any)
	m, isMap := item.(map[string]any)
	for n := 0; n < 8 && collides(item, l, keys); n++ {
		switch {
		case isMap:
			for _, k := range keys {
				name, _ := k.(string)
				if str, ok := m[name].(string); ok {
					m[name] = str + "-" + g.word()
				}
			}
		default:
			if str, ok := item.(string); ok && items["format"] == nil && stringAllowed(items, str+"-x") {
				item = str + "-" + g.word()
			}
		}
	}
	return item
}

// collides reports whether item has the map keys (or, without keys, the
// value) of an item of l.
func collides(item any, l []any, keys []any) bool {
	for _, x := range l {
		if len(keys) == 0 {
			if equal(x, item) {
				return true
			}
			continue
		}
		a, _ := item.(map[string]any)
		b, _ := x.(map[string]any)
		same := true
		for _, k := range keys {
			name, _ := k.(string)
			same = same && equal(a[name], b[name])
		}
		if same {
			return true
		}
	}
	return false
}
