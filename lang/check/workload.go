package check

import (
	"encoding/json"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/syntax"
)

// checkWorkload checks a workload body on its own: parameters with a
// default take it, the others are unknown values whose uses give them a
// type for checking calls.
func (c *checker) checkWorkload(d *decl) {
	w := d.node.(*syntax.Workload)
	sc := &scope{file: d.file, workload: d, params: c.declParams(d, w.Params)}
	c.lowerSteps(w, sc)
}

// declParams checks the parameters of a workload or an invariant d and
// returns their values while the body is checked on its own: a default,
// or an unknown value whose uses give the parameter its type. It fills
// d.paramTypes.
func (c *checker) declParams(d *decl, ps []*syntax.Param) map[string]*value {
	d.paramTypes = map[string]kind{}
	out := map[string]*value{}
	seen := map[string]*syntax.Param{}
	for _, p := range ps {
		if p.Name == nil {
			continue
		}
		if prev, dup := seen[p.Name.Name]; dup {
			e := c.errorf(p.Name.Range(), "duplicate", "duplicate parameter %q", p.Name.Name)
			related(e, "first declared here", prev.Name.Range())
			continue
		}
		seen[p.Name.Name] = p
		if p.Default != nil {
			v := c.eval(p.Default, &scope{file: d.file})
			v.fromDefault = true
			d.paramTypes[p.Name.Name] = v.kind
			out[p.Name.Name] = v
			continue
		}
		out[p.Name.Name] = &value{kind: kUnknown, rng: p.Range(), file: d.file, param: p.Name.Name, owner: d}
	}
	return out
}

// instantiate lowers a call of a workload (or a bare reference to one)
// with its arguments bound to the parameters.
func (c *checker) instantiate(v *value) *ir.Workload {
	d := v.ref
	c.checkDecl(d)
	w := d.node.(*syntax.Workload)
	params, ok := c.bindArgs(v, w.Params)
	if !ok {
		return nil
	}
	out := &ir.Workload{Name: c.irName(d), Src: v.rng}
	for _, p := range w.Params {
		if p.Name != nil && params[p.Name.Name] != nil {
			out.Args = append(out.Args, ir.Arg{Name: p.Name.Name, Value: params[p.Name.Name].toAny()})
		}
	}
	out.Steps = c.lowerSteps(w, &scope{file: d.file, workload: d, params: params})
	return out
}

// bindArgs matches call arguments to parameters: positional ones first,
// then named ones, then defaults. It reports every mismatch.
func (c *checker) bindArgs(v *value, ps []*syntax.Param) (map[string]*value, bool) {
	names := paramNames(ps)
	what := v.ref.kind.String()
	params := map[string]*value{}
	ok := true
	for i, a := range v.args {
		name := a.name
		if name == "" {
			if i >= len(names) {
				c.errorf(a.rng, "args", "too many arguments to %s %s (it takes %d)", what, v.s, len(names))
				ok = false
				continue
			}
			name = names[i]
		}
		if !c.bindArg(v, names, name, a, params) {
			ok = false
		}
	}
	for _, p := range ps {
		if p.Name == nil || params[p.Name.Name] != nil {
			continue
		}
		if p.Default == nil {
			c.errorf(v.rng, "args", "missing argument %q in call to %s %s", p.Name.Name, what, v.s)
			ok = false
			continue
		}
		dv := c.eval(p.Default, &scope{file: v.ref.file})
		dv.fromDefault = true
		params[p.Name.Name] = dv
	}
	return params, ok
}

func (c *checker) bindArg(v *value, names []string, name string, a *arg, params map[string]*value) bool {
	if !contains(names, name) {
		d := c.errorf(a.rng, "args", "%s %s has no parameter %q", v.ref.kind, v.s, name)
		hint(d, spell.Hint(name, names))
		return false
	}
	if params[name] != nil {
		c.errorf(a.rng, "args", "argument %q given twice", name)
		return false
	}
	want, known := v.ref.paramTypes[name]
	if known && !assignable(want, a.val.kind) {
		c.errorf(a.rng, "type", "argument %q of %s %s: want %s, got %s", name, v.ref.kind, v.s, want, a.val.describe())
		params[name] = &value{kind: kUnknown, rng: a.rng, file: a.val.file}
		return false
	}
	params[name] = a.val
	return true
}

