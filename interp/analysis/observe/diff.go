package observe

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/planfile"
)

// Placeholders in slim diffs and trigger fragments.
const (
	// Skip stands for a list element that did not change.
	Skip = "SIEVE-SKIP"
	// NonNil stands for a masked value: it matches any value that is present.
	NonNil = "SIEVE-NON-NIL"
)

// SlimDiff returns the slim diff from prev to cur. Both are expected to be
// redacted already (see Normalise); nil stands for an absent object.
func SlimDiff(prev, cur map[string]any) *planfile.Diff {
	p, c := diffMaps(prev, cur)
	return &planfile.Diff{Prev: p, Cur: c}
}

// diffMaps returns the changed fields of two maps; a nil side means absent.
func diffMaps(a, b map[string]any) (map[string]any, map[string]any) {
	pa, pb := map[string]any{}, map[string]any{}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			pa[k] = va
			continue
		}
		if da, db, changed := diffValues(va, vb); changed {
			pa[k], pb[k] = da, db
		}
	}
	for k, vb := range b {
		if _, ok := a[k]; !ok {
			pb[k] = vb
		}
	}
	return pa, pb
}

// diffValues diffs two present values; changed is false when they are equal.
func diffValues(a, b any) (any, any, bool) {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		da, db := diffMaps(ma, mb)
		return da, db, len(da) > 0 || len(db) > 0
	}
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if okA && okB && len(la) == len(lb) {
		return diffLists(la, lb)
	}
	if reflect.DeepEqual(a, b) {
		return nil, nil, false
	}
	return a, b, true
}

// diffLists diffs two lists of equal length element by element.
func diffLists(a, b []any) (any, any, bool) {
	da, db := make([]any, len(a)), make([]any, len(b))
	changed := false
	for i := range a {
		x, y, c := diffValues(a[i], b[i])
		if !c {
			da[i], db[i] = Skip, Skip
			continue
		}
		da[i], db[i], changed = x, y, true
	}
	return da, db, changed
}

// Normalise parses an object and redacts it with m: masked fields keep
// their place as NonNil, so that a field appearing or disappearing still
// shows while its changing value does not. Objects embedded in it (a
// StatefulSet's volume claim templates) lose their apiVersion and kind.
// The API server's JSON carries them; its protobuf, which client-go asks
// for built-in kinds and the proxy decodes, does not. The same state must
// read the same either way. It returns nil for an empty or
// unparsable object, or one masked entirely.
func Normalise(m *mask.Object, raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil
	}
	red := m.Redact(obj)
	canonical(red, false)
	return red
}

// canonical turns the mask package's placeholder into NonNil in v and
// below, and drops the apiVersion and kind of the objects (maps with
// metadata) embedded in it; nested says v is itself embedded.
func canonical(v any, nested bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["metadata"]; ok && nested {
			delete(t, "apiVersion")
			delete(t, "kind")
		}
		for k, x := range t {
			if x == mask.Placeholder {
				t[k] = NonNil
				continue
			}
			canonical(x, true)
		}
	case []any:
		for i, x := range t {
			if x == mask.Placeholder {
				t[i] = NonNil
				continue
			}
			canonical(x, true)
		}
	}
}

// StateHash identifies a normalised (masked) object: equal objects, in
// any run, have equal hashes; nil has none.
func StateHash(obj map[string]any) string {
	if obj == nil {
		return ""
	}
	b, err := json.Marshal(obj) // map keys sorted: canonical
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Contains reports whether obj contains the fragment. Every field of a
// map fragment must be present and contained. A list fragment must have
// the same length, with each element contained (Skip matches anything).
// NonNil matches any present value, and other values must be equal.
func Contains(obj, frag any) bool {
	switch f := frag.(type) {
	case string:
		if f == Skip || f == NonNil {
			return obj != nil
		}
	case map[string]any:
		o, ok := obj.(map[string]any)
		if !ok {
			return false
		}
		for k, fv := range f {
			ov, ok := o[k]
			if !ok || !Contains(ov, fv) {
				return false
			}
		}
		return true
	case []any:
		o, ok := obj.([]any)
		if !ok || len(o) != len(f) {
			return false
		}
		for i := range f {
			if !Contains(o[i], f[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(obj, frag)
}
