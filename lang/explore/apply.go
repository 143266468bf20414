package explore

import (
	"fmt"
	"slices"

	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/manifest"
)

// Apply returns a copy of obj with op made: the property at op.Path set
// to op.Value (an item inserted at its index for add-item) or removed.
// It fails when the path does not lead through obj, which Generate's
// operations, applied in order from the seed, never do.
func Apply(obj map[string]any, op Operation) (map[string]any, error) {
	out, ok := manifest.JSON(obj).(map[string]any)
	if !ok || len(op.Path) == 0 {
		return nil, fmt.Errorf("operation %s: nothing to change", op)
	}
	if _, err := change(out, op.Path, op); err != nil {
		return nil, fmt.Errorf("operation %s: %w", op, err)
	}
	return out, nil
}

// change makes op at the path rest inside v and returns v's new value (a
// list may move when it grows or shrinks).
func change(v any, rest ir.Path, op Operation) (any, error) {
	e := rest[0]
	last := len(rest) == 1
	switch t := v.(type) {
	case map[string]any:
		if e.Kind != ir.PathField {
			return nil, fmt.Errorf("%s: not a field of an object", e)
		}
		if last {
			if op.removes() {
				delete(t, e.Name)
			} else {
				t[e.Name] = manifest.JSON(op.Value)
			}
			return t, nil
		}
		next, err := change(t[e.Name], rest[1:], op)
		t[e.Name] = next
		return t, err
	case []any:
		return changeList(t, e, rest, op)
	}
	return nil, fmt.Errorf("%s: no object or list to change", e)
}

func changeList(l []any, e ir.PathElem, rest ir.Path, op Operation) (any, error) {
	if e.Kind != ir.PathIndex || e.Index > len(l) || e.Index == len(l) && !(len(rest) == 1 && op.Change == AddItem) {
		return nil, fmt.Errorf("%s: not an index of a list of %d", e, len(l))
	}
	if len(rest) > 1 {
		next, err := change(l[e.Index], rest[1:], op)
		l[e.Index] = next
		return l, err
	}
	switch op.Change {
	case AddItem:
		return slices.Insert(l, e.Index, manifest.JSON(op.Value)), nil
	case RemoveItem:
		return slices.Delete(l, e.Index, e.Index+1), nil
	}
	l[e.Index] = manifest.JSON(op.Value)
	return l, nil
}

// MergePatch returns the JSON merge patch that takes before to after,
// the state op leaves: the property's new value under its parents, null
// for a removed field, and the whole list where the path goes through
// one (a merge patch replaces lists).
func MergePatch(after map[string]any, op Operation) map[string]any {
	root := map[string]any{}
	cur, v := root, any(after)
	for i, e := range op.Path {
		m, _ := v.(map[string]any)
		next := m[e.Name]
		switch {
		case i == len(op.Path)-1 && op.removes():
			cur[e.Name] = nil
		case i == len(op.Path)-1 || op.Path[i+1].Kind != ir.PathField:
			cur[e.Name] = manifest.JSON(next)
		default:
			child := map[string]any{}
			cur[e.Name], cur, v = child, child, next
			continue
		}
		break
	}
	return root
}