// assignable reports whether a value of kind have can be passed for a
// parameter of kind want.
func assignable(want, have kind) bool {
	switch {
	case want == have, want == kUnknown, have == kUnknown:
		return true
	case want == kFloat && have == kInt:
		return true
	case want == kWord && (have == kString || have == kRef):
		return true
	}
	return false
}

func paramNames(ps []*syntax.Param) []string {
	var out []string
	for _, p := range ps {
		if p.Name != nil {
			out = append(out, p.Name.Name)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

func (c *checker) lowerSteps(w *syntax.Workload, sc *scope) []*ir.Step {
	out := []*ir.Step{}
	for _, s := range w.Steps {
		if st := c.lowerStep(s, sc); st != nil {
			out = append(out, st)
		}
	}
	return out
}

func (c *checker) lowerStep(s syntax.Step, sc *scope) *ir.Step {
	st := &ir.Step{Src: s.Range()}
	switch s := s.(type) {
	case *syntax.Apply:
		st.Kind = ir.StepApply
		c.apply(st, s, sc)
	case *syntax.Patch:
		st.Kind = ir.StepPatch
		c.patch(st, s, sc)
	case *syntax.Delete:
		st.Kind = ir.StepDelete
		st.Target = c.toRef(c.eval(s.Target, sc), keyGlob, "delete")
	case *syntax.Scale:
		st.Kind = ir.StepScale
		st.Target = c.toRef(c.eval(s.Target, sc), keyExact, "scale")
		n, _ := c.count(c.eval(s.Replicas, sc), "scale: replicas", 0, ir.CountReplicas)
		st.Replicas = int(n)
	case *syntax.Wait:
		st.Kind = ir.StepWait
		c.wait(st, s, sc)
	case *syntax.Settle:
		st.Kind, st.Timeout = ir.StepSettle, ir.Duration(ir.DefaultStepSettle)
		if s.Quiet != nil {
			if d, ok := c.parseDuration(s.Quiet.Text, s.Quiet.Range()); ok {
				st.Timeout = c.toDuration(&value{kind: kDuration, rng: s.Quiet.Range(), d: d}, "settle", true)
			}
		}
		if s.Param != nil {
			st.Timeout = c.settleParam(s.Param, sc)
		}
	case *syntax.Sleep:
		st.Kind, st.Timeout = ir.StepSleep, c.toDuration(c.eval(s.Duration, sc), "sleep", true)
	case *syntax.Explore:
		c.exploreStep(st, s, sc)
	default:
		return nil
	}
	return st
}

// apply lowers an apply step: a quoted string is a file, a raw string an
// inline manifest.
func (c *checker) apply(st *ir.Step, s *syntax.Apply, sc *scope) {
	v := c.eval(s.Source, sc)
	switch {
	case v.use(kString):
	case v.kind == kString && v.raw:
		st.Manifest = v.s
	case v.kind == kString:
		st.File, _ = c.filePath(v, "apply", false, false)
	default:
		c.errorf(v.rng, "type", "apply: want a file name or a raw-string manifest, got %s", v.describe())
	}
	if s.Set == nil {
		return
	}
	for _, f := range c.evalFields(s.Set, sc) {
		st.Set = append(st.Set, ir.FieldSet{Path: f.path.String(), Value: f.val.toAny()})
	}
}

// patch lowers a patch step; the patch is an object (sent as JSON) or a
// string holding JSON.
func (c *checker) patch(st *ir.Step, s *syntax.Patch, sc *scope) {
	st.Target = c.toRef(c.eval(s.Target, sc), keyExact, "patch")
	st.PatchType = ir.PatchMerge
	if s.Type != "" {
		st.PatchType = ir.PatchType(s.Type)
	}
	v := c.eval(s.Patch, sc)
	switch {
	case v.use(kObject):
	case v.kind == kObject || v.kind == kList:
		b, err := json.Marshal(v.toAny())
		if err != nil {
			c.errorf(v.rng, "patch", "patch: cannot encode as JSON: %v", err)
		}
		st.Patch = string(b)
	case v.kind == kString:
		if !json.Valid([]byte(v.s)) {
			c.errorf(v.rng, "patch", "patch: string is not valid JSON")
		}
		st.Patch = v.s
	default:
		c.errorf(v.rng, "type", "patch: want an object or a JSON string, got %s", v.describe())
	}
	if st.PatchType == ir.PatchJSON && st.Patch != "" && st.Patch[0] != '[' {
		c.errorf(v.rng, "patch", "patch: a json patch must be a list of operations")
	}
}

// wait lowers a wait step.
func (c *checker) wait(st *ir.Step, s *syntax.Wait, sc *scope) {
	st.Timeout = ir.Duration(ir.DefaultWithin)
	if s.Within != nil {
		st.Timeout = c.toDuration(c.eval(s.Within, sc), "within", true)
	}
	st.Continue = s.Else != nil
	if s.Until != nil {
		v := c.eval(s.Until, sc)
		st.Until = &ir.WaitCond{Kind: ir.WaitCEL, Expr: c.celInScope(v, sc, celenv.Invariant, "wait until")}
		return
	}
	st.Target = c.toRef(c.eval(s.Target, sc), keyGlob, "wait")
	if s.Cond == nil {
		return
	}
	switch {
	case s.Cond.State != "":
		st.Until = &ir.WaitCond{Kind: ir.WaitKind(s.Cond.State)}
	case s.Cond.Count != nil:
		n, _ := c.count(c.eval(s.Cond.Count, sc), "wait: ready count", 1, ir.CountReplicas)
		st.Until = &ir.WaitCond{Kind: ir.WaitReady, Count: int(n)}
	case s.Cond.Where != nil:
		st.Until = c.waitWhere(s.Cond.Where, sc)
	}
}

func (c *checker) waitWhere(cd *syntax.Cond, sc *scope) *ir.WaitCond {
	cond := c.cond(cd, sc, celenv.Wait)
	switch {
	case cond == nil:
		return nil
	case cond.Expr != "":
		return &ir.WaitCond{Kind: ir.WaitCEL, Expr: cond.Expr}
	}
	return &ir.WaitCond{Kind: ir.WaitField, Path: cond.Path, Value: cond.Value, Exists: cond.Exists}
}

// cond lowers a condition on one object.
func (c *checker) cond(cd *syntax.Cond, sc *scope, k celenv.Kind) *ir.Cond {
	if cd.CEL != nil {
		v := c.evalPrimary(cd.CEL, sc)
		return &ir.Cond{Expr: c.celInScope(v, sc, k, "where")}
	}
	path := c.path(cd.Path)
	if path == nil {
		return nil
	}
	out := &ir.Cond{Path: path.String()}
	if cd.Exists {
		out.Exists = true
		return out
	}
	out.Value = c.eval(cd.Equals, sc).toAny()
	return out
}

// settleParam is the duration of `settle PARAM`: a workload parameter that
// holds a duration.
func (c *checker) settleParam(id *syntax.Ident, sc *scope) ir.Duration {
	pv, ok := sc.params[id.Name]
	if !ok {
		d := c.errorf(id.Range(), "undefined", "settle: undefined parameter %q in workload %s (settle takes a duration or a parameter)", id.Name, sc.workload.name)
		hint(d, spell.Hint(id.Name, sc.paramNames()))
		return 0
	}
	v := sc.useParam(pv, id.Range())
	v.use(kDuration)
	return c.toDuration(v, "settle", true)
}
