package oracle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sievetool/sieve/interp/trace"
	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
)

// invariant is a compiled invariant; refBroken says whether the first
// reference run broke it too.
type invariant struct {
	ir        *ir.Invariant
	prog      *celenv.Program
	refBroken bool
}

// compileInvariants compiles the invariants once and checks them on the
// reference run.
func (o *Oracle) compileInvariants() error {
	if len(o.opts.Invariants) == 0 {
		return nil
	}
	env := o.opts.Env
	if env == nil {
		var err error
		if env, err = celenv.New(); err != nil {
			return fmt.Errorf("oracle: %w", err)
		}
	}
	for _, inv := range o.opts.Invariants {
		p, err := env.Compile(celenv.Invariant, inv.Expr)
		if err != nil {
			return fmt.Errorf("oracle: %s: invariant %q: %w", inv.Src, inv.Name, err)
		}
		o.invariants = append(o.invariants, &invariant{ir: inv, prog: p})
	}
	for _, b := range o.evalInvariants(o.ref.trace) {
		if b.err == nil {
			b.inv.refBroken = true
		}
	}
	return nil
}

// breach is the first state of a run that broke (or could not evaluate)
// one invariant, and how many states broke it.
type breach struct {
	inv    *invariant
	seq    int64
	states int
	err    error
}

// evalInvariants replays the history of t and evaluates each "always"
// invariant after every history entry and each "end" invariant on the end
// state. It returns the breaches in invariant order.
func (o *Oracle) evalInvariants(t *trace.Trace) []*breach {
	if len(o.invariants) == 0 {
		return nil
	}
	w := newWorld()
	found := map[*invariant]*breach{}
	verdicts := map[*invariant]*verdict{}
	var last int64
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Type != trace.History || e.Key == nil {
			continue
		}
		obj, err := decodeObject(e)
		if err != nil {
			continue // compareEnd reports the malformed trace
		}
		w.apply(*e.Key, e.Event, obj)
		last = e.Seq
		o.evalAt(w, e.Seq, ir.Always, e.Key.Kind, found, verdicts)
	}
	if last == 0 {
		o.evalAt(w, 0, ir.Always, "", found, verdicts)
	}
	o.evalAt(w, last, ir.AtEnd, "", found, verdicts)
	var out []*breach
	for _, inv := range o.invariants {
		if b := found[inv]; b != nil {
			out = append(out, b)
		}
	}
	return out
}

// evalAt evaluates the invariants checked at when on the current state.
// changed is the kind of the object that just changed ("" for none); an
// invariant that read no kind matching it keeps its last verdict.
func (o *Oracle) evalAt(w *world, seq int64, when ir.When, changed string, found map[*invariant]*breach, last map[*invariant]*verdict) {
	for _, inv := range o.invariants {
		if inv.ir.When != when && !(when == ir.Always && inv.ir.When == "") {
			continue
		}
		if b := found[inv]; b != nil && b.err != nil {
			continue
		}
		v := last[inv]
		if v == nil || v.affected(changed) {
			v = evalOne(o, inv, w)
			last[inv] = v
		}
		if v.ok && v.err == nil {
			continue
		}
		if b := found[inv]; b != nil {
			b.states++
			continue
		}
		found[inv] = &breach{inv: inv, seq: seq, states: 1, err: v.err}
	}
}

// verdict is an invariant's last result and the kinds it read.
type verdict struct {
	ok    bool
	err   error
	reads map[string]bool
}

// affected reports whether a change to an object of kind can change the
// verdict.
func (v *verdict) affected(kind string) bool {
	if kind == "" {
		return false
	}
	for r := range v.reads {
		if trace.KindMatches(r, kind) {
			return true
		}
	}
	return false
}

func evalOne(o *Oracle, inv *invariant, w *world) *verdict {
	w.reads = map[string]bool{}
	ok, err := inv.prog.Eval(o.opts.Context, w, nil)
	v := &verdict{ok: ok, err: err, reads: w.reads}
	w.reads = nil
	return v
}

// BrokenInvariants returns the invariants a reference run t breaks or
// cannot evaluate, one finding each with the invariant's spec position
// (Src) and the trace entry of the first state that broke it (Seq), in
// the order of the test's invariants. Without a fault, an invariant the
// reference run breaks is a mistake in the spec or the controller, not a
// finding of any plan.
func (o *Oracle) BrokenInvariants(t *trace.Trace) []*Finding {
	fs, _ := o.checkInvariants(t, true)
	return fs
}

// checkInvariants turns the breaches of a run into findings; reference
// says t is the reference run itself.
func (o *Oracle) checkInvariants(t *trace.Trace, reference bool) ([]*Finding, error) {
	var fs []*Finding
	for _, b := range o.evalInvariants(t) {
		f := &Finding{Check: CheckInvariant, Invariant: b.inv.ir.Name, Src: b.inv.ir.Src.String(), Seq: b.seq}
		switch {
		case b.err != nil:
			f.Severity = Low
			f.Message = fmt.Sprintf("invariant %q could not be evaluated at trace entry %d: %v", b.inv.ir.Name, b.seq, b.err)
		default:
			f.Message = fmt.Sprintf("invariant %q is false at trace entry %d (%d %s)",
				b.inv.ir.Name, b.seq, b.states, plural(b.states, "state", "states"))
		}
		if b.inv.refBroken && b.err == nil && !reference {
			f.Severity = Medium
			f.Message += "; the reference run breaks it too"
		}
		fs = append(fs, f)
	}
	return fs, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// world is the cluster state during a replay, as celenv.World. It caches
// sorted query results until an object of a matching kind changes, and
// records which kinds an evaluation read.
type world struct {
	byKind map[string]map[trace.Key]map[string]any
	cache  map[query][]map[string]any
	reads  map[string]bool
}

// query is one objects() call.
type query struct{ kind, namespace string }

func newWorld() *world {
	return &world{byKind: map[string]map[trace.Key]map[string]any{}, cache: map[query][]map[string]any{}}
}

// apply records one history event.
func (w *world) apply(k trace.Key, event string, obj map[string]any) {
	m := w.byKind[k.Kind]
	if m == nil {
		m = map[trace.Key]map[string]any{}
		w.byKind[k.Kind] = m
	}
	if event == "DELETED" {
		delete(m, k)
	} else {
		m[k] = obj
	}
	for q := range w.cache {
		if trace.KindMatches(q.kind, k.Kind) {
			delete(w.cache, q)
		}
	}
}

// Objects returns the objects of kind (a spec kind: "datastore" matches
// "datastore.example.com") in namespace ("" for all), sorted by key.
func (w *world) Objects(kind, namespace string) []map[string]any {
	w.read(kind)
	q := query{kind, namespace}
	if l, ok := w.cache[q]; ok {
		return l
	}
	var keys []trace.Key
	for stored, m := range w.byKind {
		if !trace.KindMatches(kind, stored) {
			continue
		}
		for k := range m {
			if namespace == "" || k.Namespace == namespace {
				keys = append(keys, k)
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	out := make([]map[string]any, len(keys))
	for i, k := range keys {
		out[i] = w.byKind[k.Kind][k]
	}
	w.cache[q] = out
	return out
}

// Object returns one object or nil.
func (w *world) Object(kind, namespace, name string) map[string]any {
	w.read(kind)
	for stored, m := range w.byKind {
		if trace.KindMatches(kind, stored) {
			if o := m[trace.Key{Kind: stored, Namespace: namespace, Name: name}]; o != nil {
				return o
			}
		}
	}
	return nil
}

func (w *world) read(kind string) {
	if w.reads != nil {
		w.reads[strings.ToLower(kind)] = true
	}
}
