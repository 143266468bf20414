package mask

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Placeholder replaces a masked list element in Strip (so that the indices
// of the other elements do not shift) and every masked value in Redact.
const Placeholder = "SIEVE-MASKED"

// Value kinds a rule can mask (ir.MaskRule.Value).
const (
	ValueTimestamp = "timestamp" // RFC3339 timestamps, e.g. 2026-12-02T10:00:00Z
	ValueIP        = "ip"        // IPv4 and IPv6 addresses
)

// valueKinds is a bit set of value kinds.
type valueKinds uint8

const (
	vTimestamp valueKinds = 1 << iota
	vIP
)

// rule is a compiled ir.MaskRule.
type rule struct {
	kind, ns, name glob
	key            string
	path           ir.Path
	values         valueKinds
	whole          bool
	oracle         ir.Oracle
}

// Set is a compiled list of masks. The nil *Set masks nothing.
type Set struct {
	rules []*rule
}

// Compile compiles masks. It fails on an empty or malformed path, an unknown
// value kind or an unknown oracle, naming the mask and rule.
func Compile(masks []*ir.Mask) (*Set, error) {
	s := &Set{}
	for _, m := range masks {
		if m == nil {
			continue
		}
		for i, r := range m.Rules {
			cr, err := compileRule(r)
			if err != nil {
				return nil, fmt.Errorf("mask %s: rule %d: %w", m.Name, i+1, err)
			}
			s.rules = append(s.rules, cr)
		}
	}
	return s, nil
}

// compileRule compiles one rule.
func compileRule(r *ir.MaskRule) (*rule, error) {
	cr := &rule{
		kind:   compileKindGlob(r.Target.Kind),
		ns:     compileGlob(r.Target.Namespace),
		name:   compileGlob(r.Target.Name),
		key:    r.Key,
		whole:  r.Whole,
		oracle: r.Oracle,
	}
	switch r.Oracle {
	case ir.OracleAll, ir.OracleEnd, ir.OracleHistory:
	default:
		return nil, fmt.Errorf("unknown oracle %q (want end or history)", r.Oracle)
	}
	switch r.Value {
	case "":
	case ValueTimestamp:
		cr.values = vTimestamp
	case ValueIP:
		cr.values = vIP
	default:
		return nil, fmt.Errorf("unknown value kind %q (want timestamp or ip)", r.Value)
	}
	if r.Path != "" {
		p, err := ir.ParsePattern(r.Path)
		if err != nil {
			return nil, err
		}
		cr.path = p
	}
	if cr.key == "" && cr.path == nil && cr.values == 0 && !cr.whole {
		return nil, fmt.Errorf("rule masks nothing (set a key, a path, a value kind or whole)")
	}
	return cr, nil
}

// For returns the matcher for one oracle: the rules that name it plus the
// rules for every oracle. ir.OracleAll selects every rule, whatever oracle
// it names — the union that plan generation wants when it diffs objects.
func (s *Set) For(o ir.Oracle) *Matcher {
	m := &Matcher{}
	if s == nil {
		return m
	}
	for _, r := range s.rules {
		if o == ir.OracleAll || r.oracle == ir.OracleAll || r.oracle == o {
			m.rules = append(m.rules, r)
		}
	}
	return m
}

// Matcher answers mask questions for one oracle. The nil *Matcher masks
// nothing.
type Matcher struct {
	rules []*rule
}

// Object returns the masks that apply to the object k, ready to be asked
// about many fields.
func (m *Matcher) Object(k trace.Key) *Object {
	o := &Object{}
	if m == nil {
		return o
	}
	for _, r := range m.rules {
		if !r.kind.match(k.Kind) || !r.ns.match(k.Namespace) || !r.name.match(k.Name) {
			continue
		}
		o.whole = o.whole || r.whole
		o.values |= r.values
		if r.key != "" {
			o.keys = append(o.keys, r.key)
		}
		if r.path != nil {
			o.paths = append(o.paths, r.path)
		}
	}
	return o
}

// Whole reports whether the object k is masked entirely.
func (m *Matcher) Whole(k trace.Key) bool { return m.Object(k).Whole() }

// Masked reports whether field path of object k is masked, by the whole
// object, a key or a path rule. Value rules are not consulted; see Value.
func (m *Matcher) Masked(k trace.Key, path ir.Path) bool {
	return m.Object(k).Field(path)
}

// Strip returns a deep copy of obj without the fields masked on object k
// (masked list elements become Placeholder). It returns nil when the whole
// object is masked. obj is not modified.
func (m *Matcher) Strip(k trace.Key, obj map[string]any) map[string]any {
	return m.Object(k).Strip(obj)
}

// Redact is Strip, except that masked fields keep their place with the
// value Placeholder, so that a masked field that is present still differs
// from one that is absent.
func (m *Matcher) Redact(k trace.Key, obj map[string]any) map[string]any {
	return m.Object(k).Redact(obj)
}

// Object is the set of masks that apply to one object.
type Object struct {
	whole  bool
	values valueKinds
	keys   []string
	paths  []ir.Path
}

// Whole reports whether the object is masked entirely.
func (o *Object) Whole() bool { return o.whole }

// Field reports whether the field at path is masked: by the whole object, by
// a key rule naming any of its elements, or by a path rule that matches a
// prefix of it.
func (o *Object) Field(path ir.Path) bool {
	if o.whole {
		return true
	}
	for _, e := range path {
		if o.key(e) {
			return true
		}
	}
	for _, p := range o.paths {
		if p.MatchesPrefix(path) {
			return true
		}
	}
	return false
}

// key reports whether a key rule names the element: a field of that name
// or, as the rule's name is compared with the element's Key, an index.
func (o *Object) key(e ir.PathElem) bool {
	if e.Kind == ir.PathSelect || len(o.keys) == 0 {
		return false
	}
	name := e.Key()
	for _, k := range o.keys {
		if name == k {
			return true
		}
	}
	return false
}

// Value reports whether v is a string of a masked value kind.
func (o *Object) Value(v any) bool {
	s, ok := v.(string)
	if !ok || o.values == 0 {
		return false
	}
	return (o.values&vTimestamp != 0 && IsTimestamp(s)) || (o.values&vIP != 0 && IsIP(s))
}

// IsTimestamp reports whether s is an RFC3339 timestamp.
func IsTimestamp(s string) bool {
	if len(s) < 20 || s[4] != '-' || s[10] != 'T' {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// IsIP reports whether s is an IPv4 or IPv6 address.
func IsIP(s string) bool {
	if len(s) < 2 || len(s) > 45 {
		return false
	}
	_, err := netip.ParseAddr(s)
	return err == nil
}
