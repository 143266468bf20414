package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// getPath returns the value at an IR field path ("spec.replicas",
// "spec.containers.0.image", `metadata.labels."app.kubernetes.io/name"`);
// numeric elements index lists.
func getPath(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, seg := range ir.SplitPath(path) {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// setPath sets the value at an IR field path, creating maps on the way. A
// numeric element indexes an existing list.
func setPath(obj map[string]any, path string, v any) error {
	segs := ir.SplitPath(path)
	if len(segs) == 0 {
		return fmt.Errorf("bad field path %q", path)
	}
	var cur any = obj
	for i, seg := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[seg] = v
				return nil
			}
			next, ok := c[seg]
			if !ok || next == nil {
				next = map[string]any{}
				c[seg] = next
			}
			cur = next
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return fmt.Errorf("%q is not an index of a list of %d", seg, len(c))
			}
			if last {
				c[n] = v
				return nil
			}
			cur = c[n]
		default:
			return fmt.Errorf("%s is not an object", strings.Join(segs[:i], "."))
		}
	}
	return nil
}
