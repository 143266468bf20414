package lint

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
)

// docSeparator is the line between two YAML documents.
var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

// fieldLinter reports fields that a spec's expressions and field paths
// select and their kind's schema does not have. Each step, invariant and
// plan is checked once, as the first test that uses it sees it.
type fieldLinter struct {
	env     *celenv.Env
	schemas *schemas
	seen    map[any]bool
	sources map[string][]byte // spec files by name, for exprAt
	ds      diag.Diagnostics
}

// lintFields reports, as errors, fields that the spec selects and their
// kind does not have, where the kind's schema is known (a built-in kind,
// or a custom resource whose CRD's openAPIV3Schema closes its fields):
// in CEL wait conditions, `wait ... field` paths, invariants (on
// objects("kind", ...) and object("kind", ...) with a literal kind) and
// the where conditions of plans' triggers, nested fields and list
// elements included. Open values (maps, preserved unknown fields) and
// has() tests are never reported. It also reports an apply's set that
// fits no document of its manifest, or that fits one whose kind has no
// such field (sets).
func lintFields(spec *ir.Spec, baseDir string, sources map[string][]byte) diag.Diagnostics {
	env, err := celenv.New()
	if err != nil {
		return nil
	}
	l := &fieldLinter{env: env, schemas: newSchemas(baseDir), seen: map[any]bool{}, sources: maps.Clone(sources)}
	if l.sources == nil {
		l.sources = map[string][]byte{}
	}
	for _, t := range spec.Tests {
		kinds := l.schemas.forTest(t)
		for _, w := range t.Workloads {
			for _, s := range w.Steps {
				l.step(s, kinds)
				l.sets(s, kinds)
			}
		}
		for _, inv := range t.Invariants {
			l.invariant(inv, kinds)
		}
		for _, p := range t.Plans {
			for _, a := range p.Actions {
				l.trigger(p, a.Trigger, kinds)
				l.trigger(p, a.At, kinds)
			}
		}
	}
	return l.ds
}

// once reports whether x is met for the first time.
func (l *fieldLinter) once(x any) bool {
	if l.seen[x] {
		return false
	}
	l.seen[x] = true
	return true
}

func (l *fieldLinter) step(s *ir.Step, kinds func(string) *celenv.Shape) {
	if s.Kind != ir.StepWait || s.Until == nil || !l.once(s) {
		return
	}
	const fallback = "the API server never sets it, so the wait would time out"
	switch {
	case s.Until.Kind == ir.WaitCEL && s.Target == nil:
		at := site{r: s.Src, what: "wait until", where: "condition", fallback: fallback}
		l.cel(at, celenv.Invariant, s.Until.Expr, celenv.Roots{Kind: kinds})
	case s.Until.Kind == ir.WaitCEL:
		at := site{r: s.Src, what: "wait", where: "condition", fallback: fallback, kind: ir.CanonicalKind(s.Target.Kind)}
		l.cel(at, celenv.Wait, s.Until.Expr, celenv.Roots{Object: kinds(s.Target.Kind), Kind: kinds})
	case s.Until.Kind == ir.WaitField && s.Target != nil:
		l.path(s.Src, "wait", ir.CanonicalKind(s.Target.Kind), kinds(s.Target.Kind), s.Until.Path, fallback)
	}
}

// invariant checks the fields an invariant selects, and warns when it
// looks at a kind the recorded history leaves out (ir.Unrecorded: events),
// of which it sees none.
func (l *fieldLinter) invariant(inv *ir.Invariant, kinds func(string) *celenv.Shape) {
	if !l.once(inv) {
		return
	}
	unrecorded := ""
	seen := func(kind string) *celenv.Shape {
		if unrecorded == "" && ir.Unrecorded(kind) {
			unrecorded = kind
		}
		return kinds(kind)
	}
	at := site{r: inv.Src, what: "invariant " + inv.Name, where: "expression",
		fallback: "no object of the kind has it, so the invariant cannot see it"}
	l.cel(at, celenv.Invariant, inv.Expr, celenv.Roots{Kind: seen})
	if unrecorded != "" {
		d := diag.Errorf(inv.Src, "unrecorded", "invariant %s: objects of kind %q are not recorded in a run's history, so the invariant sees none", inv.Name, unrecorded)
		d.Severity, d.Detail = diag.Warning, "events are left out of the history the oracle and invariants see"
		l.ds = append(l.ds, d)
	}
}

// trigger checks the where conditions of tr and the triggers it combines.
func (l *fieldLinter) trigger(p *ir.Plan, tr *ir.Trigger, kinds func(string) *celenv.Shape) {
	if tr == nil || !l.once(tr) {
		return
	}
	for _, a := range tr.Args {
		l.trigger(p, a, kinds)
	}
	if tr.Where == nil || tr.Target == nil {
		return
	}
	what := "plan " + p.Name
	const fallback = "no object of the kind has it, so the trigger would never fire"
	kind := ir.CanonicalKind(tr.Target.Kind)
	if tr.Where.Expr != "" {
		at := site{r: tr.Src, what: what, where: "where condition", fallback: fallback, kind: kind}
		l.cel(at, celenv.Where, tr.Where.Expr, celenv.Roots{Object: kinds(kind)})
		return
	}
	l.path(tr.Src, what, kind, kinds(kind), tr.Where.Path, fallback)
}

