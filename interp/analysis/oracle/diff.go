package oracle

import (
	"encoding/json"
	"reflect"
	"sort"

	"github.com/sievetool/sieve/lang/ir"
)

// absent marks a side of a difference where the field does not exist.
type absent struct{}

// delta is one field that differs: the path and the two values, either of
// which may be absent{}. An element of a keyed list is named by a key
// selector (ir.PathSelect), "[type=Ready]", any other by its index.
type delta struct {
	path     ir.Path
	ref, val any
}

// diff compares two decoded JSON values recursively: maps by key; lists by
// their merge keys where the object's shape (see listKeys) gives them, as
// sets where it says so, else by index. An empty map or list, or null,
// equals an absent field, as the API server drops either under omitempty.
// A subtree present on one side only is one delta at its root.
func diff(keys *listKeys, root shape, ref, val any) []delta {
	d := differ{keys: keys}
	d.value(ref, val, root)
	return d.out
}

// differ collects deltas; path is the current path, reused across calls.
type differ struct {
	keys *listKeys
	path ir.Path
	out  []delta
}

func (d *differ) add(ref, val any) {
	d.out = append(d.out, delta{path: append(ir.Path(nil), d.path...), ref: ref, val: val})
}

func (d *differ) value(ref, val any, s shape) {
	switch r := ref.(type) {
	case map[string]any:
		if v, ok := val.(map[string]any); ok {
			d.maps(r, v, s)
			return
		}
	case []any:
		if v, ok := val.([]any); ok {
			d.lists(r, v, s)
			return
		}
	}
	if !reflect.DeepEqual(ref, val) && !(empty(ref) && empty(val)) {
		d.add(ref, val)
	}
}

// empty reports whether v is null, an empty map or an empty list.
func empty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

func (d *differ) maps(ref, val map[string]any, s shape) {
	keys := make([]string, 0, len(ref)+len(val))
	for k := range ref {
		keys = append(keys, k)
	}
	for k := range val {
		if _, ok := ref[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.path = append(d.path, ir.FieldElem(k))
		d.child(ref[k], keyPresent(ref, k), val[k], keyPresent(val, k), d.keys.field(s, k))
		d.path = d.path[:len(d.path)-1]
	}
}

func keyPresent(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// lists compares two lists: as sets, by key or by index.
func (d *differ) lists(ref, val []any, s shape) {
	if s.set && sameSet(ref, val) {
		return
	}
	elem := d.keys.elem(s)
	keys := s.keys
	if keys == nil && len(d.path) > 0 && d.path[len(d.path)-1].Key() == "conditions" {
		keys = []string{"type"}
	}
	if keys != nil {
		rs, okRef := selectors(ref, keys)
		vs, okVal := selectors(val, keys)
		if okRef && okVal {
			d.keyed(ref, val, rs, vs, elem)
			return
		}
	}
	for i := 0; i < max(len(ref), len(val)); i++ {
		d.path = append(d.path, ir.IndexElem(i))
		var r, v any
		if i < len(ref) {
			r = ref[i]
		}
		if i < len(val) {
			v = val[i]
		}
		d.child(r, i < len(ref), v, i < len(val), elem)
		d.path = d.path[:len(d.path)-1]
	}
}

// keyed compares the elements of two keyed lists that have the same
// selector; an element whose selector the other list lacks is present on
// one side only. The order of the elements does not matter.
func (d *differ) keyed(ref, val []any, rs, vs []ir.PathElem, elem shape) {
	at := make(map[string]int, len(vs))
	for i, sel := range vs {
		at[sel.String()] = i
	}
	inRef := make(map[string]bool, len(rs))
	for i, sel := range rs {
		inRef[sel.String()] = true
		j, ok := at[sel.String()]
		d.path = append(d.path, sel)
		if ok {
			d.child(ref[i], true, val[j], true, elem)
		} else {
			d.child(ref[i], true, nil, false, elem)
		}
		d.path = d.path[:len(d.path)-1]
	}
	for j, sel := range vs {
		if !inRef[sel.String()] {
			d.path = append(d.path, sel)
			d.child(nil, false, val[j], true, elem)
			d.path = d.path[:len(d.path)-1]
		}
	}
}

// selectors returns the key selector of each element of l, and false
// unless every element is a map with a scalar value for some of the keys
// and no two elements share a selector.
func selectors(l []any, keys []string) ([]ir.PathElem, bool) {
	out := make([]ir.PathElem, len(l))
	seen := make(map[string]bool, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		var ks, vs []string
		for _, k := range keys {
			v, ok := ir.KeyText(m[k])
			if ok {
				ks, vs = append(ks, k), append(vs, v)
			}
		}
		if ks == nil {
			return nil, false
		}
		sel := ir.SelectElem(ks, vs)
		if seen[sel.String()] {
			return nil, false
		}
		seen[sel.String()] = true
		out[i] = sel
	}
	return out, true
}

// sameSet reports whether two lists hold the same elements, in any order.
func sameSet(ref, val []any) bool {
	if len(ref) != len(val) {
		return false
	}
	enc := func(l []any) []string {
		out := make([]string, len(l))
		for i, e := range l {
			b, _ := json.Marshal(e)
			out[i] = string(b)
		}
		sort.Strings(out)
		return out
	}
	return reflect.DeepEqual(enc(ref), enc(val))
}

// child compares one member, either side of which may be missing; a
// missing member equals an empty one.
func (d *differ) child(ref any, inRef bool, val any, inVal bool, s shape) {
	switch {
	case inRef && inVal:
		d.value(ref, val, s)
	case inRef && !empty(ref):
		d.add(ref, absent{})
	case inVal && !empty(val):
		d.add(absent{}, val)
	}
}
