package oracle

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
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
		p, err := env.CompileParams(celenv.Invariant, inv.Expr, inv.ArgMap())
		if err != nil {
			return fmt.Errorf("oracle: %s: invariant %q: %w", inv.Src, inv.Label(), err)
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
// one invariant, and how many states broke it; an eventually invariant
// that no state made true breaks at the run's last entry (states 0).
type breach struct {
	inv    *invariant
	seq    int64
	states int
	err    error
}

// replayState is what evalInvariants keeps per invariant over the history.
type replayState struct {
	// open says the invariant's window is open (always, without one);
	// opened that it opened at some point.
	open, opened bool
	// seen says an eventually invariant was true in some state.
	seen bool
}

// replayer evaluates the invariants over one run's states.
type replayer struct {
	o        *Oracle
	w        *world
	found    map[*invariant]*breach
	verdicts map[*invariant]*verdict
	states   map[*invariant]*replayState
	spent    map[*invariant]time.Duration // evaluating, over the run
}

// evalInvariants replays the history of t. It evaluates each invariant
// over the history (always, never, eventually) after every history entry
// inside its window, and each "end" invariant on the end state. A window
// lies between two workload steps, each placed after the history entries
// of what it saw (trace.Aligned); without one it is the whole run. It
// returns the breaches in invariant order.
func (o *Oracle) evalInvariants(t *trace.Trace) []*breach {
	if len(o.invariants) == 0 {
		return nil
	}
	r := &replayer{o: o, w: newWorld(), found: map[*invariant]*breach{}, verdicts: map[*invariant]*verdict{},
		states: map[*invariant]*replayState{}, spent: map[*invariant]time.Duration{}}
	for _, inv := range o.invariants {
		open := inv.ir.Between == nil
		r.states[inv] = &replayState{open: open, opened: open}
	}
	var last int64
	entries := trace.Aligned(t.Entries)
	for i := range entries {
		e := &entries[i]
		switch {
		case e.Type == trace.Step:
			r.window(e)
		case e.Type == trace.History && e.Key != nil:
			obj, err := decodeObject(e)
			if err != nil {
				continue // compareEnd reports the malformed trace
			}
			r.w.apply(*e.Key, e.Event, obj)
			last = e.Seq
			r.evalHistory(e.Seq, e.Key.Kind, false)
		}
	}
	if last == 0 {
		r.evalHistory(0, "", true)
	}
	r.evalEnd(last)
	var out []*breach
	for _, inv := range o.invariants {
		if b := r.found[inv]; b != nil {
			out = append(out, b)
		}
	}
	return out
}

// window opens an invariant's window at the end of its first step and
// closes it at the start of its second, evaluating the state current
// when it opens.
func (r *replayer) window(e *trace.Entry) {
	for _, inv := range r.o.invariants {
		b, st := inv.ir.Between, r.states[inv]
		switch {
		case b == nil:
		case !st.opened && e.Phase == "end" && stepIs(e, b.From):
			st.open, st.opened = true, true
			r.evalOne(inv, e.Seq, "", true)
		case st.open && e.Phase == "start" && stepIs(e, b.To):
			st.open = false
		}
	}
}

// stepIs reports whether a step entry is the step ref names.
func stepIs(e *trace.Entry, ref ir.StepRef) bool {
	return e.Workload == ref.Workload && e.Index == ref.Step-1
}

// evalHistory evaluates the invariants over the history whose window is
// open on the current state. changed is the kind of the object that just
// changed; force evaluates even those that read no such kind.
func (r *replayer) evalHistory(seq int64, changed string, force bool) {
	for _, inv := range r.o.invariants {
		if inv.ir.When != ir.AtEnd && r.states[inv].open {
			r.evalOne(inv, seq, changed, force)
		}
	}
}

// evalEnd evaluates the end invariants on the end state, and breaks the
// eventually invariants no state made true.
func (r *replayer) evalEnd(last int64) {
	for _, inv := range r.o.invariants {
		switch inv.ir.When {
		case ir.AtEnd:
			r.evalOne(inv, last, "", true)
		case ir.Eventually:
			if !r.states[inv].seen && r.found[inv] == nil {
				r.found[inv] = &breach{inv: inv, seq: last}
			}
		}
	}
}

// evalOne evaluates one invariant on the current state (again only if
// force or the changed kind can change its verdict) and records a breach.
func (r *replayer) evalOne(inv *invariant, seq int64, changed string, force bool) {
	st := r.states[inv]
	if b := r.found[inv]; (b != nil && b.err != nil) || st.seen {
		return
	}
	v := r.verdicts[inv]
	if force || v == nil || v.affected(changed) {
		v = r.timed(inv)
		r.verdicts[inv] = v
	}
	broken := v.err != nil
	switch {
	case v.err != nil:
	case inv.ir.When == ir.Eventually:
		st.seen = v.ok
		return
	case inv.ir.When == ir.Never:
		broken = v.ok
	default:
		broken = !v.ok
	}
	if !broken {
		return
	}
	if b := r.found[inv]; b != nil {
		b.states++
		return
	}
	r.found[inv] = &breach{inv: inv, seq: seq, states: 1, err: v.err}
}

// timed evaluates inv on the current state and adds the time it took to
// what the run spent on inv: past the run's budget (celenv.Budget.Run),
// the verdict is a *celenv.BudgetError, and inv is evaluated no more.
func (r *replayer) timed(inv *invariant) *verdict {
	start := time.Now()
	v := evalOne(r.o, inv, r.w)
	r.spent[inv] += time.Since(start)
	if b := inv.prog.Budget(); v.err == nil && r.spent[inv] > b.Run {
		v.err = &celenv.BudgetError{Budget: b, Run: true}
	}
	return v
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
		f := &Finding{Check: CheckInvariant, Invariant: b.inv.ir.Label(), Src: b.inv.ir.Src.String(), Seq: b.seq}
		switch {
		case b.err != nil:
			f.Severity = Low
			f.Message = fmt.Sprintf("invariant %s could not be evaluated at trace entry %d: %v", title(b.inv.ir), b.seq, b.err)
		default:
			f.Message = breachMessage(b)
		}
		if b.inv.refBroken && b.err == nil && !reference {
			f.Severity = Medium
			f.Message += "; the reference run breaks it too"
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// breachMessage says how a breach broke its invariant.
func breachMessage(b *breach) string {
	inv := b.inv.ir
	where := ""
	if w := inv.Between; w != nil {
		where = fmt.Sprintf(" between %s and %s", w.From, w.To)
	}
	states := fmt.Sprintf("(%d %s)", b.states, plural(b.states, "state", "states"))
	switch inv.When {
	case ir.Eventually:
		return fmt.Sprintf("invariant %s (eventually) is true in no state%s", title(inv), where)
	case ir.Never:
		return fmt.Sprintf("invariant %s (never) is true at trace entry %d%s %s", title(inv), b.seq, where, states)
	}
	return fmt.Sprintf("invariant %s is false at trace entry %d%s %s", title(inv), b.seq, where, states)
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

// title names an invariant in a message: its name quoted, or with its
// arguments when it has any: at_most(kind = "pod", n = 3).
func title(inv *ir.Invariant) string {
	if len(inv.Args) == 0 {
		return strconv.Quote(inv.Name)
	}
	return inv.Label()
}
