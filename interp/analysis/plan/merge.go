package plan

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// Operation is one explored operation of a reference run (a patch step an
// explore step expanded into, ir.Step.Explored) and what merging made of
// it (Set.Operations). Operations whose controller reaction has the same
// shape are merged: the fault patterns make plans in the first of them
// only (see reactionShape).
type Operation struct {
	// Number is the operation's place among the run's operations, from 1.
	Number int `json:"number"`
	// What is the operation: its property, change and value.
	What string `json:"what"`
	// Refused says the API server refused its patch: it changed nothing
	// and is merged with none.
	Refused bool `json:"refused,omitempty"`
	// MergedInto is the operation whose plans stand for this one's (0:
	// none, it has plans of its own).
	MergedInto int `json:"mergedInto,omitempty"`
}

// Merged counts the operations merged into another.
func Merged(ops []Operation) int {
	n := 0
	for _, op := range ops {
		if op.MergedInto != 0 {
			n++
		}
	}
	return n
}

// MergeNotes says, one line each, which operations were merged into which:
// their plans are left out.
func MergeNotes(ops []Operation) []string {
	var out []string
	for _, op := range ops {
		if op.MergedInto != 0 && op.MergedInto <= len(ops) {
			out = append(out, fmt.Sprintf("explored operation %d (%s) merged into operation %d (%s): the controller reacted to both alike, so its plans are left out (the merged pass)",
				op.Number, op.What, op.MergedInto, ops[op.MergedInto-1].What))
		}
	}
	return out
}

// operation is an explored operation of the reference trace and the
// stretch of the trace it owns: from the start of its patch step to the
// start of the step after the settle that follows it (or the end).
type operation struct {
	Operation
	step       stepID
	resource   trace.Key
	first, end int64 // sequence numbers, end exclusive (0: the trace's end)
	shape      string
}

// holds reports whether the entry numbered seq lies in op's stretch.
func (op *operation) holds(seq int64) bool {
	return op.span().holds(seq)
}

// span is op's stretch of the trace, as a Set keeps it.
func (op *operation) span() opStretch {
	return opStretch{number: op.Number, first: op.first, end: op.end}
}

// operations finds the explored operations of the reference trace, in
// order, and merges those whose reaction has the same shape.
func (g *generator) operations() []*operation {
	steps := exploredSteps(g.test)
	var out []*operation
	for i := range g.tr.Entries {
		e := &g.tr.Entries[i]
		if e.Type != trace.Step {
			continue
		}
		if last := lastOf(out); last != nil && last.end == 0 && e.Phase == "start" && !ownStep(last, e) {
			last.end = e.Seq
		}
		s, ok := steps[stepID{e.Workload, e.Index}]
		_, refused := e.Refusal()
		switch {
		case !ok || e.What != "patch":
		case e.Phase == "start":
			op := &operation{Operation: Operation{Number: len(out) + 1, What: describeOp(s)}, step: stepID{e.Workload, e.Index}, first: e.Seq,
				resource: trace.Key{Kind: s.Resource.Kind, Namespace: s.Resource.Namespace, Name: s.Resource.Name}}
			out = append(out, op)
		case refused && len(out) > 0:
			out[len(out)-1].Refused = true
		}
	}
	for _, op := range out {
		op.shape = g.reactionShape(op)
	}
	merge(out)
	return out
}

// stepID names a workload step as the trace's step entries do.
type stepID struct {
	workload string
	index    int
}

// exploredSteps are the operations of t's explore steps, by step.
func exploredSteps(t *ir.Test) map[stepID]*ir.Operation {
	out := map[stepID]*ir.Operation{}
	for _, w := range t.Workloads {
		for i, s := range w.Steps {
			if s.Explored != nil {
				out[stepID{w.Name, i}] = s.Explored
			}
		}
	}
	return out
}

// ownStep reports whether step entry e is op's patch step or the settle
// after it (the next step of its workload).
func ownStep(op *operation, e *trace.Entry) bool {
	return e.Workload == op.step.workload && (e.Index == op.step.index || e.Index == op.step.index+1)
}

// describeOp says what an operation does, as sieve explore prints it.
func describeOp(o *ir.Operation) string {
	op, err := explore.FromIR(o)
	if err != nil {
		return o.Path + " " + o.Change
	}
	return op.String()
}

// lastOf is the last operation of ops, nil for none.
func lastOf(ops []*operation) *operation {
	if len(ops) == 0 {
		return nil
	}
	return ops[len(ops)-1]
}

// merge marks each operation that was not refused as merged into the
// first earlier one, not refused, of the same shape.
func merge(ops []*operation) {
	first := map[string]int{}
	for _, op := range ops {
		if op.Refused {
			continue
		}
		if n, ok := first[op.shape]; ok {
			op.MergedInto = n
			continue
		}
		first[op.shape] = op.Number
	}
}

