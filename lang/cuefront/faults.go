package cuefront

import (
	"errors"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

func (l *lowerer) policy(v cue.Value) *ir.Policy {
	p := ir.NewPolicy(str(v, "name"), l.rng(v))
	for _, s := range strs(v, "patterns") {
		p.Patterns = append(p.Patterns, ir.Pattern(s))
	}
	if !has(v, "patterns") {
		l.errorf(v, "policy", "policy %s: no patterns (set patterns to some of \"intermediate\", \"stale\", \"unobserved\", \"apierror\", \"appfault\")", p.Name)
	}
	p.Include = l.filters(v, "include")
	p.Exclude = l.filters(v, "exclude")
	p.MaxPlans = l.count(v, "max_plans", 0, ir.CountMaxPlans)
	if pr, ok := field(v, "prune"); ok {
		p.Prune = prune(pr)
	}
	if has(v, "stale_for") {
		p.StaleFor = l.positive(v, "stale_for", 0)
	}
	if has(v, "stale_quiet") {
		p.StaleQuiet = l.positive(v, "stale_quiet", 0)
	}
	if has(v, "hold_for") {
		p.HoldFor = l.positive(v, "hold_for", 0)
	}
	for _, s := range strs(v, "api_errors") {
		p.APIErrors = append(p.APIErrors, ir.APIErrorKind(s))
	}
	p.APIReads = strs(v, "api_reads")
	if f, ok := field(v, "api_reads"); ok {
		if msg := ir.ReadsProblem(p); msg != "" {
			l.errorf(f, "policy", "policy %s: %s", p.Name, msg)
		}
	}
	for _, s := range strs(v, "app_faults") {
		p.AppFaults = append(p.AppFaults, ir.AppFaultKind(s))
	}
	return p
}

// prune is true, false, or a struct switching single passes.
func prune(pr cue.Value) ir.Prune {
	if b, err := pr.Bool(); err == nil {
		return ir.Prune{Causality: b, NoOp: b, Failed: b, Nondeterministic: b, Duplicates: b}
	}
	d := ir.DefaultPrune
	return ir.Prune{
		Causality:        boolean(pr, "causality", d.Causality),
		NoOp:             boolean(pr, "noop", d.NoOp),
		Failed:           boolean(pr, "failed", d.Failed),
		Nondeterministic: boolean(pr, "nondeterministic", d.Nondeterministic),
		Duplicates:       boolean(pr, "duplicates", d.Duplicates),
	}
}

// filters lowers a list of resource keys or {target, verbs} structs.
func (l *lowerer) filters(v cue.Value, name string) []ir.Filter {
	var out []ir.Filter
	for _, e := range elems(v, name) {
		var f ir.Filter
		target := e
		if _, err := e.String(); err != nil {
			target, _ = field(e, "target")
			f.Verbs = strs(e, "verbs")
		}
		if target.Exists() {
			r := l.key(target, true)
			f.Kind, f.Namespace, f.Name = r.Kind, r.Namespace, r.Name
		}
		out = append(out, f)
	}
	return out
}

// anyObject is a mask rule's default target.
var anyObject = ir.Ref{Kind: "*", Namespace: "*", Name: "*"}

func (l *lowerer) mask(v cue.Value) *ir.Mask {
	m := ir.NewMask(str(v, "name"), l.rng(v))
	for _, r := range elems(v, "rules") {
		m.Rules = append(m.Rules, l.maskRule(r))
	}
	if len(m.Rules) == 0 {
		l.ds = append(l.ds, &diag.Diagnostic{Severity: diag.Warning, Code: "empty",
			Summary: "mask " + m.Name + " is empty", Subject: ptr(l.rng(v))})
	}
	return m
}

func (l *lowerer) maskRule(v cue.Value) *ir.MaskRule {
	r := &ir.MaskRule{Src: l.rng(v), Target: anyObject, Oracle: ir.Oracle(str(v, "in"))}
	if t, ok := field(v, "target"); ok {
		r.Target = *l.key(t, true)
	}
	switch l.exactlyOne(v, "mask rule", "key", "path", "value", "whole") {
	case "key":
		r.Key = str(v, "key")
	case "path":
		p, _ := field(v, "path")
		r.Path = l.path(p, str(v, "path"))
	case "value":
		r.Value = str(v, "value")
	case "whole":
		r.Whole = true
	}
	return r
}

// window lowers an invariant's between, which only an invariant over the
// history can have.
func (l *lowerer) window(b cue.Value, i *ir.Invariant) *ir.Window {
	if i.When == ir.AtEnd {
		l.errorf(b, "between", "invariant %s: an end invariant has no between (it holds at the end state; use always, eventually or never)", i.Name)
		return nil
	}
	from, to := l.stepRef(b, "from"), l.stepRef(b, "to")
	if from.Workload == to.Workload && to.Step <= from.Step && to.Step > 0 {
		t, _ := field(b, "to")
		l.errorf(t, "between", "invariant %s: step %s comes before the end of %s (the window runs from the end of the first step to the start of the second)", i.Name, to, from)
	}
	return &ir.Window{From: from, To: to}
}

// stepRef lowers one end of a window: a workload and a step it has.
func (l *lowerer) stepRef(b cue.Value, name string) ir.StepRef {
	r, _ := field(b, name)
	w, _ := field(r, "of")
	ref := ir.StepRef{Workload: str(w, "name"), Step: l.integer(r, "step", 0)}
	if steps := len(elems(w, "steps")); ref.Step > steps {
		s, _ := field(r, "step")
		l.errorf(s, "between", "workload %s has no step %d (it has %d, numbered from 1)", ref.Workload, ref.Step, steps)
	}
	return ref
}

// planActions are the fields that make a plan step.
var planActions = []string{"crash", "restart", "stale_on", "stale_off", "hold", "release", "wait", "pause", "resume", "error", "app_fault"}

func (l *lowerer) plan(v cue.Value) *ir.Plan {
	p := &ir.Plan{Name: str(v, "name"), Src: l.rng(v), Actions: []*ir.Action{}}
	for _, s := range elems(v, "steps") {
		p.Actions = append(p.Actions, l.action(s))
	}
	if len(p.Actions) == 0 {
		l.errorf(v, "plan", "plan %s has no steps", p.Name)
	}
	steps := elems(v, "steps")
	for _, pr := range ir.PauseProblems(p.Actions) {
		l.errorf(steps[pr.Action], "plan", "%s", pr.Msg)
	}
	for _, pr := range ir.StaleProblems(p.Actions) {
		l.ds = append(l.ds, diag.Errorf(pr.Src, "plan", "%s", pr.Msg))
	}
	return p
}

func (l *lowerer) action(v cue.Value) *ir.Action {
	a := &ir.Action{Src: l.rng(v)}
	kind := l.exactlyOne(v, "plan step", planActions...)
	f, _ := field(v, kind)
	switch kind {
	case "crash":
		a.Kind = ir.ActCrash
	case "restart":
		a.Kind = ir.ActRestart
	case "stale_on", "stale_off", "hold", "release":
		a.Kind = map[string]ir.ActionKind{"stale_on": ir.ActStaleOn, "stale_off": ir.ActStaleOff,
			"hold": ir.ActHold, "release": ir.ActRelease}[kind]
		a.Scope = l.key(f, true)
	case "wait":
		a.Kind, a.Duration = ir.ActWait, l.positive(v, "wait", 0)
	case "pause":
		a.Kind = ir.ActPause
	case "resume":
		a.Kind = ir.ActResume
	case "error":
		a.Kind, a.Error = ir.ActError, ir.APIErrorKind(str(v, "error"))
	case "app_fault":
		a.Kind, a.AppFault = ir.ActAppFault, ir.AppFaultKind(str(v, "app_fault"))
	}
	if t, ok := field(v, "when"); ok {
		a.Trigger = l.trigger(t)
	}
	l.actionOptions(a, v, kind)
	for _, pr := range ir.AnswerProblems(a) {
		l.ds = append(l.ds, diag.Errorf(pr.Src, "plan", "%s", pr.Msg))
	}
	return a
}

// actionOptions lowers at (stale_on only: an event trigger), hold_for
// (hold only) and pause_for (pause only).
func (l *lowerer) actionOptions(a *ir.Action, v cue.Value, kind string) {
	if t, ok := field(v, "at"); ok {
		if kind != "stale_on" {
			l.errorf(t, "plan", "plan step: at goes with stale_on (the revision a view is frozen at)")
		} else if a.At = l.trigger(t); a.At.Op != ir.TrigEvent {
			l.errorf(t, "plan", "plan step: at takes an event trigger (on: create|update|delete)")
		}
	}
	if has(v, "hold_for") {
		if kind != "hold" {
			f, _ := field(v, "hold_for")
			l.errorf(f, "plan", "plan step: hold_for goes with hold")
		}
		a.Duration = l.positive(v, "hold_for", 0)
	}
	if has(v, "pause_for") {
		if kind != "pause" {
			f, _ := field(v, "pause_for")
			l.errorf(f, "plan", "plan step: pause_for goes with pause")
		}
		a.Duration = l.positive(v, "pause_for", 0)
	}
}

// triggerKinds are the fields that make a trigger node.
var triggerKinds = []string{"on", "write", "call", "read", "quiet", "after", "then", "all", "any"}

var combinators = map[string]ir.TriggerOp{"then": ir.TrigSeq, "all": ir.TrigAll, "any": ir.TrigAny}

func (l *lowerer) trigger(v cue.Value) *ir.Trigger {
	t := &ir.Trigger{Src: l.rng(v)}
	kind := l.exactlyOne(v, "trigger", triggerKinds...)
	switch kind {
	case "on", "write":
		l.only(v, kind+" trigger", kind, "target", "where", "count", "subresource", "failed", "sent", "seen", "changing", "without")
		t.Op, t.On = ir.TrigEvent, str(v, kind)
		if kind == "write" {
			t.Op = ir.TrigWrite
		}
		l.leaf(t, v)
		l.leafOpts(t, v)
	case "call":
		l.callLeaf(t, v)
	case "read":
		l.only(v, "read trigger", "read", "target", "count")
		t.Op, t.On = ir.TrigRead, str(v, "read")
		l.leaf(t, v)
	case "quiet":
		l.only(v, "quiet trigger", "quiet", "target")
		t.Op, t.Duration = ir.TrigQuiet, l.positive(v, "quiet", 0)
		if target, ok := field(v, "target"); ok {
			t.Target = l.key(target, true)
		} else {
			l.errorf(v, "missing", "quiet trigger: target (a resource key) is required")
		}
	case "after":
		l.only(v, "after trigger", "after")
		t.Op, t.Duration = ir.TrigTimeout, l.positive(v, "after", 0)
	case "then", "all", "any":
		l.only(v, kind+" trigger", kind)
		t.Op = combinators[kind]
		for _, e := range elems(v, kind) {
			t.Args = append(t.Args, l.trigger(e))
		}
	}
	return t
}

func (l *lowerer) leaf(t *ir.Trigger, v cue.Value) {
	target, ok := field(v, "target")
	if !ok {
		l.errorf(v, "missing", "trigger: target (a resource key) is required")
	} else {
		t.Target = l.key(target, true)
	}
	t.Count = l.integer(v, "count", 1)
	if w, ok := field(v, "where"); ok {
		t.Where = l.cond(w, celenv.Where)
	}
}

// cond lowers a condition: a CEL string, {path, equals} or {path, exists}.
func (l *lowerer) cond(v cue.Value, kind celenv.Kind) *ir.Cond {
	if expr, err := v.String(); err == nil {
		l.cel(v, kind, expr)
		return &ir.Cond{Expr: expr}
	}
	p, _ := field(v, "path")
	c := &ir.Cond{Path: l.path(p, str(v, "path"))}
	switch l.exactlyOne(v, "condition", "equals", "exists") {
	case "equals":
		e, _ := field(v, "equals")
		c.Value = l.value(e)
	case "exists":
		c.Exists = true
	}
	return c
}

// cel compiles expr at check time, as the .sieve checker does, reporting
// each CEL error.
func (l *lowerer) cel(at cue.Value, kind celenv.Kind, expr string) {
	l.celParams(at, kind, expr, nil)
}

// celParams is cel for an expression that sees params as constants.
func (l *lowerer) celParams(at cue.Value, kind celenv.Kind, expr string, params map[string]any) {
	if strings.TrimSpace(expr) == "" {
		l.errorf(at, "cel", "%s: empty CEL expression", kind)
		return
	}
	env, err := l.celEnv()
	if err == nil {
		_, err = env.CompileParams(kind, expr, params)
	}
	var es celenv.Errors
	switch {
	case err == nil:
	case errors.As(err, &es):
		for _, e := range es {
			l.celError(at, kind, expr, e)
		}
	default:
		l.errorf(at, "cel", "%s: %v", kind, err)
	}
}

// celError reports a CEL error inside the string literal that holds the
// expression when the literal's text is the expression itself (a one-line
// string without escapes); otherwise at the value, with CEL's line:col.
func (l *lowerer) celError(at cue.Value, kind celenv.Kind, expr string, e *celenv.Error) {
	lit, ok := l.literal(at)
	if !ok || e.Line != 1 || strings.Contains(expr, "\n") || lit.Value != `"`+expr+`"` {
		l.errorf(at, "cel", "%s: %d:%d: %s", kind, e.Line, e.Column, e.Msg)
		return
	}
	r := l.src.rangeAt(lit.Pos(), lit.Pos())
	prefix := string([]rune(expr)[:min(e.Column-1, utf8.RuneCountInString(expr))])
	r.Start.Column += 1 + utf8.RuneCountInString(prefix)
	r.Start.Offset += 1 + len(prefix)
	r.End = r.Start
	r.End.Column++
	r.End.Offset++
	l.ds = append(l.ds, diag.Errorf(r, "cel", "%s: %s", kind, e.Msg))
}

// literal returns the string literal v was written as, if it was one.
func (l *lowerer) literal(v cue.Value) (*ast.BasicLit, bool) {
	u := l.orig.LookupPath(v.Path())
	if !u.Exists() {
		u = v
	}
	src := u.Source()
	if f, ok := src.(*ast.Field); ok {
		src = f.Value
	}
	lit, ok := src.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || !lit.Pos().IsValid() || l.src.isInternal(lit.Pos()) {
		return nil, false
	}
	return lit, true
}

// celEnv builds the CEL environment once per load.
func (l *lowerer) celEnv() (*celenv.Env, error) {
	if l.env == nil && l.envErr == nil {
		l.env, l.envErr = celenv.New()
	}
	return l.env, l.envErr
}

func ptr[T any](v T) *T { return &v }

// leafOpts lowers the options that narrow an event or write leaf to one
// change; failed goes with a write, seen with an event.
func (l *lowerer) leafOpts(t *ir.Trigger, v cue.Value) {
	t.Subresource = str(v, "subresource")
	if f, ok := field(v, "failed"); ok {
		if t.Op != ir.TrigWrite {
			l.errorf(f, "plan", "trigger: failed goes with a write (a refused write)")
		}
		t.Failed = true
	}
	if f, ok := field(v, "sent"); ok {
		if t.Op != ir.TrigWrite || t.Failed {
			l.errorf(f, "plan", "trigger: sent goes with a write, not failed (a write as it is sent)")
		}
		t.Sent = true
	}
	if f, ok := field(v, "seen"); ok {
		if t.Op != ir.TrigEvent {
			l.errorf(f, "plan", "trigger: seen goes with an event (on ...): a write is the controller's own")
		}
		t.Seen = str(v, "seen")
	}
	if c, ok := field(v, "changing"); ok {
		prev, _ := field(c, "prev")
		cur, _ := field(c, "cur")
		t.Changing = &ir.Change{Prev: l.fragment(prev), Cur: l.fragment(cur)}
	}
	if w, ok := field(v, "without"); ok {
		t.Without = l.fragment(w)
	}
}

// callLeaf lowers a call trigger: its channel (exec, http or any), an
// exec's command or an HTTP request's method, path and stand-in, the pod
// (target), changed and the occurrence.
func (l *lowerer) callLeaf(t *ir.Trigger, v cue.Value) {
	t.Op, t.On = ir.TrigCall, str(v, "call")
	if t.On == "any" {
		t.On = ""
	}
	fields := []string{"call", "target", "count", "changed", "method", "path", "standin"}
	if t.On == ir.CallExec {
		fields = []string{"call", "target", "count", "changed", "command"}
	}
	l.only(v, "call trigger", fields...)
	if target, ok := field(v, "target"); ok {
		t.Target = l.key(target, true)
	}
	t.Count = l.integer(v, "count", 1)
	t.Command = strs(v, "command")
	t.Method, t.Path, t.Standin = str(v, "method"), str(v, "path"), str(v, "standin")
	_, t.Changed = field(v, "changed")
	if t.Method != "" || t.Path != "" || t.Standin != "" {
		t.On = ir.CallHTTP // as .sieve's on call METHOD "PATH" to "STANDIN"
	}
}

// fragment lowers an object of a leaf option to nested maps.
func (l *lowerer) fragment(v cue.Value) map[string]any {
	if m, ok := l.value(v).(map[string]any); ok {
		return m
	}
	return map[string]any{}
}
