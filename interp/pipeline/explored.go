package pipeline

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sievetool/sieve/interp/analysis/oracle"
	"github.com/sievetool/sieve/interp/analysis/plan"
	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/explore"
	"github.com/sievetool/sieve/lang/ir"
)

// The results of the Explore stage, written as plans are (plans/NAME/
// result.json) so that the report, result.json and the exit status count
// their findings like any others.
const (
	// ExploredPlan is the reference run judged by the explored-run
	// oracles (consistency, rollback, health).
	ExploredPlan = "explored"
	// DirectPlan is the differential run: the explored resource's final
	// state applied at once. DirectPlan-K is that of the state after
	// operation K (directStates).
	DirectPlan = "explored-direct"
)

// exploredGroup is the operations of one explored resource in a test's
// workloads, and the seed apply step they follow.
type exploredGroup struct {
	ex   oracle.Explored
	seed *ir.Step
}

// states is the states clause of g's explore step, which its seed's
// apply step carries (the default rule when it has none).
func (g *exploredGroup) states() ir.States {
	if g.seed == nil || g.seed.States == nil {
		return ir.States{}
	}
	return *g.seed.States
}

// exploredGroups gathers the explored patch steps of t's workloads (those
// an explore step expanded into) by resource, in order.
func exploredGroups(t *ir.Test) ([]*exploredGroup, error) {
	var out []*exploredGroup
	byKey := map[trace.Key]*exploredGroup{}
	for _, w := range t.Workloads {
		for i, s := range w.Steps {
			if s.Explored == nil {
				continue
			}
			r := s.Explored.Resource
			k := trace.Key{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
			g := byKey[k]
			if g == nil {
				g = &exploredGroup{ex: oracle.Explored{Resource: k}, seed: seedStep(w.Steps[:i], s.Src)}
				byKey[k] = g
				out = append(out, g)
			}
			op, err := explore.FromIR(s.Explored)
			if err != nil {
				return nil, err
			}
			g.ex.Operations = append(g.ex.Operations, op)
			g.ex.Steps = append(g.ex.Steps, oracle.StepID{Workload: w.Name, Index: i})
		}
	}
	return out, nil
}

// seedStep is the apply of the seed an explore step (at src) expanded
// into, among the steps before its first operation.
func seedStep(before []*ir.Step, src fmt.Stringer) *ir.Step {
	for i := len(before) - 1; i >= 0; i-- {
		if s := before[i]; s.Kind == ir.StepApply && s.Src.String() == src.String() {
			return s
		}
	}
	return nil
}

// Explore is the stage of a test whose workloads explore (explore steps):
// it judges the first reference run with the explored-run oracles
// (oracle.CheckExplored, under the test's and the learned masks) and runs
// the differential oracle: more runs, on env's first worker, each
// applying at once a state the sequence reached (the final state, and
// the intermediate ones directStates picks) and settling, its end state
// compared with the reference's at that state (oracle.CheckDifferential).
// It writes the results, ExploredPlan, DirectPlan and DirectPlan-K, to
// out and returns them; each is a unit of the shard split
// (Shard.hasExplored), run only in its part. None for a test that explores
// nothing.
func Explore(ctx context.Context, env Env, refs *Refs, out results.Layout, shard Shard) ([]*results.Result, error) {
	groups, err := exploredGroups(refs.Test)
	if err != nil || len(groups) == 0 {
		return nil, err
	}
	masks := exploreMasks(refs)
	ops := exploredOperations(refs.Test, refs.Traces[0])
	rerun := results.ExploreRerun(env.Spec, refs.Test.Name)
	var rs []*results.Result
	if shard.hasExplored(refs.Test.Name, exploredUnit) {
		if err := copyDir(out.ReferenceDir(1), out.PlanDir(ExploredPlan)); err != nil { // its trace, as a plan's
			return nil, fmt.Errorf("explored run: %w", err)
		}
		judged, err := judgeExplored(refs, groups, masks, out, &results.Explored{Operations: ops, Rerun: rerun})
		if err != nil {
			return nil, err
		}
		env.progressf("explored: %d findings of the explored-run oracles", len(judged.Findings))
		rs = append(rs, judged)
	}
	states, err := directStates(refs, groups, masks)
	if err != nil {
		return rs, err
	}
	for _, st := range states {
		if !shard.hasExplored(refs.Test.Name, st.unit()) {
			continue
		}
		r, err := runDirect(ctx, env, refs, groups, st, out, directDescription(groups, st, ops, rerun))
		if err != nil {
			return rs, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// exploredUnit numbers ExploredPlan among the Explore stage's results for
// the shard split (directState.unit numbers the others).
const exploredUnit = 0

// exploreMasks are the masks the Explore stage judges through: the
// test's and those learned from its reference runs.
func exploreMasks(refs *Refs) []*ir.Mask {
	return append(slices.Clone(refs.Masks.Oracle), &ir.Mask{Name: "learned", Rules: refs.Oracle.Learned()})
}

// ExploreUnits returns the numbers of the results the Explore stage makes
// for refs' test, as the shard split counts them (Shard.hasExplored):
// ExploredPlan's, then DirectPlan's and each DirectPlan-K's, the states
// directStates picks from the first reference run. None for a test that
// explores nothing.
func ExploreUnits(refs *Refs) ([]int, error) {
	groups, err := exploredGroups(refs.Test)
	if err != nil || len(groups) == 0 {
		return nil, err
	}
	states, err := directStates(refs, groups, exploreMasks(refs))
	if err != nil {
		return nil, err
	}
	units := []int{exploredUnit}
	for _, st := range states {
		units = append(units, st.unit())
	}
	return units, nil
}

// judgeExplored judges the first reference run with CheckExplored, per
// explored resource, and writes the result with desc.
func judgeExplored(refs *Refs, groups []*exploredGroup, masks []*ir.Mask, out results.Layout, desc *results.Explored) (*results.Result, error) {
	ref := refs.Traces[0]
	r := exploreResult(refs.Test.Name, ExploredPlan)
	for _, g := range groups {
		fs, err := oracle.CheckExplored(ref, g.ex, oracle.Options{Masks: masks, OwnKeys: ownKeys(refs.Test)})
		if err != nil {
			return nil, err
		}
		r.Findings = append(r.Findings, fs...)
	}
	oracle.Sort(r.Findings)
	return r, writeJudged(out, r, desc)
}

// exploreResult is a passed result, so far without findings, of an
// explored workload's check plan.
func exploreResult(test, plan string) *results.Result {
	return &results.Result{Test: test, Plan: plan, Pattern: results.ExplorePattern,
		Dir: results.PlanRel(plan), Status: results.Passed, Findings: []*oracle.Finding{}, Started: time.Now()}
}

// writeJudged writes r, failed if it has findings, to out, with desc (what
// it ran) beside it; its findings' reproduce command is desc's.
func writeJudged(out results.Layout, r *results.Result, desc *results.Explored) error {
	if len(r.Findings) > 0 && r.Status == results.Passed {
		r.Status = results.Failed
	}
	for _, f := range r.Findings {
		f.Reproduce = desc.Rerun
	}
	if err := results.WriteExplored(out, r.Plan, desc); err != nil {
		return err
	}
	return results.WriteResult(out, r)
}

// ExploredCounts returns how many operations test t's explore steps
// generated, and how many of them the API server refused in trace ref (a
// run of t).
func ExploredCounts(t *ir.Test, ref *trace.Trace) (generated, refused int) {
	ops := exploredOperations(t, ref)
	for _, op := range ops {
		if op.Refused != "" {
			refused++
		}
	}
	return len(ops), refused
}

// exploredCounts counts the operations of test t's explore steps in its
// reference trace ref, with those merged among ops (plan.Set.Operations);
// nil for a test that explores nothing.
func exploredCounts(t *ir.Test, ref *trace.Trace, ops []plan.Operation) *results.ExploredCounts {
	generated, refused := ExploredCounts(t, ref)
	if generated == 0 {
		return nil
	}
	return &results.ExploredCounts{Generated: generated, Refused: refused, Run: generated - refused, Merged: plan.Merged(ops)}
}

// runDirect runs the differential oracle on state st: the test with each
// explored resource's seed applied with st's state and no operations,
// compared with the reference at st. desc says what it runs.
func runDirect(ctx context.Context, env Env, refs *Refs, groups []*exploredGroup, st directState, out results.Layout, desc *results.Explored) (*results.Result, error) {
	t, properties := directTest(refs.Test, groups, st.ref, st.upto)
	r := exploreResult(refs.Test.Name, st.name)
	env.progressf("explored: the differential run of %s (%s)", st.describe(), st.name)
	res, err := env.Workers[0].Execute(ctx, session.Run{Test: t, BaseDir: env.BaseDir, Dir: out.PlanDir(st.name),
		Header: trace.Header{Test: t.Name, Spec: env.Spec, Run: 1}})
	if err != nil {
		return nil, withDiskFull(fmt.Errorf("differential run %s: %w", st.name, err))
	}
	r.Timing = res.Timing()
	r.Seconds = time.Since(r.Started).Seconds()
	tr, err := trace.Read(res.Trace)
	if err != nil {
		return nil, err
	}
	if res.WorkloadErr != nil {
		r.Status, r.Error = results.Errored, fmt.Sprintf("differential run: %v", res.WorkloadErr)
		return r, writeJudged(out, r, desc)
	}
	if r.Findings, err = st.ref.CheckDifferential(tr, properties, st.what); err != nil {
		return nil, err
	}
	return r, writeJudged(out, r, desc)
}

// directTest returns t with its explored patch steps (and the settle
// after each) left out and each explored resource's seed applied with
// the fields of its state at the end of o's reference (all but apiVersion,
// kind, metadata and status), and the explored properties the operations
// changed. A resource gone at the end keeps its seed as it was. With upto,
// the patch step of an operation, the steps after it are left out too (o's
// reference then ends at the state after it).
func directTest(t *ir.Test, groups []*exploredGroup, o *oracle.Oracle, upto *oracle.StepID) (*ir.Test, []string) {
	sets := seedSets(groups, o)
	var properties []string
	out := *t
	out.Workloads = nil
	for _, w := range t.Workloads {
		dw := *w
		dw.Steps = nil
		for i, s := range w.Steps {
			switch {
			case upto != nil && w.Name == upto.Workload && i > upto.Index:
				out.Workloads = append(out.Workloads, &dw)
				return &out, properties
			case s.Explored != nil:
				if !slices.Contains(properties, s.Explored.Path) {
					properties = append(properties, s.Explored.Path)
				}
				continue
			case s.Kind == ir.StepSettle && i > 0 && w.Steps[i-1].Explored != nil:
				continue
			case sets[s] != nil:
				c := *s
				c.Set = append(slices.Clone(s.Set), sets[s]...)
				s = &c
			}
			dw.Steps = append(dw.Steps, s)
		}
		out.Workloads = append(out.Workloads, &dw)
	}
	return &out, properties
}

// seedSets are the fields each explored resource's seed step is applied
// with: those of the resource's state at the end of o's reference (all but
// apiVersion, kind, metadata and status). A resource absent then keeps its
// seed as it was.
func seedSets(groups []*exploredGroup, o *oracle.Oracle) map[*ir.Step][]ir.FieldSet {
	sets := map[*ir.Step][]ir.FieldSet{}
	for _, g := range groups {
		final, ok := o.End(g.ex.Resource)
		if !ok || g.seed == nil {
			continue
		}
		only := ir.Ref{Kind: g.ex.Resource.Kind, Namespace: g.ex.Resource.Namespace, Name: g.ex.Resource.Name}
		for _, name := range sortedFields(final) {
			sets[g.seed] = append(sets[g.seed], ir.FieldSet{Path: ir.Path{ir.FieldElem(name)}.String(), Value: final[name], Only: &only})
		}
	}
	return sets
}

// sortedFields are the top-level fields of obj that an explored
// operation may change, sorted.
func sortedFields(obj map[string]any) []string {
	var out []string
	for k := range obj {
		if explore.Explores(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// differentialMask masks what differs between an object changed by a
// sequence of operations and one made at once, whatever the controller
// does: the generation a change bumps, and the observed generations that
// follow it.
func differentialMask() *ir.Mask {
	return &ir.Mask{Name: "differential", Rules: []*ir.MaskRule{
		{Key: "generation"},
		{Path: "status.observedGeneration"},
		{Path: "status.conditions[*].observedGeneration"},
	}}
}
