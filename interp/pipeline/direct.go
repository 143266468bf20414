package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// directState is one state of an explored sequence that the differential
// oracle applies at once to a fresh cluster.
type directState struct {
	// name is the result's: DirectPlan for the final state, DirectPlan-K
	// for the state after operation K.
	name string
	// ref is the oracle of the reference up to the state.
	ref *oracle.Oracle
	// op is K, the operation whose state it is; 0 for the final state.
	op int
	// upto is the patch step of operation K; nil for the final state.
	upto *oracle.StepID
	// what names the state for a finding ("the state after operation 2
	// (spec.replicas beside 2)"); "" for the final state.
	what string
}

// unit numbers the state's result among the Explore stage's for the shard
// split (Shard.hasExplored): ExploredPlan is exploredUnit (0), DirectPlan
// 1, DirectPlan-K 1+K.
func (st directState) unit() int { return exploredUnit + 1 + st.op }

// describe names the state for a progress line.
func (st directState) describe() string {
	if st.what == "" {
		return "the final state applied at once"
	}
	return st.what + " applied at once"
}

// intermediate is an operation whose state the differential oracle
// applies at once: operation op (operationNumbers), the step that made it,
// and where its stretch ends in the aligned reference entries.
type intermediate struct {
	op        int
	operation explore.Operation
	step      oracle.StepID
	cut       int
}

// directStates are the states the differential oracle runs: the final
// state (DirectPlan), then the intermediate ones each explore step's
// states clause picks (DirectPlan-K, in operation order; intermediates).
// Each comes with an oracle of the reference run up to it, under masks
// and differentialMask.
func directStates(refs *Refs, groups []*exploredGroup, masks []*ir.Mask) ([]directState, error) {
	opts := oracle.Options{Masks: append(slices.Clone(masks), differentialMask()), NoLearn: true, OwnKeys: ownKeys(refs.Test)}
	final, err := oracle.New(refs.Traces[:1], opts)
	if err != nil {
		return nil, err
	}
	states := []directState{{name: DirectPlan, ref: final}}
	ref := refs.Traces[0]
	entries := trace.Aligned(ref.Entries)
	for _, c := range intermediates(entries, groups, final, operationNumbers(refs.Test)) {
		o, err := oracle.New([]*trace.Trace{{Header: ref.Header, Entries: entries[:c.cut]}}, opts)
		if err != nil {
			return nil, err
		}
		states = append(states, directState{name: fmt.Sprintf("%s-%d", DirectPlan, c.op), ref: o, op: c.op, upto: &c.step,
			what: fmt.Sprintf("the state after operation %d (%s)", c.op, c.operation)})
	}
	return states, nil
}

// intermediates picks the intermediate states of directStates from the
// aligned entries of the reference run, whose end final judges; nums
// numbers the operations. Each explored resource's operations are picked
// by the states clause of its explore step (exploredGroup.states), in
// operation order.
func intermediates(entries []trace.Entry, groups []*exploredGroup, final *oracle.Oracle, nums map[oracle.StepID]int) []intermediate {
	var out []intermediate
	for _, g := range groups {
		out = append(out, g.intermediates(entries, final, nums)...)
	}
	slices.SortFunc(out, func(a, b intermediate) int { return a.op - b.op })
	return out
}

// intermediates picks the states after g's operations by its states
// clause: ir.StatesChanged picks, for each property that an operation set
// to a value the final state no longer has (a value changed again, a
// list item added then removed), the state after the last such
// operation; ir.StatesEvery the state after each operation; either at
// most the clause's bound, the first in operation order. A refused
// operation changes no state and is never one.
func (g *exploredGroup) intermediates(entries []trace.Entry, final *oracle.Oracle, nums map[oracle.StepID]int) []intermediate {
	states := g.states()
	bound := states.Bound()
	if bound == 0 {
		return nil
	}
	var out []intermediate
	last := map[string]int{} // property → index in out
	end, _ := final.End(g.ex.Resource)
	for j, op := range g.ex.Operations {
		cut, ok := stateCut(entries, g.ex.Steps[j])
		if !ok || states.Rule == ir.StatesChanged && keeps(end, op) {
			continue
		}
		c := intermediate{op: nums[g.ex.Steps[j]], operation: op, step: g.ex.Steps[j], cut: cut}
		prop := op.Path.String()
		if i, seen := last[prop]; seen && states.Rule == ir.StatesChanged {
			out[i] = c
			continue
		}
		last[prop] = len(out)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b intermediate) int { return a.op - b.op })
	if bound > 0 && len(out) > bound {
		out = out[:bound]
	}
	return out
}

