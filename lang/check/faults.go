package check

import (
	"strconv"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// Words the checker accepts.
func policyAttrs() []string {
	return strings.Fields("patterns include exclude max_plans prune stale_for stale_quiet hold_for api_errors api_reads app_faults")
}
func patterns() []string { return strings.Fields("intermediate stale unobserved apierror appfault") }

// filterVerbs are the verbs a policy's filter names: writes, the reads
// an apierror plan answers (ir.ReadVerbs), and a call's (exec, or its
// HTTP method in lower case).
func filterVerbs() []string {
	return strings.Fields("create update patch delete get list exec put post head options")
}
func pruneNames() []string {
	return strings.Fields("causality noop failed nondeterministic duplicates")
}
func maskValues() []string { return strings.Fields("timestamp ip") }

func (c *checker) lowerPolicy(d *decl) *ir.Policy {
	n := d.node.(*syntax.Policy)
	what := "policy " + d.name
	attrs := c.body(d, n.Body, &scope{file: d.file}, what, policyAttrs(), false)
	p := ir.NewPolicy(c.irName(d), n.Range())
	val := func(name string) *value {
		if ops := attrs.ops[name]; len(ops) > 0 {
			return ops[0].val
		}
		return nil
	}
	if v := val("patterns"); v != nil {
		for _, e := range elems(v) {
			if w, ok := c.word(e, "pattern", patterns()...); ok {
				p.Patterns = append(p.Patterns, ir.Pattern(w))
			}
		}
	}
	if len(p.Patterns) == 0 && val("patterns") == nil {
		c.errorf(n.Name.Range(), "policy", "%s: no patterns (set patterns to some of intermediate, stale, unobserved, apierror, appfault)", what)
	}
	p.Include = c.filters(val("include"), "include")
	p.Exclude = c.filters(val("exclude"), "exclude")
	if v := val("max_plans"); v != nil {
		m, _ := c.count(v, "max_plans", 0, ir.CountMaxPlans)
		p.MaxPlans = int(m)
	}
	if v := val("prune"); v != nil {
		p.Prune = c.prune(v)
	}
	if v := val("stale_for"); v != nil {
		p.StaleFor = c.toDuration(v, "stale_for", true)
	}
	if v := val("stale_quiet"); v != nil {
		p.StaleQuiet = c.toDuration(v, "stale_quiet", true)
	}
	if v := val("hold_for"); v != nil {
		p.HoldFor = c.toDuration(v, "hold_for", true)
	}
	if v := val("api_errors"); v != nil {
		for _, w := range c.words(v, "api_errors", "api error", ir.APIErrorNames()) {
			p.APIErrors = append(p.APIErrors, ir.APIErrorKind(w))
		}
	}
	if v := val("api_reads"); v != nil {
		p.APIReads = c.words(v, "api_reads", "read verb", ir.ReadVerbs())
		if msg := ir.ReadsProblem(p); msg != "" {
			c.errorf(v.rng, "policy", "%s: %s", what, msg)
		}
	}
	if v := val("app_faults"); v != nil {
		for _, w := range c.words(v, "app_faults", "app fault", ir.AppFaultNames()) {
			p.AppFaults = append(p.AppFaults, ir.AppFaultKind(w))
		}
	}
	return p
}

// words is a non-empty list of attribute attr's words, each a what
// among words (api_errors, app_faults).
func (c *checker) words(v *value, attr, what string, words []string) []string {
	var out []string
	for _, e := range elems(v) {
		if w, ok := c.word(e, what, words...); ok {
			out = append(out, w)
		}
	}
	if v.kind == kList && len(v.list) == 0 {
		c.errorf(v.rng, "policy", "%s: empty list (name at least one of %s, or leave %s out for the default)", attr, strings.Join(words, ", "), attr)
	}
	return out
}

// filters are resource keys (any verb) or { target: KEY, verbs: [...] }.
func (c *checker) filters(v *value, what string) []ir.Filter {
	if v == nil {
		return nil
	}
	var out []ir.Filter
	for _, e := range elems(v) {
		if e.kind == kObject {
			if f, ok := c.filterObject(e, what); ok {
				out = append(out, f)
			}
			continue
		}
		if r := c.toRef(e, keyGlob, what); r != nil {
			out = append(out, ir.Filter{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
		}
	}
	return out
}

func (c *checker) filterObject(v *value, what string) (ir.Filter, bool) {
	var f ir.Filter
	ok := true
	for _, fl := range v.fields {
		switch name := fl.path.String(); name {
		case "target":
			r := c.toRef(fl.val, keyGlob, what)
			if r == nil {
				ok = false
				continue
			}
			f.Kind, f.Namespace, f.Name = r.Kind, r.Namespace, r.Name
		case "verbs":
			for _, e := range elems(fl.val) {
				if w, good := c.word(e, "verb", filterVerbs()...); good {
					f.Verbs = append(f.Verbs, w)
				}
			}
		default:
			d := c.errorf(fl.rng, "unknown", "unknown filter field %q", name)
			hint(d, spell.Hint(name, []string{"target", "verbs"}))
			ok = false
		}
	}
	return f, ok
}

// prune is true, false, or an object switching single passes.
func (c *checker) prune(v *value) ir.Prune {
	p := ir.DefaultPrune
	switch {
	case v.use(kObject):
	case v.kind == kBool:
		p = ir.Prune{Causality: v.b, NoOp: v.b, Failed: v.b, Nondeterministic: v.b, Duplicates: v.b}
	case v.kind == kObject:
		for _, f := range v.fields {
			c.pruneField(&p, f)
		}
	default:
		c.errorf(v.rng, "type", "prune: want true, false or { causality: false, ... }, got %s", v.describe())
	}
	return p
}

func (c *checker) pruneField(p *ir.Prune, f *field) {
	name := f.path.String()
	b, ok := c.boolean(f.val, "prune "+name)
	if !ok {
		return
	}
	switch name {
	case "causality":
		p.Causality = b
	case "noop":
		p.NoOp = b
	case "failed":
		p.Failed = b
	case "nondeterministic":
		p.Nondeterministic = b
	case "duplicates":
		p.Duplicates = b
	default:
		d := c.errorf(f.rng, "unknown", "unknown pruning pass %q", name)
		hint(d, spell.Hint(name, pruneNames()))
	}
}

func (c *checker) lowerMask(d *decl) *ir.Mask {
	n := d.node.(*syntax.Mask)
	m := ir.NewMask(c.irName(d), n.Range())
	sc := &scope{file: d.file}
	for _, r := range n.Rules {
		if rule := c.maskRule(r, sc); rule != nil {
			m.Rules = append(m.Rules, rule)
		}
	}
	if len(n.Rules) == 0 {
		c.warnf(n.Name.Range(), "empty", "mask %s is empty", d.name)
	}
	return m
}

func (c *checker) maskRule(r *syntax.MaskRule, sc *scope) *ir.MaskRule {
	out := &ir.MaskRule{Src: r.Range(), Target: ir.Ref{Kind: "*", Namespace: "*", Name: "*"}, Oracle: ir.Oracle(r.Oracle)}
	if r.Target != nil {
		ref := c.toRef(c.evalPrimary(r.Target, sc), keyGlob, "mask")
		if ref == nil {
			return nil
		}
		out.Target = *ref
	}
	switch {
	case r.Key != "":
		out.Key = r.Key
		if strings.HasPrefix(r.Key, `"`) {
			out.Key, _ = c.pathElem(r.Key, r.Range())
		}
	case r.Path != nil:
		path := c.path(r.Path)
		if path == nil {
			return nil
		}
		out.Path = path.String()
	case r.Value != "":
		if !contains(maskValues(), r.Value) {
			d := c.errorf(r.Range(), "unknown", "unknown value kind %q (want timestamp or ip)", r.Value)
			hint(d, spell.Hint(r.Value, maskValues()))
			return nil
		}
		out.Value = r.Value
	case r.Whole:
		out.Whole = true
	}
	return out
}

// lowerWindow lowers an invariant's between clause, which only an
// invariant over the history can have.
func (c *checker) lowerWindow(d *decl, n *syntax.Invariant) *ir.Window {
	if n.When == "end" {
		c.errorf(n.Between.Range(), "between", "invariant %s: an end invariant has no between (it holds at the end state; use always, eventually or never)", d.name)
		return nil
	}
	from, okFrom := c.stepRef(d, n.Between.From)
	to, okTo := c.stepRef(d, n.Between.To)
	if !okFrom || !okTo {
		return nil
	}
	if from.Workload == to.Workload && to.Step <= from.Step {
		c.errorf(n.Between.To.Range(), "between", "invariant %s: step %s comes before the end of %s (the window runs from the end of the first step to the start of the second)", d.name, to, from)
	}
	return &ir.Window{From: from, To: to}
}

// stepRef resolves a step reference: a workload declared in scope and a
// step it has.
func (c *checker) stepRef(d *decl, r *syntax.StepRef) (ir.StepRef, bool) {
	name := r.Workload.Name
	w := c.lookup(d.file, name, false)
	if w == nil || w.kind != dWorkload {
		v := &value{kind: kWord, s: name, rng: r.Workload.Range(), file: d.file}
		if w != nil {
			v = &value{kind: kRef, ref: w, s: name, rng: r.Workload.Range(), file: d.file}
		}
		c.resolveRef(v, dWorkload, "between")
		return ir.StepRef{}, false
	}
	c.checkDecl(w)
	steps := len(w.node.(*syntax.Workload).Steps)
	n, err := strconv.Atoi(r.Step.Text)
	if err != nil || n < 1 || n > steps {
		c.errorf(r.Step.Range(), "between", "workload %s has no step %s (it has %d, numbered from 1)", name, r.Step.Text, steps)
		return ir.StepRef{}, false
	}
	return ir.StepRef{Workload: c.irName(w), Step: n}, true
}
