package oracle

import (
	"fmt"
	"sort"
	"sync"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// Convergence follows the objects whose state differed from the
// reference's end state when a plan run settled. The run goes on after its
// workload and fault, and waits for the controller to repair them before
// it is judged. A repair comes at a resync: the controller's own, or one
// the run provokes by making it list again. Convergence rechecks those
// objects only, each time one of them changes. It is safe for concurrent
// use.
type Convergence struct {
	o  *Oracle
	mu sync.Mutex
	// agrees holds, for each object that differed, whether it agrees with
	// the reference now.
	agrees map[trace.Key]bool
}

// Converge returns the objects of the run so far, t, whose state differs
// from the reference's end state, to follow as the run goes on. It
// returns nil when none differs, and when none is of a kind the
// controller writes (in a reference run or in t). No repair can come from
// it then, and waiting would only slow down a plan with a true finding.
// Objects compared by count (generated names) are not followed.
func (o *Oracle) Converge(t *trace.Trace) (*Convergence, error) {
	test, err := replay(t, o.own)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	c := &Convergence{o: o, agrees: map[trace.Key]bool{}}
	writes := writtenKinds(t)
	repairable := false
	for _, k := range o.endKeys(test) {
		val, present := test.end[k]
		if len(o.compareObject(k, val, present)) > 0 {
			c.agrees[k] = false
			repairable = repairable || o.writes[k.Kind] || writes[k.Kind]
		}
	}
	if !repairable {
		return nil, nil
	}
	return c, nil
}

// Observe rechecks the object of a history entry written after the trace
// Converge was given, if it is one of those that differed.
func (c *Convergence) Observe(e *trace.Entry) {
	if e.Type != trace.History || e.Key == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.agrees[*e.Key]; !ok {
		return
	}
	obj, err := decodeObject(e)
	if err != nil {
		return // the judge reports the malformed entry
	}
	present := e.Event != "DELETED"
	obj = dropOwnEndpoints(*e.Key, obj, c.o.own)
	c.agrees[*e.Key] = len(c.o.compareObject(*e.Key, obj, present)) == 0
}

// Pending returns the objects that differ from the reference now, sorted.
func (c *Convergence) Pending() []trace.Key {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []trace.Key
	for k, ok := range c.agrees {
		if !ok {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// writtenKinds returns the kinds of the objects the controller created,
// changed or deleted in t (its successful write requests).
func writtenKinds(t *trace.Trace) map[string]bool {
	out := map[string]bool{}
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Type == trace.Request && e.Key != nil && writeVerb(e.Verb) && e.Code < 400 {
			out[e.Key.Kind] = true
		}
	}
	return out
}

// writeVerb reports whether an API verb changes objects.
func writeVerb(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// Transient returns the end-state differences of a plan run that did not
// last: those at its converge mark that are gone at its end. The mark is
// the trace's converge start entry, written when the run settled. Each
// difference says how long after the mark its object last changed
// (RepairedAfter). It returns nil for a run without a mark.
func (o *Oracle) Transient(t *trace.Trace) ([]*Finding, error) {
	mark := convergeMark(t)
	if mark == nil {
		return nil, nil
	}
	settled, err := replayUntil(t, o.own, mark.Seq)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	final, err := replay(t, o.own)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	lasting := map[Identity]bool{}
	for _, f := range o.compareEnd(final) {
		lasting[f.Identity()] = true
	}
	changed := lastChanges(t, mark)
	var out []*Finding
	for _, f := range o.compareEnd(settled) {
		if lasting[f.Identity()] {
			continue
		}
		f.RepairedAfter = changed[f.Key]
		f.Message = fmt.Sprintf("repaired %.1fs after the run settled: %s", f.RepairedAfter, f.Message)
		stamp(f, t.Header)
		out = append(out, f)
	}
	Sort(out)
	return out, nil
}

// convergeMark is the converge start entry of t, or nil.
func convergeMark(t *trace.Trace) *trace.Entry {
	for i := range t.Entries {
		if e := &t.Entries[i]; e.Type == trace.Converge && e.What == "start" {
			return e
		}
	}
	return nil
}

// lastChanges returns, per object key (as a finding names it), the seconds
// from mark to its last history entry after it.
func lastChanges(t *trace.Trace, mark *trace.Entry) map[string]float64 {
	out := map[string]float64{}
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Seq > mark.Seq && e.Type == trace.History && e.Key != nil {
			out[e.Key.String()] = e.Time.Sub(mark.Time).Seconds()
		}
	}
	return out
}