// stateCut returns where the stretch of the operation that step made ends
// in entries: at the start of the first step after it and its settle, or
// at the end. Not ok when the step did not end or the API server refused it.
func stateCut(entries []trace.Entry, step oracle.StepID) (int, bool) {
	ended := false
	for i := range entries {
		e := &entries[i]
		if e.Type != trace.Step || e.Workload != step.Workload {
			continue
		}
		switch {
		case !ended && e.Index == step.Index && e.Phase == "end":
			if e.NoEffect() {
				return 0, false
			}
			ended = true
		case ended && e.Phase == "start" && e.Index != step.Index+1:
			return i, true
		}
	}
	return len(entries), ended
}

// keeps reports whether the final state of a resource (nil when it is
// gone) still has the value operation op set: the same value at its path,
// or none for an operation that removes one.
func keeps(final map[string]any, op explore.Operation) bool {
	v, ok := op.Path.Lookup(final)
	if op.Value == nil {
		return !ok
	}
	a, err1 := json.Marshal(v)
	b, err2 := json.Marshal(op.Value)
	return ok && err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// operationNumbers numbers the explored operations of test t from 1, in
// the order of its workloads' steps, by the patch step that makes each.
func operationNumbers(t *ir.Test) map[oracle.StepID]int {
	nums := map[oracle.StepID]int{}
	for _, w := range t.Workloads {
		for i, s := range w.Steps {
			if s.Explored != nil {
				nums[oracle.StepID{Workload: w.Name, Index: i}] = len(nums) + 1
			}
		}
	}
	return nums
}

// exploredOperations describes the explored operations of test t for
// explored.json, numbered by operationNumbers, with the answer of the API
// server to those it refused in run ref.
func exploredOperations(t *ir.Test, ref *trace.Trace) []results.Operation {
	refused := map[oracle.StepID]string{}
	for i := range ref.Entries {
		e := &ref.Entries[i]
		if answer, ok := e.Refusal(); ok {
			refused[oracle.StepID{Workload: e.Workload, Index: e.Index}] = answer
		}
	}
	var out []results.Operation
	for _, w := range t.Workloads {
		for i, s := range w.Steps {
			if x := s.Explored; x != nil {
				id := oracle.StepID{Workload: w.Name, Index: i}
				r := trace.Key{Kind: x.Resource.Kind, Namespace: x.Resource.Namespace, Name: x.Resource.Name}
				out = append(out, results.Operation{Operation: len(out) + 1, Resource: r.String(), Path: x.Path, Change: x.Change,
					Value: x.Value, Step: id, Src: s.Src.String(), Refused: refused[id]})
			}
		}
	}
	return out
}

// directDescription is explored.json of the differential run of st: the
// operations up to its state (ops, numbered as st.op), and each explored
// resource's fields applied at once.
func directDescription(groups []*exploredGroup, st directState, ops []results.Operation, rerun string) *results.Explored {
	desc := &results.Explored{After: st.op, Rerun: rerun}
	for _, op := range ops {
		if st.op == 0 || op.Operation <= st.op {
			desc.Operations = append(desc.Operations, op)
		}
	}
	sets := seedSets(groups, st.ref)
	for _, g := range groups {
		fields := map[string]any{}
		for _, f := range sets[g.seed] {
			if f.Only != nil && f.Only.Kind == g.ex.Resource.Kind && f.Only.Name == g.ex.Resource.Name && f.Only.Namespace == g.ex.Resource.Namespace {
				fields[f.Path] = f.Value
			}
		}
		if len(fields) > 0 {
			desc.Applied = append(desc.Applied, results.Applied{Resource: g.ex.Resource.String(), Fields: fields})
		}
	}
	return desc
}
