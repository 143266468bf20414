package workload

import (
	"fmt"
	"strconv"

	"github.com/sievetool/sieve/lang/ir"
)

// getPath returns the value at a field path (ir.Path's text form:
// "spec.replicas", "spec.containers[0].image",
// `metadata.labels."app.kubernetes.io/name"`).
func getPath(obj map[string]any, path string) (any, bool) {
	p, err := ir.ParsePath(path)
	if err != nil {
		return nil, false
	}
	return p.Lookup(obj)
}

// setPath sets the value at a field path, creating maps on the way. An
// index, or a field named by a number, indexes an existing list.
func setPath(obj map[string]any, path string, v any) error {
	p, err := ir.ParsePattern(path)
	if err != nil {
		return err
	}
	var cur any = obj
	for i, e := range p {
		if e.Kind == ir.PathAny {
			return fmt.Errorf("field path %s: cannot set through *", p)
		}
		last := i == len(p)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[e.Key()] = v
				return nil
			}
			next, ok := c[e.Key()]
			if !ok || next == nil {
				next = map[string]any{}
				c[e.Key()] = next
			}
			cur = next
		case []any:
			n, err := strconv.Atoi(e.Key())
			if err != nil || n < 0 || n >= len(c) {
				return fmt.Errorf("%s is not an index of a list of %d", e, len(c))
			}
			if last {
				c[n] = v
				return nil
			}
			cur = c[n]
		default:
			return fmt.Errorf("%s is not an object", p[:i])
		}
	}
	return nil
}
