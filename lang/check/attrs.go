package check

import (
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// attrOp is one attribute as written: NAME VALUE sets, NAME += VALUE
// appends.
type attrOp struct {
	owner  *decl // the declaration whose body holds it
	seq    int   // evaluation order: bases before the tests extending them
	name   string
	append bool
	rng    diag.Range // the attribute's name
	val    *value
}

// attrSet is the attributes of a body by name, each with the operations
// that make its value, in order.
type attrSet struct {
	ops   map[string][]*attrOp
	names []string // in order of first appearance
}

func newAttrSet() *attrSet { return &attrSet{ops: map[string][]*attrOp{}} }

func (s *attrSet) add(op *attrOp) {
	if _, ok := s.ops[op.name]; !ok {
		s.names = append(s.names, op.name)
	}
	s.ops[op.name] = append(s.ops[op.name], op)
}

// copyFrom appends every operation of base.
func (s *attrSet) copyFrom(base *attrSet) {
	for _, n := range base.names {
		for _, op := range base.ops[n] {
			s.add(op)
		}
	}
}

// body evaluates the attributes of a body, reporting duplicates, unknown
// names (with did you mean) and, unless appendOK, any +=.
func (c *checker) body(owner *decl, b *syntax.Body, sc *scope, what string, allowed []string, appendOK bool) *attrSet {
	out := newAttrSet()
	if b == nil {
		return out
	}
	for _, a := range b.Attrs {
		if a.Name == nil {
			continue
		}
		name := a.Name.Name
		if prev, dup := out.ops[name]; dup {
			d := c.errorf(a.Name.Range(), "duplicate", "duplicate attribute %q in %s", name, what)
			related(d, "first set here", prev[0].rng)
			continue
		}
		if !contains(allowed, name) {
			d := c.errorf(a.Name.Range(), "unknown", "unknown attribute %q in %s", name, what)
			hint(d, spell.Hint(name, allowed))
			continue
		}
		if a.Append && !appendOK {
			c.errorf(a.Name.Range(), "append", "%s: += is only allowed in a test that extends another", name)
		}
		c.seq++
		out.add(&attrOp{owner: owner, seq: c.seq, name: name, append: a.Append, rng: a.Name.Range(), val: c.eval(a.Value, sc)})
	}
	return out
}

// fold computes an attribute's value from its operations. start is the
// value before them (nil when none).
func (c *checker) fold(start *value, ops []*attrOp) *value {
	cur := start
	for _, op := range ops {
		if !op.append {
			cur = op.val
			continue
		}
		if cur == nil && (op.val.kind == kList || op.val.kind == kObject) && contains(controllerAttrs(), op.name) {
			cur = op.val // a controller list or object that was not set is empty
			continue
		}
		if cur == nil {
			c.errorf(op.rng, "append", "%s += needs a value to append to (set it in the base test or the controller)", op.name)
			cur = op.val
			continue
		}
		cur = c.appendValue(op, cur)
	}
	return cur
}

// appendValue is a += b: lists concatenate, objects merge (b's fields
// win), strings concatenate.
func (c *checker) appendValue(op *attrOp, a *value) *value {
	b := op.val
	out := *b
	switch {
	case a.kind == kUnknown || b.kind == kUnknown:
	case a.kind == kList:
		out.kind, out.list = kList, append(append([]*value(nil), a.list...), elems(b)...)
	case a.kind == kObject && b.kind == kObject:
		out.fields = mergeFields(a.fields, b.fields)
	case a.kind == kString && b.kind == kString:
		out.s = a.s + b.s
	default:
		c.errorf(op.rng, "append", "%s += %s: cannot append to %s", op.name, b.describe(), a.describe())
		out.kind = kUnknown
	}
	return &out
}

func mergeFields(a, b []*field) []*field {
	out := []*field{}
	idx := map[string]int{}
	for _, f := range append(append([]*field(nil), a...), b...) {
		key := joinKey(f.path)
		if i, ok := idx[key]; ok {
			out[i] = f
			continue
		}
		idx[key] = len(out)
		out = append(out, f)
	}
	return out
}

// joinKey returns a map key for a field path: its elements' keys.
func joinKey(path ir.Path) string {
	s := ""
	for _, e := range path {
		s += e.Key() + "\x00"
	}
	return s
}
