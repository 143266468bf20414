package check

import (
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// keyUse says where a resource key appears, which decides whether globs
// are allowed.
type keyUse int

const (
	keyExact keyUse = iota // patch, scale, stale/hold scopes: one object
	keyGlob                // delete, wait, masks, filters, triggers
)

// toRef checks a resource key value and returns the reference. Keys still
// holding an unsubstituted ${param} (a parameter without a value while a
// workload body is checked on its own) are not checked further.
func (c *checker) toRef(v *value, use keyUse, what string) *ir.Ref {
	if v.use(kKey) {
		return &ir.Ref{Kind: "?", Name: "?"}
	}
	if v.kind != kKey {
		c.errorf(v.rng, "type", "%s: want a resource key (kind/namespace/name), got %s", what, v.describe())
		return nil
	}
	segs := strings.Split(v.s, "/")
	if len(segs) < 2 || len(segs) > 3 {
		c.errorf(v.rng, "key", "bad resource key %q: want kind/namespace/name or kind/name", v.s)
		return nil
	}
	ok := true
	for _, s := range segs {
		ok = c.keySegment(v, s, use, what) && ok
	}
	if !ok {
		return nil
	}
	ref := &ir.Ref{Kind: ir.CanonicalKind(segs[0]), Name: segs[len(segs)-1]}
	if len(segs) == 3 {
		ref.Namespace = segs[1]
	}
	return ref
}

// keySegment checks one segment of a key: not empty, a valid glob, and no
// glob where one object is meant.
func (c *checker) keySegment(v *value, seg string, use keyUse, what string) bool {
	if strings.Contains(seg, "${") {
		return true // an unknown parameter; checked per call
	}
	if seg == "" {
		c.errorf(v.rng, "key", "bad resource key %q: empty segment", v.s)
		return false
	}
	if _, err := path.Match(seg, ""); err != nil {
		c.errorf(v.rng, "glob", "bad glob %q in resource key %q", seg, v.s)
		return false
	}
	if use == keyExact && strings.ContainsAny(seg, "*?[") {
		c.errorf(v.rng, "glob", "%s: resource key %q must name one object, not a glob", what, v.s)
		return false
	}
	return true
}

// substituteKey replaces ${name} references in a key with parameter
// values. lookup returns the value of a parameter, or nil when undefined.
func (c *checker) substituteKey(text string, rng diag.Range, lookup func(string) (*value, bool)) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "${")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		name := text[i+2 : i+j]
		b.WriteString(text[:i])
		b.WriteString(c.keyParam(name, rng, lookup))
		text = text[i+j+1:]
	}
}

func (c *checker) keyParam(name string, rng diag.Range, lookup func(string) (*value, bool)) string {
	v, inWorkload := lookup(name)
	switch {
	case !inWorkload:
		c.errorf(rng, "undefined", "${%s}: parameters can be used only inside a workload", name)
	case v == nil:
		return "${" + name + "}" // reported by lookup
	case v.kind == kUnknown:
		return "${" + name + "}"
	case v.kind == kString || v.kind == kWord:
		return v.s
	case v.kind == kInt:
		return v.toAnyString()
	default:
		c.errorf(rng, "type", "${%s}: want a string or integer in a resource key, got %s", name, v.describe())
	}
	return "${" + name + "}"
}

func (v *value) toAnyString() string {
	if v.kind == kInt {
		return strconv.FormatInt(v.i, 10)
	}
	return v.s
}

// toDuration checks a duration value; positive says zero is not allowed.
func (c *checker) toDuration(v *value, what string, positive bool) ir.Duration {
	switch {
	case v == nil || v.kind == kUnknown:
		return 0
	case v.kind != kDuration:
		c.errorf(v.rng, "type", "%s: want a duration such as 30s, got %s", what, v.describe())
	case v.d < 0 || positive && v.d == 0:
		c.errorf(v.rng, "duration", "%s: duration must be positive, got %s", what, v.d)
	}
	return ir.Duration(v.d)
}

// parseDuration parses a duration token, reporting a bad one.
func (c *checker) parseDuration(text string, rng diag.Range) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.ReplaceAll(text, "µs", "us"))
	if err != nil {
		c.errorf(rng, "duration", "bad duration %q", text)
		return 0, false
	}
	return d, true
}
