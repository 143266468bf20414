package cuefront

import (
	"encoding/json"
	"strings"
	"time"

	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// stepKinds are the fields that make a step, each with the options it
// takes besides itself.
var stepKinds = map[string][]string{
	"apply":    {"set"},
	"manifest": {"set"},
	"patch":    {"merge", "json", "strategic"},
	"delete":   nil,
	"scale":    {"to"},
	"wait":     {"exists", "gone", "ready", "where", "within", "else"},
	"until":    {"within", "else"},
	"settle":   nil,
	"sleep":    nil,
	"explore":  {"max", "only", "skip", "seed", "states"},
}

var stepOrder = []string{"apply", "manifest", "patch", "delete", "scale", "wait", "until", "settle", "sleep", "explore"}

func (l *lowerer) workload(v cue.Value) *ir.Workload {
	w := &ir.Workload{Name: str(v, "name"), Src: l.rng(v), Steps: []*ir.Step{}}
	if p, ok := field(v, "params"); ok {
		for _, f := range fields(p) {
			w.Args = append(w.Args, ir.Arg{Name: f.name, Value: argValue(l.value(f.v))})
		}
	}
	for _, s := range elems(v, "steps") {
		if st := l.step(s); st != nil {
			w.Steps = append(w.Steps, st)
		}
	}
	return w
}

func (l *lowerer) step(v cue.Value) *ir.Step {
	kind := l.exactlyOne(v, "step", stepOrder...)
	if kind == "" {
		return nil
	}
	l.only(v, kind+" step", append([]string{kind}, stepKinds[kind]...)...)
	s := &ir.Step{Src: l.rng(v)}
	f, _ := field(v, kind)
	switch kind {
	case "apply", "manifest":
		l.apply(s, v, kind, f)
	case "patch":
		l.patch(s, v, f)
	case "delete":
		s.Kind, s.Target = ir.StepDelete, l.key(f, true)
	case "scale":
		s.Kind, s.Target, s.Replicas = ir.StepScale, l.key(f, false), l.count(v, "to", 0, ir.CountReplicas)
		if !has(v, "to") {
			l.errorf(v, "missing", "scale step: to (the replica count) is required")
		}
	case "wait", "until":
		l.wait(s, v, kind, f)
	case "settle":
		s.Kind, s.Timeout = ir.StepSettle, ir.Duration(ir.DefaultStepSettle)
		if _, err := f.String(); err == nil {
			s.Timeout = l.positive(v, "settle", ir.DefaultStepSettle)
		}
	case "sleep":
		s.Kind, s.Timeout = ir.StepSleep, l.positive(v, "sleep", 0)
	case "explore":
		l.explore(s, v, f)
	}
	return s
}

// explore lowers an explore step to a placeholder (explore.StepKind) and
// checks its seed file and bounds, as the .sieve checker does; the test
// that uses the workload expands it (explore.Expand).
func (l *lowerer) explore(s *ir.Step, v, f cue.Value) {
	s.Kind = explore.StepKind
	n := len(l.ds)
	use := &explore.Use{Src: s.Src, SeedSrc: l.rng(f), Seed: l.file(f, "explore", false, false)}
	use.Bad = len(l.ds) > n // the seed file is missing or no manifest
	if m, ok := field(v, "max"); ok {
		use.Options.Max = l.integer(v, "max", 0)
		if msg := ir.CheckCount(ir.CountOperations, "explore: max", int64(use.Options.Max)); msg != "" {
			l.errorf(m, "range", "%s", msg)
			use.Bad = true
		}
	}
	use.Options.Seed = uint64(l.integer(v, "seed", 0))
	if f, ok := field(v, "states"); ok {
		var good bool
		if use.States, good = l.exploreStates(v, f); !good {
			use.Bad = true
		}
	}
	for _, word := range []string{"only", "skip"} {
		for _, e := range elems(v, word) {
			p, _ := e.String()
			if err := use.Options.AddPattern(word, p); err != nil {
				l.errorf(e, "explore", "explore: %v", err)
				use.Bad = true
			}
		}
	}
	if l.explores == nil {
		l.explores = map[*ir.Step]*explore.Use{}
	}
	l.explores[s] = use
}

// exploreStates reads an explore step's states field f: "all", "none"
// or a number of states (the schema holds it to these; a number past the
// bound is reported here, as the .sieve checker does).
func (l *lowerer) exploreStates(v, f cue.Value) (ir.States, bool) {
	if w, err := f.String(); err == nil {
		if s, ok := ir.StatesWord(w); ok {
			return s, true
		}
	} else if f.Kind() == cue.IntKind {
		n := l.integer(v, "states", 0)
		if msg := ir.CheckCount(ir.CountOperations, "explore: states", int64(n)); msg != "" {
			l.errorf(f, "range", "%s", msg)
			return ir.States{}, false
		}
		return ir.States{Rule: ir.StatesEvery, Max: n}, n >= 1
	}
	l.errorf(f, "type", "explore: states: want %s, got %v", ir.StatesWant, f)
	return ir.States{}, false
}

func (l *lowerer) apply(s *ir.Step, v cue.Value, kind string, f cue.Value) {
	s.Kind = ir.StepApply
	if kind == "apply" {
		s.File = l.file(f, "apply", false, false)
	} else {
		s.Manifest, _ = f.String()
	}
	if set, ok := field(v, "set"); ok {
		for _, e := range fields(set) {
			s.Set = append(s.Set, ir.FieldSet{Path: l.path(e.v, e.name), Value: l.value(e.v)})
		}
	}
}

func (l *lowerer) patch(s *ir.Step, v cue.Value, f cue.Value) {
	s.Kind, s.Target = ir.StepPatch, l.key(f, false)
	typ := l.exactlyOne(v, "patch step", "merge", "json", "strategic")
	if typ == "" {
		return
	}
	s.PatchType = ir.PatchType(typ)
	body, _ := field(v, typ)
	if str, err := body.String(); err == nil {
		if !json.Valid([]byte(str)) {
			l.errorf(body, "patch", "patch: string is not valid JSON")
		}
		s.Patch = str
		if s.PatchType == ir.PatchJSON && str != "" && str[0] != '[' {
			l.errorf(body, "patch", "patch: a json patch must be a list of operations")
		}
		return
	}
	b, err := json.Marshal(l.value(body))
	if err != nil {
		l.errorf(body, "patch", "patch: cannot encode as JSON: %v", err)
	}
	s.Patch = string(b)
	if s.PatchType == ir.PatchJSON && s.Patch != "" && s.Patch[0] != '[' {
		l.errorf(body, "patch", "patch: a json patch must be a list of operations")
	}
}

func (l *lowerer) wait(s *ir.Step, v cue.Value, kind string, f cue.Value) {
	s.Kind, s.Timeout = ir.StepWait, l.positive(v, "within", ir.DefaultWithin)
	s.Continue = has(v, "else")
	if kind == "until" {
		expr, _ := f.String()
		l.cel(f, celenv.Invariant, expr)
		s.Until = &ir.WaitCond{Kind: ir.WaitCEL, Expr: expr}
		return
	}
	s.Target = l.key(f, true)
	switch l.exactlyOne(v, "wait step", "exists", "gone", "ready", "where") {
	case "exists":
		s.Until = &ir.WaitCond{Kind: ir.WaitExists}
	case "gone":
		s.Until = &ir.WaitCond{Kind: ir.WaitGone}
	case "ready":
		s.Until = &ir.WaitCond{Kind: ir.WaitReady, Count: l.count(v, "ready", 0, ir.CountReplicas)}
	case "where":
		w, _ := field(v, "where")
		s.Until = l.waitWhere(w)
	}
}

// waitWhere: a CEL string over object, path == value, or path exists.
func (l *lowerer) waitWhere(w cue.Value) *ir.WaitCond {
	if expr, err := w.String(); err == nil {
		l.cel(w, celenv.Wait, expr)
		return &ir.WaitCond{Kind: ir.WaitCEL, Expr: expr}
	}
	c := l.cond(w, celenv.Wait)
	return &ir.WaitCond{Kind: ir.WaitField, Path: c.Path, Value: c.Value, Exists: c.Exists}
}

// argValue writes a string that is a Go duration the way the .sieve
// checker writes duration arguments ("60s" becomes "1m0s"), since CUE has
// no duration type.
func argValue(v ir.Value) ir.Value {
	s, ok := v.(string)
	if !ok || !strings.ContainsAny(s, "hmsuµn") {
		return v
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d.String()
	}
	return v
}