// exported returns the generator's operations as the Set reports them,
// and their stretches.
func (g *generator) exported() ([]Operation, []opStretch) {
	out := make([]Operation, len(g.ops))
	stretches := make([]opStretch, len(g.ops))
	for i, op := range g.ops {
		out[i], stretches[i] = op.Operation, op.span()
	}
	return out, stretches
}

// reactionShape is the shape of the controller's reaction to op: each
// write it made in op's stretch and each watch event delivered to it
// there (what the fault patterns make plans of), and each call to its
// application, in the order of the trace per stream and object (the
// order across objects, or of a write and its own watch event, is a race
// the next run may lose). A write or event is its verb, subresource,
// whether it succeeded, and the paths its diff changed, values aside;
// for the explored resource, the fields the operation changes (its spec)
// are left out, so that operations on different properties the
// controller reacts to alike have the same shape. An object with a
// generated name counts by kind and namespace. A call is its channel,
// object and method.
func (g *generator) reactionShape(op *operation) string {
	groups := map[string][]string{} // each stream and object's shapes, in trace order
	for _, stream := range [][]*item{g.ix.writes, g.ix.deliveries} {
		for _, it := range stream {
			if op.holds(it.seq()) {
				k := string(it.Stream) + " " + g.shapeKey(it.Key)
				groups[k] = append(groups[k], g.itemShape(it, op.resource))
			}
		}
	}
	for _, c := range g.appCalls() {
		if op.holds(c.entry.Seq) {
			k := "call " + g.shapeKey(g.callKey(c))
			groups[k] = append(groups[k], c.Channel+" "+c.Method)
		}
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		b.WriteString(k + "\n  " + strings.Join(groups[k], "\n  ") + "\n")
	}
	return b.String()
}

// shapeKey is an object as a reaction's shape names it: a generated name
// by its kind and namespace only.
func (g *generator) shapeKey(k trace.Key) string {
	if g.ix.generated[k] {
		return k.Kind + "/" + k.Namespace + "/*"
	}
	return k.String()
}

// itemShape is the shape of a write or delivered event (reactionShape).
func (g *generator) itemShape(it *item, resource trace.Key) string {
	return fmt.Sprintf("%s %s ok=%t %s", it.Verb, it.Subresource, it.OK(), diffShape(it.Diff, it.Key == resource))
}

// diffShape is the paths a slim diff changes, values aside, as canonical
// JSON; without the fields an operation changes (explore.Explores) when
// operated is set.
func diffShape(d *planfile.Diff, operated bool) string {
	if d.Empty() {
		return ""
	}
	top := func(m map[string]any) any {
		out := map[string]any{}
		for k, v := range m {
			if !operated || !explore.Explores(k) {
				out[k] = valueShape(v)
			}
		}
		return out
	}
	return planfile.Canonical([2]any{top(d.Prev), top(d.Cur)})
}

// valueShape is v with every scalar replaced by null: its paths only.
func valueShape(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = valueShape(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = valueShape(e)
		}
		return out
	}
	return nil
}

// mergedPass drops the candidates made of a trace entry in the stretch of
// an operation merged into another: that one's candidates stand for them.
func (g *generator) mergedPass() pass {
	return pass{name: PassMerged, on: true,
		keep: func(c *candidate) bool { _, op := g.mergedItem(c); return op == nil },
		why: func(c *candidate) string {
			seq, op := g.mergedItem(c)
			return fmt.Sprintf("#%d is in operation %d (%s), merged into operation %d (%s): the controller reacted to both alike",
				seq, op.Number, op.What, op.MergedInto, g.ops[op.MergedInto-1].What)
		}}
}

// mergedItem returns a trace entry candidate c is made of that lies in a
// merged operation's stretch, and that operation (nil: none does).
func (g *generator) mergedItem(c *candidate) (int64, *operation) {
	seqs := []int64{seqOf(c.event), seqOf(c.write), seqOf(c.back)}
	if c.call != nil {
		seqs = append(seqs, c.call.entry.Seq)
	}
	for _, seq := range seqs {
		if op := g.opAt(seq); op != nil && op.MergedInto != 0 {
			return seq, op
		}
	}
	return 0, nil
}

// opAt returns the operation whose stretch holds the entry numbered seq,
// nil for none. The stretches are in trace order and do not overlap.
func (g *generator) opAt(seq int64) *operation {
	i := sort.Search(len(g.ops), func(i int) bool { return g.ops[i].first > seq }) - 1
	if i < 0 || !g.ops[i].holds(seq) {
		return nil
	}
	return g.ops[i]
}