// site is where an expression is, for messages: the construct's range,
// what it is ("invariant few"), what the expression is called there
// ("condition"), the hint when no name is close, and the kind of the
// variable object, when the expression has one.
type site struct {
	r                           diag.Range
	what, where, fallback, kind string
}

// cel reports the fields that expr (a CEL expression of kind k) selects
// and roots say are not there.
func (l *fieldLinter) cel(s site, k celenv.Kind, expr string, roots celenv.Roots) {
	for _, m := range l.env.UnknownFields(k, expr, roots) {
		kind := s.kind
		if m.Kind != "" {
			kind = ir.CanonicalKind(m.Kind)
		}
		at := fmt.Sprintf("%s at %d:%d of the %s", m.Text, m.Line, m.Column, s.where)
		l.ds = append(l.ds, missing(l.exprAt(s.r, expr, m.Line, m.Column), s.what, kind, celPath(m.Path), at, m.Known, s.fallback))
	}
}

// exprAt narrows r, the range of the construct that holds expr, to the
// field at line:col of expr when expr's text occurs once within r in the
// source (a string without escapes or substitutions); else it returns r.
func (l *fieldLinter) exprAt(r diag.Range, expr string, line, col int) diag.Range {
	name := r.Start.Filename
	src, ok := l.sources[name]
	if !ok {
		src, _ = input.ReadFile(name, input.SpecLimit)
		l.sources[name] = src
	}
	if r.End.Offset > len(src) || r.Start.Offset >= r.End.Offset {
		return r
	}
	within := string(src[r.Start.Offset:r.End.Offset])
	i := strings.Index(within, expr)
	if i < 0 || strings.Count(within, expr) != 1 {
		return r
	}
	lines := strings.Split(expr, "\n")
	if line < 1 || line > len(lines) || col < 1 || col > utf8.RuneCountInString(lines[line-1])+1 {
		return r
	}
	before := within[:i] + strings.Join(lines[:line-1], "\n")
	if line > 1 {
		before += "\n"
	}
	before += string([]rune(lines[line-1])[:col-1])
	p := r.Start
	p.Offset += len(before)
	if nl := strings.LastIndexByte(before, '\n'); nl >= 0 {
		p.Line += strings.Count(before, "\n")
		p.Column = utf8.RuneCountInString(before[nl+1:]) + 1
	} else {
		p.Column += utf8.RuneCountInString(before)
	}
	end := p
	end.Offset++
	end.Column++
	return diag.Range{Start: p, End: end}
}

// path reports the first element of the dotted field path p that the
// shape of kind says cannot be there.
func (l *fieldLinter) path(r diag.Range, what, kind string, root *celenv.Shape, p, fallback string) {
	path, err := ir.ParsePath(p)
	if err != nil {
		return // the checker reports it
	}
	i, sh := pathMiss(root, path)
	if i < 0 {
		return
	}
	col := 1
	if i > 0 {
		col = utf8.RuneCountInString(path[:i].String()) + 2
	}
	l.ds = append(l.ds, missing(l.exprAt(r, p, 1, col), what, kind, path[:i+1], "field "+p, known(sh), fallback))
}

// celPath is the path of a field that celenv.UnknownFields found: names,
// with "*" for a list element.
func celPath(elems []string) ir.Path {
	path := make(ir.Path, len(elems))
	for i, e := range elems {
		path[i] = ir.FieldElem(e)
		if e == "*" {
			path[i] = ir.AnyElem()
		}
	}
	return path
}

// known returns the sorted field names of s.
func known(s *celenv.Shape) []string {
	out := make([]string, 0, len(s.Fields))
	for f := range s.Fields {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// maxListed is how many of a value's fields a message lists; a longer
// list (a pod's spec has over 40) is left to the hint.
const maxListed = 12

// missing is the error for a field at path (its last element is missing)
// in an object of kind.
func missing(r diag.Range, what, kind string, path ir.Path, at string, known []string, fallback string) *diag.Diagnostic {
	name := path[len(path)-1].Key()
	fields := ""
	switch {
	case len(known) > maxListed:
	case len(path) == 1:
		fields = "; fields: " + strings.Join(known, ", ")
	default:
		fields = fmt.Sprintf("; fields of %s: %s", path[:len(path)-1], strings.Join(known, ", "))
	}
	d := diag.Errorf(r, "field", "%s: %s has no field %q (%s%s)", what, kind, path, at, fields)
	d.Detail = spell.Hint(name, known)
	if d.Detail == "" {
		d.Detail = fallback
	}
	return d
}
