package check

import (
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/kinds"
	"github.com/sievetool/sieve/lang/syntax"
)

// testAttrNames are the attributes of a test besides controller ones.
func testAttrNames() []string {
	return strings.Fields("controller workloads policies masks invariants plans runs converge quiet settle settle_max kubernetes")
}

// testAttrs is a test's attributes with its bases' folded in front.
type testAttrs = attrSet

// checkUnits checks every declaration of every loaded file once, used or
// not.
func (c *checker) checkUnits() {
	for _, u := range c.units {
		for _, d := range u.order {
			c.checkDecl(d)
		}
	}
}

// checkDecl checks one declaration and keeps its lowered form.
func (c *checker) checkDecl(d *decl) {
	if d.checked {
		return
	}
	d.checked = true
	switch d.kind {
	case dController:
		c.lowerController(d, nil)
	case dWorkload:
		c.checkWorkload(d)
	case dPolicy:
		d.policy = c.lowerPolicy(d)
	case dMask:
		d.mask = c.lowerMask(d)
	case dInvariant:
		d.invariant = c.lowerInvariant(d)
	case dPlan:
		d.plan = c.lowerPlan(d)
	case dTest:
		c.lowerTest(d, d.file.unit == c.units[0])
	}
}

// lowerTests lowers the root unit's tests, in source order, and warns
// about imports nothing used.
func (c *checker) lowerTests(root *unit) []*ir.Test {
	out := []*ir.Test{}
	for _, d := range root.order {
		if d.kind == dTest {
			if t := c.lowerTest(d, true); t != nil {
				out = append(out, t)
			}
		}
	}
	c.unusedImports()
	return out
}

func (c *checker) unusedImports() {
	for _, u := range c.units {
		for _, f := range u.files {
			for _, im := range f.imports {
				if !im.used && im.unit != nil {
					c.warnf(im.node.Range(), "unused", "import %q is not used", im.alias)
				}
			}
		}
	}
}

// lowerTest lowers a test. Only the root file's tests must be complete (a
// controller and a workload): an imported test serves as a base.
func (c *checker) lowerTest(d *decl, complete bool) *ir.Test {
	n := d.node.(*syntax.Test)
	attrs := c.flatten(d, nil)
	t := ir.NewTest(d.name, n.Range())
	overrides := newAttrSet()
	var ctrl *decl
	for _, name := range attrs.names {
		ops := attrs.ops[name]
		if contains(controllerAttrs(), name) {
			for _, op := range ops {
				overrides.add(op)
			}
			continue
		}
		v := c.fold(nil, ops)
		if name == "controller" {
			ctrl = c.resolveRef(v, dController, "controller")
			if ctrl != nil && v.call {
				c.errorf(v.rng, "args", "controller %s takes no arguments", v.s)
			}
			continue
		}
		c.testAttr(t, name, v)
	}
	if msg := ir.CheckSettle(t); msg != "" {
		c.errorf(settleAt(t, attrs), "duration", "%s", msg)
	}
	if ctrl != nil {
		t.Controller = c.lowerController(ctrl, overrides)
	} else if attrs.ops["controller"] == nil && complete && !d.badBase {
		c.errorf(n.Name.Range(), "test", "test %s has no controller (add: controller NAME)", d.name)
	}
	if len(t.Workloads) == 0 && attrs.ops["workloads"] == nil && complete && !d.badBase {
		c.errorf(n.Name.Range(), "test", "test %s has no workload (add: workloads [NAME])", d.name)
	}
	c.expandExplores(t)
	return t
}

