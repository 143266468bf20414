package oracle

import (
	"reflect"
	"sort"
	"strconv"
)

// absent marks a side of a difference where the field does not exist.
type absent struct{}

// delta is one field that differs: the path and the two values, either of
// which may be absent{}.
type delta struct {
	path     []string
	ref, val any
}

// diff compares two decoded JSON values recursively: maps by key, lists by
// index. A subtree present on one side only is one delta at its root.
func diff(ref, val any) []delta {
	var d differ
	d.value(ref, val)
	return d.out
}

// differ collects deltas; path is the current path, reused across calls.
type differ struct {
	path []string
	out  []delta
}

func (d *differ) add(ref, val any) {
	d.out = append(d.out, delta{path: append([]string(nil), d.path...), ref: ref, val: val})
}

func (d *differ) value(ref, val any) {
	switch r := ref.(type) {
	case map[string]any:
		if v, ok := val.(map[string]any); ok {
			d.maps(r, v)
			return
		}
	case []any:
		if v, ok := val.([]any); ok {
			d.lists(r, v)
			return
		}
	}
	if !reflect.DeepEqual(ref, val) {
		d.add(ref, val)
	}
}

func (d *differ) maps(ref, val map[string]any) {
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
		d.path = append(d.path, k)
		d.child(ref[k], keyPresent(ref, k), val[k], keyPresent(val, k))
		d.path = d.path[:len(d.path)-1]
	}
}

func keyPresent(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func (d *differ) lists(ref, val []any) {
	n := max(len(ref), len(val))
	for i := 0; i < n; i++ {
		d.path = append(d.path, strconv.Itoa(i))
		var r, v any
		if i < len(ref) {
			r = ref[i]
		}
		if i < len(val) {
			v = val[i]
		}
		d.child(r, i < len(ref), v, i < len(val))
		d.path = d.path[:len(d.path)-1]
	}
}

// child compares one member, either side of which may be missing.
func (d *differ) child(ref any, inRef bool, val any, inVal bool) {
	switch {
	case inRef && inVal:
		d.value(ref, val)
	case inRef:
		d.add(ref, absent{})
	default:
		d.add(absent{}, val)
	}
}
