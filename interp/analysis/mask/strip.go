package mask

import "github.com/sievetool/sieve/lang/ir"

// Strip returns a deep copy of obj without the masked fields (masked list
// elements become Placeholder), or nil when the object is masked entirely.
func (o *Object) Strip(obj map[string]any) map[string]any {
	if o.whole || obj == nil {
		return nil
	}
	w := walker{o: o}
	return w.mapCopy(obj, o.paths)
}

// Redact returns a deep copy of obj in which every masked field holds
// Placeholder, or nil when the object is masked entirely.
func (o *Object) Redact(obj map[string]any) map[string]any {
	if o.whole || obj == nil {
		return nil
	}
	w := walker{o: o, redact: true}
	return w.mapCopy(obj, o.paths)
}

// walker copies a JSON value, dropping or redacting masked fields. It
// carries, for each level, the suffixes of the path rules whose prefix
// matched so far (active), so that deciding whether a field is masked costs
// one step per live rule instead of a comparison of whole paths. Key rules
// need only the field's own name: a field under a masked name is never
// reached.
type walker struct {
	o      *Object
	redact bool
}

// step returns whether the child e is masked, and the path-rule suffixes
// that remain active below it.
func (w *walker) step(e ir.PathElem, v any, active []ir.Path) (bool, []ir.Path) {
	if w.o.key(e) {
		return true, nil
	}
	var next []ir.Path
	for _, p := range active {
		if !p[0].Matches(e) {
			continue
		}
		if len(p) == 1 {
			return true, nil
		}
		next = append(next, p[1:])
	}
	return w.o.Value(v), next
}

func (w *walker) mapCopy(m map[string]any, active []ir.Path) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		masked, next := w.step(ir.FieldElem(k), v, active)
		switch {
		case !masked:
			out[k] = w.value(v, next)
		case w.redact:
			out[k] = Placeholder
		}
	}
	return out
}

func (w *walker) listCopy(l []any, active []ir.Path) []any {
	out := make([]any, len(l))
	for i, v := range l {
		masked, next := w.step(ir.IndexElem(i), v, active)
		if masked {
			out[i] = Placeholder
		} else {
			out[i] = w.value(v, next)
		}
	}
	return out
}

func (w *walker) value(v any, active []ir.Path) any {
	switch t := v.(type) {
	case map[string]any:
		return w.mapCopy(t, active)
	case []any:
		return w.listCopy(t, active)
	default:
		return v
	}
}