func (c *checker) testAttr(t *ir.Test, name string, v *value) {
	switch name {
	case "workloads":
		for _, e := range elems(v) {
			if c.resolveRef(e, dWorkload, "workloads") != nil {
				if w := c.instantiate(e); w != nil {
					t.Workloads = append(t.Workloads, w)
				}
			}
		}
	case "policies":
		for _, d := range c.refs(v, dPolicy, "policies") {
			p := *d.policy
			t.Policies = append(t.Policies, &p)
		}
	case "masks":
		for _, d := range c.refs(v, dMask, "masks") {
			m := *d.mask
			t.Masks = append(t.Masks, &m)
		}
	case "invariants":
		for _, e := range elems(v) {
			if inv := c.invariantUse(e); inv != nil {
				t.Invariants = append(t.Invariants, inv)
			}
		}
	case "plans":
		for _, d := range c.refs(v, dPlan, "plans") {
			p := *d.plan
			t.Plans = append(t.Plans, &p)
		}
	case "runs":
		if n, ok := c.count(v, "runs", 1, ir.CountRuns); ok {
			t.Runs = int(n)
		}
	case "converge":
		c.durationAttr(&t.Converge, v, name, false)
	case "quiet":
		c.durationAttr(&t.Quiet, v, name, false)
	case "settle":
		c.durationAttr(&t.Settle, v, name, true)
	case "settle_max":
		c.durationAttr(&t.SettleMax, v, name, true)
	case "kubernetes":
		if s, ok := c.str(v, name); ok {
			switch {
			case s == kinds.DefaultKubernetes:
				t.Kubernetes = ""
			case !slices.Contains(ir.KubernetesLines, s):
				c.errorf(v.rng, "kubernetes", "kubernetes: no Kubernetes %q control plane (there are the default, %s, and %s)", s, kinds.DefaultKubernetes, strings.Join(ir.KubernetesLines, ", "))
			default:
				t.Kubernetes = s
			}
		}
	}
}

// durationAttr sets *dst to a test's duration attribute v, checked
// (positive: zero is refused too); a value still unknown (a parameter)
// only records that it must be a duration.
func (c *checker) durationAttr(dst **ir.Duration, v *value, name string, positive bool) {
	if v.use(kDuration) {
		return
	}
	d := c.toDuration(v, name, positive)
	*dst = &d
}

// settleAt is where test t's settle bounds disagree (ir.CheckSettle): its
// settle_max value if it sets one, else its settle value.
func settleAt(t *ir.Test, attrs *testAttrs) diag.Range {
	name := "settle"
	if t.SettleMax != nil {
		name = "settle_max"
	}
	ops := attrs.ops[name]
	return ops[len(ops)-1].val.rng
}

// refs resolves a list of references to declarations of kind k, checked.
func (c *checker) refs(v *value, k declKind, what string) []*decl {
	var out []*decl
	for _, e := range elems(v) {
		d := c.resolveRef(e, k, what)
		if d == nil {
			continue
		}
		if e.call {
			c.errorf(e.rng, "args", "%s %s takes no arguments", k, e.s)
		}
		c.checkDecl(d)
		out = append(out, d)
	}
	return out
}

// flatten returns a test's attribute operations with its base's in front.
// chain holds the tests being flattened, for cycle messages.
func (c *checker) flatten(d *decl, chain []*decl) *testAttrs {
	if d.flat != nil {
		return d.flat
	}
	n := d.node.(*syntax.Test)
	set := newAttrSet()
	chain = append(chain, d)
	if n.Base != nil {
		base := c.testBase(d, n.Base, chain)
		if base != nil {
			set.copyFrom(c.flatten(base, chain))
		}
		d.badBase = base == nil || base.badBase
	}
	allowed := append(testAttrNames(), controllerAttrs()...)
	own := c.body(d, n.Body, &scope{file: d.file}, "test "+d.name, allowed, true)
	set.copyFrom(own)
	d.flat = set
	return set
}

// testBase resolves the base of a test, reporting undefined bases and
// inheritance cycles.
func (c *checker) testBase(d *decl, name *syntax.Name, chain []*decl) *decl {
	base := c.lookup(d.file, name.String(), true)
	if base == nil {
		e := c.errorf(name.Range(), "undefined", "undefined test %q", name.String())
		hint(e, spell.Hint(name.String(), c.candidates(d.file, dTest)))
		return nil
	}
	for i, t := range chain {
		if t == base {
			var names []string
			for _, x := range chain[i:] {
				names = append(names, x.name)
			}
			c.errorf(name.Range(), "cycle", "test inheritance cycle: %s : %s", strings.Join(names, " : "), base.name)
			return nil
		}
	}
	return base
}
