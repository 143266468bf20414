package oracle

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// DefaultLoopBound is how many times one request may fail within one
// operation's stretch of an explored run before the health check calls
// it a loop, when Explored.LoopBound is 0.
const DefaultLoopBound = 20

// Explored is what the oracles of an explored run need besides its trace.
type Explored struct {
	// Resource is the explored custom resource (the seed's object).
	Resource trace.Key
	// Operations are the workload's operations in order: the trace's
	// k-th patch step made the k-th (lang/explore's Workload writes one
	// patch per operation).
	Operations []explore.Operation
	// Steps, when set, are the patch steps that made the operations, one
	// each, in order: the others are no operations (a workload with
	// patches of its own beside an explore step). Nil: every patch step
	// made one.
	Steps []StepID
	// LoopBound is how many times the same request may fail within one
	// operation's stretch. Defaults to DefaultLoopBound.
	LoopBound int
}

// StepID names a workload step as a trace's step entries do: its
// workload and its index there.
type StepID struct {
	Workload string `json:"workload"`
	Index    int    `json:"index"`
}

// stretch is the part of an explored run that one operation owns: from
// the start of its patch step to the start of the next one (the settle
// after it included), or to the end of the trace.
type stretch struct {
	op         int
	start, end int // entry indices, end exclusive
	step       *trace.Entry
	refused    bool // the patch step failed: the API server refused it
	// before and after are the cluster states at start and end.
	before, after map[trace.Key]map[string]any
}

// explored is an explored run prepared for the oracles.
type explored struct {
	// entries are the trace's, aligned (trace.Aligned): a step entry
	// after the history of what the steps saw, so a stretch holds the
	// history its operation's patch caused.
	entries   []trace.Entry
	ex        Explored
	stretches []stretch
	owned     map[trace.Key]bool
	keys      *listKeys
	end       *mask.Matcher
}

// CheckExplored judges an explored run on its own, without a reference:
// consistency (each operation left a trace in an object the controller
// owns, or a problem in the resource's status), rollback (an operation
// that brings the resource back to an earlier state brings its objects
// back too, under opts' masks) and health (no crash, no request failing
// in a loop, every settle quiet). It returns the findings, sorted; it
// fails only on a malformed trace, bad masks, or a trace with more patch
// steps than ex has operations.
func CheckExplored(t *trace.Trace, ex Explored, opts Options) ([]*Finding, error) {
	x, err := prepareExplored(t, ex, opts)
	if err != nil {
		return nil, err
	}
	var fs []*Finding
	fs = append(fs, x.consistency()...)
	fs = append(fs, x.rollback()...)
	fs = append(fs, x.health()...)
	for _, f := range fs {
		stamp(f, t.Header)
	}
	Sort(fs)
	return fs, nil
}

// prepareExplored replays t once, cutting it into stretches.
func prepareExplored(t *trace.Trace, ex Explored, opts Options) (*explored, error) {
	set, err := mask.Compile(opts.Masks)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	r, err := replay(t, ownPredicate(opts))
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	x := &explored{entries: trace.Aligned(t.Entries), ex: ex, keys: newListKeys(r), end: set.For(ir.OracleEnd),
		owned: ownedKeys(t, ex.Resource, ownership(t, ownPredicate(opts)))}
	if x.stretches, err = stretches(x.entries, len(ex.Operations), ex.isOperation); err != nil {
		return nil, err
	}
	return x, nil
}

// isOperation reports whether the patch step entry e made an operation.
func (ex Explored) isOperation(e *trace.Entry) bool {
	return ex.Steps == nil || slices.Contains(ex.Steps, StepID{e.Workload, e.Index})
}

// stretches cuts entries at the start of each patch step that made an
// operation (isOp) and snapshots the cluster state at each cut. A trace
// with more such steps than the n operations is the run of another
// workload.
func stretches(entries []trace.Entry, n int, isOp func(*trace.Entry) bool) ([]stretch, error) {
	if p := patches(entries, isOp); p > n {
		return nil, fmt.Errorf("oracle: trace: %d patch steps, more than the %d operations (the run of another workload, or of other operations)", p, n)
	}
	var out []stretch
	state := map[trace.Key]map[string]any{}
	closeLast := func(i int) {
		if len(out) > 0 {
			s := &out[len(out)-1]
			s.end, s.after = i, maps.Clone(state)
		}
	}
	for i := range entries {
		e := &entries[i]
		switch {
		case e.Type == trace.Step && e.What == "patch" && e.Phase == "start" && isOp(e):
			closeLast(i)
			out = append(out, stretch{op: len(out), start: i, step: e, before: maps.Clone(state)})
		case e.Type == trace.Step && e.What == "patch" && e.Phase == "end" && isOp(e) && e.NoEffect() && len(out) > 0:
			out[len(out)-1].refused = true
		case e.Type == trace.History && e.Key != nil:
			obj, err := decodeObject(e)
			if err != nil {
				return nil, fmt.Errorf("oracle: %w", err)
			}
			if e.Event == "DELETED" {
				delete(state, *e.Key)
			} else {
				state[*e.Key] = obj
			}
		}
	}
	closeLast(len(entries))
	return out, nil
}

// patches counts the patch steps of entries that made operations.
func patches(entries []trace.Entry, isOp func(*trace.Entry) bool) int {
	n := 0
	for i := range entries {
		if e := &entries[i]; e.Type == trace.Step && e.What == "patch" && e.Phase == "start" && isOp(e) {
			n++
		}
	}
	return n
}

// ownedKeys returns the objects the controller owns in t: those whose
// owner references lead to the resource, and those it wrote (created,
// updated, patched or deleted), but the resource itself, leases (leader
// election's, renewed with time) and what isOwn accepts (the controller's
// own pod).
func ownedKeys(t *trace.Trace, res trace.Key, isOwn func(trace.Key, map[string]any) bool) map[trace.Key]bool {
	marked := map[string]bool{}
	owners := map[string]map[string]bool{}
	keys := map[string]trace.Key{}
	out := map[trace.Key]bool{}
	for i := range t.Entries {
		e := &t.Entries[i]
		switch {
		case e.Type == trace.Request && e.Key != nil && e.Key.Name != "" && writes(e.Verb) && e.Code < 400:
			out[*e.Key] = true
		case e.Type == trace.History && e.Key != nil:
			m, ok := metaOf(e.Object)
			if !ok || m.UID == "" {
				continue
			}
			keys[m.UID] = *e.Key
			marked[m.UID] = marked[m.UID] || *e.Key == res
			for _, r := range m.OwnerReferences {
				if owners[m.UID] == nil {
					owners[m.UID] = map[string]bool{}
				}
				owners[m.UID][r.UID] = true
			}
		}
	}
	chain(marked, owners)
	for uid, ok := range marked {
		if ok {
			out[keys[uid]] = true
		}
	}
	for k := range out {
		if k == res || k.Kind == "lease" || isOwn(k, nil) {
			delete(out, k)
		}
	}
	return out
}

// writes reports whether a request verb writes an object.
func writes(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete":
		return true
	}
	return false
}

// describe names operation k and its step for a message.
func (x *explored) describe(s *stretch) string {
	return fmt.Sprintf("operation %d (%s, workload %s step %d)", s.op+1, x.ex.Operations[s.op], s.step.Workload, s.step.Index+1)
}
